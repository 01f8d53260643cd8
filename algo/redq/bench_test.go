package redq_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/redq"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update cycle with actions of 1 dimension, as
// Pendulum's (observations of 4, algotest's collection): sample from a
// vector buffer of 20,000 over 8 envs, 1-step returns with the drawn subset
// of target critics on obs_next, and the REDQ update with the actor stepped
// every update (ActorDelay 1, the dearest cycle). The sizes are those of
// Tianshou's Pendulum test (batch 64, 64-64 networks) with its ensemble of 4
// and the default of 10.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	for _, n := range []int{4, 10} {
		b.Run(fmt.Sprintf("%s/batch=64/hidden=64/critics=%d", algotest.BLASTag(), n), func(b *testing.B) {
			act := algotest.Box(b, -2, 2, 1)
			buf := algotest.Collection(b, 8, 2500, act, rand.New(rand.NewPCG(1, 2)))
			cfg := redq.DefaultConfig()
			cfg.EnsembleSize, cfg.ActorDelay = n, 1
			r, err := redq.New(cfg, algotest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
			if err != nil {
				b.Fatal(err)
			}
			var l algo.Learner
			rng := rand.New(rand.NewPCG(5, 6))
			cputime.Measure(b, func() {
				if _, err := l.Step(r, buf, 64, rng); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
