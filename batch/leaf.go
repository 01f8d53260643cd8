package batch

import "github.com/gorl/gorl/nd"

// Leaf is a custom leaf value: anything with batch axes that a Batch can
// index, stack and concatenate together with its arrays, such as a
// probability distribution (seed 001 §5) or an autodiff tensor.
//
// The batch axes are the leading axes a Batch operation works on: a
// categorical distribution over probabilities of shape [n, k] has batch
// shape [n]; one over a single probability vector has batch shape [] and is
// a scalar to Len, as a 0-d array is.
//
// How a custom leaf takes part in the rest of the package:
//
//   - Len, Shape, Index, Take, TakeTo, Split, Stack, Cat, ToAtLeast2D and
//     DropNull use the four methods below (TakeTo and Take index the leaf
//     with nd.Ints and store the result, so they allocate for it).
//   - Apply passes the leaf to the transform like any other value.
//   - IsNull treats a custom leaf as holding no missing values (its mask is
//     all false over its batch shape); HasNull ignores it.
//   - Equal compares two leaves with their Equal method when the leaf type
//     has one (Equal(Leaf) bool), and with reflect.DeepEqual otherwise.
//   - Clone and NewCopy keep the same leaf value: leaves are treated as
//     immutable, as distributions are.
//   - ZerosLike and ZerosStacked cannot make zeros of an unknown type: they
//     allocate an Object array of nil (None) over the leaf's batch shape,
//     and SetRow and SetIndex store a custom leaf into such an array as
//     one element per position (a replay buffer stores one leaf per row).
//   - Empty, SetIndex and SetRow into a custom leaf, arithmetic,
//     reductions, AsType and MarshalBinary return an error naming the key:
//     a custom leaf cannot take part.
type Leaf interface {
	// BatchShape returns the lengths of the leaf's batch axes; empty for a
	// leaf without a batch axis. The caller must not modify the result.
	BatchShape() []int
	// Index returns the leaf indexed along its batch axes as nd's
	// Array.Index indexes an array of shape BatchShape(): an integer
	// removes the axis, ranges keep it, Ints and masks select positions.
	// A Batch passes on the index it was given, so a leaf that supports
	// only axis-0 forms works with Take, TakeTo, Split, DropNull, Rows and
	// any index whose first entry is the only one. Index panics, as
	// Array.Index does, on an index it cannot apply.
	Index(idx ...nd.Index) Leaf
	// Stack joins the receiver and rest (in that order) along a new batch
	// axis at position axis, as nd.Stack joins arrays; an error if rest
	// holds leaves of another kind or of another batch shape.
	Stack(axis int, rest ...Leaf) (Leaf, error)
	// Cat concatenates the receiver and rest along batch axis 0, as
	// nd.Concatenate does; an error if they cannot be joined.
	Cat(rest ...Leaf) (Leaf, error)
}

// leafEqualer is the optional method Equal uses to compare two leaves.
type leafEqualer interface {
	Equal(other Leaf) bool
}
