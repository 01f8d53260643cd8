package sac_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/sac"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update cycle with actions of 1 dimension, as
// Pendulum's (observations of 4, algotest's collection): sample from a vector buffer of 20,000
// over 8 envs, 3-step returns with the target networks on obs_next, and the
// SAC update. The sizes are those of the comparison (batch 256,
// hidden layers 256-256) and of Tianshou's Pendulum test (batch 128,
// 128-128).
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	for _, size := range []struct {
		name          string
		batch, hidden int
	}{{"batch=256/hidden=256", 256, 256}, {"batch=128/hidden=128", 128, 128}} {
		b.Run(algotest.BLASTag()+"/"+size.name, func(b *testing.B) {
			act := algotest.Box(b, -2, 2, 1)
			buf := algotest.Collection(b, 8, 2500, act, rand.New(rand.NewPCG(1, 2)))
			cfg := sac.DefaultConfig()
			cfg.ActorHidden = []int{size.hidden, size.hidden}
			cfg.Critic.Hidden = []int{size.hidden, size.hidden}
			d, err := sac.New(cfg, algotest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
			if err != nil {
				b.Fatal(err)
			}
			var l algo.Learner
			rng := rand.New(rand.NewPCG(5, 6))
			cputime.Measure(b, func() {
				if _, err := l.Step(d, buf, size.batch, rng); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
