package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/td3"
	"github.com/gorl/gorl/env"
)

// TD3 with the settings of Tianshou's Pendulum test; on another env the
// actor's tanh is unscaled (max_action 1) and the noises are in the units of
// the [−1, 1] actions.
func init() {
	Register("td3", Algorithm[td3.Config]{
		Doc: "twin delayed DDPG (twin critics, target smoothing, delayed actor); off-policy, Box actions",
		Defaults: func(envID string) (*td3.Config, RunDefaults) {
			// test/continuous/test_td3.py.
			cfg := td3.DefaultConfig()
			if envID != "Pendulum-v1" {
				cfg.MaxAction, cfg.Noise.Sigma, cfg.PolicyNoise, cfg.NoiseClip = 1, 0.1, 0.2, 0.5
			}
			return &cfg, continuousRun(20_000, 8, 0.125)
		},
		New: func(c *td3.Config, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return td3.New(*c, obs, act, rng)
		},
	})
}
