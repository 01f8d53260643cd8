package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/rppo"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// Recurrent PPO: a GRU or LSTM policy learned from sequences with the
// hidden states stored at collection, for partially observed envs
// (CartPoleNoVel-v1, PendulumNoVel-v1) and memory tasks (TMaze-v0).

func init() {
	Register("rppo", Algorithm[rppo.Config]{
		Doc: "recurrent PPO (GRU or LSTM, shared or separate actor and critic trunks, sequences from stored hidden states); on-policy, Discrete or Box actions",
		Defaults: func(envID string) (*rppo.Config, RunDefaults) {
			cfg := rppo.DefaultConfig()
			if boxActions(envID) {
				// PendulumNoVel-v1: PPO's Pendulum discounting (γ 0.95,
				// λ 0.95), a trunk each for actor and critic, and the
				// rewards scaled down a hundredfold for the critic.
				cfg.SeparateTrunks = true
				cfg.Gamma, cfg.GAELambda, cfg.RewardScale = 0.95, 0.95, 0.01
				return &cfg, RunDefaults{
					Trainer: onPolicyTrainer(trainer.Config{Epochs: 10, StepPerEpoch: 20_000, StepPerCollect: 2048,
						RepeatPerCollect: 5, BatchSize: 256}),
					TrainEnvs: 16, TestEnvs: 100, BufferSize: 20_000,
				}
			}
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
