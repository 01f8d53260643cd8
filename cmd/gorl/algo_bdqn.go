package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/bdqn"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// BDQN with the settings of Tianshou's BDQN test (test_bdqn.py, Pendulum
// through ContinuousToDiscrete with 40 actions per dimension): 10 training
// envs, collections of 10 steps with one gradient step each (0.1 per step),
// batches of 128, a buffer of 20,000, 1,280 steps collected with the policy
// first, 10 epochs of 80,000 steps, 10 test episodes without exploration.
func init() {
	Register("bdqn", Algorithm[bdqn.Config]{
		Doc: "branching dueling Q-network (one Q head per action dimension); off-policy, MultiDiscrete actions or a Box discretized per dimension",
		Defaults: func(envID string) (*bdqn.Config, RunDefaults) {
			cfg := bdqn.DefaultConfig()
			tc := trainer.Config{Epochs: 10, StepPerEpoch: 80_000, StepPerCollect: 10, UpdatePerStep: 0.1,
				BatchSize: 128, PrefillSteps: 1280, TestEpisodes: 10, TestInTrain: true, LogInterval: 1000}
			return &cfg, RunDefaults{Trainer: tc, TrainEnvs: 10, TestEnvs: 10, BufferSize: 20_000}
		},
		New: func(c *bdqn.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return bdqn.New(*c, obs, act, rng)
		},
	})
}
