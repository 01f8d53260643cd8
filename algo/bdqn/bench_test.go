package bdqn_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/bdqn"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update cycle of DefaultConfig as the
// trainer runs it on Pendulum: a batch of 128 sampled from 20,000
// transitions, the double-Q targets of 40 actions in one branch, one Adam
// step.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	b.Run(algotest.BLASTag(), func(b *testing.B) {
		act := multi(b, 40, 1)
		buf := algotest.Collection(b, 10, 2000, act, rand.New(rand.NewPCG(1, 2)))
		a, err := bdqn.New(bdqn.DefaultConfig(), algotest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			b.Fatal(err)
		}
		var l algo.Learner
		rng := rand.New(rand.NewPCG(5, 6))
		cputime.Measure(b, func() {
			if _, err := l.Step(a, buf, 128, rng); err != nil {
				b.Fatal(err)
			}
		})
	})
}
