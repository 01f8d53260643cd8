package rppo_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/rppo"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update of DefaultConfig as the CartPoleNoVel
// preset runs it: a collection of 8 envs × 64 steps (512 transitions, 2
// observations each), Preprocess (the GRU through every chunk, GAE), and 10
// passes of minibatches of 8 sequences of 16 steps.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	b.Run(algotest.BLASTag(), func(b *testing.B) {
		act := algotest.Discrete(b, 2, 0)
		buf := algotest.Collection(b, 8, 64, act, rand.New(rand.NewPCG(1, 2)))
		r, err := rppo.New(rppo.DefaultConfig(), algotest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			b.Fatal(err)
		}
		var l algo.Learner
		cputime.Measure(b, func() {
			if _, err := l.StepAll(r, buf, 128, 10); err != nil {
				b.Fatal(err)
			}
		})
	})
}
