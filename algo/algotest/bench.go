package algotest

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchUpdate measures one update cycle of the off-policy algorithm newAlgo
// makes for Pendulum's spaces (observations of 4 in [−10, 10], actions of 1
// in [−2, 2]): algo.Learner.Step with batches of batchSize sampled from a
// Collection of 20,000 transitions over 8 envs, the algorithm's Preprocess
// and Update. Seeds are fixed, so runs compare.
func BenchUpdate[A algo.OffPolicy](b *testing.B, batchSize int, newAlgo func(obs, act env.Space, rng *rand.Rand) (A, error)) {
	act := Box(b, -2, 2, 1)
	buf := Collection(b, 8, 2500, act, rand.New(rand.NewPCG(1, 2)))
	a, err := newAlgo(Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		b.Fatal(err)
	}
	var l algo.Learner
	rng := rand.New(rand.NewPCG(5, 6))
	cputime.Measure(b, func() {
		if _, err := l.Step(a, buf, batchSize, rng); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchUpdateSizes logs the BLAS and runs BenchUpdate as the
// sub-benchmarks BLASTag()+"/batch=256/hidden=256" (the sizes the
// continuous actor-critics are compared at) and "/batch=128/hidden=128"
// (Tianshou's Pendulum test). cfg(hidden) is the algorithm's configuration
// with two hidden layers of hidden units in the actor and the critics.
func BenchUpdateSizes[C any, A algo.OffPolicy](b *testing.B, newAlgo NewFunc[C, A], cfg func(hidden int) C) {
	b.Logf("BLAS: %s", tensor.BLASName())
	for _, size := range []struct {
		name          string
		batch, hidden int
	}{{"batch=256/hidden=256", 256, 256}, {"batch=128/hidden=128", 128, 128}} {
		b.Run(BLASTag()+"/"+size.name, func(b *testing.B) {
			c := cfg(size.hidden)
			BenchUpdate(b, size.batch, func(obs, act env.Space, rng *rand.Rand) (A, error) {
				return newAlgo(c, obs, act, rng)
			})
		})
	}
}
