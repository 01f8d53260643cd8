// Package batchtest provides helpers for testing code built on package
// batch: fake custom leaves (a categorical and a normal distribution over
// nd arrays, and a tensor that is a batch.ArrayLeaf) and the batches the
// benchmarks use.
package batchtest

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// Categorical is a fake categorical distribution, a batch.Leaf: Probs has
// shape batch shape + [k], the probabilities of k classes for each element
// of the batch.
type Categorical struct {
	Probs *nd.Array
}

// NewCategorical returns a Categorical over probs, which must have at least
// one axis (the classes).
func NewCategorical(probs *nd.Array) (*Categorical, error) {
	if probs.Ndim() == 0 {
		return nil, fmt.Errorf("batchtest: Categorical probabilities need a class axis, got a 0-d array")
	}
	return &Categorical{Probs: probs}, nil
}

// BatchShape returns the shape of Probs without its last (class) axis.
func (c *Categorical) BatchShape() []int {
	s := c.Probs.Shape()
	return s[:len(s)-1]
}

// Index indexes the batch axes of Probs; the class axis is kept whole.
func (c *Categorical) Index(idx ...nd.Index) batch.Leaf {
	all := append(append(make([]nd.Index, 0, len(idx)+1), idx...), nd.All())
	return &Categorical{Probs: c.Probs.Index(all...)}
}

// batchAxis resolves a Stack axis against a batch rank n.
func batchAxis(axis, n int) (int, error) {
	if axis < -n-1 || axis > n {
		return 0, fmt.Errorf("batchtest: stack axis %d out of range for batch rank %d", axis, n)
	}
	if axis < 0 {
		axis += n + 1
	}
	return axis, nil
}

func probsOf(first *Categorical, rest []batch.Leaf) ([]*nd.Array, error) {
	arrs := []*nd.Array{first.Probs}
	for _, l := range rest {
		o, ok := l.(*Categorical)
		if !ok {
			return nil, fmt.Errorf("batchtest: cannot join a Categorical with %T", l)
		}
		arrs = append(arrs, o.Probs)
	}
	return arrs, nil
}

// Stack stacks the distributions along a new batch axis.
func (c *Categorical) Stack(axis int, rest ...batch.Leaf) (batch.Leaf, error) {
	ax, err := batchAxis(axis, len(c.BatchShape()))
	if err != nil {
		return nil, err
	}
	arrs, err := probsOf(c, rest)
	if err != nil {
		return nil, err
	}
	p, err := nd.Stack(ax, arrs...)
	if err != nil {
		return nil, err
	}
	return &Categorical{Probs: p}, nil
}

// Cat concatenates the distributions along batch axis 0.
func (c *Categorical) Cat(rest ...batch.Leaf) (batch.Leaf, error) {
	if len(c.BatchShape()) == 0 {
		return nil, fmt.Errorf("batchtest: a Categorical without batch axis cannot be concatenated")
	}
	arrs, err := probsOf(c, rest)
	if err != nil {
		return nil, err
	}
	p, err := nd.Concatenate(0, arrs...)
	if err != nil {
		return nil, err
	}
	return &Categorical{Probs: p}, nil
}

// Equal reports whether other is a Categorical with equal probabilities.
func (c *Categorical) Equal(other batch.Leaf) bool {
	o, ok := other.(*Categorical)
	return ok && nd.Equal(c.Probs, o.Probs)
}

// String prints the distribution as torch does: Categorical(probs: …).
func (c *Categorical) String() string {
	return "Categorical(probs: " + c.Probs.String() + ")"
}

// Normal is a fake normal distribution, a batch.Leaf: Loc and Scale have
// the batch shape.
type Normal struct {
	Loc, Scale *nd.Array
}

// BatchShape returns the shape of Loc.
func (n *Normal) BatchShape() []int { return n.Loc.Shape() }

// Mean returns the mean of the distribution, Loc.
func (n *Normal) Mean() *nd.Array { return n.Loc }

// Index indexes Loc and Scale.
func (n *Normal) Index(idx ...nd.Index) batch.Leaf {
	return &Normal{Loc: n.Loc.Index(idx...), Scale: n.Scale.Index(idx...)}
}

func normals(first *Normal, rest []batch.Leaf) (locs, scales []*nd.Array, err error) {
	locs, scales = []*nd.Array{first.Loc}, []*nd.Array{first.Scale}
	for _, l := range rest {
		o, ok := l.(*Normal)
		if !ok {
			return nil, nil, fmt.Errorf("batchtest: cannot join a Normal with %T", l)
		}
		locs, scales = append(locs, o.Loc), append(scales, o.Scale)
	}
	return locs, scales, nil
}

// Stack stacks the distributions along a new batch axis.
func (n *Normal) Stack(axis int, rest ...batch.Leaf) (batch.Leaf, error) {
	locs, scales, err := normals(n, rest)
	if err != nil {
		return nil, err
	}
	l, err := nd.Stack(axis, locs...)
	if err != nil {
		return nil, err
	}
	s, err := nd.Stack(axis, scales...)
	if err != nil {
		return nil, err
	}
	return &Normal{Loc: l, Scale: s}, nil
}

// Cat concatenates the distributions along batch axis 0.
func (n *Normal) Cat(rest ...batch.Leaf) (batch.Leaf, error) {
	locs, scales, err := normals(n, rest)
	if err != nil {
		return nil, err
	}
	l, err := nd.Concatenate(0, locs...)
	if err != nil {
		return nil, err
	}
	s, err := nd.Concatenate(0, scales...)
	if err != nil {
		return nil, err
	}
	return &Normal{Loc: l, Scale: s}, nil
}

