package optim_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/tensor"
)

// fitLine trains y = 2x − 1 with one Linear layer and the optimizer that
// newOpt makes, and prints the learned weight and bias.
func fitLine(newOpt func(nn.Params) interface {
	Step()
	ZeroGrad()
}, steps int) {
	rng := rand.New(rand.NewPCG(1, 1))
	l := nn.NewLinear(1, 1, rng)
	opt := newOpt(l.Params())
	x := tensor.MustFromSlice([]float32{-1, 0, 1, 2}, 4, 1)
	y := tensor.MustFromSlice([]float32{-3, -1, 1, 3}, 4, 1)
	var tp tensor.Tape
	for i := 0; i < steps; i++ {
		tp.Reset()
		loss := tp.MSE(l.Forward(&tp, x), y)
		opt.ZeroGrad()
		tp.Backward(loss)
		opt.Step()
	}
	fmt.Printf("w %.3f b %.3f\n", l.Weight.Data()[0], l.Bias.Data()[0])
}

func ExampleAdam() {
	fitLine(func(ps nn.Params) interface {
		Step()
		ZeroGrad()
	} {
		cfg := optim.DefaultAdamConfig()
		cfg.LR = 0.05
		opt, err := optim.NewAdam(ps, cfg)
		if err != nil {
			panic(err)
		}
		return opt
	}, 500)
	// Output: w 2.000 b -1.000
}

func ExampleSGD() {
	fitLine(func(ps nn.Params) interface {
		Step()
		ZeroGrad()
	} {
		opt, err := optim.NewSGD(ps, optim.SGDConfig{LR: 0.05, Momentum: 0.9, Nesterov: true})
		if err != nil {
			panic(err)
		}
		return opt
	}, 200)
	// Output: w 2.000 b -1.000
}

func ExampleRMSprop() {
	fitLine(func(ps nn.Params) interface {
		Step()
		ZeroGrad()
	} {
		cfg := optim.DefaultRMSpropConfig()
		cfg.LR = 0.003
		cfg.Centered = true
		opt, err := optim.NewRMSprop(ps, cfg)
		if err != nil {
			panic(err)
		}
		return opt
	}, 1000)
	// Output: w 2.000 b -1.000
}

func ExampleClipGradNorm() {
	w := tensor.MustFromSlice([]float32{3, 4}).SetRequiresGrad(true)
	ps := nn.Params{{Name: "w", Tensor: w}}
	var tp tensor.Tape
	tp.Backward(tp.MulScalar(tp.Sum(tp.Mul(w, w)), 0.5)) // gradient = w
	norm := optim.ClipGradNorm(ps, 1)
	fmt.Printf("norm %.1f, clipped gradient %.3f\n", norm, w.Grad())
	// Output: norm 5.0, clipped gradient [0.600 0.800]
}

func ExampleLinearDecay() {
	opt, _ := optim.NewAdam(nil, optim.DefaultAdamConfig())
	s := optim.LinearDecay{Start: 1e-3, End: 1e-4, Steps: 100}
	for _, step := range []int{0, 50, 100, 200} {
		opt.SetLR(s.At(step))
		fmt.Printf("%d %.2e\n", step, opt.LR())
	}
	// Output:
	// 0 1.00e-03
	// 50 5.50e-04
	// 100 1.00e-04
	// 200 1.00e-04
}

func ExampleCosine() {
	s := optim.Cosine{Start: 1e-3, End: 0, Steps: 100}
	fmt.Printf("%.2e %.2e %.2e\n", s.At(0), s.At(50), s.At(100))
	// Output: 1.00e-03 5.00e-04 0.00e+00
}

func ExampleStepDecay() {
	s := optim.StepDecay{Start: 0.1, Every: 30, Gamma: 0.1}
	fmt.Printf("%.3g %.3g %.3g\n", s.At(29), s.At(30), s.At(65))
	// Output: 0.1 0.01 0.001
}

// Example_resume saves a model and its optimizer halfway through training and
// resumes in a new process-like setting: the resumed run ends with exactly
// the same weights.
func Example_resume() {
	train := func(l *nn.Linear, opt *optim.Adam, from, to int) {
		var tp tensor.Tape
		for i := from; i < to; i++ {
			x := tensor.MustFromSlice([]float32{float32(i % 3)}, 1, 1)
			y := tensor.MustFromSlice([]float32{float32(2*(i%3) - 1)}, 1, 1)
			tp.Reset()
			loss := tp.MSE(l.Forward(&tp, x), y)
			opt.ZeroGrad()
			tp.Backward(loss)
			opt.Step()
		}
	}
	newRun := func(seed uint64) (*nn.Linear, *optim.Adam) {
		l := nn.NewLinear(1, 1, rand.New(rand.NewPCG(seed, 0)))
		opt, err := optim.NewAdam(l.Params(), optim.DefaultAdamConfig())
		if err != nil {
			panic(err)
		}
		return l, opt
	}

	l, opt := newRun(1)
	train(l, opt, 0, 10)
	var model, state bytes.Buffer
	if err := nn.Save(&model, l.Params(), nil); err != nil {
		panic(err)
	}
	if err := opt.Save(&state); err != nil {
		panic(err)
	}
	train(l, opt, 10, 20)

	l2, opt2 := newRun(2)
	if _, err := nn.Load(&model, l2.Params()); err != nil {
		panic(err)
	}
	if err := opt2.Load(&state); err != nil {
		panic(err)
	}
	train(l2, opt2, 10, 20)
	fmt.Println(l2.Weight.Data()[0] == l.Weight.Data()[0], l2.Bias.Data()[0] == l.Bias.Data()[0])
	// Output: true true
}

