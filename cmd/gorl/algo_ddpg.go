package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/ddpg"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// DDPG with the settings of Tianshou's Pendulum test; on another env
// (MountainCarContinuous) the actor's tanh is unscaled (max_action 1) and
// the noise is in the units of the [−1, 1] actions.
func init() {
	Register("ddpg", Algorithm[ddpg.Config]{
		Doc: "deep deterministic policy gradient (Gaussian or OU noise, n-step); off-policy, Box actions",
		Defaults: func(envID string) (*ddpg.Config, RunDefaults) {
			// test/continuous/test_ddpg.py.
			cfg := ddpg.DefaultConfig()
			if envID != "Pendulum-v1" {
				cfg.MaxAction, cfg.Noise.Sigma = 1, 0.1
			}
			return &cfg, continuousRun(20_000, 8, 0.125)
		},
		New: func(c *ddpg.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return ddpg.New(*c, obs, act, rng)
		},
	})
}

// continuousRun returns the run settings Tianshou's Pendulum tests of the
// off-policy actor-critics share: 5 epochs of stepPerEpoch env steps,
// collections of one step per env of envs training envs, updatePerStep
// gradient steps per env step on batches of 128, a replay buffer of 20,000,
// and 100 test episodes without exploration noise, with test-in-train. The
// run stops at the env's registered stop threshold (−250 on Pendulum).
func continuousRun(stepPerEpoch, envs int, updatePerStep float64) RunDefaults {
	return RunDefaults{
		Trainer: trainer.Config{Epochs: 5, StepPerEpoch: stepPerEpoch, StepPerCollect: envs,
			UpdatePerStep: updatePerStep, BatchSize: 128, TestEpisodes: 100, TestInTrain: true, LogInterval: 1000},
		TrainEnvs: envs, TestEnvs: 100, BufferSize: 20_000,
	}
}