// String prints the distribution as torch does: Normal(loc: …, scale: …).
func (n *Normal) String() string {
	return "Normal(loc: " + n.Loc.String() + ", scale: " + n.Scale.String() + ")"
}

// Tensor is a fake autodiff tensor, a batch.ArrayLeaf: Values holds its
// elements, every axis a batch axis, and Index always returns a copy, as a
// tensor does for a selection that is not one contiguous block. Array
// returns Values itself, so writes through it change the tensor, or nil
// when ReadOnly is set (as a tensor requiring gradients does).
type Tensor struct {
	Values   *nd.Array
	ReadOnly bool
}

// BatchShape returns the shape of Values.
func (t *Tensor) BatchShape() []int { return t.Values.Shape() }

// Index returns a copy of the selected values.
func (t *Tensor) Index(idx ...nd.Index) batch.Leaf {
	return &Tensor{Values: t.Values.Index(idx...).Copy()}
}

// Array returns Values, or nil if ReadOnly is set.
func (t *Tensor) Array() *nd.Array {
	if t.ReadOnly {
		return nil
	}
	return t.Values
}

func tensorValues(first *Tensor, rest []batch.Leaf) ([]*nd.Array, error) {
	arrs := []*nd.Array{first.Values}
	for _, l := range rest {
		o, ok := l.(*Tensor)
		if !ok {
			return nil, fmt.Errorf("batchtest: cannot join a Tensor with %T", l)
		}
		arrs = append(arrs, o.Values)
	}
	return arrs, nil
}

// Stack stacks the tensors along a new axis.
func (t *Tensor) Stack(axis int, rest ...batch.Leaf) (batch.Leaf, error) {
	arrs, err := tensorValues(t, rest)
	if err != nil {
		return nil, err
	}
	v, err := nd.Stack(axis, arrs...)
	if err != nil {
		return nil, err
	}
	return &Tensor{Values: v}, nil
}

// Cat concatenates the tensors along axis 0.
func (t *Tensor) Cat(rest ...batch.Leaf) (batch.Leaf, error) {
	arrs, err := tensorValues(t, rest)
	if err != nil {
		return nil, err
	}
	v, err := nd.Concatenate(0, arrs...)
	if err != nil {
		return nil, err
	}
	return &Tensor{Values: v}, nil
}

// Equal reports whether other is a Tensor with equal values.
func (t *Tensor) Equal(other batch.Leaf) bool {
	o, ok := other.(*Tensor)
	return ok && nd.Equal(t.Values, o.Values)
}

// String prints the values as numpy's str does, in tensor(…).
func (t *Tensor) String() string { return "tensor(" + t.Values.Str() + ")" }

var _ batch.ArrayLeaf = (*Tensor)(nil)

func randArray[T any](rng *rand.Rand, gen func(*rand.Rand) T, shape ...int) *nd.Array {
	size := 1
	for _, d := range shape {
		size *= d
	}
	data := make([]T, size)
	for i := range data {
		data[i] = gen(rng)
	}
	a, err := nd.FromSlice(data, shape...)
	if err != nil {
		panic(err)
	}
	return a
}

func f32(r *rand.Rand) float32 { return r.Float32() }
func i64(r *rand.Rand) int64   { return r.Int64N(1000) }
func u8(r *rand.Rand) uint8    { return uint8(r.UintN(256)) }
func bit(r *rand.Rand) bool    { return r.IntN(2) == 1 }

// Flat returns a CartPole-shaped transition batch of n rows with random
// values, the flat data of the batch benchmarks: obs float32 (n, 4),
// act int64 (n), rew float32 (n), terminated and truncated bool (n),
// obs_next float32 (n, 4) and info {env_id int64 (n)}.
func Flat(n int, rng *rand.Rand) *batch.Batch {
	return batch.MustNew(
		batch.KeyObs, randArray(rng, f32, n, 4),
		batch.KeyAct, randArray(rng, i64, n),
		batch.KeyRew, randArray(rng, f32, n),
		batch.KeyTerminated, randArray(rng, bit, n),
		batch.KeyTruncated, randArray(rng, bit, n),
		batch.KeyObsNext, randArray(rng, f32, n, 4),
		batch.KeyInfo, batch.MustNew(batch.KeyEnvID, randArray(rng, i64, n)),
	)
}

// Nested returns Flat's batch with image observations, the nested data of
// the batch benchmarks: obs and obs_next are {camera uint8 (n, 84, 84, 3),
// vector float32 (n, 4)}.
func Nested(n int, rng *rand.Rand) *batch.Batch {
	obs := func() *batch.Batch {
		return batch.MustNew("camera", randArray(rng, u8, n, 84, 84, 3), "vector", randArray(rng, f32, n, 4))
	}
	return batch.MustNew(
		batch.KeyObs, obs(),
		batch.KeyAct, randArray(rng, i64, n),
		batch.KeyRew, randArray(rng, f32, n),
		batch.KeyTerminated, randArray(rng, bit, n),
		batch.KeyTruncated, randArray(rng, bit, n),
		batch.KeyObsNext, obs(),
		batch.KeyInfo, batch.MustNew(batch.KeyEnvID, randArray(rng, i64, n)),
	)
}
