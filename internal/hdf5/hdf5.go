package hdf5

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// ErrUnsupported is returned by every entry point when the package was built
// without the hdf5 build tag or without cgo: the HDF5 library is not linked in.
var ErrUnsupported = errors.New("hdf5: built without the hdf5 build tag (or without cgo)")

// ErrDatatype is wrapped by errors about a value this package cannot store or
// load: a Go type WriteDataset or SetAttr does not accept, or an HDF5 datatype
// (compound, reference, half-precision float, ...) ReadDataset or Attr cannot
// return. The message names the Go type or the HDF5 class.
var ErrDatatype = errors.New("unsupported datatype")

// errNotFound reports a missing group member or attribute. errors.Is matches it
// against fs.ErrNotExist, so callers test one sentinel for missing files and
// missing objects alike.
var errNotFound notFound

type notFound struct{}

func (notFound) Error() string        { return "no such object" }
func (notFound) Is(target error) bool { return target == fs.ErrNotExist }

// Error is the error returned for a failed operation on a file or on an object
// inside it. Err is the cause: a message taken from HDF5's error stack,
// fs.ErrClosed, an error matching fs.ErrNotExist, or an error wrapping
// ErrDatatype.
type Error struct {
	Op     string // what was attempted, e.g. "read dataset" or `set attribute "maxsize" of`
	File   string // the file's path on disk
	Object string // the object's path inside the file ("/" is the root group); "" for file operations
	Err    error
}

