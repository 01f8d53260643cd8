package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/rppo"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// Recurrent PPO: a GRU policy learned from sequences with the hidden states
// stored at collection, for partially observed envs (CartPoleNoVel-v1).

func init() {
	Register("rppo", Algorithm[rppo.Config]{
		Doc: "recurrent PPO (GRU shared by actor and critic, sequences from stored hidden states); on-policy, Discrete actions",
		Defaults: func(envID string) (*rppo.Config, RunDefaults) {
			cfg := rppo.DefaultConfig()
			return &cfg, RunDefaults{
				Trainer: onPolicyTrainer(trainer.Config{Epochs: 20, StepPerEpoch: 10_000, StepPerCollect: 512,
					RepeatPerCollect: 10, BatchSize: 128}),
				TrainEnvs: 8, TestEnvs: 100, BufferSize: 20_000,
			}
		},
		New: func(c *rppo.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return rppo.New(*c, obs, act, rng)
		},
	})
}
