package r2d2_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/r2d2"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update cycle of DefaultConfig with the
// CartPoleNoVel run's batch of 32 sequences: algo.Learner.Step sampling
// them uniformly from a Collection of 8 envs × 2,500 steps (observations
// of 4 numbers, 2 actions), Preprocess (walking the buffer, the burn-in of
// both networks, the targets through 20 more steps) and Update
// (backpropagation through the 16 trained steps), for each cell.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	for _, cell := range []string{r2d2.LSTM, r2d2.GRU} {
		b.Run(algotest.BLASTag()+"/"+cell, func(b *testing.B) {
			act := algotest.Discrete(b, 2, 0)
			buf := algotest.Collection(b, 8, 2500, act, rand.New(rand.NewPCG(1, 2)))
			cfg := r2d2.DefaultConfig()
			cfg.Cell = cell
			r, err := r2d2.New(cfg, algotest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
			if err != nil {
				b.Fatal(err)
			}
			var l algo.Learner
			rng := rand.New(rand.NewPCG(5, 6))
			cputime.Measure(b, func() {
				if _, err := l.Step(r, buf, 32, rng); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkAct measures the exploring policy's Act for 8 envs (GRU of 64,
// observations of 4 numbers, 3 actions, ε 1) with plain ε-greedy and with
// held random actions (μ 2, up to 100 steps), the state of the previous
// call handed back.
func BenchmarkAct(b *testing.B) {
	for _, c := range []struct {
		name string
		hold policy.HoldConfig
	}{{"eps", policy.HoldConfig{}}, {"hold", policy.HoldConfig{Mu: 2, MaxDuration: 100}}} {
		b.Run(algotest.BLASTag()+"/"+c.name, func(b *testing.B) {
			cfg := r2d2.DefaultConfig()
			cfg.Hold = c.hold
			p, obs, state := actSetup(b, cfg)
			var dst batch.Batch
			b.ReportAllocs()
			for b.Loop() {
				if err := p.Act(&dst, obs, state, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
