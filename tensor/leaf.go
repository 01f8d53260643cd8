package tensor

import (
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// This file makes *Tensor a custom leaf of package batch (batch.Leaf), so
// that a Batch holding tensors indexes, stacks and concatenates them with its
// arrays, and provides the differentiable numpy indexing those need.

var _ batch.Leaf = (*Tensor)(nil)

// Index returns x[idx...] with numpy's indexing, in the forms of nd.Index
// and with the semantics of nd.Array.Index: an integer removes its axis,
// ranges (with steps) keep it, NewAxis and Ellipsis work as in numpy, and
// Ints, IntArray, Mask and MaskArray select positions (advanced indexing).
//
// The result is a view sharing x's data when the selected elements form one
// contiguous block in row-major order (x[2], x[1:3], x[0, :, :]), and a copy
// otherwise (x[:, 1], fancy indices). The gradient flows back to x, summed
// over repeated positions.
//
// Index costs time and memory proportional to x.Len(): it indexes an nd
// array of x's element positions to find the selected ones.
//
// Index panics, as nd.Array.Index does (with an *nd.Error), if an index does
// not fit x: an integer out of range, more indices than axes, a mask of the
// wrong length.
func (tp *Tape) Index(x *Tensor, idx ...nd.Index) *Tensor {
	tp.check(x)
	pos := make([]int64, len(x.data))
	for i := range pos {
		pos[i] = int64(i)
	}
	a, err := nd.FromSlice(pos)
	if err == nil {
		a, err = a.Reshape(x.shape...)
	}
	if err != nil {
		panicf(ErrShape, "Index: positions of shape %v: %v", x.shape, err)
	}
	sel := a.Index(idx...)
	off := nd.ToSlice[int64](sel)
	flat := tp.Reshape(x, len(x.data))
	contiguous := true
	for i, o := range off {
		contiguous = contiguous && o == off[0]+int64(i)
	}
	var y *Tensor
	if contiguous {
		start := 0
		if len(off) > 0 {
			start = int(off[0])
		}
		y = tp.Slice(flat, 0, start, start+len(off))
	} else {
		rows := make([]int, len(off))
		for i, o := range off {
			rows[i] = int(o)
		}
		y = tp.IndexSelect(flat, 0, rows)
	}
	return tp.Reshape(y, sel.Shape()...)
}

// BatchShape returns t's shape: as a Batch leaf every axis of a tensor is a
// batch axis, as for an nd array. A scalar has none. It is the batch.Leaf
// method.
func (t *Tensor) BatchShape() []int { return t.shape }

// Index returns t[idx...] as a batch.Leaf holding a *Tensor: Tape.Index
// recorded on the tape that produced t (so the gradient flows back to t and
// the result lives until that tape is Reset), or computed without a tape
// for a leaf. It is the batch.Leaf method; see Tape.Index for views, copies
// and panics.
func (t *Tensor) Index(idx ...nd.Index) batch.Leaf { return t.tape.Index(t, idx...) }

// Stack joins t and rest, which must be tensors of t's shape, along a new
// axis at position axis (between −(NDim+1) and NDim), as Tape.Stack does.
// It is the batch.Leaf method.
//
// The result is recorded on the tape that produced the operands requiring
// gradients, so the gradient flows back to them; when no tape result
// requires gradients, it is a new tensor independent of any tape, without
// gradient (a leaf such as a parameter has no tape to record on). Stack
// returns an error
// wrapping ErrShape if rest holds another type, shapes differ or axis is out
// of range, and ErrGrad if tensors requiring gradients come from different
// tapes.
func (t *Tensor) Stack(axis int, rest ...batch.Leaf) (batch.Leaf, error) {
	xs, tp, err := t.joinOperands("Stack", rest)
	if err != nil {
		return nil, err
	}
	if axis < -(len(t.shape)+1) || axis > len(t.shape) {
		return nil, fmt.Errorf("%w: Stack: axis %d out of range for %d dimensions", ErrShape, axis, len(t.shape))
	}
	for _, x := range xs[1:] {
		if !sameShape(x.shape, t.shape) {
			return nil, fmt.Errorf("%w: Stack of tensors of shapes %v and %v", ErrShape, t.shape, x.shape)
		}
	}
	return tp.Stack(axis, xs...), nil
}

// Cat concatenates t and rest, which must be tensors with t's dimensions
// after the first, along axis 0, as Tape.Concat does. It is the batch.Leaf
// method; the tape is chosen as in Stack.
//
// Cat returns an error wrapping ErrShape if rest holds another type, a
// tensor is a scalar or the shapes disagree after axis 0, and ErrGrad as
// Stack does.
func (t *Tensor) Cat(rest ...batch.Leaf) (batch.Leaf, error) {
	xs, tp, err := t.joinOperands("Cat", rest)
	if err != nil {
		return nil, err
	}
	for _, x := range xs {
		if len(x.shape) == 0 || len(x.shape) != len(t.shape) || !sameShape(x.shape[1:], t.shape[1:]) {
			return nil, fmt.Errorf("%w: Cat of tensors of shapes %v and %v along axis 0", ErrShape, t.shape, x.shape)
		}
	}
	return tp.Concat(0, xs...), nil
}

// joinOperands returns t and rest as tensors and the tape to record their
// join on: that of the tape results requiring gradients, or nil.
func (t *Tensor) joinOperands(op string, rest []batch.Leaf) ([]*Tensor, *Tape, error) {
	xs := make([]*Tensor, 1, len(rest)+1)
	xs[0] = t
	for _, l := range rest {
		x, ok := l.(*Tensor)
		if !ok {
			return nil, nil, fmt.Errorf("%w: %s of a tensor with a %T", ErrShape, op, l)
		}
		xs = append(xs, x)
	}
	var tp *Tape
	for _, x := range xs {
		if !x.requiresGrad || x.tape == nil {
			continue
		}
		if tp == nil {
			tp = x.tape
		} else if x.tape != tp {
			return nil, nil, fmt.Errorf("%w: %s of tensors requiring gradients on different tapes", ErrGrad, op)
		}
	}
	return xs, tp, nil
}

// Equal reports whether other is a *Tensor of t's shape holding the same
// values, a NaN equal to a NaN at the same position (as nd.Equal compares
// arrays). Gradients and tapes are not compared. batch.Equal uses it to
// compare tensor leaves.
func (t *Tensor) Equal(other batch.Leaf) bool {
	o, ok := other.(*Tensor)
	if !ok || !sameShape(t.shape, o.shape) {
		return false
	}
	for i, v := range t.data {
		if w := o.data[i]; v != w && (v == v || w == w) {
			return false
		}
	}
	return true
}
