package a2c_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/a2c"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update of DefaultConfig as the trainer runs
// it on a collection of 16 envs × 50 steps (800 transitions, about what 16
// CartPole episodes give early in training): values, GAE, then one pass of
// minibatches of 64.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	b.Run(algotest.BLASTag(), func(b *testing.B) {
		act := algotest.Discrete(b, 2, 0)
		buf := algotest.Collection(b, 16, 50, act, rand.New(rand.NewPCG(1, 2)))
		a, err := a2c.New(a2c.DefaultConfig(), algotest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			b.Fatal(err)
		}
		var l algo.Learner
		cputime.Measure(b, func() {
			if _, err := l.StepAll(a, buf, 64, 1); err != nil {
				b.Fatal(err)
			}
		})
	})
}
