package tensor_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// Package-level sinks keep results alive so the compiler cannot drop work.
var (
	sinkF float32
	sinkT *tensor.Tensor
)

// blasTag names the active BLAS in sub-benchmark names ("blas=openblas",
// "blas=gonum"), so every figure says what it measured.
func blasTag() string {
	name, _, _ := strings.Cut(tensor.BLASName(), " ")
	return "blas=" + name
}

// measure runs body b.N times after one warm-up call and reports, besides
// the wall-clock ns/op, the process's CPU time per operation (cpu-ns/op). It
// logs the BLAS in use (version, CPU kernels, threads) under the result,
// once: the first call of a benchmark function has b.N = 1.
func measure(b *testing.B, body func()) {
	if b.N == 1 {
		b.Logf("BLAS: %s", tensor.BLASName())
	}
	cputime.Measure(b, body)
}

func randInput(rng *rand.Rand, shape ...int) *tensor.Tensor {
	t := tensor.New(shape...)
	t.FillNormal(rng, 0, 1)
	return t
}

// mlpStep is one training step: forward, MSE, backward and an Adam update,
// on a tape reset at the start so its buffers are reused.
func mlpStep(tp *tensor.Tape, m *mlp, opt *adam, x, y *tensor.Tensor) float32 {
	tp.Reset()
	loss := tp.MSE(m.forward(tp, x), y)
	opt.zeroGrad()
	tp.Backward(loss)
	opt.step()
	return loss.Item()
}

// BenchmarkMLPAdamStep measures a training step of the two MLPs compared with
// torch 1.13 (one thread): 4→128→128→2 at batch 64 (CartPole-sized DQN,
// 415 µs in torch) and 64→256→256→18 at batch 256 (2,113 µs in torch).
func BenchmarkMLPAdamStep(b *testing.B) {
	for _, s := range []struct {
		name                   string
		in, hidden, out, batch int
	}{
		{"4-128-128-2/batch=64", 4, 128, 2, 64},
		{"64-256-256-18/batch=256", 64, 256, 18, 256},
	} {
		b.Run(blasTag()+"/"+s.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			m := newMLP(rng, s.in, s.hidden, s.out)
			opt := newAdam(m.params(), 1e-3)
			x, y := randInput(rng, s.batch, s.in), randInput(rng, s.batch, s.out)
			tp := new(tensor.Tape)
			measure(b, func() { sinkF = mlpStep(tp, m, opt, x, y) })
		})
	}
}

// BenchmarkMLPInference measures acting with the 4→128→128→2 MLP on a
// no-grad tape: batch 1 (one env) and 16 (a vector env); torch 1.13 takes
// 20.5 and 30.2 µs.
func BenchmarkMLPInference(b *testing.B) {
	for _, batch := range []int{1, 16} {
		b.Run(blasTag()+"/batch="+itoa(batch), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			m := newMLP(rng, 4, 128, 2)
			x := randInput(rng, batch, 4)
			tp := new(tensor.Tape)
			tp.SetGradEnabled(false)
			measure(b, func() {
				tp.Reset()
				sinkT = m.forward(tp, x)
			})
		})
	}
}

// BenchmarkNatureCNNAdamStep measures a DQN training step of the Nature CNN
// (6 actions) at batch 32: forward, MSE on the Q-values, backward, Adam;
// 24.9 ms in torch 1.13 on one thread.
func BenchmarkNatureCNNAdamStep(b *testing.B) {
	b.Run(blasTag()+"/batch=32", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(1, 1))
		m := newNatureCNN(rng, 6)
		opt := newAdam(m.params(), 1e-4)
		x, y := randInput(rng, 32, 4, 84, 84), randInput(rng, 32, 6)
		tp := new(tensor.Tape)
		step := func() float32 {
			tp.Reset()
			loss := tp.MSE(m.forward(tp, x), y)
			opt.zeroGrad()
			tp.Backward(loss)
			opt.step()
			return loss.Item()
		}
		measure(b, func() { sinkF = step() })
	})
}

