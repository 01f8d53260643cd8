package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/crr"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

func init() {
	Register("crr", Algorithm[crr.Config]{
		Doc:     "discrete critic regularized regression (advantage-weighted cross entropy, CQL penalty); offline (--dataset), Discrete actions",
		Offline: true,
		Defaults: func(envID string) (*crr.Config, RunDefaults) {
			// Tianshou's test/offline/test_discrete_crr.py: 5 epochs of
			// 1,000 updates of 64, 100 test episodes.
			cfg := crr.DefaultConfig()
			return &cfg, RunDefaults{Trainer: trainer.Config{Epochs: 5, StepPerEpoch: 1000, BatchSize: 64,
				TestEpisodes: 100}, TestEnvs: 100}
		},
		New: func(c *crr.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return crr.New(*c, obs, act, rng)
		},
	})
}
