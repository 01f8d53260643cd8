package crr

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
var ErrConfig = errors.New("crr: invalid configuration")

// Filter names the weight f(Â) CRR gives the logged action's
// log-probability in the actor's loss.
type Filter string

const (
	// Exp weighs by exp(Â/β), bounded above by RatioUpperBound.
	Exp Filter = "exp"
	// Binary weighs by 1 where Â > 0 and 0 elsewhere: behaviour cloning of
	// the actions the critic finds better than the policy's average.
	Binary Filter = "binary"
	// All weighs every action by 1: behaviour cloning.
	All Filter = "all"
)

// Config holds the hyperparameters of discrete CRR. DefaultConfig returns
// the settings of Tianshou's CartPole test; a zero field means "off" or the
// default its comment names.
type Config struct {
	// Hidden lists the hidden layer sizes of the actor and of the critic,
	// two MLPs with ReLU of the same shape. Default [64, 64].
	Hidden []int `json:"hidden"`
	// Gamma is the discount factor γ in [0, 1]. Default 0.99.
	Gamma float64 `json:"gamma"`
	// NStep is the number of steps of the critic's returns, at least 1.
	// Default 1.
	NStep int `json:"n_step"`
	// TargetUpdateFreq, when positive, copies the actor and the critic into
	// their target networks every TargetUpdateFreq gradient steps. Default
	// 320.
	TargetUpdateFreq int `json:"target_update_freq"`
	// Tau, when positive, moves the target networks towards the actor and
	// the critic by Polyak averaging after every gradient step. Exactly one
	// of TargetUpdateFreq and Tau must be positive. Default 0.
	Tau float64 `json:"tau"`

	// Filter is the policy-improvement mode: Exp, Binary or All. Default
	// Exp.
	Filter Filter `json:"policy_improvement_mode"`
	// Beta is the temperature β > 0 of the Exp filter, exp(Â/β). Default 1.
	Beta float64 `json:"beta"`
	// RatioUpperBound bounds the Exp filter's weight above, > 0. Default 20.
	RatioUpperBound float64 `json:"ratio_upper_bound"`
	// MinQWeight is the weight of the conservative penalty on the critic
	// (algo.ConservativePenalty), ≥ 0. Default 10.
	MinQWeight float64 `json:"min_q_weight"`

	// Optim configures Adam, over the actor's and the critic's parameters.
	// Default PyTorch's Adam with lr 7e-4.
	Optim optim.AdamConfig `json:"optim"`
	// MaxGradNorm, when positive, clips the gradients' global L2 norm
	// before each step. Default 0: no clipping.
	MaxGradNorm float64 `json:"max_grad_norm"`
	// DeterministicEval makes the policy act with the most likely action
	// outside training steps; it samples otherwise. Default true.
	DeterministicEval bool `json:"deterministic_eval"`
}

// DefaultConfig returns the settings of Tianshou's CartPole test of discrete
// CRR (test/offline/test_discrete_crr.py) and of its DiscreteCRR defaults:
// hidden layers of 64 and 64, γ = 0.99, one-step targets, target networks
// copied every 320 gradient steps, the exp filter with β = 1 and an upper
// bound of 20, a penalty weight of 10, Adam with lr 7e-4.
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 7e-4
	return Config{
		Hidden:            []int{64, 64},
		Gamma:             0.99,
		NStep:             1,
		TargetUpdateFreq:  320,
		Filter:            Exp,
		Beta:              1,
		RatioUpperBound:   20,
		MinQWeight:        10,
		Optim:             o,
		DeterministicEval: true,
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
	case c.Filter != Exp && c.Filter != Binary && c.Filter != All:
		return bad("policy_improvement_mode %q (want exp, binary or all)", c.Filter)
	case !(c.Beta > 0) || math.IsInf(c.Beta, 0):
		return bad("beta %v; want finite > 0", c.Beta)
	case !(c.RatioUpperBound > 0) || math.IsInf(c.RatioUpperBound, 0):
		return bad("ratio_upper_bound %v; want finite > 0", c.RatioUpperBound)
	case !finite(c.MinQWeight):
		return bad("min_q_weight %v; want finite ≥ 0", c.MinQWeight)
	case !finite(c.MaxGradNorm):
		return bad("max_grad_norm %v", c.MaxGradNorm)
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
