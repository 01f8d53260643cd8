package optim

import (
	"errors"
	"math"
	"testing"

	"github.com/gorl/gorl/internal/par"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// The expected values in this file were computed by hand from PyTorch's
// documented update rules (the formulas in each optimizer's doc comment) in
// float64 with a short Python loop, for θ = [1, −2], η = 0.1 and the three
// gradients of adamGrads.

// stepper is what the hand-computed tests need of an optimizer.
type stepper interface{ Step() }

func runSteps(t *testing.T, ps nn.Params, opt stepper, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range adamGrads {
		setGrads(ps, [][]float32{g})
		opt.Step()
	}
}

func TestSGDHandComputed(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  SGDConfig
		want []float64
	}{
		{"plain", SGDConfig{LR: 0.1}, []float64{0.92, -2.155}},
		{"momentum", SGDConfig{LR: 0.1, Momentum: 0.9}, []float64{0.74, -2.2495}},
		{"dampening", SGDConfig{LR: 0.1, Momentum: 0.9, Dampening: 0.5}, []float64{0.7345, -2.057}},
		{"nesterov", SGDConfig{LR: 0.1, Momentum: 0.9, Nesterov: true}, []float64{0.686, -2.37955}},
		{"weight decay", SGDConfig{LR: 0.1, Momentum: 0.9, WeightDecay: 0.1}, []float64{0.688269, -2.138153}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := theta()
			opt, err := NewSGD(ps, tc.cfg)
			runSteps(t, ps, opt, err)
			checkClose(t, ps[0].Tensor.Data(), tc.want, 1e-6)
		})
	}
}

func TestRMSpropHandComputed(t *testing.T) {
	base := func(f func(*RMSpropConfig)) RMSpropConfig {
		c := DefaultRMSpropConfig()
		c.LR = 0.1
		f(&c)
		return c
	}
	for _, tc := range []struct {
		name string
		cfg  RMSpropConfig
		want []float64
	}{
		{"defaults", base(func(*RMSpropConfig) {}), []float64{0.188675217, -1.99480379}},
		{"weight decay", base(func(c *RMSpropConfig) { c.WeightDecay = 0.1 }), []float64{0.181014636, -1.86762308}},
		{"momentum", base(func(c *RMSpropConfig) { c.Momentum = 0.9 }), []float64{-1.6113246, -1.15818925}},
		{"centered", base(func(c *RMSpropConfig) { c.Centered = true }), []float64{0.183852668, -1.99243281}},
		{"all", base(func(c *RMSpropConfig) { c.Centered, c.Momentum, c.Alpha, c.WeightDecay = true, 0.5, 0.9, 0.1 }), []float64{0.417323422, -1.84887345}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := theta()
			opt, err := NewRMSprop(ps, tc.cfg)
			runSteps(t, ps, opt, err)
			checkClose(t, ps[0].Tensor.Data(), tc.want, 2e-6)
		})
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []SGDConfig{
		{LR: -1}, {LR: 0.1, Momentum: -0.5}, {LR: 0.1, Momentum: 0.9, Dampening: 1.5},
		{LR: 0.1, Nesterov: true}, {LR: 0.1, Momentum: 0.9, Dampening: 0.1, Nesterov: true},
	} {
		if _, err := NewSGD(theta(), c); !errors.Is(err, ErrConfig) {
			t.Errorf("NewSGD(%+v) error %v, want ErrConfig", c, err)
		}
	}
	for _, c := range []RMSpropConfig{
		{LR: 0.1, Alpha: 1}, {LR: 0.1, Alpha: 0.9, Eps: -1}, {LR: 0.1, Alpha: 0.9, Momentum: -1}, {LR: math.Inf(1)},
	} {
		if _, err := NewRMSprop(theta(), c); !errors.Is(err, ErrConfig) {
			t.Errorf("NewRMSprop(%+v) error %v, want ErrConfig", c, err)
		}
	}
}

