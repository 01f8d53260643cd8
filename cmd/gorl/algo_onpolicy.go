package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/a2c"
	"github.com/gorl/gorl/algo/pg"
	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// The on-policy algorithms: REINFORCE, A2C and PPO, each with the settings
// of Tianshou's test for CartPole (and for PPO on a Box action space, those
// of its Pendulum test, with the Normal head the action space calls for).

func init() {
	Register("pg", Algorithm[pg.Config]{
		Doc: "REINFORCE with return standardization; on-policy, Discrete or Box actions",
		Defaults: func(envID string) (*pg.Config, RunDefaults) {
			// test/discrete/test_reinforce.py.
			cfg := pg.DefaultConfig()
			return &cfg, RunDefaults{
				Trainer: onPolicyTrainer(trainer.Config{Epochs: 10, StepPerEpoch: 40_000, EpisodePerCollect: 8,
					RepeatPerCollect: 2, BatchSize: 64}),
				TrainEnvs: 8, TestEnvs: 100, BufferSize: 20_000,
			}
		},
		New: func(c *pg.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return pg.New(*c, obs, act, rng)
		},
	})
	Register("a2c", Algorithm[a2c.Config]{
		Doc: "advantage actor-critic (GAE, value loss, entropy bonus); on-policy, Discrete or Box actions",
		Defaults: func(envID string) (*a2c.Config, RunDefaults) {
			// test/discrete/test_a2c_with_il.py.
			cfg := a2c.DefaultConfig()
			return &cfg, RunDefaults{
				Trainer: onPolicyTrainer(trainer.Config{Epochs: 10, StepPerEpoch: 50_000, EpisodePerCollect: 16,
					RepeatPerCollect: 1, BatchSize: 64}),
				TrainEnvs: 16, TestEnvs: 100, BufferSize: 20_000,
			}
		},
		New: func(c *a2c.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return a2c.New(*c, obs, act, rng)
		},
	})
	Register("ppo", Algorithm[ppo.Config]{
		Doc: "proximal policy optimization (clipping, dual clip, value clip, GAE); on-policy, Discrete or Box actions",
		Defaults: func(envID string) (*ppo.Config, RunDefaults) {
			if boxActions(envID) {
				// test/continuous/test_ppo.py.
				cfg := ppo.ContinuousConfig()
				return &cfg, RunDefaults{
					Trainer: onPolicyTrainer(trainer.Config{Epochs: 5, StepPerEpoch: 150_000, EpisodePerCollect: 16,
						RepeatPerCollect: 2, BatchSize: 128}),
					TrainEnvs: 16, TestEnvs: 100, BufferSize: 20_000,
				}
			}
			// test/discrete/test_ppo_discrete.py: the speed run's settings.
			cfg := ppo.DefaultConfig()
			return &cfg, RunDefaults{
				Trainer: onPolicyTrainer(trainer.Config{Epochs: 10, StepPerEpoch: 50_000, StepPerCollect: 2000,
					RepeatPerCollect: 10, BatchSize: 64}),
				TrainEnvs: 20, TestEnvs: 100, BufferSize: 20_000,
			}
		},
		New: func(c *ppo.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return ppo.New(*c, obs, act, rng)
		},
	})
}

// onPolicyTrainer completes the numbers of an on-policy trainer with what
// Tianshou's tests share: 100 test episodes and test-in-train. The run
// stops at the env's registered stop threshold (Tianshou's test threshold:
// 195 on CartPole, −250 on Pendulum).
func onPolicyTrainer(tc trainer.Config) trainer.Config {
	tc.TestEpisodes, tc.TestInTrain, tc.LogInterval = 100, true, 1000
	return tc
}

// boxActions reports whether the env registered as envID acts in a Box
// space (false for an unknown id, which the run reports later).
func boxActions(envID string) bool {
	e, err := env.Make(envID)
	if err != nil {
		return false
	}
	defer e.Close()
	_, ok := e.ActionSpace().(*env.Box)
	return ok
}
