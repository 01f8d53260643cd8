package ddpg

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or an action space DDPG does not support.
var ErrConfig = errors.New("ddpg: invalid configuration")

// Config holds DDPG's hyperparameters. DefaultConfig returns the settings of
// Tianshou's Pendulum DDPG test.
type Config struct {
	actorcritic.Continuous
	// MaxAction scales the actor's tanh output, Tianshou's max_action
	// (finite > 0). With Map's clip and scale the raw actions beyond ±1 are
	// clipped before scaling. Default 1.
	MaxAction float64 `json:"max_action"`
	// Noise is the exploration noise added to the raw actions while
	// collecting training data.
	Noise policy.NoiseConfig `json:"noise"`
}

// DefaultConfig returns Tianshou's Pendulum DDPG test settings
// (test/continuous/test_ddpg.py): actor and critic MLPs of 128-128, γ =
// 0.99, τ = 0.005, 3-step returns, Adam with lr 1e-4 for the actor and 1e-3
// for the critic, max_action 2 (Pendulum's bound), and Gaussian exploration
// noise of σ = 0.1·max_action.
func DefaultConfig() Config {
	c := Config{Continuous: actorcritic.DefaultContinuous(), MaxAction: 2,
		Noise: policy.NoiseConfig{Kind: policy.GaussianNoise, Sigma: 0.2}}
	c.ActorOptim.Optim.LR = 1e-4
	return c
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	if err := c.Continuous.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if !(c.MaxAction > 0) || math.IsInf(c.MaxAction, 0) {
		return fmt.Errorf("%w: max_action %v; want finite > 0", ErrConfig, c.MaxAction)
	}
	if err := c.Noise.Validate(); err != nil {
		return fmt.Errorf("%w: noise: %w", ErrConfig, err)
	}
	return nil
}
