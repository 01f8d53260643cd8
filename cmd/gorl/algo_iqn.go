package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/iqn"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
)

// iqnRun is IQN's run configuration: IQN's own, and prioritized replay.
type iqnRun struct {
	iqn.Config
	// Prioritized replays transitions in proportion to their losses with
	// these settings; null means uniform replay.
	Prioritized *buffer.PriorityConfig `json:"prioritized"`
}

func init() {
	Register("iqn", Algorithm[iqnRun]{
		Doc: "implicit quantile networks (n-step, double, prioritized replay); off-policy, Discrete actions",
		Defaults: func(envID string) (*iqnRun, RunDefaults) {
			// Tianshou's CartPole test settings (test/discrete/test_iqn.py).
			return &iqnRun{Config: iqn.DefaultConfig()}, quantileDefaults()
		},
		New: func(c *iqnRun, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return iqn.New(c.Config, obs, act, rng)
		},
		Buffer: func(c *iqnRun, size, n int) (buffer.Buffer, error) {
			return quantileBuffer(c.Prioritized, size, n)
		},
	})
}
