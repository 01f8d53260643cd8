package nn

import (
	"fmt"

	"github.com/gorl/gorl/tensor"
)

// Activation names an elementwise nonlinearity. It is a Layer without
// parameters, so it can stand in a Sequential, and a string, so it can be
// written in a JSON configuration.
type Activation string

// The activations, with PyTorch's default constants.
const (
	Identity  Activation = "identity"
	ReLU      Activation = "relu"
	Tanh      Activation = "tanh"
	Sigmoid   Activation = "sigmoid"
	ELU       Activation = "elu"        // α = 1
	LeakyReLU Activation = "leaky_relu" // negative slope 0.01
	Softplus  Activation = "softplus"   // β = 1, threshold 20
)

// Validate returns an error wrapping ErrConfig unless a is one of the
// constants above.
func (a Activation) Validate() error {
	switch a {
	case Identity, ReLU, Tanh, Sigmoid, ELU, LeakyReLU, Softplus:
		return nil
	}
	return fmt.Errorf("%w: unknown activation %q", ErrConfig, string(a))
}

// Forward applies the activation elementwise; Identity returns x itself.
// It panics with an error wrapping ErrConfig for an unknown activation.
func (a Activation) Forward(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor {
	switch a {
	case Identity:
		return x
	case ReLU:
		return tp.ReLU(x)
	case Tanh:
		return tp.Tanh(x)
	case Sigmoid:
		return tp.Sigmoid(x)
	case ELU:
		return tp.ELU(x, 1)
	case LeakyReLU:
		return tp.LeakyReLU(x, 0.01)
	case Softplus:
		return tp.Softplus(x)
	}
	panic(a.Validate())
}

// Params returns nil: an activation has no parameters.
func (a Activation) Params() Params { return nil }
