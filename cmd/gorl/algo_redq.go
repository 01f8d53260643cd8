package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/redq"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// REDQ with the settings of Tianshou's Pendulum test (its ensemble of 4),
// on every env.
func init() {
	Register("redq", Algorithm[redq.Config]{
		Doc: "randomized ensembled double Q-learning (SAC's actor, N critics, min over a random subset of M); off-policy, Box actions",
		Defaults: func(envID string) (*redq.Config, RunDefaults) {
			// test/continuous/test_redq.py: 8 training envs collecting one
			// step each, 3 updates per env step (the actor every 3), 1,000
			// random steps first.
			cfg := redq.DefaultConfig()
			cfg.EnsembleSize = 4
			return &cfg, RunDefaults{
				Trainer: trainer.Config{Epochs: 5, StepPerEpoch: 5000, StepPerCollect: 8, UpdatePerStep: 3,
					BatchSize: 64, PrefillSteps: 1000, PrefillRandom: true, TestEpisodes: 100, TestInTrain: true,
					LogInterval: 1000},
				TrainEnvs: 8, TestEnvs: 100, BufferSize: 20_000,
			}
		},
		New: func(c *redq.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return redq.New(*c, obs, act, rng)
		},
	})
}
