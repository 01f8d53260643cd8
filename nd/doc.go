// Package nd provides n-dimensional host arrays of any dtype, the numpy of
// gorl.
//
// # Overview
//
// An [Array] holds elements of one [DType] (bool, int8…int64, uint8…uint64,
// float32, float64, or Object for arbitrary Go values with nil as None) in a
// backing buffer, seen through a shape and strides counted in elements.
// Arrays are built from Go values with [New] (a copy) or [FromSlice] (a
// reference), or with [Zeros], [Full] and [Arange]; they are indexed per
// axis with [Index] values (numpy's basic and advanced indexing), assigned
// through an index with broadcasting ([Array.SetIndex], [CopyTo],
// [Array.SetRow]), gathered by rows ([Take], [TakeTo]), joined ([Stack],
// [Concatenate]) and converted ([Array.AsType]). [DTypeOf] gives the dtype
// of a Go element type. Arrays print as numpy's repr ([Array.String]); [Repr]
// prints one Go value as Python's repr (the form of Object elements, and of
// the strings in a printed Batch). A [Block] makes the arrays of an operation that
// indexes many arrays at once (every array of a Batch) from a few
// allocations.
//
// # Invariants
//
//   - A DType never changes after an array is made; shape and strides are
//     fixed too (reshaping makes a new header).
//   - Typing follows numpy 2: [ResultType] promotes dtypes, [CanCast] is
//     the "same_kind" rule. Writing into an existing array (SetIndex,
//     CopyTo, SetRow, StackTo, ConcatenateTo) never casts across kinds
//     downwards: a float into an int array is an error, not a truncation.
//     Go values are checked by value (an int that fits a uint8 array may be
//     written into it).
//   - Bad data (ragged input, shapes that do not broadcast, casts that are
//     not allowed) returns an error; programmer errors (an index out of
//     range, a destination of the wrong shape) panic. Both carry an [*Error]
//     wrapping one of ErrShape, ErrIndex, ErrCast, ErrDType, ErrValue.
//   - Arrays hold no locks: any number of goroutines may read an array, but
//     writes (through any view of the same buffer) need the caller's
//     synchronization.
//
// # Aliasing
//
// Views share memory with the array they come from: basic indexing
// (integers, ranges, NewAxis, Ellipsis), Reshape of a contiguous array,
// Transpose, BroadcastTo, ExpandDims and Squeeze. Writes through a view are
// writes into the original. Copies: fancy indexing (Ints, IntArray, Mask,
// MaskArray), Take, Copy, AsType, Stack, Concatenate, New. FromSlice and
// Data expose the caller's or the array's own slice without copying.
// Assignments read the source before writing when source and destination
// share a buffer, so a[1:] = a[:-1] works as in numpy. Sharing is detected
// by backing buffer: two FromSlice arrays over overlapping parts of one Go
// slice are not recognized as overlapping. StackTo and ConcatenateTo need
// inputs that do not share memory with the destination. A BroadcastTo view
// repeats elements with stride 0 and must not be written to. Arrays made
// from one Block share its allocations (not their elements): while one is
// reachable, the headers and small buffers of all stay allocated.
//
// # Allocation
//
// A view costs one allocation (the header, with room for the shape and
// strides of up to four dimensions); a new array costs two (header and
// data). A Block makes k views in two allocations (headers; shapes and
// strides) and k gathers in up to four (and numeric, Object elements),
// elements of 32 KiB or more apart. TakeTo, SetRow, CopyTo, StackTo,
// ConcatenateTo, in-place arithmetic with an array of the same dtype, and
// HasNull do not allocate (locked by AllocsPerRun tests).
//
// # Decisions
//
//   - Storage is an unsafe.Pointer to the first element of a typed Go slice
//     ([]float32, []any, …) plus its length, not an `any` holding the slice:
//     boxing the slice header would cost a third allocation per new array.
//     The pointer keeps the typed allocation alive and scanned, so Object
//     arrays are GC-safe.
//   - Data movement (copy, Take, fancy indexing, Stack) dispatches once per
//     call on the element size (1, 2, 4, 8 bytes, or `any`), so twelve
//     dtypes share five kernels; arithmetic and conversions are generic
//     functions instantiated per dtype, with the operation chosen once per
//     contiguous run.
//   - Take copies rows of 1, 2 or 4 elements as fixed-size arrays instead
//     of calling copy: on CartPole's (64, 4) float32 rows this more than
//     halved TakeTo's time, to the speed of a hand-written loop of copy
//     calls with constant lengths.
//     Longer rows use copy (memmove). The kernels take offsets and strides
//     as arguments (read from the headers inside the loop they are
//     reloaded after every store, which might have changed them) and run
//     without a branch per row when no row is negative; the rows are
//     checked first with one maximum over uint(row) (a negative row is a
//     huge uint), a maximum kept in four accumulators so that the loop
//     does not wait on one; Batch's TakeTo gained most from it.
//   - Large gathers (Take, Stack and Concatenate along axis 0 of
//     contiguous inputs of one dtype, Copy) fill a new buffer of 32 KiB or
//     more made by bytes.Join, the standard library's only allocation that
//     is not zeroed first (make always zeroes, and zeroing a large buffer
//     before overwriting it cost about as much as the copy). Such buffers
//     are large objects, which Go's allocator places on page boundaries,
//     so they are aligned for every dtype (checked anyway). The Batch Cat
//     of image transitions came close to joining the same bytes into new
//     memory, which stays slower than copying into reused memory because
//     new memory is not in the caches (figures in docs/design.md).
//   - Block exists because an allocating operation's cost here is mostly the
//     allocation, in proportion to its bytes: allocating the 4.5 KB that
//     indexing the flat benchmark Batch with 64 rows returns costs most of
//     the operation by itself (Go zeroes new memory, which is not in the
//     caches, and the garbage collector, busy when a benchmark allocates
//     continuously, charges allocations with marking work and pointer writes
//     with barriers). So a Block cuts allocations (BenchmarkBlock: seven
//     views in two allocations instead of seven, seven gathers in three
//     instead of fourteen) rather than adding a pool: results escape to the
//     caller, whose lifetime nd cannot know. Shapes and strides come from
//     their own slab of ints: carved from the element words instead they made
//     the flat gather's buffer cross a size class and the Batch index slower;
//     headers with the shape inline in one slab made views faster and gathers
//     slower by as much. Elements of 32 KiB or more are not put in the shared
//     slab, so keeping a small array of a result alive does not keep a large
//     buffer allocated through the slab (though its header still does).
//   - A Block checks the rows of a gather once for all arrays of the same
//     length (the rows must not change while it is in use), which made
//     indexing the flat Batch faster.
//   - A Block copied by mistake is reported by go vet's copylocks check (a
//     noCopy field), at no run-time cost; a self-pointer check like
//     strings.Builder's made every Block escape to the heap.
//   - Block has no Stack or Concatenate: the Batch Stack and Cat of the
//     flat benchmark data spend their time copying many small rows (StackTo,
//     which allocates nothing, takes over half of Stack's time, and
//     allocating Stack's arrays a tenth of it) and already beat the Python
//     reference by far more than the target; on image data their cost is the
//     copy of large buffers, which bytes.Join makes without zeroing.
//   - Writing into an existing array uses numpy's "same_kind" rule for
//     arrays and a value check for Go values (numpy 2's rule for Python
//     scalars), not numpy's unsafe setitem: a float written into an int
//     buffer (a continuous action into a discrete action buffer) is an
//     error instead of a silent truncation. AsType keeps numpy's unsafe
//     astype for explicit conversions.
//   - Go int, float64 and bool scalars are weak in arithmetic (NEP 50,
//     numpy 2): untyped Go constants default to these types, so a*0.5 on a
//     float32 array stays float32. Sized Go scalars (float32, int8, …) are
//     strong like numpy scalars.
//   - float32 sums and means accumulate in float64 and round once, so they
//     can differ from numpy's pairwise float32 sum in the last bit (they are
//     closer to the exact value). Integer sums wrap as in numpy.
//   - Mean of an empty selection is an error, not numpy's NaN with a
//     warning; Min, Max and Argmax of nothing are errors as in numpy.
//     Reductions take no axis or one axis.
//   - Reshape returns a view only when the array is C-contiguous (numpy
//     also finds views for some strided layouts); otherwise it copies.
//   - Object arrays support Eq and Ne (numbers compare by value, other
//     values by reflect.DeepEqual) but no arithmetic or ordering: numpy
//     would call Python's operators on each element, which has no faithful
//     Go equivalent.
//   - New(nil) is a 0-d Object array holding nil, as np.array(None).
//   - Strides are counted in elements, not bytes.
//   - String follows numpy 2.2 and later, which appends shape=… to
//     summarized arrays (more than 1000 elements).
//   - 0-d boolean indices (numpy's a[True]) are not supported; MaskArray of
//     a 0-d array panics.
//   - Object elements that are Go slices, arrays and maps print as Python
//     lists and dicts ([1, 'x'], {'a': 1}), since Tianshou's info arrays
//     of dicts are common; a list element of an Object array prints as
//     numpy prints it, list([1, 'x']), so that it is not read as a nested
//     array. Map keys are sorted (Go maps have no order). Nesting deeper
//     than 64 levels prints "...", so a container holding itself ends.
//   - DTypeOf returns the zero DType, rather than a second result, for a
//     type that is not an element type: the zero DType is already the
//     invalid one, and every caller compares it with an array's dtype.
package nd
