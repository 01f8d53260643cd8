package ppo_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update of the speed run's configuration
// (DefaultConfig) on a collection of 2,000 transitions from 20 envs, as the
// trainer runs it: the Learner takes the collection, Preprocess (values,
// GAE, old log-probabilities), and 10 passes of 31 minibatches of 64 (the
// last one 80).
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	b.Run(algotest.BLASTag(), func(b *testing.B) {
		act := algotest.Discrete(b, 2, 0)
		buf := algotest.Collection(b, 20, 100, act, rand.New(rand.NewPCG(1, 2)))
		p, err := ppo.New(ppo.DefaultConfig(), algotest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			b.Fatal(err)
		}
		var l algo.Learner
		cputime.Measure(b, func() {
			if _, err := l.StepAll(p, buf, 64, 10); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkUpdateContinuous measures one update of ContinuousConfig (the
// Pendulum settings) on 16 episodes of 200 steps (3,200 transitions): values
// with return scaling, GAE, old log-probabilities, then 2 passes of
// minibatches of 128 with value clipping and advantage normalization.
func BenchmarkUpdateContinuous(b *testing.B) {
	b.Run(algotest.BLASTag(), func(b *testing.B) {
		act := algotest.Box(b, -2, 2, 1)
		buf := algotest.Collection(b, 16, 200, act, rand.New(rand.NewPCG(1, 2)))
		p, err := ppo.New(ppo.ContinuousConfig(), algotest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			b.Fatal(err)
		}
		var l algo.Learner
		cputime.Measure(b, func() {
			if _, err := l.StepAll(p, buf, 128, 2); err != nil {
				b.Fatal(err)
			}
		})
	})
}
