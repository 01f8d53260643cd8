package a2c_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/a2c"
	"github.com/gorl/gorl/algo/pg/pgtest"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update of DefaultConfig as the trainer runs
// it on a collection of 16 envs × 50 steps (800 transitions, about what 16
// CartPole episodes give early in training): values, GAE, then one pass of
// minibatches of 64.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	name, _, _ := strings.Cut(tensor.BLASName(), " ")
	b.Run("blas="+name, func(b *testing.B) {
		act := pgtest.Discrete(b, 2, 0)
		buf := pgtest.Collection(b, 16, 50, act, rand.New(rand.NewPCG(1, 2)))
		a, err := a2c.New(a2c.DefaultConfig(), pgtest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
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
