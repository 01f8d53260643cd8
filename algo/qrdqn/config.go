package qrdqn

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gorl/gorl/algo/quantile"
	"github.com/gorl/gorl/optim"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or an action space QR-DQN cannot use.
var ErrConfig = errors.New("qrdqn: invalid configuration")

// Config holds QR-DQN's hyperparameters: its network's and the ones the
// quantile family shares with DQN (quantile.Common, whose JSON fields sit
// beside these). DefaultConfig returns the settings of Tianshou's CartPole
// QR-DQN test.
type Config struct {
	// Hidden lists the hidden layer sizes of the quantile network, an MLP
	// with ReLU from the observation to NumQuantiles values per action.
	// Default [128, 128, 128, 128].
	Hidden []int `json:"hidden"`
	// NumQuantiles is the number N ≥ 1 of quantiles, at the fractions
	// τ̂ᵢ = (2i + 1)/(2N). Default 200.
	NumQuantiles int `json:"num_quantiles"`

	quantile.Common
}

// DefaultConfig returns the settings of Tianshou's CartPole QR-DQN test
// (test/discrete/test_qrdqn.py): an MLP with four hidden layers of 128, 200
// quantiles, γ = 0.9, 3-step returns, a target network copied every 320
// gradient steps, double Q-learning, κ = 1, Adam with lr 1e-3, ε 0.1 while
// training and 0.05 while testing. (That test holds ε at 0.1 for 10,000
// env steps, then lowers it to 0.01 by 50,000; CartPole is solved before
// the decay matters, and the linear schedule here starts at step 0, so the
// default keeps 0.1.)
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 1e-3
	return Config{
		Hidden:       []int{128, 128, 128, 128},
		NumQuantiles: 200,
		Common: quantile.Common{
			Gamma: 0.9, NStep: 3, TargetUpdateFreq: 320, Double: true, Kappa: 1,
			Optim: o, EpsTrain: 0.1, EpsTest: 0.05,
		},
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	if c.NumQuantiles < 1 {
		return fmt.Errorf("%w: num_quantiles %d < 1", ErrConfig, c.NumQuantiles)
	}
	if slices.ContainsFunc(c.Hidden, func(h int) bool { return h < 1 }) {
		return fmt.Errorf("%w: hidden sizes %v", ErrConfig, c.Hidden)
	}
	return c.Common.Validate(ErrConfig)
}
