package discretecql

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/qrdqn"
	"github.com/gorl/gorl/algo/quantile"
	"github.com/gorl/gorl/optim"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or an unsupported space.
var ErrConfig = errors.New("discretecql: invalid configuration")

// Config holds the hyperparameters of discrete CQL: QR-DQN's (the network,
// the number of quantiles and quantile.Common, whose JSON fields sit beside
// these) and the penalty's weight. DefaultConfig returns the settings of
// Tianshou's CartPole test.
type Config struct {
	// Hidden lists the hidden layer sizes of the quantile network, an MLP
	// with ReLU. Default [64].
	Hidden []int `json:"hidden"`
	// NumQuantiles is the number N ≥ 1 of quantiles. Default 200.
	NumQuantiles int `json:"num_quantiles"`
	// MinQWeight is the weight of the conservative penalty (algo.
	// ConservativePenalty on the quantiles' means) in the loss, ≥ 0; 0 is
	// offline QR-DQN. Default 10.
	MinQWeight float64 `json:"min_q_weight"`

	quantile.Common
}

// DefaultConfig returns the settings of Tianshou's CartPole test of discrete
// CQL (test/offline/test_discrete_cql.py): an MLP with one hidden layer of
// 64, 200 quantiles, γ = 0.99, 3-step returns, a target network copied
// every 500 gradient steps, double Q-learning, κ = 1, a penalty weight of
// 10, Adam with lr 3e-3, ε 0.001.
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 3e-3
	return Config{
		Hidden:       []int{64},
		NumQuantiles: 200,
		MinQWeight:   10,
		Common: quantile.Common{
			Gamma: 0.99, NStep: 3, TargetUpdateFreq: 500, Double: true, Kappa: 1,
			Optim: o, EpsTrain: 0.001, EpsTest: 0.001,
		},
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	if !(c.MinQWeight >= 0) || math.IsInf(c.MinQWeight, 0) {
		return fmt.Errorf("%w: min_q_weight %v; want finite ≥ 0", ErrConfig, c.MinQWeight)
	}
	if err := c.qrdqn().Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}

// qrdqn returns the QR-DQN configuration under the penalty.
func (c Config) qrdqn() qrdqn.Config {
	return qrdqn.Config{Hidden: c.Hidden, NumQuantiles: c.NumQuantiles, Common: c.Common}
}
