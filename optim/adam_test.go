package optim

import (
	"errors"
	"math"
	"testing"

	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// setGrads gives every tensor of ps the gradient listed for it, through a
// real backward pass of the loss Σᵢ Σⱼ g[i][j]·θᵢⱼ.
func setGrads(ps nn.Params, grads [][]float32) {
	var tp tensor.Tape
	var loss *tensor.Tensor
	for i, p := range ps {
		c := tensor.MustFromSlice(grads[i], p.Tensor.Shape()...)
		l := tp.Sum(tp.Mul(p.Tensor, c))
		if loss == nil {
			loss = l
		} else {
			loss = tp.Add(loss, l)
		}
	}
	ps.ZeroGrad()
	tp.Backward(loss)
}

// theta returns one parameter θ = [1, −2] named "theta".
func theta() nn.Params {
	return nn.Params{{Name: "theta", Tensor: tensor.MustFromSlice([]float32{1, -2}).SetRequiresGrad(true)}}
}

// adamGrads are the gradients of three steps, chosen to change sign and
// size so that weight decay and AMSGrad make a difference.
var adamGrads = [][]float32{{1, -0.5}, {0.1, 2}, {-0.3, 0.05}}

func TestAdamHandComputed(t *testing.T) {
	// Expected values: PyTorch's documented Adam/AdamW update rule (see
	// Adam's doc comment) applied by hand in float64 (a short Python
	// loop) to θ = [1, −2], η = 0.1, ε = 1e-8 and the gradients adamGrads.
	with := func(f func(*AdamConfig)) AdamConfig {
		c := DefaultAdamConfig()
		c.LR = 0.1
		f(&c)
		return c
	}
	for _, tc := range []struct {
		name string
		cfg  AdamConfig
		want []float64
	}{
		{"defaults", with(func(*AdamConfig) {}), []float64{0.789340428, -2.00073712}},
		{"l2", with(func(c *AdamConfig) { c.WeightDecay = 0.1 }), []float64{0.77384385, -1.97538446}},
		{"adamw", with(func(c *AdamConfig) { c.WeightDecay, c.Decoupled = 0.1, true }), []float64{0.762370239, -1.94276562}},
		{"beta2=0.5", with(func(c *AdamConfig) { c.Beta2 = 0.5 }), []float64{0.759873094, -1.99827995}},
		{"amsgrad", with(func(c *AdamConfig) { c.Beta2, c.AMSGrad = 0.5, true }), []float64{0.806250986, -1.98392402}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := theta()
			opt, err := NewAdam(ps, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range adamGrads {
				setGrads(ps, [][]float32{g})
				opt.Step()
			}
			checkClose(t, ps[0].Tensor.Data(), tc.want, 2e-6)
		})
	}
}

func checkClose(t *testing.T, got []float32, want []float64, tol float64) {
	t.Helper()
	for i := range want {
		if d := math.Abs(float64(got[i]) - want[i]); d > tol*math.Max(1, math.Abs(want[i])) {
			t.Errorf("element %d = %.9g, want %.9g (off by %.3g)", i, got[i], want[i], d)
		}
	}
}

func TestAdamSkipsTensorsWithoutGradient(t *testing.T) {
	ps := theta()
	opt, err := NewAdam(ps, DefaultAdamConfig())
	if err != nil {
		t.Fatal(err)
	}
	ps.ZeroGrad()
	opt.Step()
	if got := ps[0].Tensor.Data(); got[0] != 1 || got[1] != -2 || opt.slots[0].step != 0 {
		t.Errorf("a tensor without gradient changed: %v, step %d", got, opt.slots[0].step)
	}
}

func TestAdamConfigValidate(t *testing.T) {
	for _, f := range []func(*AdamConfig){
		func(c *AdamConfig) { c.LR = -1 },
		func(c *AdamConfig) { c.LR = math.NaN() },
		func(c *AdamConfig) { c.Beta1 = 1 },
		func(c *AdamConfig) { c.Beta2 = -0.1 },
		func(c *AdamConfig) { c.Eps = -1 },
		func(c *AdamConfig) { c.WeightDecay = math.Inf(1) },
	} {
		c := DefaultAdamConfig()
		f(&c)
		if _, err := NewAdam(theta(), c); !errors.Is(err, ErrConfig) {
			t.Errorf("NewAdam(%+v) error = %v, want ErrConfig", c, err)
		}
	}
}
