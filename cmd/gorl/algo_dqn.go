package main

import (
	"math/rand/v2"

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
	Register("dqn", Algorithm[dqnRun]{
		Doc: "deep Q-learning (n-step, double, dueling, prioritized replay); off-policy, Discrete actions",
		Defaults: func(envID string) (*dqnRun, RunDefaults) {
			// Tianshou's CartPole test settings (test/discrete/test_dqn.py);
			// the run stops at the env's registered stop threshold (that
			// test's 195 on CartPole).
			return &dqnRun{Config: dqn.DefaultConfig()}, RunDefaults{
				Trainer: trainer.DefaultConfig(), TrainEnvs: 10, TestEnvs: 100, BufferSize: 20_000,
			}
		},
		New: func(c *dqnRun, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return dqn.New(c.Config, obs, act, rng)
		},
		Buffer: func(c *dqnRun, size, n int) (buffer.Buffer, error) { return replayBuffer(c.Prioritized, size, n) },
	})
}