func (e *Error) Error() string {
	if e.Object == "" {
		return "hdf5: " + e.Op + " " + e.File + ": " + e.Err.Error()
	}
	return "hdf5: " + e.Op + " " + e.Object + " in " + e.File + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Kind is the kind of a group member.
type Kind int

const (
	KindGroup    Kind = iota + 1 // a group
	KindDataset                  // a dataset
	KindDatatype                 // a named (committed) datatype
	KindLink                     // a soft or external link; this package never follows one
)

func (k Kind) String() string {
	switch k {
	case KindGroup:
		return "group"
	case KindDataset:
		return "dataset"
	case KindDatatype:
		return "named datatype"
	case KindLink:
		return "soft or external link"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Member is one entry of a group.
type Member struct {
	Name string
	Kind Kind
}

// elem is the element type of a slice this package moves to or from HDF5.
// The cgo layer relies on this order (see gorl_new_type).
type elem int

const (
	elemBool elem = iota
	elemInt8
	elemInt16
	elemInt32
	elemInt64
	elemUint8
	elemUint16
	elemUint32
	elemUint64
	elemFloat32
	elemFloat64
	elemString
)

// elemOf returns the element type and length of data, or ok == false when data
// is not one of the supported slice types.
func elemOf(data any) (e elem, n int, ok bool) {
	switch d := data.(type) {
	case []bool:
		return elemBool, len(d), true
	case []int8:
		return elemInt8, len(d), true
	case []int16:
		return elemInt16, len(d), true
	case []int32:
		return elemInt32, len(d), true
	case []int64:
		return elemInt64, len(d), true
	case []uint8:
		return elemUint8, len(d), true
	case []uint16:
		return elemUint16, len(d), true
	case []uint32:
		return elemUint32, len(d), true
	case []uint64:
		return elemUint64, len(d), true
	case []float32:
		return elemFloat32, len(d), true
	case []float64:
		return elemFloat64, len(d), true
	case []string:
		return elemString, len(d), true
	}
	return 0, 0, false
}

// library is the HDF5 C library as this package uses it; it is nil when the
// package is built without the hdf5 tag or without cgo. Paths are absolute
// object paths inside the file. Every method is called with mu held, on a
// goroutine locked to its OS thread, after prepare.
type library interface {
	// prepare initializes the library on first use and silences HDF5's
	// automatic printing of errors on the calling thread.
	prepare() error
	create(path string) (file int64, err error)
	open(path string) (file int64, err error)
	closeFile(file int64) error
	createGroup(file int64, path string) error
	// kind reports the kind of the object at path without following links;
	// it returns errNotFound if there is none.
	kind(file int64, path string) (Kind, error)
	members(file int64, path string) ([]Member, error)
	writeDataset(file int64, path string, data any, shape []int) error
	readDataset(file int64, path string) (data any, shape []int, err error)
	setAttr(file int64, obj, name string, data any, shape []int) error
	// attr returns errNotFound if obj has no attribute name.
	attr(file int64, obj, name string) (data any, shape []int, err error)
	attrNames(file int64, obj string) ([]string, error)
}

var (
	lib library
	// mu serializes every call into HDF5: the serial library is not thread-safe.
	mu sync.Mutex
)

// call runs fn with mu held on a goroutine locked to its OS thread, so that
// HDF5's error stack (per thread in a thread-safe build) is read on the thread
// that filled it.
func call(fn func() error) error {
	mu.Lock()
	defer mu.Unlock()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := lib.prepare(); err != nil {
		return err
	}
	return fn()
}

// File is an open HDF5 file. Its methods and those of its groups and datasets
// are safe for concurrent use; calls into HDF5 are serialized.
type File struct {
	path     string
	id       int64 // HDF5 file identifier; valid while open
	open     bool  // guarded by mu
	writable bool
}

// Create creates the file at path for writing, truncating an existing file.
// The caller must Close it; data may not reach the disk before Close.
func Create(path string) (*File, error) {
	return openFile("create", path, true)
}

// Open opens the HDF5 file at path read-only. A missing file gives an error
// matching fs.ErrNotExist; a file that is not HDF5 gives an error saying so.
// The caller must Close it.
func Open(path string) (*File, error) {
	if lib == nil {
		return nil, ErrUnsupported
	}
	if _, err := os.Stat(path); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &Error{Op: "open", File: path, Err: err}
	}
	return openFile("open", path, false)
}

func openFile(op, path string, write bool) (*File, error) {
	if lib == nil {
		return nil, ErrUnsupported
	}
	if path == "" || strings.IndexByte(path, 0) >= 0 {
		return nil, &Error{Op: op, File: path, Err: errors.New("empty path or path with a NUL byte")}
	}
	f := &File{path: path, writable: write}
	err := call(func() error {
		var err error
		if write {
			f.id, err = lib.create(path)
		} else {
			f.id, err = lib.open(path)
		}
		f.open = err == nil
		return err
	})
	if err != nil {
		return nil, &Error{Op: op, File: path, Err: err}
	}
	return f, nil
}

// Path returns the path the file was created or opened with.
func (f *File) Path() string { return f.path }

// Close flushes and closes the file. Closing a closed file, or a zero File,
// does nothing and returns nil. After Close every method of the file's groups
// and datasets returns an error matching fs.ErrClosed.
func (f *File) Close() error {
	if lib == nil {
		return nil
	}
	err := call(func() error {
		if !f.open {
			return nil
		}
		f.open = false
		return lib.closeFile(f.id)
	})
	if err != nil {
		return &Error{Op: "close", File: f.path, Err: err}
	}
	return nil
}

// Root returns the file's root group, "/".
func (f *File) Root() *Group {
	return &Group{object{file: f, path: "/"}}
}

// object is a group or dataset of an open file, named by its absolute path.
// It holds no HDF5 identifier: each operation opens and closes what it uses.
type object struct {
	file *File
	path string
}

// Path returns the object's absolute path inside its file, e.g. "/obs/rgb".
func (o *object) Path() string { return o.path }

// do runs fn with the file's HDF5 identifier under the package lock and wraps
// its error in an *Error naming op and the object at path.
func (f *File) do(op, path string, fn func(file int64) error) error {
	if lib == nil {
		return ErrUnsupported
	}
	var fileName string
	if f != nil {
		fileName = f.path
	}
	err := call(func() error {
		if f == nil || !f.open {
			return fs.ErrClosed
		}
		return fn(f.id)
	})
	if err != nil {
		return &Error{Op: op, File: fileName, Object: path, Err: err}
	}
	return nil
}

// child returns the absolute path of the member name of o.
func (o *object) child(name string) string {
	if o.path == "/" {
		return "/" + name
	}
	return o.path + "/" + name
}

// Group is a group of an open file. The zero Group is not usable: get groups
// from File.Root, CreateGroup and OpenGroup.
type Group struct{ object }

// Dataset is a dataset of an open file, used to read and write its
// attributes. Get one from WriteDataset or OpenDataset.
type Dataset struct{ object }

// checkName reports whether name can name a group member: not empty, not ".",
// without '/' or NUL. Names of new members must also be valid UTF-8, since they
// are stored flagged as UTF-8.
func checkName(name string, create bool) error {
	switch {
	case name == "" || name == ".":
		return fmt.Errorf("invalid member name %q", name)
	case strings.ContainsAny(name, "/\x00"):
		return fmt.Errorf("member name %q contains '/' or a NUL byte", name)
	case create && !utf8.ValidString(name):
		return fmt.Errorf("member name %q is not valid UTF-8", name)
	}
	return nil
}

// checkAttrName reports whether name can name an attribute: not empty, without
// NUL, valid UTF-8 when the attribute is being written.
func checkAttrName(name string, create bool) error {
	switch {
	case name == "" || strings.IndexByte(name, 0) >= 0:
		return fmt.Errorf("invalid attribute name %q", name)
	case create && !utf8.ValidString(name):
		return fmt.Errorf("attribute name %q is not valid UTF-8", name)
	}
	return nil
}

// maxRank is HDF5's limit on the number of dimensions (H5S_MAX_RANK).
const maxRank = 32

// checkData validates what WriteDataset and SetAttr are given: a supported
// slice type, a shape whose product is the slice length, and strings HDF5 can
// store as UTF-8 C strings.
func checkData(data any, shape []int) error {
	e, n, ok := elemOf(data)
	if !ok {
		return fmt.Errorf("%w: Go type %T", ErrDatatype, data)
	}
	if len(shape) > maxRank {
		return fmt.Errorf("shape %v has more than %d dimensions", shape, maxRank)
	}
	size := 1
	for _, d := range shape {
		if d < 0 {
			return fmt.Errorf("shape %v has a negative dimension", shape)
		}
		if d != 0 && size > math.MaxInt/d {
			return fmt.Errorf("shape %v has more elements than an int can count", shape)
		}
		size *= d
	}
	if size != n {
		return fmt.Errorf("shape %v holds %d elements but the data has %d", shape, size, n)
	}
	if e == elemString {
		for i, s := range data.([]string) {
			if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
				return fmt.Errorf("string %d (%q) is not valid UTF-8 or contains a NUL byte", i, s)
			}
		}
	}
	return nil
}

// CreateGroup creates the group name inside g. It fails if g already has a
// member of that name or the file is read-only.
func (g *Group) CreateGroup(name string) (*Group, error) {
	c := &Group{object{file: g.file, path: g.child(name)}}
	err := g.file.do("create group", c.path, func(file int64) error {
		if err := checkName(name, true); err != nil {
			return err
		}
		return lib.createGroup(file, c.path)
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// OpenGroup returns the group name inside g. A missing member gives an error
// matching fs.ErrNotExist; a member that is not a group (links included: they
// are not followed) gives an error naming its kind.
func (g *Group) OpenGroup(name string) (*Group, error) {
	c := &Group{object{file: g.file, path: g.child(name)}}
	err := g.file.do("open group", c.path, func(file int64) error {
		return expectKind(file, c.path, name, KindGroup)
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// OpenDataset returns the dataset name inside g, for its attributes. Errors
// are as for OpenGroup.
func (g *Group) OpenDataset(name string) (*Dataset, error) {
	d := &Dataset{object{file: g.file, path: g.child(name)}}
	err := g.file.do("open dataset", d.path, func(file int64) error {
		return expectKind(file, d.path, name, KindDataset)
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// expectKind checks that name is a valid member name and that the object at
// path, the member name of a group, exists and has kind want.
func expectKind(file int64, path, name string, want Kind) error {
	if err := checkName(name, false); err != nil {
		return err
	}
	k, err := lib.kind(file, path)
	if err != nil {
		return err
	}
	if k != want {
		return fmt.Errorf("is a %v, not a %v", k, want)
	}
	return nil
}

// Members lists the members of g in ascending byte-wise order of their names
// (HDF5's name index; creation order is not tracked by default).
func (g *Group) Members() ([]Member, error) {
	var ms []Member
	err := g.file.do("list members of", g.path, func(file int64) error {
		var err error
		ms, err = lib.members(file, g.path)
		return err
	})
	return ms, err
}

// WriteDataset creates the dataset name inside g holding data with the given
// shape (row-major, C order) and returns it. data is one of []bool, []int8,
// []int16, []int32, []int64, []uint8, []uint16, []uint32, []uint64, []float32,
// []float64 or []string, and len(data) must equal the product of shape; an
// empty shape (nil or []int{}) stores a 0-d scalar of one element, and
// zero-length dimensions are allowed.
//
// Stored types are those h5py uses for the same numpy dtypes: bool as an enum
// over int8 {FALSE=0, TRUE=1}; integers and floats as little-endian types of
// the same width; strings as variable-length UTF-8 strings (valid UTF-8
// without NUL bytes, else an error). The dataset is contiguous and
// uncompressed. An existing member of the same name, an unsupported type
// (wrapping ErrDatatype), a shape mismatch or a read-only file give an error,
// and then no dataset is left behind. The data is copied: the caller may reuse
// it when WriteDataset returns.
func (g *Group) WriteDataset(name string, data any, shape []int) (*Dataset, error) {
	d := &Dataset{object{file: g.file, path: g.child(name)}}
	err := g.file.do("write dataset", d.path, func(file int64) error {
		if err := checkName(name, true); err != nil {
			return err
		}
		if err := checkData(data, shape); err != nil {
			return err
		}
		return lib.writeDataset(file, d.path, data, shape)
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// ReadDataset reads the whole dataset name inside g. It returns a new slice
// of one of the types WriteDataset accepts, and the dataset's shape ([]int{}
// for a 0-d scalar). HDF5 types map as follows: integers of 1, 2, 4 or 8 bytes
// (either byte order) to the Go integer of that width and signedness; floats
// of 4 and 8 bytes to float32 and float64; an enum with exactly the members
// FALSE and TRUE (h5py's bool) to []bool; variable-length and fixed-length
// strings (ASCII or UTF-8) to []string, fixed-length ones cut at the first NUL
// (null-padded or null-terminated) or with trailing spaces removed
// (space-padded). A plain integer dataset is returned as integers, never as
// bools: converting is the caller's decision. Strings are returned as stored,
// without checking that they are valid UTF-8.
//
// Any other datatype, a null dataspace (h5py.Empty), a dataset stored in
// external files or a virtual dataset gives an error naming the dataset and
// the reason (wrapping ErrDatatype for datatypes). So does a dataset whose
// size is not backed by the bytes the file stores for it (see the package
// documentation), and a bool enum holding a value other than FALSE or TRUE.
// A missing member gives an error matching fs.ErrNotExist.
func (g *Group) ReadDataset(name string) (data any, shape []int, err error) {
	p := g.child(name)
	err = g.file.do("read dataset", p, func(file int64) error {
		if err := expectKind(file, p, name, KindDataset); err != nil {
			return err
		}
		var err error
		data, shape, err = lib.readDataset(file, p)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return data, shape, nil
}

// SetAttr sets the attribute name of the object to v, replacing an existing
// attribute of that name. v is an int64, float64, string, bool (stored as 0-d
// scalars, as h5py stores a Python int, float, str or bool) or an []int64,
// []float64, []string or []bool (stored as 1-d arrays). Types are stored as
// WriteDataset stores them. Any other type gives an error wrapping
// ErrDatatype. If writing fails after an existing attribute was removed, the
// attribute is absent, never half-written.
func (o *object) SetAttr(name string, v any) error {
	return o.file.do("set attribute "+strconv.Quote(name)+" of", o.path, func(file int64) error {
		if err := checkAttrName(name, true); err != nil {
			return err
		}
		data, shape, err := attrData(v)
		if err != nil {
			return err
		}
		if err := checkData(data, shape); err != nil {
			return err
		}
		return lib.setAttr(file, o.path, name, data, shape)
	})
}

// Attr returns the value of the attribute name of the object. A 0-d
// attribute is returned as an int64, float64, string or bool, a 1-d one as an
// []int64, []float64, []string or []bool: integers of any width are widened
// to int64 (an uint64 above math.MaxInt64 is an error), float32 to float64.
// HDF5 types map as in ReadDataset. A missing attribute gives an error
// matching fs.ErrNotExist; an attribute of two or more dimensions or of an
// unsupported type gives an error.
func (o *object) Attr(name string) (any, error) {
	var v any
	err := o.file.do("read attribute "+strconv.Quote(name)+" of", o.path, func(file int64) error {
		if err := checkAttrName(name, false); err != nil {
			return err
		}
		data, shape, err := lib.attr(file, o.path, name)
		if err != nil {
			return err
		}
		v, err = attrValue(data, shape)
		return err
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// AttrNames lists the names of the object's attributes in ascending byte-wise
// order.
func (o *object) AttrNames() ([]string, error) {
	var names []string
	err := o.file.do("list attributes of", o.path, func(file int64) error {
		var err error
		names, err = lib.attrNames(file, o.path)
		return err
	})
	return names, err
}

// attrData turns an attribute value into the slice and shape stored for it.
func attrData(v any) (data any, shape []int, err error) {
	switch v := v.(type) {
	case int64:
		return []int64{v}, []int{}, nil
	case float64:
		return []float64{v}, []int{}, nil
	case string:
		return []string{v}, []int{}, nil
	case bool:
		return []bool{v}, []int{}, nil
	case []int64, []float64, []string, []bool:
		_, n, _ := elemOf(v)
		return v, []int{n}, nil
	}
	return nil, nil, fmt.Errorf("%w: Go type %T for an attribute", ErrDatatype, v)
}

// attrValue turns a slice read from an attribute into the value Attr returns.
func attrValue(data any, shape []int) (any, error) {
	if len(shape) > 1 {
		return nil, fmt.Errorf("attribute has shape %v; only 0-d and 1-d attributes are supported", shape)
	}
	var s any
	switch d := data.(type) {
	case []bool, []string, []int64, []float64:
		s = d
	case []float32:
		s = widen[float64](d)
	case []int8:
		s = widen[int64](d)
	case []int16:
		s = widen[int64](d)
	case []int32:
		s = widen[int64](d)
	case []uint8:
		s = widen[int64](d)
	case []uint16:
		s = widen[int64](d)
	case []uint32:
		s = widen[int64](d)
	case []uint64:
		for _, x := range d {
			if x > math.MaxInt64 {
				return nil, fmt.Errorf("uint64 attribute value %d does not fit an int64", x)
			}
		}
		s = widen[int64](d)
	}
	if len(shape) == 1 {
		return s, nil
	}
	return reflect.ValueOf(s).Index(0).Interface(), nil
}

// widen converts every element of s to T, exactly.
func widen[T int64 | float64, S int8 | int16 | int32 | uint8 | uint16 | uint32 | uint64 | float32](s []S) []T {
	out := make([]T, len(s))
	for i, x := range s {
		out[i] = T(x)
	}
	return out
}
