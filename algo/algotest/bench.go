package algotest

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/cputime"
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
