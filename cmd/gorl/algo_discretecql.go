package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/discretecql"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

func init() {
	Register("discrete-cql", Algorithm[discretecql.Config]{
		Doc:     "discrete conservative Q-learning (QR-DQN with the CQL penalty); offline (--dataset), Discrete actions",
		Offline: true,
		Defaults: func(envID string) (*discretecql.Config, RunDefaults) {
			// Tianshou's test/offline/test_discrete_cql.py: 5 epochs of
			// 1,000 updates of 32, 100 test episodes with the policy's
			// ε-greedy exploration (eps_test).
			cfg := discretecql.DefaultConfig()
			return &cfg, RunDefaults{Trainer: trainer.Config{Epochs: 5, StepPerEpoch: 1000, BatchSize: 32,
				TestEpisodes: 100, TestExploration: true}, TestEnvs: 100}
		},
		New: func(c *discretecql.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return discretecql.New(*c, obs, act, rng)
		},
	})
}
