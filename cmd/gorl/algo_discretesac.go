package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/discretesac"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// Discrete SAC with the settings of Tianshou's CartPole test, on every env.
func init() {
	Register("discrete-sac", Algorithm[discretesac.Config]{
		Doc: "soft actor-critic for discrete actions (categorical actor, twin Q heads, α); off-policy, Discrete actions",
		Defaults: func(envID string) (*discretesac.Config, RunDefaults) {
			// test/discrete/test_discrete_sac.py.
			cfg := discretesac.DefaultConfig()
			return &cfg, RunDefaults{
				Trainer: trainer.Config{Epochs: 5, StepPerEpoch: 10_000, StepPerCollect: 10, UpdatePerStep: 0.1,
					BatchSize: 64, TestEpisodes: 100, LogInterval: 1000},
				TrainEnvs: 10, TestEnvs: 100, BufferSize: 20_000,
			}
		},
		New: func(c *discretesac.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return discretesac.New(*c, obs, act, rng)
		},
	})
}
