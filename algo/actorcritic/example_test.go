package actorcritic_test

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

func ExampleNewNet() {
	obs, _ := env.NewBox(-1.0, 1.0, []int{3}, nd.Float32)
	act, _ := env.NewBox(-2.0, 2.0, []int{1}, nd.Float32)
	net, _ := actorcritic.NewNet(actorcritic.NetConfig{Hidden: []int{8}, Shared: true, OrthogonalGain: 1}, obs, act, true, rand.New(rand.NewPCG(1, 2)))
	for _, p := range net.Params() {
		fmt.Println(p.Name, p.Tensor.Shape())
	}
	var tp tensor.Tape
	d, v, _ := net.DistValue(&tp, batch.MustNew("obs", nd.Zeros(nd.Float32, 5, 3)))
	fmt.Println(d, v.Shape())
	// Output:
	// trunk.0.weight [8 3]
	// trunk.0.bias [8]
	// actor.weight [1 8]
	// actor.bias [1]
	// critic.weight [1 8]
	// critic.bias [1]
	// head.log_std [1]
	// Independent(Normal(loc: [5 1], scale: [5 1]), 1) [5]
}

func ExampleNormalHead() {
	h := actorcritic.NewNormalHead(2, 0) // σ = 1
	d := h.New()
	var tp tensor.Tape
	h.Set(d, &tp, tensor.MustFromSlice([]float32{0, 1}, 1, 2)) // μ = (0, 1)
	lp := d.LogProb(tensor.MustFromSlice([]float32{1, 1}, 1, 2))
	ent := d.(interface{ Entropy() *tensor.Tensor }).Entropy()
	fmt.Printf("log p = %.4f, H = %.4f\n", lp.Data()[0], ent.Data()[0])
	// Output: log p = -2.3379, H = 2.8379
}

func ExampleRollout() {
	act, _ := env.NewDiscrete(2, 0)
	b := batch.MustNew("obs", nd.Zeros(nd.Float32, 10, 4), "act", nd.Zeros(nd.Int64, 10))
	var r actorcritic.Rollout
	if err := r.Load(b, act, false); err != nil {
		fmt.Println(err)
		return
	}
	r.Shuffle(rand.New(rand.NewPCG(1, 2)))
	var tp tensor.Tape
	for i := range r.Minibatches(4) {
		rows := r.Rows(i, 4)
		obs, _ := r.ObsRows(&tp, rows).Get("obs")
		fmt.Println(len(rows), "rows, obs", obs.(*tensor.Tensor).Shape())
	}
	// Output:
	// 4 rows, obs [4 4]
	// 6 rows, obs [6 4]
}

func ExampleRunningMeanStd() {
	var r actorcritic.RunningMeanStd
	fmt.Printf("before: std %.1f\n", r.Std(0))
	r.Update([]float32{1, 2, 3})
	r.Update([]float32{4, 5})
	fmt.Printf("mean %.1f, variance %.1f, count %d\n", r.Mean, r.Var, r.Count)
	// Output:
	// before: std 1.0
	// mean 3.0, variance 2.0, count 5
}

func ExampleOptimizer() {
	w := tensor.MustFromSlice([]float32{1, -1}, 2).SetRequiresGrad(true)
	t := actorcritic.Training{Optim: optim.DefaultAdamConfig(), LRDecaySteps: 1000}
	t.Optim.LR = 0.01
	opt, err := actorcritic.NewOptimizer(nn.Params{{Name: "w", Tensor: w}}, t)
	if err != nil {
		fmt.Println(err)
		return
	}
	var tp tensor.Tape
	opt.Step(&tp, tp.Sum(tp.Mul(w, w))) // Adam's first step: −lr·sign(∂/∂w)
	fmt.Printf("w = %.2f\n", w.Data())
	for _, steps := range []int64{0, 500, 2000} {
		opt.Schedule(steps)
		fmt.Printf("%d env steps: lr %.4f\n", steps, opt.LR())
	}
	// Output:
	// w = [0.99 -0.99]
	// 0 env steps: lr 0.0100
	// 500 env steps: lr 0.0050
	// 2000 env steps: lr 0.0000
}

