package discretesac_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/discretesac"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update cycle at the sizes of Tianshou's
// CartPole test (batch 64, 64-64 networks, 2 actions, observations of 4):
// sample from a vector buffer of 20,000 over 10 envs, 3-step returns with
// the target critics on obs_next, and the update.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	b.Run(algotest.BLASTag()+"/batch=64/hidden=64", func(b *testing.B) {
		act := algotest.Discrete(b, 2, 0)
		buf := algotest.Collection(b, 10, 2000, act, rand.New(rand.NewPCG(1, 2)))
		s, err := discretesac.New(discretesac.DefaultConfig(), algotest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			b.Fatal(err)
		}
		var l algo.Learner
		rng := rand.New(rand.NewPCG(5, 6))
		cputime.Measure(b, func() {
			if _, err := l.Step(s, buf, 64, rng); err != nil {
				b.Fatal(err)
			}
		})
	})
}
