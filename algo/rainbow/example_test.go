package rainbow_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/rainbow"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// A Rainbow learns from a prioritized buffer: each cycle draws new noise,
// projects the n-step target distributions, steps on the importance-weighted
// cross entropy and gives the buffer the cross entropies as priorities.
func ExampleRainbow() {
	obs, _ := env.NewBox(-1.0, 1.0, []int{2}, nd.Float32)
	act, _ := env.NewDiscrete(2, 0)
	cfg := rainbow.DefaultConfig()
	cfg.Hidden = []int{16}
	r, err := rainbow.New(cfg, obs, act, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	buf, _ := buffer.NewPrioritized(buffer.Config{Size: 100}, buffer.DefaultPriorityConfig())
	for i := range 20 {
		x := float32(i%5) / 5
		buf.Add(batch.MustNew("obs", []float32{x, -x}, "act", int64(i%2), "rew", 1.0,
			"terminated", i%5 == 4, "truncated", false, "obs_next", []float32{x + 0.2, -x - 0.2}), nil, nil)
	}
	var l algo.Learner
	rng := rand.New(rand.NewPCG(3, 4))
	r.Schedule(1000) // the trainer reports the env steps so far
	for range 3 {
		if _, err := l.Step(r, buf, 8, rng); err != nil {
			panic(err)
		}
	}
	fmt.Println("updates:", r.Updates())
	fmt.Printf("β after 1000 of %d env steps: %.3f\n", cfg.BetaAnnealSteps, buf.Beta())
	// Output:
	// updates: 3
	// β after 1000 of 50000 env steps: 0.412
}