func ExampleGAE() {
	act, _ := env.NewDiscrete(2, 0)
	critic := &nn.Linear{Weight: tensor.MustFromSlice([]float32{1, 0}, 1, 2)}
	actor := &nn.Linear{Weight: tensor.New(2, 2)}
	net, _ := actorcritic.NewNetFrom(policy.ObsNet{Layer: nn.Identity}, actor, critic, policy.CategoricalHead{}, act)
	buf, _ := buffer.New(buffer.Config{Size: 10})
	for i := range 3 {
		buf.Add(batch.MustNew("obs", []float32{float32(i), 0}, "act", int64(0), "rew", 1.0,
			"terminated", i == 2, "truncated", false, "obs_next", []float32{float32(i + 1), 0}), nil, nil)
	}
	idx := buf.SampleIndices(0, nil)
	b, _ := buf.Take(idx)
	var r actorcritic.Rollout
	if err := r.Load(b, act, true); err != nil {
		fmt.Println(err)
		return
	}
	g := actorcritic.GAE{Gamma: 0.5, Lambda: 0.5}
	var stats actorcritic.RunningMeanStd
	if err := g.Compute(&r, net, buf, idx, &stats); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("v_s", r.Column("v_s").Data())
	fmt.Println("adv", r.Column("adv").Data())
	fmt.Println("returns", r.Column("returns").Data())
	// Output:
	// v_s [0 1 2]
	// adv [1.6875 0.75 -1]
	// returns [1.6875 1.75 1]
}

// A DeterministicActor's actions lie within ±MaxAction.
func ExampleDeterministicActor() {
	a, err := actorcritic.NewDeterministicActor(3, 2, []int{16}, 2, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	obs := tensor.New(4, 3)
	obs.FillNormal(rand.New(rand.NewPCG(3, 4)), 0, 10)
	act := a.Forward(nil, obs)
	fmt.Println(act.Shape(), slices.Max(act.Data()) <= 2, slices.Min(act.Data()) >= -2)
	// Output: [4 2] true true
}

// A SquashedHead with a state-dependent σ reads [μ, log σ] from the
// network; its mode is tanh(μ) and its samples lie in (−1, 1).
func ExampleSquashedHead() {
	h := actorcritic.NewSquashedHead(1, false, 0)
	fmt.Println("width", h.Width())
	d := h.New()
	var tp tensor.Tape
	if err := h.Set(d, &tp, tensor.MustFromSlice([]float32{0.5, -1}, 1, 2)); err != nil {
		panic(err)
	}
	s := d.Sample(rand.New(rand.NewPCG(1, 2))).Data()[0]
	fmt.Printf("mode %.4f, sample in (-1, 1): %v\n", d.Mode().Data()[0], s > -1 && s < 1)
	// Output:
	// width 2
	// mode 0.4621, sample in (-1, 1): true
}

// A QCritic maps an observation and an action to one value per row; its
// parameters are the weights and biases of three layers.
func ExampleQCritic() {
	q, err := actorcritic.NewQCritic(actorcritic.CriticConfig{Hidden: []int{16, 16}}, 3, 1, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	fmt.Println(q.Q(nil, tensor.New(5, 3), tensor.New(5, 1)).Shape(), len(q.Params()))
	// Output: [5] 6
}

// Twin critics, as TD3 and SAC use: Step regresses every critic on the
// same targets y with one optimizer; the loss falls.
func ExampleCritics() {
	rng := rand.New(rand.NewPCG(1, 2))
	cfg := actorcritic.Training{Optim: optim.DefaultAdamConfig()}
	c, err := actorcritic.NewCritics(2, actorcritic.CriticConfig{Hidden: []int{16}}, 3, 1, cfg, rng)
	if err != nil {
		panic(err)
	}
	obs, act := tensor.New(8, 3), tensor.New(8, 1)
	obs.FillNormal(rng, 0, 1)
	act.FillNormal(rng, 0, 1)
	y := tensor.New(8)
	y.Fill(1)
	var tp tensor.Tape
	first := c.Step(&tp, obs, act, y)
	var last float64
	for range 200 {
		tp.Reset()
		last = c.Step(&tp, obs, act, y)
	}
	c.SoftUpdate(0.005)
	fmt.Println(c.Len(), len(c.Values(nil, obs, act)), "loss fell:", last < first/10)
	// Output: 2 2 loss fell: true
}
