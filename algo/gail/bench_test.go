package gail_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/gail"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update of GAIL with the settings of
// Tianshou's Pendulum test on a collection of 16 envs × 200 steps (its 16
// episodes per collection): the discriminator's rewards, PPO's GAE, two
// discriminator steps against expert samples, and PPO's 2 passes of
// minibatches of 128.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	b.Run(algotest.BLASTag(), func(b *testing.B) {
		act := algotest.Box(b, -2, 2, 1)
		expert := algotest.Collection(b, 4, 1000, act, rand.New(rand.NewPCG(7, 8)))
		buf := algotest.Collection(b, 16, 200, act, rand.New(rand.NewPCG(1, 2)))
		g, err := gail.New(gail.DefaultConfig(), algotest.Box(b, -10, 10, 4), act, expert, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			b.Fatal(err)
		}
		// The collection is taken once (the Learner's index list is not
		// the algorithm's cost): Preprocess and UpdateRepeat per op.
		idx := buf.SampleIndices(0, nil)
		var bt batch.Batch
		if err := buf.TakeTo(&bt, idx); err != nil {
			b.Fatal(err)
		}
		cputime.Measure(b, func() {
			if err := g.Preprocess(&bt, buf, idx); err != nil {
				b.Fatal(err)
			}
			if _, err := g.UpdateRepeat(&bt, 128, 2); err != nil {
				b.Fatal(err)
			}
		})
	})
}
