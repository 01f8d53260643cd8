package discretecql

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gorl/gorl/optim"
)

// ErrConfig is wrapped by the errors of Validate, New and NewWithNetworks
// for an invalid configuration, an unsupported space, or networks that do
// not fit.
var ErrConfig = errors.New("discretecql: invalid configuration")

// Config holds the hyperparameters of discrete CQL. DefaultConfig returns
// the settings of Tianshou's CartPole test; a zero field means "off" or the
// default its comment names.
type Config struct {
	// Hidden lists the hidden layer sizes of the Q network, an MLP with
	// ReLU. Default [64].
	Hidden []int `json:"hidden"`
	// Gamma is the discount factor γ in [0, 1]. Default 0.99.
	Gamma float64 `json:"gamma"`
	// NStep is the number of steps of the returns, at least 1. Default 3.
	NStep int `json:"n_step"`
	// TargetUpdateFreq, when positive, copies the Q network into the
	// target network every TargetUpdateFreq gradient steps. Default 500.
	TargetUpdateFreq int `json:"target_update_freq"`
	// Tau, when positive, moves the target network towards the Q network
	// by Polyak averaging after every gradient step, θ′ ← τθ + (1 − τ)θ′.
	// Exactly one of TargetUpdateFreq and Tau must be positive. Default 0.
	Tau float64 `json:"tau"`
	// MinQWeight is the weight of the conservative penalty (algo.
	// ConservativePenalty) in the loss, ≥ 0; 0 is offline double DQN.
	// Default 10.
	MinQWeight float64 `json:"min_q_weight"`
	// Optim configures Adam. Default PyTorch's Adam with lr 3e-3.
	Optim optim.AdamConfig `json:"optim"`
	// MaxGradNorm, when positive, clips the gradients' global L2 norm
	// before each step. Default 0: no clipping.
	MaxGradNorm float64 `json:"max_grad_norm"`
	// Eps is ε of ε-greedy exploration in [0, 1], applied when the policy
	// acts with exploration on (Tianshou's eps_test with a test collector
	// that explores). Default 0.001.
	Eps float64 `json:"eps"`
}

// DefaultConfig returns the settings of Tianshou's CartPole test of discrete
// CQL (test/offline/test_discrete_cql.py): an MLP with one hidden layer of
// 64, γ = 0.99, 3-step returns, a target network copied every 500 gradient
// steps, a penalty weight of 10, Adam with lr 3e-3, ε 0.001.
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 3e-3
	return Config{
		Hidden:           []int{64},
		Gamma:            0.99,
		NStep:            3,
		TargetUpdateFreq: 500,
		MinQWeight:       10,
		Optim:            o,
		Eps:              0.001,
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
	}
	unit := func(x float64) bool { return x >= 0 && x <= 1 }
	finite := func(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }
	switch {
	case !unit(c.Gamma):
		return bad("gamma %v outside [0, 1]", c.Gamma)
	case c.NStep < 1:
		return bad("n_step %d < 1", c.NStep)
	case c.TargetUpdateFreq < 0:
		return bad("target_update_freq %d < 0", c.TargetUpdateFreq)
	case !unit(c.Tau):
		return bad("tau %v outside [0, 1]", c.Tau)
	case (c.TargetUpdateFreq > 0) == (c.Tau > 0):
		return bad("set exactly one of target_update_freq (%d) and tau (%v)", c.TargetUpdateFreq, c.Tau)
	case !finite(c.MinQWeight):
		return bad("min_q_weight %v; want finite ≥ 0", c.MinQWeight)
	case !finite(c.MaxGradNorm):
		return bad("max_grad_norm %v", c.MaxGradNorm)
	case !unit(c.Eps):
		return bad("eps %v outside [0, 1]", c.Eps)
	}
	for _, h := range c.Hidden {
		if h < 1 {
			return bad("hidden sizes %v", c.Hidden)
		}
	}
	if err := c.Optim.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}

func (c Config) clone() Config {
	c.Hidden = slices.Clone(c.Hidden)
	return c
}
