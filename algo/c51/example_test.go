package c51_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/c51"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// A C51 learns from transitions sampled from a replay buffer: the Learner
// samples, Preprocess projects the n-step target distributions onto the
// atoms, Update takes a step on the cross entropy.
func ExampleC51() {
	obs, _ := env.NewBox(-1.0, 1.0, []int{2}, nd.Float32)
	act, _ := env.NewDiscrete(2, 0)
	cfg := c51.DefaultConfig()
	cfg.Hidden = []int{16}
	c, err := c51.New(cfg, obs, act, rand.New(rand.NewPCG(1, 2)))
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
		if _, err := l.Step(c, buf, 8, rng); err != nil {
			panic(err)
		}
	}
	z := c.Support().Atoms()
	fmt.Println("updates:", c.Updates())
	fmt.Printf("%d atoms from %.1f to %.1f\n", len(z), z[0], z[len(z)-1])
	// Output:
	// updates: 3
	// 51 atoms from -10.0 to 10.0
}
