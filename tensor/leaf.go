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
// Index costs time and memory proportional to the result plus x's first
// dimension and row length, not to x.Len(). An index of one entry (a row,
// a range of rows, a list of rows: what a Batch passes for b[i], b[0:2] and
// Take) selects whole rows, found by indexing the row numbers with nd; other
// indices are applied with nd to two position arrays broadcast to x's shape
// (the row along axis 0 and the offset within the row).
//
// Index panics, as nd.Array.Index does (with an *nd.Error), if an index does
// not fit x: an integer out of range, more indices than axes, a mask of the
// wrong length.
func (tp *Tape) Index(x *Tensor, idx ...nd.Index) *Tensor {
	tp.check(x)
	// x is seen as [n, size]: n rows (or elements) of which off selects.
	var off, shape []int
	n, size := len(x.data), 1
	if rows, sel, ok := rowSelection(x.shape, idx); ok {
		off, shape = rows, append(sel, x.shape[1:]...)
		n, size = x.shape[0], numel(x.shape[1:])
	} else {
		off, shape = positions(x.shape, idx)
	}
	flat := tp.Reshape(x, n, size)
	contiguous := true
	for i, o := range off {
		contiguous = contiguous && o == off[0]+i
	}
	var y *Tensor
	if contiguous {
		start := 0
		if len(off) > 0 {
			start = off[0]
		}
		y = tp.Slice(flat, 0, start, start+len(off))
	} else {
		y = tp.IndexSelect(flat, 0, off)
	}
	return tp.Reshape(y, shape...)
}

// rowSelection applies an index of at most one entry to the row numbers 0,
// …, n−1 of an array of the given shape, n = shape[0], and returns the
// selected rows in order and the shape they take. On an array of any shape
// such an index acts on axis 0 alone (or adds one before it), with the other
// axes following, except a boolean mask of several dimensions, which nd
// refuses on the row numbers: ok is false then, for a scalar, for longer
// indices and for indices that do not fit.
func rowSelection(shape []int, idx []nd.Index) (rows, sel []int, ok bool) {
	if len(shape) == 0 || len(idx) > 1 {
		return nil, nil, false
	}
	a, err := rangeArray(shape[0])
	if err != nil {
		return nil, nil, false
	}
	defer func() {
		if r := recover(); r != nil {
			if _, isND := r.(*nd.Error); !isND {
				panic(r)
			}
			rows, sel, ok = nil, nil, false
		}
	}()
	r := a.Index(idx...)
	v := nd.ToSlice[int64](r)
	rows = make([]int, len(v))
	for i, x := range v {
		rows[i] = int(x)
	}
	return rows, append([]int{}, r.Shape()...), true
}

// positions returns the row-major offsets, within an array of the given
// shape, of the elements that idx selects, and the shape of the selection.
func positions(shape []int, idx []nd.Index) (off []int, sel []int) {
	if len(shape) == 0 {
		// A scalar: nd checks that idx fits a 0-d array.
		a, err := nd.FromSlice([]int64{0})
		if err == nil {
			a, err = a.Reshape()
		}
		if err != nil {
			panicf(ErrShape, "Index: %v", err)
		}
		r := a.Index(idx...)
		return make([]int, r.Size()), r.Shape()
	}
	// rows[i, …] = i and cols[…, j…] = the offset j within a row, both
	// views of x's shape with stride 0 along the axes they do not vary on.
	n, inner := shape[0], numel(shape[1:])
	rowShape := make([]int, len(shape))
	for i := range rowShape {
		rowShape[i] = 1
	}
	rowShape[0] = n
	colShape := append([]int{1}, shape[1:]...)
	rows, err := broadcastRange(n, rowShape, shape)
	if err != nil {
		panicf(ErrShape, "Index: %v", err)
	}
	cols, err := broadcastRange(inner, colShape, shape)
	if err != nil {
		panicf(ErrShape, "Index: %v", err)
	}
	r := rows.Index(idx...)
	rs, cs := nd.ToSlice[int64](r), nd.ToSlice[int64](cols.Index(idx...))
	off = make([]int, len(rs))
	for i := range off {
		off[i] = int(rs[i])*inner + int(cs[i])
	}
	return off, r.Shape()
}

// broadcastRange returns 0, 1, …, n−1 in an array of shape in, broadcast to
// shape out (a view).
func broadcastRange(n int, in, out []int) (*nd.Array, error) {
	a, err := rangeArray(n)
	if err == nil {
		a, err = a.Reshape(in...)
	}
	if err != nil {
		return nil, err
	}
	return a.BroadcastTo(out...)
}

// rangeArray returns the Int64 array 0, 1, …, n−1.
func rangeArray(n int) (*nd.Array, error) {
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(i)
	}
	return nd.FromSlice(v)
}

// BatchShape returns t's shape: as a Batch leaf every axis of a tensor is a
// batch axis, as for an nd array. A scalar has none. It is the batch.Leaf
// method.
func (t *Tensor) BatchShape() []int { return t.shape }

// Index returns t[idx...] as a batch.Leaf holding a *Tensor: Tape.Index
// recorded on the tape that produced t (so the gradient flows back to t and
// the result lives until that tape is Reset), or, for a leaf such as a
// parameter, computed without a tape and without gradient. It is the
// batch.Leaf method; see Tape.Index for views, copies and panics.
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
