package algo_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
)

var sinkF float32

// BenchmarkGAE computes GAE over 100,000 transitions into a reused output,
// the size of Tianshou's benchmark (1,645 µs there, 904 µs of it in its
// numba loop). Episodes end with probability 1/100 per step, a tenth of them
// truncated.
func BenchmarkGAE(b *testing.B) {
	const n = 100_000
	rng := rand.New(rand.NewPCG(1, 2))
	rew := make([]float64, n)
	v, vNext, adv := make([]float32, n), make([]float32, n), make([]float32, n)
	term, end := make([]bool, n), make([]bool, n)
	for i := range n {
		rew[i] = rng.NormFloat64()
		v[i], vNext[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
		if rng.IntN(100) == 0 {
			end[i] = true
			term[i] = rng.IntN(10) != 0
		}
	}
	b.SetBytes(n * (8 + 4 + 4 + 1 + 1 + 4))
	cputime.Measure(b, func() {
		algo.GAETo(adv, rew, v, vNext, term, end, 0.99, 0.95)
	})
	sinkF = adv[0]
}

// fullVector is a vector buffer of 20,000 transitions over 10 envs (the
// DQN CartPole setting), filled twice over with episodes of mean length 50,
// one in ten truncated.
func fullVector(b *testing.B) buffer.Buffer {
	buf, err := buffer.NewVector(buffer.Config{Size: 20_000}, 10)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	rew := make([]float64, 10)
	term, trunc := make([]bool, 10), make([]bool, 10)
	data := batch.MustNew("obs", nd.Zeros(nd.Float32, 10, 4), "act", nd.Zeros(nd.Int64, 10),
		"rew", fromSlice(b, rew), "terminated", fromSlice(b, term), "truncated", fromSlice(b, trunc))
	var steps []buffer.Step
	for range 4000 {
		for j := range 10 {
			rew[j] = 1
			term[j] = rng.IntN(50) == 0
			trunc[j] = !term[j] && rng.IntN(500) == 0
		}
		if steps, err = buf.Add(data, nil, steps[:0]); err != nil {
			b.Fatal(err)
		}
	}
	return buf
}

// BenchmarkNStep computes 3-step returns for 64 sampled indices with a fixed
// target (Tianshou: 61 µs): both phases, Windows and ReturnsTo.
func BenchmarkNStep(b *testing.B) {
	buf := fullVector(b)
	rng := rand.New(rand.NewPCG(5, 6))
	idx := buf.SampleIndices(64, rng)
	target := make([]float32, 64)
	for i := range target {
		target[i] = float32(rng.NormFloat64())
	}
	dst := make([]float32, 64)
	var s algo.NStep
	cputime.Measure(b, func() {
		s.Windows(buf, idx, 0.9, 3)
		s.ReturnsTo(dst, target)
	})
	sinkF = dst[0]
}

// BenchmarkEpisodic computes advantages and returns over 2,000 collected
// transitions of 20 envs (the PPO CartPole collection), end flags read from
// the buffer.
func BenchmarkEpisodic(b *testing.B) {
	buf := fullVector(b)
	all := buf.SampleIndices(0, nil)[:2000]
	adv, ret := make([]float32, 2000), make([]float32, 2000)
	v := make([]float32, 2000)
	var e algo.Episodic
	cputime.Measure(b, func() {
		e.AdvantagesTo(adv, ret, buf, all, v, v, 0.99, 0.95)
	})
	sinkF = adv[0]
}

// fromSlice wraps s in an array without copying, so that writes into s reach
// the batch holding it.
func fromSlice[T any](b *testing.B, s []T) *nd.Array {
	a, err := nd.FromSlice(s)
	if err != nil {
		b.Fatal(err)
	}
	return a
}
