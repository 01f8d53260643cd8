package redq

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or an action space REDQ does not support.
var ErrConfig = errors.New("redq: invalid configuration")

// Config holds REDQ's hyperparameters. DefaultConfig returns the settings
// of Tianshou's Pendulum REDQ test with the ensemble of the REDQ paper and
// Tianshou's REDQ (10 critics).
type Config struct {
	actorcritic.Continuous
	// Temperature sets α: fixed at 0.2 by default, as Tianshou's test.
	actorcritic.Temperature
	// TargetEntropy is the entropy AutoAlpha aims at; nil means −dim(A).
	TargetEntropy *float64 `json:"target_entropy"`
	// EnsembleSize is the number N of critics, at least 1. Default 10.
	EnsembleSize int `json:"ensemble_size"`
	// SubsetSize is the number M of target critics, drawn without
	// replacement for every target, whose minimum the targets take; 1 ≤ M
	// ≤ N. Default 2.
	SubsetSize int `json:"subset_size"`
	// ActorDelay is the number of critic updates per update of the actor
	// and α (Tianshou's actor_delay). The update-to-data ratio G is the
	// trainer's update_per_step; ActorDelay = G updates the actor once per
	// env step, as the REDQ paper does. Default 3, the update_per_step of
	// Tianshou's test.
	ActorDelay int `json:"actor_delay"`
	// DeterministicEval makes the policy act with tanh of the mean when not
	// collecting training data. Default true.
	DeterministicEval bool `json:"deterministic_eval"`
	// Noise is exploration noise added to the sampled actions while
	// collecting training data (Tianshou's exploration_noise). Default
	// none.
	Noise policy.NoiseConfig `json:"noise"`
}

// DefaultConfig returns Tianshou's Pendulum REDQ test settings
// (test/continuous/test_redq.py) with 10 critics instead of its 4: an actor
// of 64-64 with a state-dependent, unbounded log σ, critics of 64-64, Adam
// with lr 1e-4 for the actor and 1e-3 for the critics, γ = 0.99, τ = 0.005,
// 1-step returns, a fixed α = 0.2, subsets of 2, the actor updated every 3
// critic updates, and deterministic evaluation.
func DefaultConfig() Config {
	c := Config{Continuous: actorcritic.DefaultContinuous(), Temperature: actorcritic.DefaultTemperature(),
		EnsembleSize: 10, SubsetSize: 2, ActorDelay: 3, DeterministicEval: true}
	c.ActorHidden, c.Critic.Hidden = []int{64, 64}, []int{64, 64}
	c.ActorOptim.Optim.LR = 1e-4
	c.NStep = 1
	c.Alpha, c.AutoAlpha = 0.2, false
	return c
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
	case c.EnsembleSize < 1:
		return fmt.Errorf("%w: ensemble_size %d < 1", ErrConfig, c.EnsembleSize)
	case c.SubsetSize < 1:
		return fmt.Errorf("%w: subset_size %d < 1", ErrConfig, c.SubsetSize)
	case c.SubsetSize > c.EnsembleSize:
		return fmt.Errorf("%w: ensemble_size %d smaller than subset_size %d", ErrConfig, c.EnsembleSize, c.SubsetSize)
	case c.ActorDelay < 1:
		return fmt.Errorf("%w: actor_delay %d < 1", ErrConfig, c.ActorDelay)
	}
	return nil
}
