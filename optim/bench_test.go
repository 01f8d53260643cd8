package optim_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/tensor"
)

var sinkF float32

// blasTag names the BLAS that computes matrix products ("blas=gonum",
// "blas=openblas"; switch with the GORL_BLAS environment variable).
func blasTag() string {
	name, _, _ := strings.Cut(tensor.BLASName(), " ")
	return "blas=" + name
}

// trainStep returns one training step (forward, MSE, backward, Adam update)
// of net on x, y, as users write it: a reset tape, optimizer-owned gradients.
func trainStep(b *testing.B, net nn.Layer, x, y *tensor.Tensor, lr float64) func() {
	cfg := optim.DefaultAdamConfig()
	cfg.LR = lr
	opt, err := optim.NewAdam(net.Params(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	var tp tensor.Tape
	return func() {
		tp.Reset()
		loss := tp.MSE(net.Forward(&tp, x), y)
		opt.ZeroGrad()
		tp.Backward(loss)
		opt.Step()
		sinkF = loss.Item()
	}
}

func randn(rng *rand.Rand, shape ...int) *tensor.Tensor {
	t := tensor.New(shape...)
	t.FillNormal(rng, 0, 1)
	return t
}

// BenchmarkMLPAdamStep measures a training step through nn.MLP and
// optim.Adam: 4→128→128→2 at batch 64 (CartPole DQN; torch 1.13 one thread
// 415 µs) and 64→256→256→18 at batch 256 (torch 2,113 µs).
func BenchmarkMLPAdamStep(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	for _, s := range []struct {
		name                   string
		in, hidden, out, batch int
	}{
		{"4-128-128-2/batch=64", 4, 128, 2, 64},
		{"64-256-256-18/batch=256", 64, 256, 18, 256},
	} {
		b.Run(blasTag()+"/"+s.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			net, err := nn.NewMLP(nn.MLPConfig{In: s.in, Hidden: []int{s.hidden, s.hidden}, Out: s.out}, rng)
			if err != nil {
				b.Fatal(err)
			}
			cputime.Measure(b, trainStep(b, net, randn(rng, s.batch, s.in), randn(rng, s.batch, s.out), 1e-3))
		})
	}
}

// BenchmarkNatureCNNAdamStep measures a DQN training step of the Nature CNN
// (6 actions, raw pixels scaled by 1/255) at batch 32; torch 1.13 one thread:
// 24.9 ms.
func BenchmarkNatureCNNAdamStep(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	b.Run(blasTag()+"/batch=32", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(1, 1))
		net := nn.NewNatureCNN(4, 6, rng)
		x := tensor.New(32, 4, 84, 84)
		x.FillUniform(rng, 0, 255)
		cputime.Measure(b, trainStep(b, net, x, randn(rng, 32, 6), 1e-4))
	})
}

// BenchmarkStep measures the update alone (gradients already computed) of
// each optimizer on the 4→128→128→2 MLP (17,410 parameters) and the Nature
// CNN (1.69 million).
func BenchmarkStep(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	mlp, err := nn.NewMLP(nn.MLPConfig{In: 4, Hidden: []int{128, 128}, Out: 2}, rng)
	if err != nil {
		b.Fatal(err)
	}
	for _, net := range []struct {
		name string
		ps   nn.Params
	}{{"mlp", mlp.Params()}, {"nature-cnn", nn.NewNatureCNN(4, 6, rng).Params()}} {
		for _, g := range net.ps {
			g.Tensor.ZeroGrad()
			// A gradient equal to the weights: any dense gradient will do.
			var tp tensor.Tape
			tp.Backward(tp.MulScalar(tp.Sum(tp.Mul(g.Tensor, g.Tensor)), 0.5))
		}
		adam, _ := optim.NewAdam(net.ps, optim.DefaultAdamConfig())
		sgd, _ := optim.NewSGD(net.ps, optim.SGDConfig{LR: 1e-3, Momentum: 0.9})
		rms, _ := optim.NewRMSprop(net.ps, optim.DefaultRMSpropConfig())
		for _, o := range []struct {
			name string
			step func()
		}{{"adam", adam.Step}, {"sgd-momentum", sgd.Step}, {"rmsprop", rms.Step}} {
			b.Run(net.name+"/"+o.name, func(b *testing.B) {
				n := net.ps.Count()
				b.SetBytes(int64(4 * n))
				start, ok := cputime.Process()
				cputime.Measure(b, o.step)
				if end, ok2 := cputime.Process(); ok && ok2 {
					// Measure's untimed warm-up call is a step too.
					b.ReportMetric(float64(end-start)/float64(b.N+1)/float64(n), "cpu-ns/param")
				}
			})
		}
	}
}

// BenchmarkClipGradNorm measures clipping the Nature CNN's gradients.
func BenchmarkClipGradNorm(b *testing.B) {
	ps := nn.NewNatureCNN(4, 6, rand.New(rand.NewPCG(1, 1))).Params()
	for _, p := range ps {
		var tp tensor.Tape
		tp.Backward(tp.Sum(tp.Mul(p.Tensor, p.Tensor)))
	}
	b.SetBytes(int64(4 * ps.Count()))
	cputime.Measure(b, func() { optim.ClipGradNorm(ps, 1e9) })
}
