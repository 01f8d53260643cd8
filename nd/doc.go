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
// [Concatenate]) and converted ([Array.AsType]).
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
// repeats elements with stride 0 and must not be written to.
//
// # Allocation
//
// A view costs one allocation (the header, with shape and strides stored
// inline up to four dimensions); a new array costs two (header and data).
// TakeTo, SetRow, CopyTo, StackTo, ConcatenateTo, in-place arithmetic with
// an array of the same dtype, and HasNull do not allocate (locked by
// AllocsPerRun tests).
//
// # Decisions
//
//   - Storage is an unsafe.Pointer to the first element of a typed Go slice
//     ([]float32, []any, …) plus its length, not an `any` holding the slice:
//     boxing the slice header would cost a third allocation per new array
//     (measured: Take of 64 rows is 2 allocs/op). The pointer keeps the
//     typed allocation alive and scanned, so Object arrays are GC-safe.
//   - Data movement (copy, Take, fancy indexing, Stack) dispatches once per
//     call on the element size (1, 2, 4, 8 bytes, or `any`), so twelve
//     dtypes share five kernels; arithmetic and conversions are generic
//     functions instantiated per dtype, with the operation chosen once per
//     contiguous run.
//   - Take copies rows of 1, 2 or 4 elements as fixed-size arrays instead
//     of calling copy: on (64, 4) float32 rows this took TakeTo from
//     ~670 ns to ~300 ns per 64 rows on a loaded 2-core machine, at the
//     speed of a hand-written loop of copy calls with constant lengths.
//     Longer rows use copy (memmove).
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
package nd
