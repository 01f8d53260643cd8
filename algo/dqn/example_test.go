package dqn_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
)

// A DQN learns from transitions sampled from a replay buffer: the Learner
// samples, Preprocess computes the n-step returns, Update steps the
// network, Postprocess would report priorities to a prioritized buffer.
func ExampleDQN() {
	obs, _ := env.NewBox(-1.0, 1.0, []int{2}, nd.Float32)
	act, _ := env.NewDiscrete(2, 0)
	cfg := dqn.DefaultConfig()
	cfg.Hidden = []int{16}
	d, err := dqn.New(cfg, obs, act, rand.New(rand.NewPCG(1, 2)))
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
		if _, err := l.Step(d, buf, 8, rng); err != nil {
			panic(err)
		}
	}
	fmt.Println("updates:", d.Updates())
	fmt.Println(d.Policy().(*policy.Q).Eps())
	// Output:
	// updates: 3
	// 0.1 0.05
}

// Machin's DQN face: transitions in Machin's form, Update samples and learns.
func ExampleMachin() {
	q := newQNet(1, 0, 0, 1) // a network with the input "state"
	m, err := dqn.NewMachin(q, newQNet(0, 0, 0, 0), 2, dqn.DefaultMachinConfig(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	for i := range 4 {
		s := []float32{float32(i), 1}
		t, _ := buffer.NewDefaultTransition(
			batch.MustNew("state", [][]float32{s}),
			batch.MustNew("action", [][]int64{{int64(i % 2)}}),
			batch.MustNew("state", [][]float32{s}),
			1.0, i == 3, nil)
		m.StoreTransition(t)
	}
	// Q(s) = s and the target a copy: y = 1 + 0.99·max(s′) (1 when
	// terminal); the TD errors 1.99, 0.99, 0.98, 0 give an MSE of 1.475.
	loss, err := m.Update()
	fmt.Printf("loss %.3f, err %v\n", loss, err)
	act, _ := m.ActDiscrete(batch.MustNew("state", nd.MustNew([][]float32{{3, 1}})), false)
	fmt.Println("greedy action:", act[0])
	// Output:
	// loss 1.475, err <nil>
	// greedy action: 0
}
