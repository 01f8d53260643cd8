package c51

import (
	"errors"
	"fmt"

	"github.com/gorl/gorl/algo/categorical"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or a space C51 does not support.
var ErrConfig = errors.New("c51: invalid configuration")

// Config holds C51's hyperparameters: the settings of the categorical DQN
// (network, support, returns, target network, Adam, β schedule) and the
// ε-greedy exploration, both at the top level of its JSON. DefaultConfig
// returns the settings of Tianshou's CartPole C51 test.
type Config struct {
	categorical.Settings
	categorical.Exploration
}

// DefaultConfig returns Tianshou's CartPole C51 test settings
// (test/discrete/test_c51.py): an MLP of four hidden layers of 128 to 2 × 51
// logits, 51 atoms over [−10, 10], γ = 0.9, 3-step returns, a target
// network copied every 320 gradient steps, Adam with lr 1e-3, ε 0.1 while
// training and 0.05 while testing.
func DefaultConfig() Config {
	return Config{
		Settings:    categorical.DefaultSettings(),
		Exploration: categorical.Exploration{EpsTrain: 0.1, EpsTest: 0.05},
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	if err := c.Settings.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := c.Exploration.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}