// Example_dqnUpdate is the update of a DQN agent: Q(s, a) of the online
// network against r + γ·maxₐ Q'(s', a) of a target network (computed without
// gradients), a Huber loss, gradient clipping, an Adam step, and a Polyak
// update of the target network. On a reset tape, every update after the
// first allocates nothing (TestStepNoAlloc checks this loop).
func Example_dqnUpdate() {
	rng := rand.New(rand.NewPCG(1, 1))
	cfg := nn.MLPConfig{In: 4, Hidden: []int{64, 64}, Out: 2}
	online, err := nn.NewMLP(cfg, rng)
	if err != nil {
		panic(err)
	}
	target, _ := nn.NewMLP(cfg, rng)
	ps, targetPs := online.Params(), target.Params()
	if err := nn.Copy(targetPs, ps); err != nil { // start equal
		panic(err)
	}
	opt, err := optim.NewAdam(ps, optim.DefaultAdamConfig())
	if err != nil {
		panic(err)
	}

	// A fixed batch of 32 transitions stands in for replay samples.
	const batch, gamma = 32, 0.99
	obs, next := tensor.New(batch, 4), tensor.New(batch, 4)
	obs.FillNormal(rng, 0, 1)
	next.FillNormal(rng, 0, 1)
	rew := tensor.New(batch)
	rew.Fill(1)
	act := make([]int, batch)
	for i := range act {
		act[i] = i % 2
	}
	var tp tensor.Tape
	update := func() float32 {
		tp.Reset()
		prev := tp.SetGradEnabled(false)
		// No transition of this batch ends an episode, so all bootstrap.
		y := tp.Add(rew, tp.MulScalar(tp.MaxAxis(target.Forward(&tp, next), 1, false), gamma))
		tp.SetGradEnabled(prev)
		q := tp.Gather(online.Forward(&tp, obs), 1, act)
		loss := tp.Huber(q, y, 1)
		opt.ZeroGrad()
		tp.Backward(loss)
		optim.ClipGradNorm(ps, 10)
		opt.Step()
		if err := nn.SoftUpdate(targetPs, ps, 0.005); err != nil {
			panic(err)
		}
		return loss.Item()
	}
	first := update()
	for i := 0; i < 200; i++ {
		update()
	}
	fmt.Println("loss fell:", update() < first/10)
	// Output: loss fell: true
}

// quadStep makes one optimizer step on the loss ½·Σw² (whose gradient is w)
// from w = (1, −2) and prints the new w.
func quadStep(newOpt func(nn.Params) (interface{ Step() }, error), steps int) {
	w := tensor.MustFromSlice([]float32{1, -2}).SetRequiresGrad(true)
	opt, err := newOpt(nn.Params{{Name: "w", Tensor: w}})
	if err != nil {
		fmt.Println(err)
		return
	}
	var tp tensor.Tape
	for range steps {
		tp.Reset()
		w.ZeroGrad()
		tp.Backward(tp.MulScalar(tp.Sum(tp.Mul(w, w)), 0.5))
		opt.Step()
	}
	fmt.Printf("w %.4f\n", w.Data())
}

// AdamW: Adam's first step moves each weight by η against the sign of its
// gradient, after the decoupled decay has scaled it by 1 − η·λ:
// 1·0.999 − 0.1 = 0.899 and −2·0.999 + 0.1 = −1.898. A β₁ of 1 is invalid.
func ExampleAdamConfig() {
	cfg := optim.DefaultAdamWConfig()
	cfg.LR = 0.1
	quadStep(func(ps nn.Params) (interface{ Step() }, error) { return optim.NewAdam(ps, cfg) }, 1)
	cfg.Beta1 = 1
	fmt.Println(cfg.Validate() != nil)
	// Output:
	// w [0.8990 -1.8980]
	// true
}

// SGD with momentum μ = 0.9 and η = 0.1, two steps on ½·Σw²: the first
// moves w by −0.1·w to 0.9·w, the second by −0.1·(0.9·w + 0.9·w), to 0.72·w.
func ExampleSGDConfig() {
	cfg := optim.DefaultSGDConfig()
	cfg.LR, cfg.Momentum = 0.1, 0.9
	quadStep(func(ps nn.Params) (interface{ Step() }, error) { return optim.NewSGD(ps, cfg) }, 2)
	// Output: w [0.7200 -1.4400]
}

// RMSprop's first step with α = 0.99 divides the gradient g by
// √(0.01·g²) = 0.1·|g|, so each weight moves by 10·η against the sign of
// its gradient: with η = 0.01, by 0.1.
func ExampleRMSpropConfig() {
	cfg := optim.DefaultRMSpropConfig()
	fmt.Println(cfg.LR, cfg.Alpha)
	quadStep(func(ps nn.Params) (interface{ Step() }, error) { return optim.NewRMSprop(ps, cfg) }, 1)
	// Output:
	// 0.01 0.99
	// w [0.9000 -1.9000]
}
