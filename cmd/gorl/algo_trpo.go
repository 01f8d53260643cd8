package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/trpo"
	"github.com/gorl/gorl/env"
)

// TRPO with the settings of Tianshou's Pendulum test (test_trpo.py), a
// Categorical head and γ 0.99 on a Discrete action space.
func init() {
	Register("trpo", Algorithm[trpo.Config]{
		Doc: "trust region policy optimization (NPG's direction, KL-bounded backtracking line search); on-policy, Discrete or Box actions",
		Defaults: func(envID string) (*trpo.Config, RunDefaults) {
			cfg := trpo.DefaultConfig()
			if boxActions(envID) {
				cfg = trpo.ContinuousConfig()
			}
			return &cfg, naturalRunDefaults()
		},
		New: func(c *trpo.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return trpo.New(*c, obs, act, rng)
		},
	})
}
