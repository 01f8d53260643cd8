package batch

import "github.com/gorl/gorl/nd"

// Leaf is a custom leaf value: anything with batch axes that a Batch can
// index, stack and concatenate together with its arrays, such as a
// probability distribution (as Tianshou's Batch holds torch
// distributions) or an autodiff tensor.
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
//   - A leaf that is also an [ArrayLeaf] takes part in the in-place
//     operations through its array: in-place arithmetic, SetIndex and
//     SetRow into it, the method Empty, and its values assigned to an
//     array that is not an Object array (see ArrayLeaf).
//   - Otherwise Empty, SetIndex and SetRow into a custom leaf, arithmetic,
//     reductions, AsType and MarshalBinary return an error naming the key:
//     a custom leaf cannot take part. The function Empty, the arithmetic
//     functions (Add, …) and reductions refuse every custom leaf, ArrayLeaf
//     or not: they make new values, and a Batch cannot make a new leaf.
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

// ArrayLeaf is a custom leaf whose values are an nd array it can hand out
// for writing, such as an autodiff tensor: Array returns an array sharing
// the leaf's memory (writes through it change the leaf), whose leading
// axes are the leaf's batch axes, or nil when the values may not be
// written now (a tensor that requires gradients): the Batch then treats
// the leaf as any other custom leaf, and refuses to change it.
//
// The in-place operations of a Batch work on that array, so that a leaf
// takes part in them as an array does:
//
//   - in-place arithmetic (Batch.Add, Sub, Mul, Div) changes the leaf's
//     values, and an ArrayLeaf in a Batch operand is used as its array;
//   - SetIndex and SetRow write into the leaf at the index (zeros for a key
//     the assigned Batch lacks), and an ArrayLeaf in the assigned Batch is
//     written as its values into an array or an ArrayLeaf (but stored
//     whole, one leaf per position, into an Object array);
//   - the method Empty zeros the leaf's values.
//
// Index still goes through the leaf's own Index, whose result may be a
// copy (a tensor's x[:, 1] is one: tensors are contiguous). Python's
// data[:, 1] += 6 reads, adds and writes back; its Go form does the same,
// and so works for arrays and ArrayLeaf values alike:
//
//	idx := []nd.Index{nd.All(), nd.I(1)}
//	sub := data.Index(idx...) // views of arrays, the leaf's Index of leaves
//	sub.Add(6)
//	data.SetIndex(sub, idx...)
//
// data.Index(idx...).Add(6) alone changes data only where Index made views.
type ArrayLeaf interface {
	Leaf
	Array() *nd.Array
}

// leafArray returns the array of v when v is an ArrayLeaf (with a non-nil
// array), and v itself otherwise.
func leafArray(v any) any {
	switch v.(type) {
	case *nd.Array, *Batch, nil:
		// The usual values, told apart by their type word alone and
		// inlined: asserting an interface type looks the type up in a
		// table, which took replay buffers' SetRow of the flat benchmark
		// batch from 415 to 519 cpu-ns (430 with this switch).
		return v
	}
	return customArray(v)
}

// customArray is leafArray for the values that may be ArrayLeafs.
func customArray(v any) any {
	if l, ok := v.(ArrayLeaf); ok {
		if a := l.Array(); a != nil {
			return a
		}
	}
	return v
}
