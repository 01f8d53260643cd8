package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/ddpg"
	"github.com/gorl/gorl/algo/sac"
	"github.com/gorl/gorl/algo/td3"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// The off-policy actor-critics for Box actions: DDPG, TD3 and SAC, with the
// settings of Tianshou's Pendulum tests. On another env (MountainCarContinuous)
// the same settings apply with the actor's tanh unscaled (max_action 1) and
// the noises in the units of the [−1, 1] actions.

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
	Register("td3", Algorithm[td3.Config]{
		Doc: "twin delayed DDPG (twin critics, target smoothing, delayed actor); off-policy, Box actions",
		Defaults: func(envID string) (*td3.Config, RunDefaults) {
			// test/continuous/test_td3.py.
			cfg := td3.DefaultConfig()
			if envID != "Pendulum-v1" {
				cfg.MaxAction, cfg.Noise.Sigma, cfg.PolicyNoise, cfg.NoiseClip = 1, 0.1, 0.2, 0.5
			}
			return &cfg, continuousRun(20_000, 8, 0.125)
		},
		New: func(c *td3.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return td3.New(*c, obs, act, rng)
		},
	})
	Register("sac", Algorithm[sac.Config]{
		Doc: "soft actor-critic (squashed Gaussian, twin critics, auto-α); off-policy, Box actions",
		Defaults: func(envID string) (*sac.Config, RunDefaults) {
			// test/continuous/test_sac_with_il.py.
			cfg := sac.DefaultConfig()
			return &cfg, continuousRun(24_000, 10, 0.1)
		},
		New: func(c *sac.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return sac.New(*c, obs, act, rng)
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
