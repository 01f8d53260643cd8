package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/bc"
	"github.com/gorl/gorl/env"
)

func init() {
	Register("bc", Algorithm[bc.Config]{
		Doc:     "behaviour cloning; offline (--dataset), Discrete or Box actions",
		Offline: true,
		Defaults: func(envID string) (*bc.Config, RunDefaults) {
			cfg := bc.DefaultConfig()
			return &cfg, RunDefaults{Trainer: offlineTrainer(false), TestEnvs: 100}
		},
		New: func(c *bc.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return bc.New(*c, obs, act, rng)
		},
	})
}
