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
// share a buffer, so a[1:] = a[:-1] works as in numpy.
package nd
