package bc

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate, New and NewWithNetwork for
// an invalid configuration, an unsupported space, or a network that does not
// fit the action space.
var ErrConfig = errors.New("bc: invalid configuration")

// Config holds the hyperparameters of behaviour cloning. DefaultConfig
// returns the settings of Tianshou's imitation test; a zero field means
// "off" or the default its comment names.
type Config struct {
	// Hidden lists the hidden layer sizes of the network, an MLP with ReLU
	// from the observation (one axis) to one logit per action (Discrete) or
	// to the action (Box). Default [64, 64].
	Hidden []int `json:"hidden"`
	// Optim configures Adam. Default PyTorch's Adam with lr 1e-3.
	Optim optim.AdamConfig `json:"optim"`
	// MaxGradNorm, when positive, clips the gradients' global L2 norm
	// before each step. Default 0: no clipping.
	MaxGradNorm float64 `json:"max_grad_norm"`
	// Map maps the network's actions to a Box action space, and must be
	// the mapping of the policy that collected the data: the buffer holds
	// actions in that policy's form (before mapping), and the network
	// learns that form. Ignored for Discrete spaces. Default: no mapping.
	Map policy.BoxMapConfig `json:"map"`
}

// DefaultConfig returns the settings of Tianshou's imitation policy in its
// CartPole test (test/discrete/test_a2c_with_il.py): an MLP with two hidden
// layers of 64 and Adam with lr 1e-3, without gradient clipping.
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 1e-3
	return Config{Hidden: []int{64, 64}, Optim: o}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	for _, h := range c.Hidden {
		if h < 1 {
			return fmt.Errorf("%w: hidden sizes %v", ErrConfig, c.Hidden)
		}
	}
	if !(c.MaxGradNorm >= 0) || math.IsInf(c.MaxGradNorm, 0) {
		return fmt.Errorf("%w: max_grad_norm %v", ErrConfig, c.MaxGradNorm)
	}
	if err := c.Map.Validate(); err != nil {
		return fmt.Errorf("%w: map: %w", ErrConfig, err)
	}
	if err := c.Optim.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}

// clone returns c with its slices copied, so the caller's later changes do
// not reach the algorithm.
func (c Config) clone() Config {
	c.Hidden = slices.Clone(c.Hidden)
	return c
}
