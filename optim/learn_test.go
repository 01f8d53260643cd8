package optim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// learners are the optimizers of the learning tests with learning rates
// suited to a small MLP trained on full batches.
var learners = []struct {
	name string
	make func(ps nn.Params) (optimizer, error)
}{
	{"adam", func(ps nn.Params) (optimizer, error) {
		c := DefaultAdamConfig()
		c.LR = 1e-2
		return NewAdam(ps, c)
	}},
	{"adamw", func(ps nn.Params) (optimizer, error) {
		c := DefaultAdamWConfig()
		c.LR = 1e-2
		return NewAdam(ps, c)
	}},
	{"sgd-nesterov", func(ps nn.Params) (optimizer, error) {
		return NewSGD(ps, SGDConfig{LR: 0.03, Momentum: 0.9, Nesterov: true})
	}},
	{"rmsprop", func(ps nn.Params) (optimizer, error) {
		c := DefaultRMSpropConfig()
		c.LR = 1e-3
		return NewRMSprop(ps, c)
	}},
}

// regressionData samples n points of f(x) = sin(2x₀) + x₁²/2 on [−1.5, 1.5]².
func regressionData(rng *rand.Rand, n int) (x, y *tensor.Tensor) {
	x, y = tensor.New(n, 2), tensor.New(n, 1)
	xd, yd := x.Data(), y.Data()
	for i := 0; i < n; i++ {
		a, b := 3*rng.Float64()-1.5, 3*rng.Float64()-1.5
		xd[2*i], xd[2*i+1] = float32(a), float32(b)
		yd[i] = float32(math.Sin(2*a) + b*b/2)
	}
	return x, y
}

// TestLearnRegression fits f with an MLP 2→32→32→1 (tanh): 300 full-batch
// steps on 256 points must bring the MSE on 256 new points below 0.03. f's
// variance on the square is about 0.64 (0.52 from the sine, 0.11 from the
// parabola, computed by hand), so that is 95% of it explained.
func TestLearnRegression(t *testing.T) {
	for _, l := range learners {
		t.Run(l.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, 0))
			net, err := nn.NewMLP(nn.MLPConfig{In: 2, Hidden: []int{32, 32}, Out: 1, Activation: nn.Tanh}, rng)
			if err != nil {
				t.Fatal(err)
			}
			opt, err := l.make(net.Params())
			if err != nil {
				t.Fatal(err)
			}
			x, y := regressionData(rng, 256)
			var tp tensor.Tape
			for i := 0; i < 300; i++ {
				tp.Reset()
				loss := tp.MSE(net.Forward(&tp, x), y)
				opt.ZeroGrad()
				tp.Backward(loss)
				opt.Step()
			}
			xt, yt := regressionData(rng, 256)
			tp.Reset()
			tp.SetGradEnabled(false)
			mse := tp.MSE(net.Forward(&tp, xt), yt).Item()
			t.Logf("test MSE %.4f", mse)
			if !(mse < 0.03) {
				t.Errorf("test MSE %.4f, want < 0.03", mse)
			}
		})
	}
}

// spirals returns n points of two interleaved spirals, labelled 0 and 1.
func spirals(rng *rand.Rand, n int) (*tensor.Tensor, []int) {
	x := tensor.New(n, 2)
	labels := make([]int, n)
	for i := range labels {
		c := i % 2
		r := rng.Float64()
		a := 3*math.Pi*r + math.Pi*float64(c)
		x.Data()[2*i] = float32(2*r*math.Cos(a) + 0.05*rng.NormFloat64())
		x.Data()[2*i+1] = float32(2*r*math.Sin(a) + 0.05*rng.NormFloat64())
		labels[i] = c
	}
	return x, labels
}

// TestLearnClassifier trains an MLP 2→64→64→2 (ReLU) with cross-entropy on two
// interleaved spirals (1.5 turns each): 300 full-batch steps on 512 points
// must classify at least 95% of 512 new points correctly.
func TestLearnClassifier(t *testing.T) {
	for _, l := range learners {
		t.Run(l.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 0))
			net, err := nn.NewMLP(nn.MLPConfig{In: 2, Hidden: []int{64, 64}, Out: 2}, rng)
			if err != nil {
				t.Fatal(err)
			}
			opt, err := l.make(net.Params())
			if err != nil {
				t.Fatal(err)
			}
			x, labels := spirals(rng, 512)
			var tp tensor.Tape
			for i := 0; i < 300; i++ {
				tp.Reset()
				loss := tp.CrossEntropy(net.Forward(&tp, x), labels)
				opt.ZeroGrad()
				tp.Backward(loss)
				opt.Step()
			}
			xt, lt := spirals(rng, 512)
			tp.Reset()
			tp.SetGradEnabled(false)
			pred := tensor.ArgMaxTo(make([]int, 512), net.Forward(&tp, xt), 1)
			correct := 0
			for i, p := range pred {
				if p == lt[i] {
					correct++
				}
			}
			acc := float64(correct) / 512
			t.Logf("test accuracy %.3f", acc)
			if acc < 0.95 {
				t.Errorf("test accuracy %.3f, want ≥ 0.95", acc)
			}
		})
	}
}
