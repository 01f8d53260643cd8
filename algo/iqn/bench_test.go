package iqn_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/iqn"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update cycle with the settings of
// Tianshou's CartPole test: sample 64 from a vector buffer of 20,000 over 10 envs, 3-step returns with double-Q targets (8 target and 8 online fractions per next observation), the quantile Huber loss of 8 × 8 pairs per transition, and an Adam step of the network (features 4→64→64→64, 64 cosines, a linear head).
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	b.Run(algotest.BLASTag()+"/batch=64", func(b *testing.B) {
		act := algotest.Discrete(b, 2, 0)
		buf := algotest.Collection(b, 10, 2000, act, rand.New(rand.NewPCG(1, 2)))
		a, err := iqn.New(iqn.DefaultConfig(), algotest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			b.Fatal(err)
		}
		var l algo.Learner
		rng := rand.New(rand.NewPCG(5, 6))
		cputime.Measure(b, func() {
			if _, err := l.Step(a, buf, 64, rng); err != nil {
				b.Fatal(err)
			}
		})
	})
	// The Acrobot-v1 preset's sizes: batch 64 from one env's 20,000 transitions, 3 actions, 1-step returns without double Q, features 4→64→64, 64 cosines, a linear head, 8 × 8 fractions.
	b.Run(algotest.BLASTag()+"/preset=Acrobot-v1/batch=64", func(b *testing.B) {
		act := algotest.Discrete(b, 3, 0)
		buf := algotest.Collection(b, 1, 20000, act, rand.New(rand.NewPCG(1, 2)))
		cfg := iqn.DefaultConfig()
		cfg.Hidden, cfg.OnlineSampleSize, cfg.TargetSampleSize = []int{64, 64}, 8, 8
		cfg.Gamma, cfg.NStep, cfg.Double, cfg.TargetUpdateFreq = 0.99, 1, false, 250
		a, err := iqn.New(cfg, algotest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			b.Fatal(err)
		}
		var l algo.Learner
		rng := rand.New(rand.NewPCG(5, 6))
		cputime.Measure(b, func() {
			if _, err := l.Step(a, buf, 64, rng); err != nil {
				b.Fatal(err)
			}
		})
	})
}
