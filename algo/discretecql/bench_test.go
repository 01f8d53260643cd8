package discretecql_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/discretecql"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update cycle of the CartPole configuration
// (Tianshou's test): sample 32 transitions from a buffer of 20,000
// (Tianshou's offline CartPole data), 3-step distributional returns of 200
// quantiles, and an Adam step of the MLP 4→64→400 on the quantile loss and
// the conservative penalty.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	b.Run(algotest.BLASTag(), func(b *testing.B) {
		data := algotest.RandomCartPoleData(b, 20_000, 1)
		probe := algotest.CartPoles(b, 1)[0]
		c, err := discretecql.New(discretecql.DefaultConfig(), probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			b.Fatal(err)
		}
		var l algo.Learner
		rng := rand.New(rand.NewPCG(5, 6))
		cputime.Measure(b, func() {
			if _, err := l.Step(c, data, 32, rng); err != nil {
				b.Fatal(err)
			}
		})
	})
}
