package main

import (
	"math/rand/v2"
	"strings"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// dqnRun is the algorithm configuration of gorl's DQN runs: DQN's own, and
// prioritized replay, which lives in the buffer.
type dqnRun struct {
	dqn.Config
	// Prioritized replays transitions in proportion to their TD errors
	// with these settings; null means uniform replay.
	Prioritized *buffer.PriorityConfig `json:"prioritized"`
}

func init() {
	Register("dqn", Algorithm{
		Doc: "deep Q-learning (n-step, double, dueling, prioritized replay); off-policy, Discrete actions",
		Defaults: func(envID string) (any, RunDefaults) {
			// Tianshou's CartPole test settings (test/discrete/test_dqn.py),
			// with its stop threshold on CartPole; other envs stop at their
			// registered reward threshold.
			tc := trainer.DefaultConfig()
			if strings.HasPrefix(envID, "CartPole") {
				threshold := 195.0
				tc.RewardThreshold = &threshold
			}
			return &dqnRun{Config: dqn.DefaultConfig()}, RunDefaults{
				Trainer: tc, TrainEnvs: 10, TestEnvs: 100, BufferSize: 20_000,
			}
		},
		New: func(config any, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return dqn.New(config.(*dqnRun).Config, obs, act, rng)
		},
		Buffer: func(config any, size, n int) (buffer.Buffer, error) {
			c := config.(*dqnRun)
			if c.Prioritized == nil {
				return buffer.NewVector(buffer.Config{Size: size}, n)
			}
			return buffer.NewPrioritizedVector(buffer.Config{Size: size}, n, *c.Prioritized)
		},
	})
}
