package nn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/tensor"
)

// Linear is a fully connected layer, PyTorch's nn.Linear: y = x·Wᵀ + b for x
// of shape [..., in], with W [out, in] and b [out] (or nil for no bias).
// Its parameters are named "weight" and "bias".
type Linear struct {
	Weight *tensor.Tensor
	Bias   *tensor.Tensor
}

// NewLinear returns a Linear layer with PyTorch's default initialization:
// W from kaiming_uniform(a = √5), which is U(−1/√in, 1/√in), and b from
// U(−1/√in, 1/√in), drawn from rng in that order.
//
// NewLinear panics with an error wrapping ErrConfig if in or out is less
// than 1.
func NewLinear(in, out int, rng *rand.Rand) *Linear {
	if in < 1 || out < 1 {
		panic(fmt.Errorf("%w: Linear(%d, %d)", ErrConfig, in, out))
	}
	l := &Linear{Weight: tensor.New(out, in).SetRequiresGrad(true), Bias: tensor.New(out).SetRequiresGrad(true)}
	l.Weight.FillKaimingUniform(rng, math.Sqrt(5))
	fillBias(l.Bias, in, rng)
	return l
}

// fillBias draws a bias from U(−1/√fanIn, 1/√fanIn), PyTorch's default for
// Linear and Conv2d.
func fillBias(b *tensor.Tensor, fanIn int, rng *rand.Rand) {
	bound := float32(1 / math.Sqrt(float64(fanIn)))
	b.FillUniform(rng, -bound, bound)
}

// Forward returns x·Wᵀ + b. It panics with tensor.ErrShape if the last
// dimension of x is not the layer's input size.
func (l *Linear) Forward(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor {
	return tp.Linear(x, l.Weight, l.Bias)
}

// Params returns "weight" and, unless it is nil, "bias".
func (l *Linear) Params() Params {
	ps := Params{{Name: "weight", Tensor: l.Weight}}
	if l.Bias != nil {
		ps = append(ps, Param{Name: "bias", Tensor: l.Bias})
	}
	return ps
}
