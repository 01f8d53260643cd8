package sac_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/sac"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update cycle (algotest.BenchUpdate) with
// actions of 1 dimension, as Pendulum's: sampling, 3-step returns with the
// target networks on obs_next, and the SAC update. The sizes are those of
// the comparison (batch 256, hidden layers 256-256) and of
// Tianshou's Pendulum test (batch 128, 128-128).
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	for _, size := range []struct {
		name          string
		batch, hidden int
	}{{"batch=256/hidden=256", 256, 256}, {"batch=128/hidden=128", 128, 128}} {
		b.Run(algotest.BLASTag()+"/"+size.name, func(b *testing.B) {
			cfg := sac.DefaultConfig()
			cfg.ActorHidden = []int{size.hidden, size.hidden}
			cfg.Critic.Hidden = []int{size.hidden, size.hidden}
			algotest.BenchUpdate(b, size.batch, func(obs, act env.Space, rng *rand.Rand) (*sac.SAC, error) {
				return sac.New(cfg, obs, act, rng)
			})
		})
	}
}
