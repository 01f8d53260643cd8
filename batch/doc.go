// Package batch provides Batch, the hierarchical named-tensor tree of gorl:
// Tianshou's Batch in Go.
//
// # Overview
//
// A [Batch] maps keys to values: *nd.Array (numbers become 0-d arrays,
// lists become arrays), nested *Batch (an empty one reserves a key), custom
// [Leaf] values such as distributions, nil (None), and scalars that are not
// numbers (strings and other Go values, kept as they are). Batches are built
// from key, value pairs ([New]), maps ([FromMap]) or lists of rows
// ([FromRows]); read by key or key path ("obs.camera", [Batch.Get],
// [Batch.Array], [Values]); indexed as a whole with nd's index forms
// ([Batch.Index], [Take], [TakeTo]); joined ([Stack], [Cat], [StackTo],
// [CatTo]) and split ([Batch.Split]).
//
// Functions return new Batches and leave their arguments alone; methods of
// the same name change their receiver (Add and Batch.Add, Stack and
// Batch.Stack, Cat and Batch.Cat). A function whose first argument is a
// destination ends in To and does not allocate for arrays.
//
// # Invariants
//
//   - Keys are non-empty strings without [Sep] and keep insertion order.
//   - A value is never a Go slice or map: New, Set and the other entry
//     points convert them.
//   - Len is the minimum length of axis 0 over arrays and custom leaves;
//     reserved keys, nil and nested Batches without arrays are ignored.
//   - Data errors (values that cannot be joined, missing keys, a scalar
//     without length) are returned as an *Error naming the key path;
//     programmer errors (a destination of the wrong structure, an index out
//     of range) panic with an *Error (or nd's *Error) and are documented.
//
// # Aliasing
//
// New and Set store arrays, Batches and custom leaves by reference (NewCopy
// and Clone copy). Index with basic indices returns views: writes through
// them change the original, as in numpy and seed 002's data[:, 1] += 6.
// Fancy indices, Take, Split, Stack, Cat and the arithmetic functions
// return new arrays. TakeTo, StackTo and CatTo write into the destination's
// arrays.
//
// # Decisions
//
//   - Keys are looked up by a linear scan over a slice that also keeps the
//     insertion order: RL batches hold fewer than ~16 keys, where a scan of
//     short strings beats a map and needs no second structure for order.
package batch
