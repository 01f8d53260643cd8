package distribution

import (
	"fmt"
	"slices"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// This file makes the distributions custom leaves of package batch
// (batch.Leaf, as Tianshou's Batch holds torch distributions): a Batch
// indexes, stacks and concatenates them with its arrays by doing so to their
// parameters.

var (
	_ Distribution = (*Categorical)(nil)
	_ Distribution = (*Normal)(nil)
	_ Distribution = (*TanhNormal)(nil)
	_ Distribution = (*Independent)(nil)
)

// withEventAxes returns idx followed by one nd.All() per event axis (or
// category axis), so that an index of the batch axes applies to a parameter
// that has more: with an Ellipsis, idx's own entries then stay on the batch
// axes.
func withEventAxes(idx []nd.Index, n int) []nd.Index {
	full := make([]nd.Index, len(idx), len(idx)+n)
	copy(full, idx)
	for i := 0; i < n; i++ {
		full = append(full, nd.All())
	}
	return full
}

// stackAxis resolves the position of a new batch axis for nb batch axes,
// between −(nb+1) and nb.
func stackAxis(axis, nb int) (int, error) {
	if axis < -(nb+1) || axis > nb {
		return 0, errorf(ErrShape, "Stack: axis %d out of range for %d batch axes", axis, nb)
	}
	if axis < 0 {
		axis += nb + 1
	}
	return axis, nil
}

// joinTape returns the tape to record a join of parameters on: the tape of
// the first operand whose parameters require gradients (an error if another
// such operand has a different tape), else the common tape of all operands,
// else nil (the join is then a new tensor, independent of any tape).
func joinTape(tps []*tensor.Tape, grads []bool) (*tensor.Tape, error) {
	var tp *tensor.Tape
	found := false
	for i, g := range grads {
		switch {
		case !g:
		case !found:
			tp, found = tps[i], true
		case tps[i] != tp:
			return nil, errorf(ErrKind, "joining distributions whose parameters require gradients on different tapes")
		}
	}
	if found {
		return tp, nil
	}
	for _, t := range tps[1:] {
		if t != tps[0] {
			return nil, nil
		}
	}
	return tps[0], nil
}

// joinCheck checks the batch shapes of distributions to stack (all equal)
// or concatenate (equal after axis 0, at least one batch axis).
func joinCheck(op string, shapes [][]int) error {
	ref := shapes[0]
	for _, s := range shapes {
		switch {
		case op == "Stack" && !slices.Equal(s, ref):
			return errorf(ErrShape, "Stack of distributions of batch shapes %v and %v", ref, s)
		case op == "Cat" && (len(s) == 0 || len(s) != len(ref) || !slices.Equal(s[1:], ref[1:])):
			return errorf(ErrShape, "Cat of distributions of batch shapes %v and %v", ref, s)
		}
	}
	return nil
}

// join stacks (axis ≥ 0) or concatenates (axis < 0) xs on tp.
func join(tp *tensor.Tape, axis int, xs []*tensor.Tensor) *tensor.Tensor {
	if axis < 0 {
		return tp.Concat(0, xs...)
	}
	return tp.Stack(axis, xs...)
}

// sameKind converts rest to the receiver's type T, or reports the first
// leaf of another type.
func sameKind[T batch.Leaf](op string, d T, rest []batch.Leaf) ([]T, error) {
	ds := make([]T, 1, len(rest)+1)
	ds[0] = d
	for _, l := range rest {
		x, ok := l.(T)
		if !ok {
			return nil, errorf(ErrKind, "%s of a %T with a %T", op, d, l)
		}
		ds = append(ds, x)
	}
	return ds, nil
}

// Index returns the categorical distributions at idx of the batch axes, as
// nd.Array.Index indexes an array of shape BatchShape(): d[0:2] keeps the
// first two rows of the probabilities (or logits), d[1] the second one.
// The parameters are indexed on d's tape (Tape.Index: views for contiguous
// selections, gradients flowing back). It is the batch.Leaf method; it
// panics as nd.Array.Index does on an index that does not fit.
func (d *Categorical) Index(idx ...nd.Index) batch.Leaf {
	full := withEventAxes(idx, 1)
	r := &Categorical{tp: d.tp, fromProbs: d.fromProbs}
	if d.probs != nil {
		r.probs = d.tp.Index(d.probs, full...)
	}
	if d.logits != nil {
		r.logits = d.tp.Index(d.logits, full...)
	}
	return r
}

// Stack joins d and rest, categorical distributions of d's batch shape and
// number of categories, along a new batch axis at position axis (between
// −(nb+1) and nb for nb batch axes), by stacking their probabilities (when
// all were set from probabilities) or their logits. It is the batch.Leaf
// method; batch.ToAtLeast2D calls it alone to give a scalar distribution a
// batch axis of length 1.
//
// The result is recorded on the tape of the operands whose parameters
// require gradients, or on their common tape, or allocated. Stack returns an
// error wrapping ErrKind for a leaf of another type or parameters requiring
// gradients on different tapes, and ErrShape for different shapes or an
// axis out of range.
func (d *Categorical) Stack(axis int, rest ...batch.Leaf) (batch.Leaf, error) {
	ax, err := stackAxis(axis, len(d.BatchShape()))
	if err != nil {
		return nil, err
	}
	return d.join("Stack", ax, rest)
}

// Cat concatenates d and rest, categorical distributions with d's number of
// categories and batch shape after axis 0, along batch axis 0. It is the
// batch.Leaf method, with Stack's tape and errors; a distribution without a
// batch axis cannot be concatenated (ErrShape).
func (d *Categorical) Cat(rest ...batch.Leaf) (batch.Leaf, error) {
	return d.join("Cat", -1, rest)
}

func (d *Categorical) join(op string, axis int, rest []batch.Leaf) (batch.Leaf, error) {
	ds, err := sameKind(op, d, rest)
	if err != nil {
		return nil, err
	}
	shapes := make([][]int, len(ds))
	tps := make([]*tensor.Tape, len(ds))
	grads := make([]bool, len(ds))
	fromProbs := true
	for i, x := range ds {
		if x.K() != d.K() {
			return nil, errorf(ErrShape, "%s of distributions over %d and %d categories", op, d.K(), x.K())
		}
		shapes[i], tps[i], grads[i] = x.BatchShape(), x.tp, x.param().RequiresGrad()
		fromProbs = fromProbs && x.fromProbs
	}
	if err := joinCheck(op, shapes); err != nil {
		return nil, err
	}
	tp, err := joinTape(tps, grads)
	if err != nil {
		return nil, err
	}
	xs := make([]*tensor.Tensor, len(ds))
	for i, x := range ds {
		if fromProbs {
			xs[i] = x.probs
		} else {
			xs[i] = x.Logits()
		}
	}
	r := &Categorical{tp: tp, fromProbs: fromProbs}
	if fromProbs {
		r.probs = join(tp, axis, xs)
	} else {
		r.logits = join(tp, axis, xs)
	}
	return r, nil
}

// Equal reports whether other is a Categorical with the same probabilities
// (same shape, equal values). batch.Equal uses it.
func (d *Categorical) Equal(other batch.Leaf) bool {
	o, ok := other.(*Categorical)
	return ok && d.Probs().Equal(o.Probs())
}

// String describes d by its parameter's shape, as PyTorch prints it:
// Categorical(probs: [3 2]).
func (d *Categorical) String() string {
	name := "logits"
	if d.fromProbs {
		name = "probs"
	}
	return fmt.Sprintf("Categorical(%s: %v)", name, d.param().Shape())
}

// Index returns the normal distributions at idx of the batch axes (their
// locations and scales indexed on d's tape with Tape.Index), as
// nd.Array.Index indexes an array of shape BatchShape(). It is the
// batch.Leaf method; it panics as nd.Array.Index does on an index that does
// not fit.
func (d *Normal) Index(idx ...nd.Index) batch.Leaf {
	r := d.indexed(idx)
	return &r
}

func (d *Normal) indexed(idx []nd.Index) Normal {
	return Normal{tp: d.tp, loc: d.tp.Index(d.loc, idx...), scale: d.tp.Index(d.scale, idx...)}
}

// Stack joins d and rest, normal distributions of d's batch shape, along a
// new batch axis at position axis by stacking their locations and scales.
// It is the batch.Leaf method, with the tapes and errors of
// Categorical.Stack.
func (d *Normal) Stack(axis int, rest ...batch.Leaf) (batch.Leaf, error) {
	ds, err := sameKind("Stack", d, rest)
	if err != nil {
		return nil, err
	}
	r, err := joinNormals("Stack", axis, ds, func(x *Normal) *Normal { return x })
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// Cat concatenates d and rest, normal distributions with d's batch shape
// after axis 0, along batch axis 0. It is the batch.Leaf method, with the
// tapes and errors of Categorical.Cat.
func (d *Normal) Cat(rest ...batch.Leaf) (batch.Leaf, error) {
	ds, err := sameKind("Cat", d, rest)
	if err != nil {
		return nil, err
	}
	r, err := joinNormals("Cat", 0, ds, func(x *Normal) *Normal { return x })
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// joinNormals stacks or concatenates the normal distributions normal(ds[i])
// (the Normals themselves, or those inside TanhNormals).
func joinNormals[T any](op string, axis int, ds []T, normal func(T) *Normal) (Normal, error) {
	shapes := make([][]int, len(ds))
	tps := make([]*tensor.Tape, len(ds))
	grads := make([]bool, len(ds))
	locs := make([]*tensor.Tensor, len(ds))
	scales := make([]*tensor.Tensor, len(ds))
	for i, x := range ds {
		n := normal(x)
		shapes[i], tps[i] = n.BatchShape(), n.tp
		grads[i] = n.loc.RequiresGrad() || n.scale.RequiresGrad()
		locs[i], scales[i] = n.loc, n.scale
	}
	if err := joinCheck(op, shapes); err != nil {
		return Normal{}, err
	}
	if op == "Stack" {
		ax, err := stackAxis(axis, len(shapes[0]))
		if err != nil {
			return Normal{}, err
		}
		axis = ax
	} else {
		axis = -1
	}
	tp, err := joinTape(tps, grads)
	if err != nil {
		return Normal{}, err
	}
	return Normal{tp: tp, loc: join(tp, axis, locs), scale: join(tp, axis, scales)}, nil
}

// Equal reports whether other is a Normal with the same locations and
// scales (same shapes, equal values). batch.Equal uses it.
func (d *Normal) Equal(other batch.Leaf) bool {
	o, ok := other.(*Normal)
	return ok && d.loc.Equal(o.loc) && d.scale.Equal(o.scale)
}

// String describes d by its parameters' shapes: Normal(loc: [3], scale: [3]).
func (d *Normal) String() string {
	return fmt.Sprintf("Normal(loc: %v, scale: %v)", d.loc.Shape(), d.scale.Shape())
}
