package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/npg"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// NPG with the settings of Tianshou's Pendulum test (test_npg.py), a
// Categorical head and γ 0.99 on a Discrete action space.
func init() {
	Register("npg", Algorithm[npg.Config]{
		Doc: "natural policy gradient (exact Fisher-vector products, conjugate gradient, GAE critic); on-policy, Discrete or Box actions",
		Defaults: func(envID string) (*npg.Config, RunDefaults) {
			cfg := npg.DefaultConfig()
			if boxActions(envID) {
				cfg = npg.ContinuousConfig()
			}
			return &cfg, naturalRunDefaults()
		},
		New: func(c *npg.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return npg.New(*c, obs, act, rng)
		},
	})
}

// naturalRunDefaults are the run settings of Tianshou's NPG and TRPO tests:
// 16 training envs, collections of 2048 steps learned in 2 passes over the
// whole collection (its batch size 99999), 5 epochs of 50,000 steps, 10
// test envs and episodes.
func naturalRunDefaults() RunDefaults {
	tc := onPolicyTrainer(trainer.Config{Epochs: 5, StepPerEpoch: 50_000, StepPerCollect: 2048,
		RepeatPerCollect: 2, BatchSize: 0})
	tc.TestEpisodes = 10
	return RunDefaults{Trainer: tc, TrainEnvs: 16, TestEnvs: 10, BufferSize: 50_000}
}
