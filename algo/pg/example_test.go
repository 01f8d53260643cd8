package pg_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/pg"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/tensor"
)

// A PG learns from a collection in a buffer: Preprocess adds the returns,
// UpdateRepeat takes the gradient steps. algo.Learner.StepAll (which the
// on-policy trainer calls) runs both on everything the buffer holds.
func ExampleNew() {
	obs, _ := env.NewBox(-1.0, 1.0, []int{2}, nd.Float32)
	act, _ := env.NewDiscrete(2, 0)
	cfg := pg.DefaultConfig()
	cfg.Gamma = 0.5
	p, err := pg.New(cfg, obs, act, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	// One episode of three steps with reward 1, terminated.
	buf, _ := buffer.New(buffer.Config{Size: 10})
	for i := range 3 {
		buf.Add(batch.MustNew("obs", []float32{float32(i), 0}, "act", int64(i%2), "rew", 1.0,
			"terminated", i == 2, "truncated", false, "obs_next", []float32{float32(i + 1), 0}), nil, nil)
	}
	var l algo.Learner
	stats, err := l.StepAll(p, buf, 0, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("returns standardized with the statistics they join: mean %.4f, variance %.4f\n",
		p.Counters.Returns.Mean, p.Counters.Returns.Var)
	fmt.Println("gradient steps:", p.Updates(), "loss finite:", !math.IsNaN(stats["loss"]))
	// Output:
	// returns standardized with the statistics they join: mean 1.4167, variance 0.0972
	// gradient steps: 2 loss finite: true
}

// DefaultConfig's JSON is what a run writes next to its logs.
func ExampleDefaultConfig() {
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.Encode(pg.DefaultConfig())
	// Output:
	// {
	//   "net": {
	//     "hidden": [
	//       64,
	//       64
	//     ],
	//     "activation": "",
	//     "shared": false,
	//     "orthogonal_gain": 1.4142135623730951,
	//     "log_std_init": 0
	//   },
	//   "policy": {
	//     "deterministic_eval": true,
	//     "map": {
	//       "bound": "clip",
	//       "scale": true
	//     }
	//   },
	//   "gamma": 0.95,
	//   "return_standardization": true,
	//   "optim": {
	//     "lr": 0.001,
	//     "beta1": 0.9,
	//     "beta2": 0.999,
	//     "eps": 1e-8,
	//     "weight_decay": 0,
	//     "amsgrad": false,
	//     "decoupled": false
	//   },
	//   "max_grad_norm": 0,
	//   "lr_decay_steps": 0
	// }
}

// NewNet builds MLPs for the spaces: with a shared trunk, a linear actor and
// a linear critic on its features; for a Box action space, a NormalHead.
func ExampleNewNet() {
	obs, _ := env.NewBox(-1.0, 1.0, []int{3}, nd.Float32)
	act, _ := env.NewBox(-2.0, 2.0, []int{1}, nd.Float32)
	net, _ := pg.NewNet(pg.NetConfig{Hidden: []int{8}, Shared: true, OrthogonalGain: 1}, obs, act, true, rand.New(rand.NewPCG(1, 2)))
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

// A NormalHead's distribution: log-density and entropy of a diagonal
// Gaussian with a trained log σ.
func ExampleNormalHead() {
	h := pg.NewNormalHead(2, 0) // σ = 1
	d := h.New()
	var tp tensor.Tape
	h.Set(d, &tp, tensor.MustFromSlice([]float32{0, 1}, 1, 2)) // μ = (0, 1)
	lp := d.LogProb(tensor.MustFromSlice([]float32{1, 1}, 1, 2))
	ent := d.(interface{ Entropy() *tensor.Tensor }).Entropy()
	fmt.Printf("log p = %.4f, H = %.4f\n", lp.Data()[0], ent.Data()[0])
	// Output: log p = -2.3379, H = 2.8379
}

// Minibatches of a Rollout: shuffled rows, the remainder joining the last
// minibatch.
func ExampleRollout() {
	act, _ := env.NewDiscrete(2, 0)
	b := batch.MustNew("obs", nd.Zeros(nd.Float32, 10, 4), "act", nd.Zeros(nd.Int64, 10))
	var r pg.Rollout
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

// RunningMeanStd merges batches of values into one mean and variance.
func ExampleRunningMeanStd() {
	var r pg.RunningMeanStd
	fmt.Printf("before: std %.1f\n", r.Std(0))
	r.Update([]float32{1, 2, 3})
	r.Update([]float32{4, 5})
	fmt.Printf("mean %.1f, variance %.1f, count %d\n", r.Mean, r.Var, r.Count)
	// Output:
	// before: std 1.0
	// mean 3.0, variance 2.0, count 5
}

// An Optimizer's learning rate decays linearly over env steps when
// LRDecaySteps is set; Schedule (algo.Scheduled) moves it, and Step makes an
// Adam step on a loss.
func ExampleOptimizer() {
	w := tensor.MustFromSlice([]float32{1, -1}, 2).SetRequiresGrad(true)
	t := pg.Training{Optim: optim.DefaultAdamConfig(), LRDecaySteps: 1000}
	t.Optim.LR = 0.01
	opt, err := pg.NewOptimizer(nn.Params{{Name: "w", Tensor: w}}, t)
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
