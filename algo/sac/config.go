package sac

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or an action space SAC does not support.
var ErrConfig = errors.New("sac: invalid configuration")

// Config holds SAC's hyperparameters. DefaultConfig returns the settings of
// Tianshou's Pendulum SAC test.
type Config struct {
	actorcritic.Continuous
	// Temperature sets α: tuned by default, from log α₀ = 0.
	actorcritic.Temperature
	// TargetEntropy is the entropy AutoAlpha aims at; nil means −dim(A).
	TargetEntropy *float64 `json:"target_entropy"`
	// StateDependentStd makes log σ an output of the actor (Tianshou's
	// conditioned_sigma); otherwise it is a parameter of its own starting at
	// LogStdInit. Either way it is clamped to [−20, 2]. Default true.
	StateDependentStd bool `json:"state_dependent_std"`
	// LogStdInit is the free log σ's starting value. Default 0.
	LogStdInit float64 `json:"log_std_init"`
	// DeterministicEval makes the policy act with tanh of the mean when not
	// collecting training data. Default true.
	DeterministicEval bool `json:"deterministic_eval"`
	// Noise is exploration noise added to the sampled actions while
	// collecting training data (Tianshou's exploration_noise). Default
	// none.
	Noise policy.NoiseConfig `json:"noise"`
}

// DefaultConfig returns Tianshou's Pendulum SAC test settings
// (test/continuous/test_sac_with_il.py): an actor of 128-128 with a
// state-dependent, unbounded log σ, twin critics of 128-128, Adam with lr
// 1e-3 for both, γ = 0.99, τ = 0.005, 3-step returns, α tuned from log α₀ =
// 0 with Adam lr 3e-4 towards the target entropy −dim(A), and deterministic
// evaluation.
func DefaultConfig() Config {
	return Config{Continuous: actorcritic.DefaultContinuous(), Temperature: actorcritic.DefaultTemperature(),
		StateDependentStd: true, DeterministicEval: true}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	if err := c.Continuous.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := c.Temperature.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	switch {
	case c.TargetEntropy != nil && (math.IsNaN(*c.TargetEntropy) || math.IsInf(*c.TargetEntropy, 0)):
		return fmt.Errorf("%w: target_entropy %v", ErrConfig, *c.TargetEntropy)
	case math.IsNaN(c.LogStdInit) || math.IsInf(c.LogStdInit, 0):
		return fmt.Errorf("%w: log_std_init %v", ErrConfig, c.LogStdInit)
	}
	return nil
}
