package batch

import (
	"fmt"
	"iter"
	"slices"

	"github.com/gorl/gorl/nd"
)

// Index returns b[idx...]: a Batch of the same keys with the same index
// applied to every array and custom leaf (the nd index forms: nd.I(0),
// nd.To(10), nd.Ints(…), nd.All() then nd.I(1) for b[:, 1], masks). nil
// values stay nil and reserved keys stay reserved.
//
// Aliasing follows nd: with only basic indices (integers, ranges, NewAxis,
// Ellipsis) every array in the result is a VIEW of b's array, so writes
// through it (b.Index(nd.All(), nd.I(1)).Add(1)) change b; with any fancy
// index (Ints, IntArray, Mask, MaskArray) the arrays are copies. Indexing a
// Batch with no keys returns an empty Batch.
//
// Index panics with an *Error wrapping ErrIndex, naming the key, if a leaf
// has no axis to index (a 0-d array, a string or other scalar, a custom
// leaf with an empty batch shape), and with nd's *Error if the index does
// not fit an array (out of range, too many indices, a mask of the wrong
// length).
func (b *Batch) Index(idx ...nd.Index) *Batch {
	var t tree
	t.reserveIndex(b, idx)
	r, err := t.index(b, idx)
	if err != nil {
		panic(err)
	}
	return r
}

// index builds b[idx...] from t's memory.
func (t *tree) index(b *Batch, idx []nd.Index) (*Batch, error) {
	out := t.node(len(b.ents))
	for i := range b.ents {
		e := &b.ents[i]
		out.ents[i].key = e.key
		switch x := e.val.(type) {
		case nil:
		case *nd.Array:
			if x.Ndim() == 0 {
				return nil, errAt(ErrIndex, e.key, x.String()+" is 0-d and cannot be indexed", nil)
			}
			out.ents[i].val = t.arrs.Index(x, idx...)
		case *Batch:
			if len(x.ents) == 0 {
				out.ents[i].val = t.node(0)
				continue
			}
			r, err := t.index(x, idx)
			if err != nil {
				return nil, within(e.key, err)
			}
			out.ents[i].val = r
		case Leaf:
			if len(x.BatchShape()) == 0 {
				return nil, errAt(ErrIndex, e.key, describe(x)+" has no batch axis and cannot be indexed", nil)
			}
			// A copy: the leaf may keep what it is given, which would make
			// every caller's index escape to the heap.
			out.ents[i].val = x.Index(slices.Clone(idx)...)
		default:
			return nil, errAt(ErrIndex, e.key, "scalar "+describe(x)+" cannot be indexed", nil)
		}
	}
	return out, nil
}

// Rows returns an iterator over b's rows b.Index(nd.I(0)), b.Index(nd.I(1)),
// …, up to Len: iterating a Batch walks rows, not keys (use Keys or Items
// for those). Each row is a view of b, as Index makes it. Rows returns Len's
// error when b has no length. The iterator may be used more than once.
func (b *Batch) Rows() (iter.Seq[*Batch], error) {
	n, err := b.Len()
	if err != nil {
		return nil, err
	}
	return func(yield func(*Batch) bool) {
		for i := 0; i < n; i++ {
			if !yield(b.Index(nd.I(i))) {
				return
			}
		}
	}, nil
}

// Take returns a new Batch holding the given rows of every array and custom
// leaf of src (axis 0, numpy's src[rows]; a negative row counts from the
// end). Arrays are copies (nd.Take); custom leaves are indexed with
// nd.Ints; nil values stay nil and reserved keys stay reserved.
//
// Take panics with an *Error wrapping ErrIndex, naming the key, if a leaf
// has no batch axis, and with nd's *Error if a row is out of range.
func Take(src *Batch, rows []int) *Batch {
	idx := []nd.Index{nd.Ints(rows...)}
	var t tree
	t.reserveIndex(src, idx)
	r, err := t.index(src, idx)
	if err != nil {
		panic(err)
	}
	return r
}

// TakeTo copies the given rows of every array of src into dst, a Batch of
// the same structure whose arrays have len(rows) rows: dst.k[j] =
// src.k[rows[j]] for every key path k. It is the gather of replay-buffer
// sampling: with dst allocated once (ZerosLike(src, len(rows))) and reused,
// TakeTo does not allocate, except for custom leaves, which are indexed with
// nd.Ints and stored into dst. Keys may come in any order in dst; nil
// values and reserved keys must match nil and reserved keys.
//
// TakeTo panics with an *Error wrapping ErrShape, naming the key, if dst's
// structure differs from src's (a missing or extra key, another kind of
// value, an array of another dtype or shape), with ErrIndex if a leaf of
// src has no rows, and with nd's *Error if a row is out of range (checked
// per array before it is written).
func TakeTo(dst, src *Batch, rows []int) {
	if err := takeTo(dst, src, rows); err != nil {
		panic(err)
	}
}

