package pg_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/pg"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update of DefaultConfig as the trainer runs
// it on a collection of 8 envs × 50 steps (400 transitions, about what 8
// CartPole episodes give early in training): returns, then 2 passes of
// minibatches of 64; without and with Baseline (a critic of the same size).
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	for _, baseline := range []bool{false, true} {
		b.Run(algotest.BLASTag()+map[bool]string{false: "", true: "/baseline"}[baseline], func(b *testing.B) {
			act := algotest.Discrete(b, 2, 0)
			buf := algotest.Collection(b, 8, 50, act, rand.New(rand.NewPCG(1, 2)))
			cfg := pg.DefaultConfig()
			cfg.Baseline = baseline
			p, err := pg.New(cfg, algotest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
			if err != nil {
				b.Fatal(err)
			}
			var l algo.Learner
			cputime.Measure(b, func() {
				if _, err := l.StepAll(p, buf, 64, 2); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkAct measures the policy acting for 8 envs (the training
// collector of REINFORCE's CartPole test), 20 (PPO's) and 100 (the test
// collectors), sampling with the training-step flag on.
func BenchmarkAct(b *testing.B) {
	for _, k := range []int{8, 20, 100} {
		b.Run(algotest.BLASTag()+"/envs="+strconv.Itoa(k), func(b *testing.B) {
			p, err := pg.New(pg.DefaultConfig(), algotest.Box(b, -10, 10, 4), algotest.Discrete(b, 2, 0), rand.New(rand.NewPCG(3, 4)))
			if err != nil {
				b.Fatal(err)
			}
			pol := p.Policy()
			pol.SetTrainingStep(true)
			obs := batch.MustNew("obs", nd.Zeros(nd.Float32, k, 4))
			var out batch.Batch
			cputime.Measure(b, func() {
				if err := pol.Act(&out, obs, nil, true); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
