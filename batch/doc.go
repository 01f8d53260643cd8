// Package batch provides Batch, the hierarchical named-tensor tree of gorl:
// Tianshou's Batch in Go, with every behaviour of Tianshou's Batch
// tutorials (where the older and the newer disagree, the newer).
//
// # Overview
//
// A [Batch] maps keys to values: *nd.Array (numbers become 0-d arrays,
// lists become arrays, mixed lists Object arrays), nested *Batch (an empty
// one reserves a key), custom [Leaf] values such as distributions, nil
// (None), and scalars that are not numbers (strings and other Go values,
// kept as they are). Batches are built from key, value pairs ([New],
// [NewCopy]), maps ([FromMap]) or lists of rows ([FromRows]); read by key or
// key path ("obs.camera": [Batch.Get], [Batch.Array], [Batch.Batch],
// [Values]); changed with [Batch.Set], [Batch.Update], [Batch.Delete];
// walked in insertion order ([Batch.Keys], [Batch.Items]) or by rows
// ([Batch.Rows]: iterating a Batch walks rows, not keys).
//
// As a whole a Batch is indexed with nd's index forms ([Batch.Index]:
// b[0], b[:10], b[idx], b[:, 1], masks), assigned through an index
// ([Batch.SetIndex], [Batch.SetRow]), gathered ([Take], [TakeTo] into a
// destination made by [ZerosLike] or [ZerosStacked]), joined ([Stack],
// [Cat], [StackTo], [CatTo]) and split ([Batch.Split]); its arrays take
// part in arithmetic ([Add], [Batch.Add], …) and reductions ([Mean], [Sum],
// [Min], [Max]); it is reset ([Empty]), checked for missing values
// ([Batch.IsNull], [Batch.HasNull], [Batch.DropNull]), transformed
// ([Apply]), converted ([AsType], [ToAtLeast2D]), compared ([Equal]),
// copied ([Batch.Clone]), printed ([Batch.String]) and encoded
// ([Batch.MarshalBinary]).
//
// Functions return new Batches and leave their arguments alone; a method of
// the same name changes its receiver (Add and Batch.Add, Stack and
// Batch.Stack, Cat and Batch.Cat, Apply and Batch.Apply, AsType and
// Batch.AsType, Empty and Batch.Empty). Functions whose first argument is a
// destination end in To.
//
// # Transition keys
//
// The keys of the transition schema that collectors, buffers, policies and
// algorithms share are constants ([KeyObs], [KeyAct], [KeyRew],
// [KeyObsNext], [KeyReturns], …, each documented with what it holds and
// who writes it). A component reads the keys it needs with [Batch.Array]
// or [Batch.Get] and returns an error naming a missing one.
//
// # Invariants
//
//   - Keys are non-empty strings without [Sep] (".") and keep insertion
//     order; a key path names nested keys, "obs.camera".
//   - A stored value is never a Go slice or map: New, Set, Update, Apply and
//     SetIndex convert them (see New for the rules).
//   - Len is the minimum length of axis 0 over arrays and custom leaves;
//     reserved keys, nil and nested Batches without arrays are ignored, a
//     scalar is an error naming its key, and a Batch with no array has
//     length 0. Shape is the per-axis minimum, [] when a scalar, nil or
//     reserved key is present.
//   - Bad data (values that cannot be joined, missing keys, a scalar without
//     length, corrupt encodings) is returned as an *[Error] whose Path names
//     the key; programmer errors (a destination of the wrong structure, an
//     index out of range) panic with an *Error or nd's *Error, as documented
//     on each function.
//   - A failed in-place operation leaves the Batch unchanged (Add and the
//     other arithmetic methods, Apply, AsType, Empty, Stack, Cat,
//     UnmarshalBinary), except where its documentation says otherwise
//     (SetIndex and SetRow when nd rejects a value after earlier keys were
//     written; StackTo and CatTo).
//
// # Aliasing
//
// New, Set and Update store arrays, Batches and custom leaves by reference:
// writes through the caller's array change the Batch (as in Tianshou); Go
// slices are converted, so copied. NewCopy and Clone copy every array.
// Index with basic indices (integers, ranges) returns VIEWS of arrays:
// writes through them change the original; with fancy indices (Ints,
// masks) the arrays are copies. A custom leaf is indexed by its own Index,
// which may copy (a tensor does unless the selection is contiguous). So
// Tianshou's data[:, 1] += 6 is written as Python runs it, read, modify,
// write back: sub := data.Index(idx...); sub.Add(6); data.SetIndex(sub,
// idx...), which changes arrays and ArrayLeaf values alike;
// data.Index(idx...).Add(6) changes only what Index made views of. Rows
// yields views. ToAtLeast2D returns views or the same arrays. Take, Stack,
// Cat, DropNull, the arithmetic functions and reductions return new
// arrays; Split's pieces are views of one new copy of the source's rows.
// TakeTo, StackTo, CatTo, SetIndex, SetRow and the in-place methods write
// into existing arrays. Get, Array, Batch and Values return the stored
// values themselves.
//
// The nodes, entries and array headers of a result of Index, Take or
// Split (all of Split's pieces together) share a few allocations, and so
// do the small arrays that Take and Index with Ints copy: while any of
// them is reachable, all of that result's small memory stays allocated
// (Clone a part to keep it alone). Arrays of 32 KiB or more have buffers
// of their own.
//
// # Custom leaves
//
// Any value implementing [Leaf] (batch shape, Index, Stack, Cat) is
// indexed, stacked and concatenated with the Batch; Leaf's documentation
// lists how custom leaves behave under every other operation. A leaf that
// is also an [ArrayLeaf] (its values as a writable nd array, such as an
// autodiff tensor) takes part in the in-place operations: arithmetic,
// SetIndex, SetRow and Empty.
//
// # Encoding
//
// MarshalBinary writes, and UnmarshalBinary reads, this little-endian
// layout (uvarint and varint are encoding/binary's variable-length
// integers):
//
//	file    = "GRLB" version:u8(=1) batch
//	batch   = count:uvarint (key value)*count
//	key     = len:uvarint bytes            non-empty, without "."
//	value   = 0x00                         nil
//	        | 0x01 batch                   nested Batch (count 0: reserved)
//	        | 0x02 array
//	        | 0x03 len:uvarint bytes       string
//	array   = dtype:u8 ndim:uvarint dim:uvarint*ndim data
//	data    = bool: one byte 0 or 1 per element; int8…uint64, float32,
//	          float64: the elements in C order, little-endian, at their size;
//	          object: elem per element in C order
//	elem    = 0 nil | 1 false | 2 true | 3 int:varint | 4 int8:1 byte
//	        | 5 int16:2 | 6 int32:4 | 7 int64:8 | 8 uint:uvarint
//	        | 9 uint8:1 | 10 uint16:2 | 11 uint32:4 | 12 uint64:8
//	        | 13 float32:4 | 14 float64:8 | 15 len:uvarint bytes (string)
//	        | 16 n:uvarint elem*n ([]any)
//	        | 17 n:uvarint (len:uvarint bytes elem)*n (map[string]any,
//	          keys sorted)
//	        | 18 array (*nd.Array)
//
// dtype is nd.DType's value (Bool = 1 … Float64 = 11, Object = 12). Keys
// and map keys keep their order (map keys are written sorted), so a Batch
// always encodes to the same bytes. Decoding checks every count and length
// against the bytes that remain before allocating, nesting is limited to
// 100 levels and arrays to 64 axes; the result must be followed by no
// trailing bytes. There is no checksum: files that embed the encoding
// (replay-buffer files) add their own.
//
// # Decisions
//
//   - Keys are looked up by a linear scan over a slice that also keeps the
//     insertion order, with a position hint where two trees are walked
//     together (TakeTo, Equal, Stack): RL batches hold fewer than ~16 keys,
//     and among so few a scan is faster than a map[string]int, which would
//     also need a second structure for the order.
//   - A small Batch is allocated with its entries in one allocation
//     (newBatch): slicing the flat benchmark batch went from 12 to 10
//     allocations per call and indexing it with ints from 19 to 17; the
//     rest were nd's arrays.
//   - Index, Take and Split build their result in two passes over the
//     source: count its nodes, entries and arrays, then make them from one
//     allocation of nodes, one of entries (a single node: one for both)
//     and one nd.Block for the arrays (headers, shapes, small buffers).
//     This cut the allocations of each call to a handful and made Index,
//     Take and Split faster (Slice's time did not change). The price is
//     that parts of a result keep each other's small memory allocated (see
//     Aliasing). What is left is mostly the allocation itself, in
//     proportion to the bytes returned: BenchmarkAllocFloor allocates the
//     same bytes in one make, and it alone takes about as long as the
//     targets of 20× the Python reference allow, so those targets are out
//     of reach while the results are new memory; the Python reference
//     reuses freed memory at once (reference counting), which a
//     garbage-collected heap does not. TakeTo into a reused destination is
//     the allocation-free path.
//   - Split draws its permutation as rand.Rand.Perm does (the same
//     numbers, so a seed gives the same pieces), in a loop instead of
//     Perm's call through a closure per element.
//   - New keeps one allocation per Batch it makes: building the Batches of
//     map values from shared slabs (halving the allocations for the nested
//     benchmark batch) and sorting map entries on the stack measured no
//     faster, so the simple code stays. Most of New's time on map values is
//     Go's map iteration.
//   - Errors name key paths built on the way back up from the failing leaf,
//     not on the way down: building "obs.camera" while descending cost one
//     allocation per key visited (New from key, value pairs made 10
//     allocations instead of 2, and TakeTo of a nested Batch allocated).
//   - Numbers become 0-d arrays and print as array(4), as Tianshou's newer
//     Batch tutorial prints them (the older prints 4). A mixed list keeps
//     each element's Go value in an Object array, as the newer tutorial
//     does, so ('a', -2, -3) is array(['a', -2, -3], dtype=object), not
//     numpy's strings.
//   - A nested list ragged in its first inner axis becomes a 1-d Object
//     array of arrays, as numpy makes it with dtype=object and Tianshou
//     keeps it, rather than an error. Elements that share that axis and
//     differ in a later one (shapes (3, 2) and (3, 3)) are refused, as
//     Tianshou refuses them: no 1-d Object array describes them, and such
//     data in a Batch is almost always a mistake. A list that mixes
//     sequences with other values (strings, nil) keeps its elements.
//   - Go maps have no order, so FromMap and map values take their keys
//     sorted; New takes ordered key, value pairs. Tianshou's printouts list
//     stacked keys in set order; here keys come in order of first
//     appearance.
//   - Len ignores a nested Batch that holds no array (Tianshou counts it as
//     length 0, which makes Batch(a=[1, 2, 3], b=Batch(x=None)) of length
//     0); it is consistent with "nil is ignored" and "no array gives 0".
//   - Cat requires the same keys at every level (Tianshou's newer Batch), but
//     a key reserved in some batches and holding arrays in others is padded
//     with zeros over those batches' lengths: a reserved key promises a value
//     of any shape, and Tianshou pads it so. Stack pads missing keys, as
//     Tianshou does, with zeros of the promoted dtype of the present values
//     (Tianshou uses the first value's dtype and then casts unsafely).
//   - nil is None: ignored by Len, kept by Index, Take, Cat (nil in all
//     stays nil) and arithmetic; Stack makes an Object array of None, as
//     np.stack does; IsNull marks it missing, so DropNull drops every row
//     of a Batch holding nil, as Tianshou does.
//   - Split's pieces share no memory with the source, as Tianshou's fancy
//     indexing copies, so a piece can be changed without touching the
//     source; the rows are gathered once when iteration starts and each
//     piece is a view of that copy (a gather per piece made 516
//     allocations for 32 pieces of the flat benchmark batch; one gather
//     and views made 340, and 13 with all pieces built from one tree).
//     The permutation is drawn from the injected rand.Rand when Split is
//     called.
//   - Index of a Batch without keys returns an empty Batch (Tianshou raises
//     IndexError); Index of a scalar leaf panics with ErrIndex, as numpy
//     does for a 0-d array.
//   - In-place arithmetic checks every leaf first (shapes with
//     nd.BroadcastShapes, dtypes and scalar values by running the operation
//     on 0-d arrays), so a failure leaves the Batch unchanged; SetIndex
//     checks keys and value kinds before writing but leaves nd's value
//     checks to nd, so an array nd rejects after others were written is
//     reported, not undone.
//   - SetRow exists beside SetIndex because nd's SetIndex makes a view
//     (one allocation) per array, while nd's SetRow does not: replay
//     buffers store a transition with no allocation.
//   - TakeTo panics on a destination of another structure (a programmer
//     error, like nd.TakeTo); StackTo and CatTo return errors for inputs
//     that disagree with the destination (data from environments) and
//     panic, through nd, for a destination of the wrong shape.
//   - Rows returns an error with the iterator because a Batch holding a
//     scalar has no rows; the nested-Batch accessor is Batch(path), because
//     Sub is subtraction.
//   - Custom leaves are treated as immutable values (NewCopy and Clone keep
//     them), compared by an optional Equal method, and refused where they
//     cannot take part (Empty, arithmetic, AsType, encoding) rather than
//     dropped or replaced by None as Tianshou does.
//   - In-place operations reach custom leaves through one optional
//     interface, ArrayLeaf (the leaf's values as an nd array sharing its
//     memory), rather than through more Leaf methods: the array is what
//     nd already knows how to change, and leaves that cannot offer it
//     (distributions) stay refused. data[:, 1] += 6 is a read, add and
//     write back, as Python runs it, and not writes through views: a
//     tensor's x[:, 1] cannot be a view (tensors are contiguous), so a
//     view-based form would silently miss the tensor. An ArrayLeaf may
//     return nil to refuse (a tensor requiring gradients, whose in-place
//     change would bypass its tape). The function Empty still refuses
//     ArrayLeaf values: its copy would share the leaf (Clone keeps
//     leaves), so resetting it would change the original.
//   - Empty turns a string or other scalar into nil, as Tianshou's empty_
//     does.
//   - Tianshou's BatchProtocol classes have no typed views
//     here: the keys are constants and each component reads the keys it
//     needs. Protocols are static hints in Python, never checked; views
//     checked at run time required every key of a protocol, so they
//     refused batches the algorithms read correctly (a buffer that stored
//     no info, DQN's Machin-style batches of obs, act and returns), and a
//     view per reader's key set would be a second way to read a batch.
//     docs/design.md gives the trial and its measurements.
package batch
