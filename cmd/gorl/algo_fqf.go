package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/fqf"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
)

// fqfRun is FQF's run configuration: FQF's own, and prioritized replay.
type fqfRun struct {
	fqf.Config
	// Prioritized replays transitions in proportion to their losses with
	// these settings; null means uniform replay.
	Prioritized *buffer.PriorityConfig `json:"prioritized"`
}

func init() {
	Register("fqf", Algorithm[fqfRun]{
		Doc: "fully parameterized quantile function (fraction proposal, n-step, double, prioritized replay); off-policy, Discrete actions",
		Defaults: func(envID string) (*fqfRun, RunDefaults) {
			// Tianshou's CartPole test settings (test/discrete/test_fqf.py).
			return &fqfRun{Config: fqf.DefaultConfig()}, quantileDefaults()
		},
		New: func(c *fqfRun, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return fqf.New(c.Config, obs, act, rng)
		},
		Buffer: func(c *fqfRun, size, n int) (buffer.Buffer, error) {
			return quantileBuffer(c.Prioritized, size, n)
		},
	})
}
