package distribution

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// atanhLimit is the largest float32 below 1: LogProb clamps values to
// [−atanhLimit, atanhLimit] before inverting tanh, so that a value rounded to
// ±1 keeps a finite pre-image (atanh(1 − 2⁻²⁴) ≈ 8.66).
const atanhLimit = 1 - 0x1p-24

// TanhNormal is the distribution of a = tanh(u) with u ~ N(loc, scale²) at
// every position of a batch: the squashed Gaussian policy of SAC (Haarnoja
// et al. 2018, appendix C), PyTorch's
// TransformedDistribution(Normal(loc, scale), TanhTransform(cache_size=1)).
// Values lie in (−1, 1); the batch shape is that of the Normal and the event
// shape is []. Wrap it in an Independent to sum log-probabilities over the
// action dimensions.
//
// The density follows from the change of variables a = tanh(u):
//
//	log p(a) = log N(u; loc, scale²) − log(1 − tanh²(u)),
//	log(1 − tanh²(u)) = 2·(log 2 − u − softplus(−2u)),
//
// the second form being exact and free of the cancellation of 1 − tanh²(u)
// for large |u|.
//
// There is no Entropy: it has no closed form, and PyTorch's transformed
// distribution has none either (SAC estimates it by −log p of a sample).
//
// The zero TanhNormal has no parameters: call Set first. Like a Tape, it is
// not safe for concurrent use.
type TanhNormal struct {
	n Normal
	// a is the last value Sample or RSample returned and u its pre-image,
	// which LogProb uses for a instead of atanh(a) (PyTorch's cache).
	a, u *tensor.Tensor
}

// Set sets d to the distribution of tanh(u), u ~ N(loc, scale²), with the
// broadcasting, tape and errors of Normal.Set.
func (d *TanhNormal) Set(tp *tensor.Tape, loc, scale *tensor.Tensor) error {
	if err := d.n.Set(tp, loc, scale); err != nil {
		return err
	}
	d.a, d.u = nil, nil
	return nil
}

// Loc returns the location of the Gaussian before squashing.
func (d *TanhNormal) Loc() *tensor.Tensor { return d.n.loc }

// Scale returns the scale of the Gaussian before squashing.
func (d *TanhNormal) Scale() *tensor.Tensor { return d.n.scale }

// BatchShape returns the broadcast shape of the location and the scale.
func (d *TanhNormal) BatchShape() []int { return d.n.BatchShape() }

// EventShape returns [] (nil).
func (d *TanhNormal) EventShape() []int { return nil }

// Sample draws tanh(u) with u drawn as Normal.Sample draws it, without
// gradient, and remembers u for LogProb.
func (d *TanhNormal) Sample(rng *rand.Rand) *tensor.Tensor {
	d.u = d.n.Sample(rng)
	d.a = d.n.tp.Tanh(d.u)
	return d.a
}

// RSample draws tanh(u) with u = loc + scale·ε recorded on the tape (see
// Normal.RSample), so gradients flow to loc and scale, and remembers u for
// LogProb: SAC's actor loss α·log p(a) − Q(s, a) is then differentiable
// through both terms.
func (d *TanhNormal) RSample(rng *rand.Rand) *tensor.Tensor {
	d.u = d.n.RSample(rng)
	d.a = d.n.tp.Tanh(d.u)
	return d.a
}

// LogProb returns log p(value) by the formula in the type's documentation.
// For the tensor that Sample or RSample returned last, u is the remembered
// pre-image (exact, and differentiable through the sample); for any other
// value u = atanh(value), with value clamped to ±(1 − 2⁻²⁴) so that values
// rounded to ±1 stay finite. The result has the broadcast shape of value and
// the batch shape, and is differentiable with respect to loc and scale.
//
// LogProb panics with ErrShape if value does not broadcast with the batch
// shape.
func (d *TanhNormal) LogProb(value *tensor.Tensor) *tensor.Tensor {
	tp := d.n.tp
	u := d.u
	if value != d.a || u == nil {
		v := tp.Clamp(value, -atanhLimit, atanhLimit)
		// atanh(v) = ½·(log(1 + v) − log(1 − v))
		u = tp.MulScalar(tp.Sub(tp.Log(tp.AddScalar(v, 1)), tp.Log(tp.AddScalar(tp.Neg(v), 1))), 0.5)
	}
	// log p(a) = log N(u) + 2·(u + softplus(−2u) − log 2)
	corr := tp.MulScalar(tp.AddScalar(tp.Add(u, tp.Softplus(tp.MulScalar(u, -2))), -math.Ln2), 2)
	return tp.Add(d.n.LogProb(u), corr)
}

// Mode returns tanh(loc), the image of the Gaussian's mode: the deterministic
// action of SAC at evaluation. (The density of a itself may peak elsewhere
// when the scale is large.)
func (d *TanhNormal) Mode() *tensor.Tensor { return d.n.tp.Tanh(d.n.loc) }

// Index returns the distributions at idx of the batch axes (the Gaussian's
// parameters indexed as Normal.Index indexes them). The remembered sample
// is not carried over. It is the batch.Leaf method.
func (d *TanhNormal) Index(idx ...nd.Index) batch.Leaf {
	return &TanhNormal{n: d.n.indexed(idx)}
}

// Stack joins d and rest, TanhNormals of d's batch shape, along a new batch
// axis, as Normal.Stack does. It is the batch.Leaf method.
func (d *TanhNormal) Stack(axis int, rest ...batch.Leaf) (batch.Leaf, error) {
	return d.join("Stack", axis, rest)
}

// Cat concatenates d and rest along batch axis 0, as Normal.Cat does. It is
// the batch.Leaf method.
func (d *TanhNormal) Cat(rest ...batch.Leaf) (batch.Leaf, error) {
	return d.join("Cat", 0, rest)
}

func (d *TanhNormal) join(op string, axis int, rest []batch.Leaf) (batch.Leaf, error) {
	ds, err := sameKind(op, d, rest)
	if err != nil {
		return nil, err
	}
	n, err := joinNormals(op, axis, ds, func(x *TanhNormal) *Normal { return &x.n })
	if err != nil {
		return nil, err
	}
	return &TanhNormal{n: n}, nil
}

// Equal reports whether other is a TanhNormal with the same locations and
// scales. batch.Equal uses it.
func (d *TanhNormal) Equal(other batch.Leaf) bool {
	o, ok := other.(*TanhNormal)
	return ok && d.n.Equal(&o.n)
}

// String describes d by its parameters' shapes.
func (d *TanhNormal) String() string {
	return fmt.Sprintf("TanhNormal(loc: %v, scale: %v)", d.n.loc.Shape(), d.n.scale.Shape())
}
