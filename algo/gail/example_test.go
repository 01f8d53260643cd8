package gail_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/gail"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// ExampleGAIL trains GAIL's discriminator and PPO once on a collection,
// against an expert who always takes action 1, and shows that the
// discriminator's step tells the two apart better than chance.
func ExampleGAIL() {
	obs, _ := env.NewBox([]float32{-1, -1}, []float32{1, 1}, nil, nd.Float32)
	act, _ := env.NewDiscrete(2, 0)
	fill := func(b buffer.Buffer, action func(i int) int64) {
		for i := range 200 {
			x := float32(i%20)/20 - 0.5
			t := batch.MustNew("obs", []float32{x, x}, "act", action(i), "rew", 1.0,
				"terminated", false, "truncated", i%20 == 19, "obs_next", []float32{x, x})
			if _, err := b.Add(t, nil, nil); err != nil {
				panic(err)
			}
		}
	}
	expert, _ := buffer.New(buffer.Config{Size: 200})
	fill(expert, func(int) int64 { return 1 })
	data, _ := buffer.New(buffer.Config{Size: 200})
	fill(data, func(i int) int64 { return int64(i % 2) })
	cfg := gail.DiscreteConfig()
	cfg.DiscOptim.LR = 0.01
	g, err := gail.New(cfg, obs, act, expert, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	var l algo.Learner
	var st map[string]float64
	for range 5 {
		if st, err = l.StepAll(g, data, 64, 1); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println("discriminator better than chance:", (st["disc/acc_pi"]+st["disc/acc_exp"])/2 > 0.5)
	// Output:
	// discriminator better than chance: true
}