// BenchmarkNatureCNNInference measures acting with the Nature CNN at batch 8
// (eight Atari envs); 1.84 ms in torch 1.13 on one thread.
func BenchmarkNatureCNNInference(b *testing.B) {
	b.Run(blasTag()+"/batch=8", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(1, 1))
		m := newNatureCNN(rng, 6)
		x := randInput(rng, 8, 4, 84, 84)
		tp := new(tensor.Tape)
		tp.SetGradEnabled(false)
		measure(b, func() {
			tp.Reset()
			sinkT = m.forward(tp, x)
		})
	})
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// BenchmarkConv2d measures the Nature CNN's three convolutions at batch 32,
// forward alone (acting) and forward plus backward (training; the first
// layer's input needs no gradient, as for observations).
func BenchmarkConv2d(b *testing.B) {
	for _, c := range []struct {
		name          string
		in, out, k, s int
		hw            int
		inputGrad     bool
	}{
		{"conv1-4x84x84-32k8s4", 4, 32, 8, 4, 84, false},
		{"conv2-32x20x20-64k4s2", 32, 64, 4, 2, 20, true},
		{"conv3-64x9x9-64k3s1", 64, 64, 3, 1, 9, true},
	} {
		rng := rand.New(rand.NewPCG(1, 1))
		cv := newConv(rng, c.in, c.out, c.k, c.s)
		x := randInput(rng, 32, c.in, c.hw, c.hw)
		x.SetRequiresGrad(c.inputGrad)
		b.Run(blasTag()+"/"+c.name+"/forward", func(b *testing.B) {
			var tp tensor.Tape
			tp.SetGradEnabled(false)
			measure(b, func() {
				tp.Reset()
				sinkT = tp.Conv2d(x, cv.w, cv.b, c.s, 0)
			})
		})
		b.Run(blasTag()+"/"+c.name+"/backward", func(b *testing.B) {
			var tp tensor.Tape
			measure(b, func() {
				tp.Reset()
				tp.Backward(tp.Sum(tp.Conv2d(x, cv.w, cv.b, c.s, 0)))
			})
		})
	}
}

// BenchmarkElementwise measures single operations, forward and backward, on a
// hidden layer's activations (64×128, the MLP benchmark's batch) and, for
// the broadcasting path, a bias row.
func BenchmarkElementwise(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randInput(rng, 64, 128).SetRequiresGrad(true)
	row := randInput(rng, 128).SetRequiresGrad(true)
	idx := make([]int, 64)
	for i := range idx {
		idx[i] = rng.IntN(128)
	}
	ops := []struct {
		name string
		f    func(tp *tensor.Tape) *tensor.Tensor
	}{
		{"ReLU", func(tp *tensor.Tape) *tensor.Tensor { return tp.ReLU(x) }},
		{"Tanh", func(tp *tensor.Tape) *tensor.Tensor { return tp.Tanh(x) }},
		{"Mul", func(tp *tensor.Tape) *tensor.Tensor { return tp.Mul(x, x) }},
		{"AddRow", func(tp *tensor.Tape) *tensor.Tensor { return tp.Add(x, row) }},
		{"LogSoftmax", func(tp *tensor.Tape) *tensor.Tensor { return tp.LogSoftmax(x, -1) }},
		{"Gather", func(tp *tensor.Tape) *tensor.Tensor { return tp.Gather(x, 1, idx) }},
		{"SumAxis0", func(tp *tensor.Tape) *tensor.Tensor { return tp.SumAxis(x, 0, false) }},
	}
	for _, op := range ops {
		b.Run(op.name, func(b *testing.B) {
			var tp tensor.Tape
			measure(b, func() {
				tp.Reset()
				tp.Backward(tp.Sum(op.f(&tp)))
			})
		})
	}
}
