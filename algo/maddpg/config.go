package maddpg

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/actorcritic"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or spaces MADDPG does not support.
var ErrConfig = errors.New("maddpg: invalid configuration")

// Config holds MADDPG's hyperparameters.
type Config struct {
	// Continuous holds the networks' and optimizers' settings; NStep must
	// be 1 and Map is not used (raw actions are mapped onto the bounds).
	actorcritic.Continuous
	// Sigma is the standard deviation of the Gaussian noise added to the
	// raw actions while exploring, finite ≥ 0.
	Sigma float64 `json:"sigma"`
	// BatchSize is the number of joint transitions per update, at least 1.
	BatchSize int `json:"batch_size"`
	// BufferSize is the replay buffer's capacity, at least BatchSize.
	BufferSize int `json:"buffer_size"`
	// Independent gives each agent a critic of its own observation and
	// action only: independent DDPG learners, the baseline of the MADDPG
	// paper. Default false.
	Independent bool `json:"independent"`
	// UpdateEvery is the number of env steps between updates in Episode,
	// at least 1.
	UpdateEvery int `json:"update_every"`
}

// DefaultConfig returns the settings of the MADDPG paper's particle
// experiments, scaled down: 64-64 actors and critics, γ = 0.95, τ = 0.01,
// Adam with lr 1e-3 for both, σ = 0.1, batches of 256, a buffer of
// 100,000 transitions and an update every 4 env steps.
func DefaultConfig() Config {
	c := Config{Continuous: actorcritic.DefaultContinuous(), Sigma: 0.1, BatchSize: 256, BufferSize: 100_000, UpdateEvery: 4}
	c.ActorHidden = []int{64, 64}
	c.Critic.Hidden = []int{64, 64}
	c.Gamma, c.Tau, c.NStep = 0.95, 0.01, 1
	c.ActorOptim.Optim.LR, c.CriticOptim.Optim.LR = 1e-3, 1e-3
	return c
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	if err := c.Continuous.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	switch {
	case c.NStep != 1:
		return fmt.Errorf("%w: n_step %d; MADDPG uses one-step targets", ErrConfig, c.NStep)
	case !(c.Sigma >= 0) || math.IsInf(c.Sigma, 0):
		return fmt.Errorf("%w: sigma %v; want finite ≥ 0", ErrConfig, c.Sigma)
	case c.BatchSize < 1:
		return fmt.Errorf("%w: batch_size %d < 1", ErrConfig, c.BatchSize)
	case c.BufferSize < c.BatchSize:
		return fmt.Errorf("%w: buffer_size %d < batch_size %d", ErrConfig, c.BufferSize, c.BatchSize)
	case c.UpdateEvery < 1:
		return fmt.Errorf("%w: update_every %d < 1", ErrConfig, c.UpdateEvery)
	}
	return nil
}
