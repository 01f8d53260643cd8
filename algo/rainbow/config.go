package rainbow

import (
	"errors"
	"fmt"

	"github.com/gorl/gorl/algo/categorical"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or a space Rainbow does not support.
var ErrConfig = errors.New("rainbow: invalid configuration")

// Config holds Rainbow's hyperparameters: the settings of the categorical
// DQN (trunk, support, returns, target network, Adam, β schedule) and the
// ε-greedy exploration on top of the noise, both at the top level of its
// JSON, and the noisy dueling head. DefaultConfig returns the settings of
// Tianshou's CartPole Rainbow test.
type Config struct {
	categorical.Settings
	categorical.Exploration
	// NoisyStd is σ₀ of the noisy layers' initial σ = σ₀/√in, finite > 0.
	NoisyStd float64 `json:"noisy_std"`
	// ValueHidden and AdvantageHidden list the hidden sizes of the dueling
	// streams (noisy layers with ReLU); empty means one noisy layer each.
	ValueHidden     []int `json:"value_hidden"`
	AdvantageHidden []int `json:"advantage_hidden"`
}

// DefaultConfig returns Tianshou's CartPole Rainbow test settings
// (test/discrete/test_rainbow.py): a trunk of four hidden layers of 128, a
// dueling head of one noisy layer per stream with σ₀ = 0.1, 51 atoms over
// [−10, 10], γ = 0.9, 3-step returns, a target network copied every 320
// gradient steps, Adam with lr 1e-3, ε 0.1 while training and 0.05 while
// testing on top of the noise, and β of a prioritized buffer annealed to 1
// over 50k env steps.
func DefaultConfig() Config {
	s := categorical.DefaultSettings()
	s.BetaFinal, s.BetaAnnealSteps = 1, 50_000
	return Config{Settings: s, NoisyStd: 0.1,
		Exploration: categorical.Exploration{EpsTrain: 0.1, EpsTest: 0.05}}
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
	if !(c.NoisyStd > 0) {
		return fmt.Errorf("%w: noisy_std %v; want > 0", ErrConfig, c.NoisyStd)
	}
	if err := c.head().Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}

func (c Config) head() categorical.Head {
	return categorical.Head{Dueling: true, ValueHidden: c.ValueHidden, AdvantageHidden: c.AdvantageHidden, NoisyStd: c.NoisyStd}
}
