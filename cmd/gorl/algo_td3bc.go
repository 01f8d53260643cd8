package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/td3bc"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

func init() {
	Register("td3-bc", Algorithm[td3bc.Config]{
		Doc:     "TD3+BC; offline (--dataset), Box actions",
		Offline: true,
		Defaults: func(envID string) (*td3bc.Config, RunDefaults) {
			// Tianshou's test/offline/test_td3_bc.py: 5 epochs of 500
			// updates of 64 transitions, 10 test episodes.
			cfg := td3bc.DefaultConfig()
			return &cfg, RunDefaults{Trainer: trainer.Config{Epochs: 5, StepPerEpoch: 500, BatchSize: 64, TestEpisodes: 10}, TestEnvs: 10}
		},
		New: func(c *td3bc.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return td3bc.New(*c, obs, act, rng)
		},
	})
}
