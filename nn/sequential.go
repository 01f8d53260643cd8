package nn

import (
	"math/rand/v2"
	"strconv"

	"github.com/gorl/gorl/tensor"
)

// Sequential applies its layers in order, PyTorch's nn.Sequential. The
// parameters of layer i are named "i.<name>", as PyTorch numbers them
// (activations and other layers without parameters take a number too).
type Sequential []Layer

// Forward feeds x through every layer in order.
func (s Sequential) Forward(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor {
	for _, l := range s {
		x = l.Forward(tp, x)
	}
	return x
}

// Params returns the layers' parameters, prefixed with their positions.
func (s Sequential) Params() Params {
	var ps Params
	for i, l := range s {
		ps = append(ps, l.Params().Prefixed(strconv.Itoa(i))...)
	}
	return ps
}

// SetTraining sets the mode of every layer that has one.
func (s Sequential) SetTraining(on bool) {
	for _, l := range s {
		SetTraining(l, on)
	}
}

// Flatten merges all dimensions after the first: [N, C, H, W] becomes
// [N, C·H·W] (PyTorch's nn.Flatten). The result is a view of x.
type Flatten struct{}

// Forward returns x flattened from dimension 1 on.
func (Flatten) Forward(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor {
	return tp.Flatten(x, 1, -1)
}

// Params returns nil.
func (Flatten) Params() Params { return nil }

// Dropout zeroes each element with probability P in training mode and scales
// the others by 1/(1 − P) (PyTorch's nn.Dropout); in evaluation mode it
// returns its input unchanged. The mask is drawn from the generator it was
// made with.
type Dropout struct {
	p        float32
	rng      *rand.Rand
	training bool
}

// NewDropout returns a Dropout layer in training mode. It panics with
// tensor.ErrArg at the first Forward unless 0 ≤ p ≤ 1.
func NewDropout(p float32, rng *rand.Rand) *Dropout {
	return &Dropout{p: p, rng: rng, training: true}
}

// Forward drops elements of x in training mode and returns x otherwise.
func (d *Dropout) Forward(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor {
	if !d.training {
		return x
	}
	return tp.Dropout(x, d.p, d.rng)
}

// SetTraining switches between training (dropping) and evaluation.
func (d *Dropout) SetTraining(on bool) { d.training = on }

// Params returns nil.
func (d *Dropout) Params() Params { return nil }
