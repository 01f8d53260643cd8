package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/cql"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

func init() {
	Register("cql", Algorithm[cql.Config]{
		Doc:     "conservative Q-learning on SAC (importance-sampled log-sum-exp penalty, Lagrangian α′); offline (--dataset), Box actions",
		Offline: true,
		Defaults: func(envID string) (*cql.Config, RunDefaults) {
			// Tianshou's test/offline/test_cql.py: epochs of 500 updates
			// of 64; tested on 100 episodes as gorl's other Pendulum runs.
			cfg := cql.DefaultConfig()
			return &cfg, RunDefaults{Trainer: trainer.Config{Epochs: 5, StepPerEpoch: 500, BatchSize: 64,
				TestEpisodes: 100}, TestEnvs: 100}
		},
		New: func(c *cql.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return cql.New(*c, obs, act, rng)
		},
	})
}
