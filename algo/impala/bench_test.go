package impala_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/impala"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"

	_ "github.com/gorl/gorl/env/classic"
)

// BenchmarkLearnerUpdate measures one learner update of DefaultConfig on a
// batch as the learner samples it: BatchSize unrolls of Unroll CartPole
// steps (8 × 20), episodes ending now and then, behaviour log-probabilities
// near the learner's.
func BenchmarkLearnerUpdate(b *testing.B) {
	cfg := impala.DefaultConfig()
	e, err := env.Make("CartPole-v1")
	if err != nil {
		b.Fatal(err)
	}
	obsSpace, actSpace := e.ObservationSpace(), e.ActionSpace()
	e.Close()
	l, err := impala.NewLearner(cfg, obsSpace, actSpace, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		b.Fatal(err)
	}
	bt := unrollBatch(b, cfg.BatchSize, cfg.Unroll, rand.New(rand.NewPCG(3, 4)))
	cputime.Measure(b, func() {
		if _, err := l.Update(bt); err != nil {
			b.Fatal(err)
		}
	})
}

// unrollBatch returns a batch of u unrolls of t CartPole-shaped steps as the
// learner samples it: random observations and actions, rewards of 1,
// episodes terminating with probability 1/25 per step, behaviour
// log-probabilities near log ½.
func unrollBatch(tb testing.TB, u, t int, rng *rand.Rand) *batch.Batch {
	tb.Helper()
	f32 := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(2*rng.Float64() - 1)
		}
		return x
	}
	arr := func(v any, shape ...int) *nd.Array {
		a, err := nd.New(v)
		if err != nil {
			tb.Fatal(err)
		}
		if a, err = a.Reshape(shape...); err != nil {
			tb.Fatal(err)
		}
		return a
	}
	acts, rews, logp := make([]int64, u*t), make([]float64, u*t), make([]float32, u*t)
	terms, conts := make([]bool, u*t), make([]bool, u*t)
	for i := range acts {
		acts[i], rews[i], logp[i] = int64(rng.IntN(2)), 1, -0.69+float32(0.1*rng.Float64())
		terms[i] = rng.IntN(25) == 0
		conts[i] = !terms[i] && i%t < t-1
	}
	return batch.MustNew(batch.KeyObs, arr(f32(u*t*4), u, t, 4), batch.KeyObsNext, arr(f32(u*t*4), u, t, 4),
		batch.KeyAct, arr(acts, u, t), batch.KeyRew, make([]float64, u), batch.KeyTerminated, make([]bool, u),
		batch.KeyTruncated, make([]bool, u), impala.KeyRews, arr(rews, u, t), impala.KeyLogP, arr(logp, u, t),
		impala.KeyTerms, arr(terms, u, t), impala.KeyConts, arr(conts, u, t))
}