func takeTo(dst, src *Batch, rows []int) error {
	if len(dst.ents) != len(src.ents) {
		return &Error{Kind: ErrShape, Msg: fmt.Sprintf("TakeTo: destination has %d keys, source %d", len(dst.ents), len(src.ents))}
	}
	for i := range src.ents {
		se := &src.ents[i]
		j := dst.lookup(se.key, i)
		if j < 0 {
			return errAt(ErrShape, se.key, "TakeTo: key missing from the destination", nil)
		}
		de := &dst.ents[j]
		switch s := se.val.(type) {
		case nil:
			if de.val != nil {
				return errAt(ErrShape, se.key, "TakeTo: source is nil, destination holds "+describe(de.val), nil)
			}
		case *nd.Array:
			d, ok := de.val.(*nd.Array)
			if !ok || !rowsFit(d, s, len(rows)) {
				return errAt(ErrShape, se.key, fmt.Sprintf("TakeTo: destination holds %s, want a %v array of %d rows like %s", describe(de.val), s.DType(), len(rows), describe(s)), nil)
			}
			nd.TakeTo(d, s, rows)
		case *Batch:
			d, ok := de.val.(*Batch)
			if !ok || (len(s.ents) == 0) != (len(d.ents) == 0) {
				return errAt(ErrShape, se.key, "TakeTo: source holds "+describe(s)+", destination "+describe(de.val), nil)
			}
			if err := takeTo(d, s, rows); err != nil {
				return within(se.key, err)
			}
		case Leaf:
			if len(s.BatchShape()) == 0 {
				return errAt(ErrIndex, se.key, describe(s)+" has no batch axis", nil)
			}
			de.val = s.Index(nd.Ints(rows...))
		default:
			return errAt(ErrIndex, se.key, "scalar "+describe(s)+" has no rows", nil)
		}
	}
	return nil
}

// rowsFit reports whether dst can receive n rows of src.
func rowsFit(dst, src *nd.Array, n int) bool {
	nd0 := src.Ndim()
	if nd0 == 0 || dst.DType() != src.DType() || dst.Ndim() != nd0 || dst.Dim(0) != n {
		return false
	}
	for k := 1; k < nd0; k++ {
		if dst.Dim(k) != src.Dim(k) {
			return false
		}
	}
	return true
}

// ZerosLike returns a new Batch with src's structure whose arrays have n
// rows: each array of shape [m, rest…] becomes zeros of shape [n, rest…]
// with the same dtype (nil elements for Object arrays), nested Batches
// recurse, nil and reserved keys are kept, and a custom leaf of batch shape
// [m, rest…] becomes an Object array of nil of shape [n, rest…]. It is the
// destination TakeTo fills. ZerosLike returns an error wrapping ErrLen,
// naming the key, if a leaf has no batch axis (see ZerosStacked for single
// rows).
func ZerosLike(src *Batch, n int) (*Batch, error) {
	return zeros(src, n, false)
}

// ZerosStacked returns a new Batch holding n zero rows shaped like the
// single row src, the storage that stacking n such rows needs: each array
// of shape s becomes zeros of shape [n, s…] with the same dtype, a string or
// other scalar and nil become an Object array of n nil values, nested
// Batches recurse, reserved keys are kept, and a custom leaf of batch shape
// s becomes an Object array of nil of shape [n, s…]. Replay buffers
// allocate their storage with it from the first transition they see.
func ZerosStacked(src *Batch, n int) *Batch {
	b, _ := zeros(src, n, true)
	return b
}

func zeros(src *Batch, n int, stacked bool) (*Batch, error) {
	out := sized(len(src.ents))
	for i := range src.ents {
		e := &src.ents[i]
		out.ents[i].key = e.key
		switch x := e.val.(type) {
		case nil:
			if stacked {
				out.ents[i].val = nd.Zeros(nd.Object, n)
			}
		case *nd.Array:
			s, err := rowShape(x.Shape(), n, stacked, e.key)
			if err != nil {
				return nil, err
			}
			out.ents[i].val = nd.Zeros(x.DType(), s...)
		case *Batch:
			if len(x.ents) == 0 {
				out.ents[i].val = &Batch{}
				continue
			}
			sub, err := zeros(x, n, stacked)
			if err != nil {
				return nil, within(e.key, err)
			}
			out.ents[i].val = sub
		case Leaf:
			s, err := rowShape(x.BatchShape(), n, stacked, e.key)
			if err != nil {
				return nil, err
			}
			out.ents[i].val = nd.Zeros(nd.Object, s...)
		default:
			if !stacked {
				return nil, errAt(ErrLen, e.key, "scalar "+describe(x)+" has no rows", nil)
			}
			out.ents[i].val = nd.Zeros(nd.Object, n)
		}
	}
	return out, nil
}

func rowShape(s []int, n int, stacked bool, key string) ([]int, error) {
	if stacked {
		return append([]int{n}, s...), nil
	}
	if len(s) == 0 {
		return nil, errAt(ErrLen, key, "a leaf without a batch axis has no rows", nil)
	}
	return append([]int{n}, s[1:]...), nil
}
