package distribution

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/tensor"
)

// Normal is the normal (Gaussian) distribution N(loc, scale²) at every
// position of a batch: PyTorch's torch.distributions.Normal. Its batch shape
// is the broadcast shape of loc and scale; its event shape is [].
//
// The zero Normal has no parameters: call Set first. A Normal may be reused:
// Set again for the next step. Like a Tape, it is not safe for concurrent
// use.
type Normal struct {
	tp         *tensor.Tape
	loc, scale *tensor.Tensor
	shape      []int // scratch shape
}

// Set sets d to N(loc, scale²), with loc and scale broadcast together by
// numpy's rules (a state-independent scale [A] with a location [B, A], for
// example). Operations are recorded on tp (nil allocates every result), so
// gradients flow back to loc and scale; they must be leaves or results of tp.
//
// Set returns an error wrapping ErrParam, and leaves d unchanged, if an
// element of loc is not finite or one of scale is not finite and positive.
// It panics with ErrShape if the shapes do not broadcast.
func (d *Normal) Set(tp *tensor.Tape, loc, scale *tensor.Tensor) error {
	s, ok := broadcast(d.shape, loc.Shape(), scale.Shape())
	d.shape = s
	if !ok {
		panicf(ErrShape, "Normal with location of shape %v and scale of shape %v", loc.Shape(), scale.Shape())
	}
	for _, v := range loc.Data() {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return errorf(ErrParam, "Normal location %g", v)
		}
	}
	for _, v := range scale.Data() {
		if !(v > 0) || math.IsInf(float64(v), 1) {
			return errorf(ErrParam, "Normal scale %g", v)
		}
	}
	d.tp = tp
	d.loc, d.scale = expand(tp, loc, scale, s), expand(tp, scale, loc, s)
	return nil
}

// expand returns x broadcast to shape, the broadcast of x's and other's
// shapes: x itself when it has that shape, otherwise Where(other, x, x),
// which repeats x along the broadcast axes (both branches are x, whatever
// other holds) and sums the gradient back over them.
func expand(tp *tensor.Tape, x, other *tensor.Tensor, shape []int) *tensor.Tensor {
	if slices.Equal(x.Shape(), shape) {
		return x
	}
	return tp.Where(other, x, x)
}

// Loc returns the location (mean), of the batch shape.
func (d *Normal) Loc() *tensor.Tensor { return d.loc }

// Scale returns the scale (standard deviation), of the batch shape.
func (d *Normal) Scale() *tensor.Tensor { return d.scale }

// BatchShape returns the broadcast shape of the location and the scale.
func (d *Normal) BatchShape() []int { return d.loc.Shape() }

// EventShape returns [] (nil): each draw is one number.
func (d *Normal) EventShape() []int { return nil }

// draw writes loc + scale·ε into y, with ε ~ N(0, 1) drawn from rng, and
// returns ε (as float32) into eps when eps is not nil. The float32 rounding
// is that of the tensor operations, so Sample and RSample agree exactly.
func (d *Normal) draw(y, eps []float32, rng *rand.Rand) {
	loc, scale := d.loc.Data(), d.scale.Data()
	for i := range y {
		e := float32(rng.NormFloat64())
		if eps != nil {
			eps[i] = e
		}
		y[i] = loc[i] + float32(scale[i]*e)
	}
}

// Sample draws loc + scale·ε with ε ~ N(0, 1) from rng.NormFloat64 at every
// batch position, into a tensor of the batch shape without gradient.
func (d *Normal) Sample(rng *rand.Rand) *tensor.Tensor {
	out := d.tp.AddScalar(d.tp.Detach(d.loc), 0) // memory on d's tape
	d.draw(out.Data(), nil, rng)
	return out
}

// RSample draws the same value as Sample with the same rng state, but
// reparameterized: loc + scale·ε is recorded on the tape with ε fixed, so
// gradients flow to loc and scale (the pathwise estimator of SAC and DDPG
// style actors).
func (d *Normal) RSample(rng *rand.Rand) *tensor.Tensor {
	eps := d.tp.MulScalar(d.tp.Detach(d.loc), 0) // memory on d's tape
	e := eps.Data()
	for i := range e {
		e[i] = float32(rng.NormFloat64())
	}
	return d.tp.Add(d.loc, d.tp.Mul(d.scale, eps))
}

// LogProb returns the log-density −((value − loc)/scale)²/2 − log scale −
// ½·log 2π, with value broadcast against the batch shape; the result has the
// broadcast shape and is differentiable with respect to loc, scale and value.
//
// LogProb panics with ErrShape if value does not broadcast with the batch
// shape.
func (d *Normal) LogProb(value *tensor.Tensor) *tensor.Tensor {
	if _, ok := broadcast(d.shape, value.Shape(), d.loc.Shape()); !ok {
		panicf(ErrShape, "Normal.LogProb of a value of shape %v with batch shape %v", value.Shape(), d.loc.Shape())
	}
	tp := d.tp
	z := tp.Div(tp.Sub(value, d.loc), d.scale)
	return tp.Sub(tp.MulScalar(tp.Mul(z, z), -0.5), tp.AddScalar(tp.Log(d.scale), halfLog2Pi))
}

// Entropy returns ½ + ½·log 2π + log scale at every batch position,
// differentiable with respect to the scale.
func (d *Normal) Entropy() *tensor.Tensor {
	return d.tp.AddScalar(d.tp.Log(d.scale), 0.5+halfLog2Pi)
}

// Mode returns the location itself: the mode (and mean) of a normal
// distribution.
func (d *Normal) Mode() *tensor.Tensor { return d.loc }
