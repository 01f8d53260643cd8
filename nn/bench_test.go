package nn_test

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// sink keeps benchmark results alive.
var sink *tensor.Tensor

// blasTag names the BLAS that computes matrix products ("blas=gonum",
// "blas=openblas"; switch with the GORL_BLAS environment variable), so each
// figure says what it measured.
func blasTag() string {
	name, _, _ := strings.Cut(tensor.BLASName(), " ")
	return "blas=" + name
}

// BenchmarkMLPInference acts with the 4→128→128→2 MLP (CartPole DQN) on a
// no-grad tape: batch 1 (one env), 8, 10 and 16 (vector envs). torch 1.13
// on one thread: 20.5 µs at batch 1, 30.2 µs at 16.
func BenchmarkMLPInference(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	for _, batch := range []int{1, 8, 10, 16} {
		b.Run(blasTag()+"/batch="+strconv.Itoa(batch), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			q, err := nn.NewMLP(nn.MLPConfig{In: 4, Hidden: []int{128, 128}, Out: 2}, rng)
			if err != nil {
				b.Fatal(err)
			}
			x := tensor.New(batch, 4)
			x.FillNormal(rng, 0, 1)
			var tp tensor.Tape
			tp.SetGradEnabled(false)
			cputime.Measure(b, func() {
				tp.Reset()
				sink = q.Forward(&tp, x)
			})
		})
	}
}

// BenchmarkNatureCNNInference acts with the Nature-DQN CNN (6 actions) on a
// batch of 8 stacks of raw 4×84×84 frames (eight Atari envs), input scaling
// included. torch 1.13 on one thread: 1.84 ms.
func BenchmarkNatureCNNInference(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	b.Run(blasTag()+"/batch=8", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(1, 1))
		q := nn.NewNatureCNN(4, 6, rng)
		x := tensor.New(8, 4, 84, 84)
		x.FillUniform(rng, 0, 255)
		var tp tensor.Tape
		tp.SetGradEnabled(false)
		cputime.Measure(b, func() {
			tp.Reset()
			sink = q.Forward(&tp, x)
		})
	})
}

// BenchmarkSoftUpdate measures one Polyak update of a target network: the
// 4→128→128→2 MLP (17,410 parameters) and the Nature CNN (1.69 million).
func BenchmarkSoftUpdate(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	cfg := nn.MLPConfig{In: 4, Hidden: []int{128, 128}, Out: 2}
	m1, _ := nn.NewMLP(cfg, rng)
	m2, _ := nn.NewMLP(cfg, rng)
	for _, tc := range []struct {
		name     string
		dst, src nn.Params
	}{
		{"mlp", m1.Params(), m2.Params()},
		{"nature-cnn", nn.NewNatureCNN(4, 6, rng).Params(), nn.NewNatureCNN(4, 6, rng).Params()},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(4 * tc.src.Count()))
			cputime.Measure(b, func() {
				if err := nn.SoftUpdate(tc.dst, tc.src, 0.005); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkSaveLoad writes and reads the Nature CNN's parameters (6.7 MB) as
// safetensors in memory.
func BenchmarkSaveLoad(b *testing.B) {
	ps := nn.NewNatureCNN(4, 6, rand.New(rand.NewPCG(1, 1))).Params()
	var buf bytes.Buffer
	b.Run("save", func(b *testing.B) {
		b.SetBytes(int64(4 * ps.Count()))
		cputime.Measure(b, func() {
			buf.Reset()
			if err := nn.Save(&buf, ps, nil); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("load", func(b *testing.B) {
		b.SetBytes(int64(4 * ps.Count()))
		cputime.Measure(b, func() {
			if _, err := nn.Load(bytes.NewReader(buf.Bytes()), ps); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkRecurrentCells measures one training step (forward, mean, backward)
// of the recurrent cells at batch 16 with 64 inputs and 128 hidden units, a
// recurrent policy's size.
func BenchmarkRecurrentCells(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, h, c := tensor.New(16, 64), tensor.New(16, 128), tensor.New(16, 128)
	x.FillNormal(rng, 0, 1)
	gru, lstm := nn.NewGRUCell(64, 128, rng), nn.NewLSTMCell(64, 128, rng)
	for _, tc := range []struct {
		name string
		f    func(tp *tensor.Tape) *tensor.Tensor
	}{
		{"gru", func(tp *tensor.Tape) *tensor.Tensor { return gru.Forward(tp, x, h) }},
		{"lstm", func(tp *tensor.Tape) *tensor.Tensor {
			h2, _ := lstm.Forward(tp, x, h, c)
			return h2
		}},
	} {
		b.Run(blasTag()+"/"+tc.name, func(b *testing.B) {
			var tp tensor.Tape
			cputime.Measure(b, func() {
				tp.Reset()
				tp.Backward(tp.Mean(tc.f(&tp)))
			})
		})
	}
}

// actor is a one-input Model around a layer, for BenchmarkCaller.
type actor struct{ nn.Layer }

var actorInputs = []string{"obs"}

func (*actor) Inputs() []string { return actorInputs }
func (a *actor) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	return a.Forward(tp, in[0])
}

// BenchmarkCaller measures acting through Caller (key lookup, cached tensor)
// with the 4→128→128→2 MLP at batch 1, against BenchmarkMLPInference's direct
// call: float32 observations are shared, uint8 ones converted at every call.
func BenchmarkCaller(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	q, err := nn.NewMLP(nn.MLPConfig{In: 4, Hidden: []int{128, 128}, Out: 2}, rng)
	if err != nil {
		b.Fatal(err)
	}
	f32, _ := nd.FromSlice([]float32{0.1, 0.2, 0.3, 0.4}, 1, 4)
	u8, _ := nd.FromSlice([]uint8{1, 2, 3, 4}, 1, 4)
	for _, tc := range []struct {
		name string
		obs  *nd.Array
	}{{"float32", f32}, {"uint8", u8}} {
		b.Run(blasTag()+"/"+tc.name, func(b *testing.B) {
			data := batch.MustNew("obs", tc.obs, "rew", 1.0)
			var c nn.Caller
			var tp tensor.Tape
			tp.SetGradEnabled(false)
			m := &actor{q}
			cputime.Measure(b, func() {
				tp.Reset()
				out, err := c.Call(&tp, m, data)
				if err != nil {
					b.Fatal(err)
				}
				sink = out
			})
		})
	}
}
