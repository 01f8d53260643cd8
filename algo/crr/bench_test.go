package crr_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/crr"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update cycle of the CartPole configuration
// (Tianshou's test): sample 64 transitions from a buffer of 20,000
// (Tianshou's offline CartPole data), one-step returns with the target actor
// and critic, and an Adam step of the actor and critic, MLPs 4→64→64→2, on
// the weighted cross entropy, the TD loss and the conservative penalty.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	b.Run(algotest.BLASTag(), func(b *testing.B) {
		data := algotest.RandomCartPoleData(b, 20_000, 1)
		probe := algotest.CartPoles(b, 1)[0]
		c, err := crr.New(crr.DefaultConfig(), probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			b.Fatal(err)
		}
		var l algo.Learner
		rng := rand.New(rand.NewPCG(5, 6))
		cputime.Measure(b, func() {
			if _, err := l.Step(c, data, 64, rng); err != nil {
				b.Fatal(err)
			}
		})
	})
}
