package npg_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/npg"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update of ContinuousConfig as the trainer
// runs it with Tianshou's Pendulum settings (observations of 4, one
// action): a collection of 2,048 transitions from 16 envs, Preprocess (values with return scaling, GAE,
// old log-probabilities, advantage normalization), then 2 passes over the
// whole collection, each a natural-gradient step (10 conjugate-gradient
// iterations) and 5 critic steps, with a step size of 0.01: on the same
// random collection again and again the default 0.5 drives σ to 0. The Learner's listing of the buffer's
// indices is its one allocation; the update itself allocates nothing.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	b.Run(algotest.BLASTag(), func(b *testing.B) {
		act := algotest.Box(b, -2, 2, 1)
		buf := algotest.Collection(b, 16, 128, act, rand.New(rand.NewPCG(1, 2)))
		cfg := npg.ContinuousConfig()
		cfg.ActorStepSize = 0.01
		a, err := npg.New(cfg, algotest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			b.Fatal(err)
		}
		var l algo.Learner
		cputime.Measure(b, func() {
			if _, err := l.StepAll(a, buf, 0, 2); err != nil {
				b.Fatal(err)
			}
		})
	})
}