func TestSetLR(t *testing.T) {
	opt, err := NewSGD(theta(), SGDConfig{LR: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	opt.SetLR(0.5)
	if opt.LR() != 0.5 || opt.Config().LR != 0.5 {
		t.Errorf("LR %v, config LR %v after SetLR(0.5)", opt.LR(), opt.Config().LR)
	}
	defer func() {
		if err, _ := recover().(error); !errors.Is(err, ErrConfig) {
			t.Errorf("SetLR(-1) recovered %v, want ErrConfig", err)
		}
	}()
	opt.SetLR(-1)
}

func TestClipGradNorm(t *testing.T) {
	// Hand-computed: gradients [3, 4] and [12] have total norm 13; clipping
	// to 5 multiplies them by 5/(13 + 1e-6).
	ps := nn.Params{
		{Name: "a", Tensor: tensor.New(2).SetRequiresGrad(true)},
		{Name: "b", Tensor: tensor.New(1).SetRequiresGrad(true)},
		{Name: "c", Tensor: tensor.New(3).SetRequiresGrad(true)}, // no gradient
	}
	setGrads(ps[:2], [][]float32{{3, 4}, {12}})
	if n := ClipGradNorm(ps, 5); n != 13 {
		t.Errorf("norm %v, want 13", n)
	}
	checkClose(t, ps[0].Tensor.Grad(), []float64{1.15384607, 1.53846142}, 1e-6)
	checkClose(t, ps[1].Tensor.Grad(), []float64{4.61538426}, 1e-6)
	// Below the limit nothing changes.
	setGrads(ps[:2], [][]float32{{3, 4}, {12}})
	if n := ClipGradNorm(ps, 20); n != 13 || ps[1].Tensor.Grad()[0] != 12 {
		t.Errorf("clip to 20: norm %v, gradient %v", n, ps[1].Tensor.Grad())
	}
	if n := testing.AllocsPerRun(10, func() { ClipGradNorm(ps, 5) }); n != 0 {
		t.Errorf("ClipGradNorm allocates %v times", n)
	}
	defer func() {
		if err, _ := recover().(error); !errors.Is(err, ErrConfig) {
			t.Errorf("ClipGradNorm(0) recovered %v, want ErrConfig", err)
		}
	}()
	ClipGradNorm(ps, 0)
}

func TestSchedules(t *testing.T) {
	// Hand-computed values of the closed forms in the doc comments.
	lin := LinearDecay{Start: 1e-3, End: 0, Steps: 100}
	cos := Cosine{Start: 1e-3, End: 0.5e-3, Steps: 100}
	stp := StepDecay{Start: 0.1, Every: 10, Gamma: 0.5}
	for _, tc := range []struct {
		name string
		got  float64
		want float64
	}{
		{"linear 0", lin.At(0), 1e-3},
		{"linear 25", lin.At(25), 0.75e-3},
		{"linear 100", lin.At(100), 0},
		{"linear after", lin.At(250), 0},
		{"linear before", lin.At(-3), 1e-3},
		{"linear no steps", LinearDecay{Start: 1, End: 2}.At(5), 2},
		{"cosine 0", cos.At(0), 1e-3},
		{"cosine 25", cos.At(25), 0.0009267766952966369}, // 0.5e-3 + 0.5e-3·(1 + cos(π/4))/2
		{"cosine 50", cos.At(50), 0.75e-3},
		{"cosine 100", cos.At(100), 0.5e-3},
		{"cosine after", cos.At(101), 0.5e-3},
		{"step 9", stp.At(9), 0.1},
		{"step 10", stp.At(10), 0.05},
		{"step 35", stp.At(35), 0.0125},
	} {
		if math.Abs(tc.got-tc.want) > 1e-15 {
			t.Errorf("%s: %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	defer func() {
		if err, _ := recover().(error); !errors.Is(err, ErrConfig) {
			t.Errorf("StepDecay with Every 0 recovered %v, want ErrConfig", err)
		}
	}()
	StepDecay{Start: 1, Gamma: 0.5}.At(3)
}

func TestFlushSubnormal(t *testing.T) {
	// The smallest normal float32 is 2⁻¹²⁶ ≈ 1.1755e-38 (IEEE 754).
	for _, tc := range []struct{ in, want float32 }{
		{1e-39, 0}, {-1e-39, 0}, {math.SmallestNonzeroFloat32, 0},
		{0x1p-126, 0x1p-126}, {-0x1p-126, -0x1p-126}, {1.5e-38, 1.5e-38},
		{0, 0}, {1, 1}, {float32(math.Inf(-1)), float32(math.Inf(-1))},
	} {
		if got := flushSubnormal(tc.in); got != tc.want {
			t.Errorf("flushSubnormal(%g) = %g, want %g", tc.in, got, tc.want)
		}
	}
	if got := flushSubnormal(float32(math.NaN())); got == got {
		t.Errorf("flushSubnormal(NaN) = %g", got)
	}
}

// TestClipGradNormLong covers gradients long enough to be summed and scaled
// in pieces over the worker pool.
func TestClipGradNormLong(t *testing.T) {
	defer par.SetWorkers(0)
	const n = 300_000 // more than 2·parGrain: cut into pieces
	p := tensor.New(n).SetRequiresGrad(true)
	ps := nn.Params{{Name: "w", Tensor: p}}
	// All 0.5: the squares sum exactly to n/4 = 75,000 in any order.
	fill := func(v float32) {
		g := make([]float32, n)
		for i := range g {
			g[i] = v
		}
		setGrads(ps, [][]float32{g})
	}
	fill(0.5)
	want := math.Sqrt(75_000)
	if got := ClipGradNorm(ps, 1); got != want {
		t.Errorf("norm %v, want %v", got, want)
	}
	if g, w := p.Grad()[n-1], float32(0.5*(1/(want+1e-6))); math.Abs(float64(g-w)) > 1e-9 {
		t.Errorf("last element scaled to %v, want %v", g, w)
	}
	// An infinite element: the factor is 0, as in PyTorch; the others
	// become 0 and the infinite one NaN.
	fill(0.5)
	p.Grad()[7] = float32(math.Inf(1))
	if got := ClipGradNorm(ps, 1); !math.IsInf(got, 1) {
		t.Errorf("norm %v, want +Inf", got)
	}
	if g := p.Grad(); g[0] != 0 || g[n-1] != 0 || !math.IsNaN(float64(g[7])) {
		t.Errorf("after an infinite norm: %v, %v, %v; want 0, 0, NaN", g[0], g[n-1], g[7])
	}
	// The norm of uneven values has the same bits on 1 and 3 workers.
	var norms []float64
	for _, w := range []int{1, 3} {
		par.SetWorkers(w)
		g := make([]float32, n)
		for i := range g {
			g[i] = float32(math.Sin(float64(i)))
		}
		setGrads(ps, [][]float32{g})
		norms = append(norms, ClipGradNorm(ps, 1e9))
	}
	if math.Float64bits(norms[0]) != math.Float64bits(norms[1]) {
		t.Errorf("norm %v on 1 worker, %v on 3", norms[0], norms[1])
	}
}
