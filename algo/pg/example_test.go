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
	//     "log_std_init": 0,
	//     "use_sde": false,
	//     "sde_sample_freq": 0
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
	//   "ent_coef": 0,
	//   "baseline": false,
	//   "vf_coef": 0.5,
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
// A NormalHead's distribution: log-density and entropy of a diagonal
// Gaussian with a trained log σ.
// Minibatches of a Rollout: shuffled rows, the remainder joining the last
// minibatch.
// RunningMeanStd merges batches of values into one mean and variance.
// An Optimizer's learning rate decays linearly over env steps when
// LRDecaySteps is set; Schedule (algo.Scheduled) moves it, and Step makes an
// Adam step on a loss.
