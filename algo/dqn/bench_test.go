package dqn_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update cycle with the settings of
// Tianshou's CartPole test: sample 64 from a vector buffer of 20,000 over 10
// envs, 3-step returns with double-Q targets (online and target networks on
// obs_next), an Adam step of the MLP 4→128→128→128→128→2, and the
// target-copy counter.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	b.Run(algotest.BLASTag(), func(b *testing.B) {
		buf, err := buffer.NewVector(buffer.Config{Size: 20_000}, 10)
		if err != nil {
			b.Fatal(err)
		}
		fill(b, buf, 1000, rand.New(rand.NewPCG(1, 2)))
		d, err := dqn.New(dqn.DefaultConfig(), algotest.Box(b, -10, 10, 4), algotest.Discrete(b, 2, 0), rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			b.Fatal(err)
		}
		var l algo.Learner
		rng := rand.New(rand.NewPCG(5, 6))
		cputime.Measure(b, func() {
			if _, err := l.Step(d, buf, 64, rng); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkAct measures acting for 10 envs (the training collector of the
// CartPole test) and 100 (its test collector) with the same network.
func BenchmarkAct(b *testing.B) {
	for _, k := range []int{10, 100} {
		b.Run(algotest.BLASTag()+"/envs="+itoa(k), func(b *testing.B) {
			d, err := dqn.New(dqn.DefaultConfig(), algotest.Box(b, -10, 10, 4), algotest.Discrete(b, 2, 0), rand.New(rand.NewPCG(3, 4)))
			if err != nil {
				b.Fatal(err)
			}
			p := d.Policy()
			p.SetTrainingStep(true)
			obs := batch.MustNew("obs", nd.Zeros(nd.Float32, k, 4))
			var out batch.Batch
			cputime.Measure(b, func() {
				if err := p.Act(&out, obs, nil, true); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

func itoa(i int) string {
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}
