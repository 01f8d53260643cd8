package bc_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/bc"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update cycle of the CartPole configuration
// the offline benchmark trains: sample 64 transitions from a buffer of
// 20,000 (Tianshou's offline CartPole data), and an Adam step on the cross
// entropy of the MLP 4→64→64→2.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	b.Run(algotest.BLASTag(), func(b *testing.B) {
		data := algotest.RandomCartPoleData(b, 20_000, 1)
		probe := algotest.CartPoles(b, 1)[0]
		c, err := bc.New(bc.DefaultConfig(), probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(3, 4)))
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

// BenchmarkAct measures acting for 1 env (deployment) and 100 (the test
// collector of the offline benchmark).
func BenchmarkAct(b *testing.B) {
	for _, k := range []int{1, 100} {
		b.Run(algotest.BLASTag()+"/envs="+strconv.Itoa(k), func(b *testing.B) {
			probe := algotest.CartPoles(b, 1)[0]
			c, err := bc.New(bc.DefaultConfig(), probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(3, 4)))
			if err != nil {
				b.Fatal(err)
			}
			obs := batch.MustNew("obs", nd.Zeros(nd.Float32, k, 4))
			var out batch.Batch
			p := c.Policy()
			cputime.Measure(b, func() {
				if err := p.Act(&out, obs, nil, false); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
