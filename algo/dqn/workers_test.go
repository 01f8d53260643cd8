package dqn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/tensor"
)

// TestWorkerCountBitIdentical runs the same update cycles (sampling, the
// online and target passes on obs_next, and the Adam step) on 1, 2 and 4
// workers, with and without double Q-learning, and requires bit-identical
// losses and parameters of both networks. The default network's passes stay
// on the caller; those of the 512 × 512 one (266,242 parameters × 64 rows,
// above the split size) go to two workers.
func TestWorkerCountBitIdentical(t *testing.T) {
	defer tensor.SetWorkers(0)
	for _, c := range []struct {
		double bool
		hidden []int
	}{{true, nil}, {false, nil}, {true, []int{512, 512}}, {false, []int{512, 512}}} {
		double := c.double
		var want []uint32
		for _, workers := range []int{1, 2, 4} {
			tensor.SetWorkers(workers)
			buf, err := buffer.NewVector(buffer.Config{Size: 2000}, 10)
			if err != nil {
				t.Fatal(err)
			}
			fill(t, buf, 200, rand.New(rand.NewPCG(1, 2)))
			cfg := dqn.DefaultConfig()
			cfg.Double = double
			if c.hidden != nil {
				cfg.Hidden = c.hidden
			}
			cfg.TargetUpdateFreq = 3 // copies inside the run; between them the networks differ
			d, err := dqn.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(3, 4)))
			if err != nil {
				t.Fatal(err)
			}
			var l algo.Learner
			rng := rand.New(rand.NewPCG(5, 6))
			var got []uint32
			for range 8 {
				st, err := l.Step(d, buf, 64, rng)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, math.Float32bits(float32(st["loss"])))
			}
			for _, p := range append(d.Network().Params(), d.Target().Params()...) {
				for _, x := range p.Tensor.Data() {
					got = append(got, math.Float32bits(x))
				}
			}
			if want == nil {
				want = got
				continue
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("double %v, hidden %v, %d workers: value %d is %#x, on 1 worker %#x", double, c.hidden, workers, i, got[i], want[i])
				}
			}
		}
	}
}
