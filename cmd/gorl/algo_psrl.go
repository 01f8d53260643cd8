package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/psrl"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/tabular" // registers FrozenLake-v1 and NChain-v0
	"github.com/gorl/gorl/trainer"
)

func init() {
	Register("psrl", Algorithm[psrl.Config]{
		Doc: "posterior sampling on finite MDPs (Dirichlet transitions, Normal-Gamma rewards); on-policy, Discrete observations and actions",
		Defaults: func(envID string) (*psrl.Config, RunDefaults) {
			// Tianshou's test/modelbased/test_psrl.py: one training env,
			// one episode per collection, 5 epochs of 1,000 steps, 10 test
			// episodes; the run stops at NChain-v0's 3,400.
			cfg := psrl.DefaultConfig()
			return &cfg, RunDefaults{
				Trainer: trainer.Config{Epochs: 5, StepPerEpoch: 1000, EpisodePerCollect: 1, RepeatPerCollect: 1,
					TestEpisodes: 10, TestInTrain: true},
				TrainEnvs: 1, TestEnvs: 10, BufferSize: 50_000,
			}
		},
		New: func(c *psrl.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return psrl.New(*c, obs, act, rng)
		},
	})
}
