package main

import (
	"math/rand/v2"
	"strings"

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
	Register("pg", Algorithm{
		Doc: "REINFORCE with return standardization; on-policy, Discrete or Box actions",
		Defaults: func(envID string) (any, RunDefaults) {
			// test/discrete/test_reinforce.py.
			cfg := pg.DefaultConfig()
			return &cfg, RunDefaults{
				Trainer: onPolicyTrainer(envID, trainer.Config{Epochs: 10, StepPerEpoch: 40_000, EpisodePerCollect: 8,
					RepeatPerCollect: 2, BatchSize: 64}),
				TrainEnvs: 8, TestEnvs: 100, BufferSize: 20_000,
			}
		},
		New: func(config any, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return pg.New(*config.(*pg.Config), obs, act, rng)
		},
	})
	Register("a2c", Algorithm{
		Doc: "advantage actor-critic (GAE, value loss, entropy bonus); on-policy, Discrete or Box actions",
		Defaults: func(envID string) (any, RunDefaults) {
			// test/discrete/test_a2c_with_il.py.
			cfg := a2c.DefaultConfig()
			return &cfg, RunDefaults{
				Trainer: onPolicyTrainer(envID, trainer.Config{Epochs: 10, StepPerEpoch: 50_000, EpisodePerCollect: 16,
					RepeatPerCollect: 1, BatchSize: 64}),
				TrainEnvs: 16, TestEnvs: 100, BufferSize: 20_000,
			}
		},
		New: func(config any, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return a2c.New(*config.(*a2c.Config), obs, act, rng)
		},
	})
	Register("ppo", Algorithm{
		Doc: "proximal policy optimization (clipping, dual clip, value clip, GAE); on-policy, Discrete or Box actions",
		Defaults: func(envID string) (any, RunDefaults) {
			if boxActions(envID) {
				// test/continuous/test_ppo.py.
				cfg := ppo.ContinuousConfig()
				tc := onPolicyTrainer(envID, trainer.Config{Epochs: 5, StepPerEpoch: 150_000, EpisodePerCollect: 16,
					RepeatPerCollect: 2, BatchSize: 128})
				if strings.HasPrefix(envID, "Pendulum") {
					threshold := -250.0 // that test's threshold; Gymnasium registers none
					tc.RewardThreshold = &threshold
				}
				return &cfg, RunDefaults{Trainer: tc, TrainEnvs: 16, TestEnvs: 100, BufferSize: 20_000}
			}
			// test/discrete/test_ppo_discrete.py: the speed run's settings.
			cfg := ppo.DefaultConfig()
			return &cfg, RunDefaults{
				Trainer: onPolicyTrainer(envID, trainer.Config{Epochs: 10, StepPerEpoch: 50_000, StepPerCollect: 2000,
					RepeatPerCollect: 10, BatchSize: 64}),
				TrainEnvs: 20, TestEnvs: 100, BufferSize: 20_000,
			}
		},
		New: func(config any, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return ppo.New(*config.(*ppo.Config), obs, act, rng)
		},
	})
}

// onPolicyTrainer completes the numbers of an on-policy trainer with what
// Tianshou's tests share: 100 test episodes, test-in-train, and on CartPole
// a stop at a mean test return of 195 (other envs stop at their registered
// threshold).
func onPolicyTrainer(envID string, tc trainer.Config) trainer.Config {
	tc.TestEpisodes, tc.TestInTrain, tc.LogInterval = 100, true, 1000
	if strings.HasPrefix(envID, "CartPole") {
		threshold := 195.0
		tc.RewardThreshold = &threshold
	}
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
