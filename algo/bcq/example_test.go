package bcq_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/bcq"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// A BCQ's update reports its three losses: the Q network's TD error, the
// imitation network's cross entropy and the penalty on the imitation
// logits (the values of TestLoss, computed by hand there).
func ExampleBCQ() {
	linear := func(w ...float32) policy.ObsNet {
		return policy.ObsNet{Layer: &nn.Linear{Weight: tensor.MustFromSlice(w, 2, 2).SetRequiresGrad(true)}}
	}
	space, _ := env.NewDiscrete(2, 0)
	b, err := bcq.NewWithNetworks(bcq.DefaultConfig(), linear(1, 0, 0, 1), linear(0, 0, 0, 0), linear(0, 1, 1, 0), space,
		rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	stats, err := b.Update(batch.MustNew(
		"obs", nd.MustNew([][]float32{{1, 2}, {3, 0}}),
		"act", nd.MustNew([]int64{1, 0}),
		"returns", nd.MustNew([]float32{3, 0}),
	))
	if err != nil {
		panic(err)
	}
	fmt.Printf("q %.3f, imitation %.3f, reg %.3f, total %.3f\n", stats["loss/q"], stats["loss/imitation"], stats["loss/reg"], stats["loss"])
	// Output: q 1.500, imitation 2.181, reg 3.500, total 3.716
}

// The policy chooses the action of largest Q-value among those whose
// imitation probability is at least τ times the largest.
func ExampleBCQ_Policy() {
	// Q-values (1, 2, 3) for every observation; imitation probabilities
	// proportional to (1, 0.5, 0.2).
	q := policy.ObsNet{Layer: &nn.Linear{Weight: tensor.New(3, 1), Bias: tensor.MustFromSlice([]float32{1, 2, 3}, 3)}}
	target := policy.ObsNet{Layer: &nn.Linear{Weight: tensor.New(3, 1), Bias: tensor.New(3)}}
	imit := policy.ObsNet{Layer: &nn.Linear{Weight: tensor.New(3, 1),
		Bias: tensor.MustFromSlice([]float32{0, float32(math.Log(0.5)), float32(math.Log(0.2))}, 3)}}
	space, _ := env.NewDiscrete(3, 0)
	for _, tau := range []float64{0.6, 0.3, 0.1} {
		cfg := bcq.DefaultConfig()
		cfg.Threshold = tau
		b, err := bcq.NewWithNetworks(cfg, q, target, imit, space, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			panic(err)
		}
		act, _ := policy.ComputeAction(b.Policy(), nd.MustNew([]float32{0}))
		fmt.Printf("τ = %.1f: action %v\n", tau, act.Item())
	}
	// Output:
	// τ = 0.6: action 0
	// τ = 0.3: action 1
	// τ = 0.1: action 2
}

// A Config is plain data with JSON tags: a configuration file overrides the
// defaults field by field.
func ExampleConfig() {
	cfg := bcq.DefaultConfig()
	if err := json.Unmarshal([]byte(`{"threshold": 0.3, "target_update_freq": 0, "tau": 0.005}`), &cfg); err != nil {
		panic(err)
	}
	fmt.Println(cfg.Threshold, cfg.TargetUpdateFreq, cfg.Tau, cfg.Validate())
	// Output: 0.3 0 0.005 <nil>
}
