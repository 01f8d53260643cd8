package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/qrdqn"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// quantileBuffer is the buffer of a quantile run: a vector buffer, with
// priorities when p is set.
func quantileBuffer(p *buffer.PriorityConfig, size, n int) (buffer.Buffer, error) {
	if p == nil {
		return buffer.NewVector(buffer.Config{Size: size}, n)
	}
	return buffer.NewPrioritizedVector(buffer.Config{Size: size}, n, *p)
}

// quantileDefaults are the run settings of Tianshou's CartPole tests of
// the quantile algorithms: 10 epochs of 10,000 env steps, collecting 10
// steps at a time with 0.1 gradient steps per env step, batch 64, 10
// training and 100 test envs, a buffer of 20,000.
func quantileDefaults() RunDefaults {
	t := trainer.DefaultConfig()
	t.Epochs = 10
	return RunDefaults{Trainer: t, TrainEnvs: 10, TestEnvs: 100, BufferSize: 20_000}
}

// qrdqnRun is QR-DQN's run configuration.
type qrdqnRun struct {
	qrdqn.Config
	// Prioritized replays transitions in proportion to their losses with
	// these settings; null means uniform replay.
	Prioritized *buffer.PriorityConfig `json:"prioritized"`
}

func init() {
	Register("qrdqn", Algorithm[qrdqnRun]{
		Doc: "quantile regression DQN (n-step, double, prioritized replay); off-policy, Discrete actions",
		Defaults: func(envID string) (*qrdqnRun, RunDefaults) {
			// Tianshou's CartPole test settings (test/discrete/test_qrdqn.py).
			return &qrdqnRun{Config: qrdqn.DefaultConfig()}, quantileDefaults()
		},
		New: func(c *qrdqnRun, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return qrdqn.New(c.Config, obs, act, rng)
		},
		Buffer: func(c *qrdqnRun, size, n int) (buffer.Buffer, error) {
			return quantileBuffer(c.Prioritized, size, n)
		},
	})
}
