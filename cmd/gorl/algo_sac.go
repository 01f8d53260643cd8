package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/sac"
	"github.com/gorl/gorl/env"
)

// SAC with the settings of Tianshou's Pendulum test, on every env.
func init() {
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
