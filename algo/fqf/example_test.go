package fqf_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/fqf"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// A FQF learns from transitions sampled from a replay buffer, as DQN
// does: the Learner samples, Preprocess computes the distributional n-step
// returns, Update steps the networks; the policy then acts greedily on the
// Q-values the quantiles give.
func ExampleFQF() {
	obs, _ := env.NewBox(-1.0, 1.0, []int{2}, nd.Float32)
	act, _ := env.NewDiscrete(2, 0)
	cfg := fqf.DefaultConfig()
	cfg.Hidden, cfg.HeadHidden, cfg.NumFractions = []int{16, 16}, nil, 8
	q, err := fqf.New(cfg, obs, act, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	buf, _ := buffer.New(buffer.Config{Size: 100})
	for i := range 20 {
		x := float32(i%5) / 5
		buf.Add(batch.MustNew("obs", []float32{x, -x}, "act", int64(i%2), "rew", 1.0,
			"terminated", i%5 == 4, "truncated", false, "obs_next", []float32{x + 0.2, -x - 0.2}), nil, nil)
	}
	var l algo.Learner
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3 {
		if _, err := l.Step(q, buf, 8, rng); err != nil {
			panic(err)
		}
	}
	fmt.Println("updates:", q.Updates())
	var out batch.Batch
	err = q.Policy().Act(&out, batch.MustNew("obs", nd.Zeros(nd.Float32, 3, 2)), nil, false)
	a, _ := out.Array("act")
	fmt.Println("greedy actions:", a.Shape(), err)
	// Output:
	// updates: 3
	// greedy actions: [3] <nil>
}
