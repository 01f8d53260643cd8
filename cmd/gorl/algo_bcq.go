package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/bcq"
	"github.com/gorl/gorl/env"
)

func init() {
	Register("bcq", Algorithm[bcq.Config]{
		Doc:     "discrete batch-constrained Q-learning; offline (--dataset), Discrete actions",
		Offline: true,
		Defaults: func(envID string) (*bcq.Config, RunDefaults) {
			// Tianshou's test/offline/test_discrete_bcq.py, which tests
			// with the policy's ε-greedy exploration.
			cfg := bcq.DefaultConfig()
			return &cfg, RunDefaults{Trainer: offlineTrainer(true), TestEnvs: 100}
		},
		New: func(c *bcq.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return bcq.New(*c, obs, act, rng)
		},
	})
}
