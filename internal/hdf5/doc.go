// Package hdf5 is a thin binding to the HDF5 C library (1.10, serial), limited
// to what replay-buffer files need: groups, whole-array datasets of numbers,
// bools and strings, and attributes, stored the way h5py stores numpy arrays
// so that files move freely between gorl and Tianshou's save_hdf5/load_hdf5.
//
// # Overview
//
// The binding uses cgo and is compiled only with the build tag hdf5 (and cgo
// enabled); it links the system library through pkg-config ("hdf5", as in
// Debian's libhdf5-dev). Without the tag the package still compiles, without
// cgo, and every entry point returns ErrUnsupported:
//
//	go test -tags hdf5 ./internal/hdf5/
//
// A File comes from Create (new or truncated, read-write) or Open
// (read-only) and must be closed. File.Root gives the root group; groups
// create and open member groups, write and read datasets, and list members.
// Groups and datasets carry attributes (SetAttr, Attr, AttrNames). The
// package knows nothing of gorl's array types: data moves as flat Go slices
// in row-major order plus a shape.
//
// Types on disk, chosen to be exactly what h5py writes for the numpy dtype:
//
//	Go          HDF5 type written                      numpy / h5py
//	bool        enum over native int8 {FALSE=0, TRUE=1} bool
//	intN, uintN little-endian integer of N bits           intN, uintN
//	float32/64  little-endian IEEE float                  float32, float64
//	string      variable-length string, UTF-8            h5py.string_dtype()
//
// Reading also accepts big-endian numbers, enums whose members are exactly
// FALSE and TRUE, ASCII strings and fixed-length strings (see
// Group.ReadDataset), and datasets compressed with deflate (gzip), as h5py
// writes with compression="gzip". Anything else gives an error wrapping
// ErrDatatype that names the dataset and its HDF5 class: compound, enum,
// float16, references, arrays, opaque, bitfield, time, variable-length
// sequences. Tianshou pickles object arrays into int8 datasets; this package
// reads those as []int8 and leaves their meaning to the caller.
//
// Dataspaces: a 0-d scalar is written and read with shape []int{} (len(data)
// = 1); empty arrays (a zero dimension) are written and read like any other
// array. A null dataspace (h5py.Empty) is refused when reading.
//
// # Invariants
//
//   - A Group or Dataset is an object path inside an open File; it holds no
//     HDF5 identifier. Every call opens what it needs and closes every
//     identifier (types, dataspaces, property lists, datasets, groups,
//     attributes) before returning, on success and on error. Close checks
//     this and reports an internal error if anything was left open.
//   - Every HDF5 return value is checked. Errors come from HDF5's error
//     stack, whose automatic printing to stderr is turned off; the message
//     is the outermost description followed by the innermost one (the
//     cause) in parentheses, e.g. "unable to open file (file signature not
//     found)".
//   - Calls into HDF5 are serialized by a package mutex (the serial library
//     is not thread-safe) and run with the goroutine locked to its OS
//     thread, so the error stack is read on the thread that filled it. All
//     types are safe for concurrent use.
//   - No Go pointer is stored in C memory. Go slices are passed to HDF5 only
//     for the duration of a call; strings are copied into C memory.
//     Variable-length strings read by HDF5 are copied into Go strings and
//     their C memory reclaimed (H5Dvlen_reclaim).
//   - Names of groups, datasets and attributes created here are valid UTF-8
//     and flagged as UTF-8, as h5py does. Member names cannot be empty, ".",
//     or contain '/' or NUL; strings written cannot contain NUL (HDF5 stores
//     C strings) and must be valid UTF-8 (they are declared UTF-8).
//
// # Aliasing
//
// WriteDataset and SetAttr copy their input: the caller may reuse it as soon
// as they return. ReadDataset and Attr return new slices that share nothing
// with HDF5 or with earlier results.
//
// # Errors
//
// Failures are returned as *Error, naming the operation, the file and the
// object. errors.Is matches fs.ErrNotExist for a missing file, member or
// attribute, fs.ErrClosed for use after File.Close, and ErrDatatype for an
// unsupported Go type or HDF5 datatype. Nothing in this package panics on
// bad input or bad files.
//
// # Untrusted files
//
// Reading a file never runs code from outside the process and never reads
// other files: HDF5's dynamic filter plugins are disabled for the process,
// soft and external links are listed (KindLink) but never followed, and
// datasets with external storage and virtual datasets are refused. A read
// allocates at most what the file stores for the dataset or attribute
// (never counted as more than the file's size) plus 16 MiB, with the stored
// size taken 1100 times for filtered (compressed) datasets, since deflate
// expands at most 1032-fold; a dataset claiming more elements than that is
// refused before anything is allocated. The 16 MiB let small datasets that
// were created but never written read as their fill value.
//
// # Damaged files
//
// A truncated file is refused by Open. Files created here use the HDF5 1.8
// file format, whose metadata (superblock, object headers, heaps and
// B-trees of new-style groups) carries checksums, so damaged structure is
// reported as an error. Two things are not protected, and there HDF5 1.10
// itself can crash the process or hang instead of returning an error: the
// global heap, where variable-length strings live (no HDF5 version
// checksums it), and all metadata of files in the pre-1.8 format, which
// h5py and most HDF5 writers produce by default. Measured by damaging one
// byte at a time and reading everything in a child process: a Go-written
// file without strings, every one of its 2471 bytes: no crash (1724
// refused, the rest read, damage having hit raw numbers); a Go-written file
// with string datasets and attributes, every 7th of 6611 bytes: 7 crashes
// and 2 hangs, all in the global heap or in the heap references of a string
// dataset; an h5py-written file, every 3rd of 8611 bytes: 11 crashes and 2
// hangs. These are bugs of the C library (many are CVEs, fixed piecemeal in
// later releases) that no binding can catch; files from untrusted sources
// should be read in a separate process.
//
// # Decisions
//
//   - Groups and datasets are paths, not open identifiers. A handle can then
//     never leak, needs no Close, and dies with its File; the cost is that
//     each call opens and closes its object, a small cost beside creating,
//     writing and closing a file (the CPU profile is almost all inside
//     HDF5). Buffer files are written and read once per save or load, so
//     this is not a hot path.
//   - The untagged build has no stub file: the cgo file installs the
//     library at init, and every entry point checks for it. Input checks
//     and the mapping of attributes are plain Go shared by both builds and
//     tested in both.
//   - Files are written in the HDF5 1.8 format (libver bounds v18 to v18)
//     rather than HDF5's default earliest format: the checksums turn
//     damaged metadata into errors instead of crashes (measurements above),
//     and every HDF5 since 1.8.0 (2008), so every h5py in use, reads it.
//   - Datasets are written contiguous and uncompressed: the simplest layout
//     every reader handles, and replay-buffer columns of numbers compress
//     poorly. Reading handles chunked and deflate-compressed datasets.
//   - Members and attribute names come in HDF5's name order (ascending
//     bytes), the one order every group has; creation order is tracked only
//     if the writer asked for it (h5py's track_order).
//   - An integer dataset is never turned into bools on reading, even with
//     values 0 and 1: whether that column is a bool is the caller's schema,
//     not the file's. Enum values other than FALSE and TRUE are an error,
//     never a Go bool holding another byte.
//   - Attr widens every integer to int64 and float32 to float64, so callers
//     switch over four scalar and four slice types whatever wrote the file;
//     an uint64 that does not fit is an error rather than a wrapped value.
//   - SetAttr replaces an attribute by deleting and recreating it (HDF5
//     cannot change an attribute's type or shape in place); a failure in
//     between leaves the attribute absent, which a reader notices, rather
//     than a stale value.
//   - Dynamic filter plugins are disabled process-wide at first use
//     (H5PLset_loading_state(0)): a file must not make the process load a
//     shared library. Deflate, shuffle and Fletcher-32 are built in and
//     still work; h5py's own LZF filter is not available here anyway.
package hdf5
