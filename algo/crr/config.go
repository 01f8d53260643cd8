package crr

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gorl/gorl/algo"
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

	// DeterministicEval makes the policy act with the most likely action
	// outside training steps; it samples otherwise. Default true.
	DeterministicEval bool `json:"deterministic_eval"`

	// QSettings are γ, the critic's returns' steps, the target update of
	// the actor and the critic, Adam (over both) and clipping. Default γ
	// 0.99, one-step returns, copies every 320 steps, lr 7e-4, no
	// clipping.
	algo.QSettings
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
		Filter:            Exp,
		Beta:              1,
		RatioUpperBound:   20,
		MinQWeight:        10,
		DeterministicEval: true,
		QSettings:         algo.QSettings{Gamma: 0.99, NStep: 1, TargetUpdateFreq: 320, Optim: o},
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
	}
	finite := func(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }
	if err := c.QSettings.Validate(ErrConfig); err != nil {
		return err
	}
	switch {
	case c.Filter != Exp && c.Filter != Binary && c.Filter != All:
		return bad("policy_improvement_mode %q (want exp, binary or all)", c.Filter)
	case !(c.Beta > 0) || math.IsInf(c.Beta, 0):
		return bad("beta %v; want finite > 0", c.Beta)
	case !(c.RatioUpperBound > 0) || math.IsInf(c.RatioUpperBound, 0):
		return bad("ratio_upper_bound %v; want finite > 0", c.RatioUpperBound)
	case !finite(c.MinQWeight):
		return bad("min_q_weight %v; want finite ≥ 0", c.MinQWeight)
	}
	for _, h := range c.Hidden {
		if h < 1 {
			return bad("hidden sizes %v", c.Hidden)
		}
	}
	return nil
}

func (c Config) clone() Config {
	c.Hidden = slices.Clone(c.Hidden)
	return c
}
