package bdqn

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or action space.
var ErrConfig = errors.New("bdqn: invalid configuration")

// Config holds the hyperparameters of BDQN. DefaultConfig returns the
// settings of Tianshou's BDQN test; a zero field means "off" or the default
// its comment names.
type Config struct {
	// CommonHidden lists the hidden layer sizes of the trunk the value and
	// the branches share (ReLU after each), at least one. Default [64, 64].
	CommonHidden []int `json:"common_hidden_sizes"`
	// ValueHidden and ActionHidden list the hidden layer sizes of the
	// state-value head and of each branch's advantage head. Default [64]
	// each.
	ValueHidden  []int `json:"value_hidden_sizes"`
	ActionHidden []int `json:"action_hidden_sizes"`
	// Bins is the number of actions per dimension of a Box action space,
	// discretized as env.ContinuousToDiscrete does, ≥ 2 (Tianshou's
	// action_per_branch). It is not used with a MultiDiscrete space.
	// Default 40.
	Bins int `json:"action_per_branch"`
	// Optim configures Adam. Default lr 1e-3.
	Optim optim.AdamConfig `json:"optim"`
	// Gamma is the discount factor γ in [0, 1]. Default 0.9.
	Gamma float64 `json:"gamma"`
	// NStep is the number of steps of the returns, ≥ 1. Default 1.
	NStep int `json:"n_step"`
	// TargetUpdateFreq is the number of gradient steps between copies of
	// the network into the target network, ≥ 1. Default 200.
	TargetUpdateFreq int `json:"target_update_freq"`
	// Double takes the target's value of the online network's greedy
	// action in each branch (double Q-learning), as Tianshou's BDQN does by
	// default; without it the target's own maximum. Default true.
	Double bool `json:"is_double"`
	// EpsTrain is ε of the training collection at step 0, decayed
	// exponentially: ε = max(EpsTrain·(1 − EpsDecay)^steps, EpsTest) (the
	// schedule of Tianshou's test). Default 0.76.
	EpsTrain float64 `json:"eps_train"`
	// EpsDecay is the decay of ε per env step in [0, 1). Default 1e-4.
	EpsDecay float64 `json:"eps_decay"`
	// EpsTest is ε when testing and the floor of the training ε. Default
	// 0.01.
	EpsTest float64 `json:"eps_test"`
	// Hold makes the ε-greedy exploration temporally extended (εz-greedy,
	// policy.HoldConfig): an exploring env keeps its random action (an
	// index drawn uniformly in every branch) for a duration drawn from a
	// zeta distribution. Default off.
	Hold policy.HoldConfig `json:"ez_greedy"`
}

// DefaultConfig returns the settings of Tianshou's BDQN test
// (test/discrete/test_bdqn.py, Pendulum through ContinuousToDiscrete): a
// trunk of 64 × 64, value and branch heads of 64, 40 actions per
// dimension, Adam with lr 1e-3, γ = 0.9, one-step returns, double
// Q-learning, the target copied every 200 gradient steps, ε from 0.76
// decayed by 10⁻⁴ per env step down to 0.01.
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 1e-3
	return Config{
		CommonHidden: []int{64, 64}, ValueHidden: []int{64}, ActionHidden: []int{64}, Bins: 40,
		Optim: o, Gamma: 0.9, NStep: 1, TargetUpdateFreq: 200, Double: true,
		EpsTrain: 0.76, EpsDecay: 1e-4, EpsTest: 0.01,
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	sizes := func(name string, hs []int, some bool) error {
		if some && len(hs) == 0 {
			return fmt.Errorf("%w: %s: want at least one hidden layer", ErrConfig, name)
		}
		for _, h := range hs {
			if h < 1 {
				return fmt.Errorf("%w: %s %v", ErrConfig, name, hs)
			}
		}
		return nil
	}
	for _, err := range []error{sizes("common_hidden_sizes", c.CommonHidden, true),
		sizes("value_hidden_sizes", c.ValueHidden, false), sizes("action_hidden_sizes", c.ActionHidden, false)} {
		if err != nil {
			return err
		}
	}
	unit := func(x float64) bool { return x >= 0 && x <= 1 }
	switch {
	case c.Bins < 2:
		return fmt.Errorf("%w: action_per_branch %d < 2", ErrConfig, c.Bins)
	case !unit(c.Gamma):
		return fmt.Errorf("%w: gamma %v outside [0, 1]", ErrConfig, c.Gamma)
	case c.NStep < 1:
		return fmt.Errorf("%w: n_step %d < 1", ErrConfig, c.NStep)
	case c.TargetUpdateFreq < 1:
		return fmt.Errorf("%w: target_update_freq %d < 1", ErrConfig, c.TargetUpdateFreq)
	case !unit(c.EpsTrain) || !unit(c.EpsTest):
		return fmt.Errorf("%w: eps_train %v, eps_test %v outside [0, 1]", ErrConfig, c.EpsTrain, c.EpsTest)
	case !(c.EpsDecay >= 0 && c.EpsDecay < 1) || math.IsNaN(c.EpsDecay):
		return fmt.Errorf("%w: eps_decay %v outside [0, 1)", ErrConfig, c.EpsDecay)
	}
	if err := c.Hold.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := c.Optim.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}
