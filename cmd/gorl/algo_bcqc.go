package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/bcqc"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

func init() {
	Register("bcq-continuous", Algorithm[bcqc.Config]{
		Doc:     "batch-constrained Q-learning for continuous actions (VAE, perturbation actor, twin critics); offline (--dataset), Box actions",
		Offline: true,
		Defaults: func(envID string) (*bcqc.Config, RunDefaults) {
			// Tianshou's test/offline/test_bcq.py: 5 epochs of 500
			// updates of 32 transitions, 10 test episodes.
			cfg := bcqc.DefaultConfig()
			return &cfg, RunDefaults{Trainer: trainer.Config{Epochs: 5, StepPerEpoch: 500, BatchSize: 32, TestEpisodes: 10}, TestEnvs: 10}
		},
		New: func(c *bcqc.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return bcqc.New(*c, obs, act, rng)
		},
	})
}
