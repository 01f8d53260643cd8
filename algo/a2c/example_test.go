package a2c_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/a2c"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// An A2C update on a collection: Preprocess adds the critic's values, the
// GAE advantages and the returns; the update reports its losses.
func ExampleNew() {
	obs, _ := env.NewBox(-1.0, 1.0, []int{2}, nd.Float32)
	act, _ := env.NewDiscrete(2, 0)
	a, err := a2c.New(a2c.DefaultConfig(), obs, act, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	buf, _ := buffer.New(buffer.Config{Size: 10})
	for i := range 4 {
		buf.Add(batch.MustNew("obs", []float32{float32(i), 0}, "act", int64(i%2), "rew", 1.0,
			"terminated", i == 3, "truncated", false, "obs_next", []float32{float32(i + 1), 0}), nil, nil)
	}
	var l algo.Learner
	stats, err := l.StepAll(a, buf, 0, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(slices.Sorted(maps.Keys(stats)))
	// Output: [actor_loss entropy loss vf_loss]
}

// GAE with the critic V(s) = s₀ on a terminated episode of three steps with
// reward 1, γ = λ = 0.5: V = (0, 1, 2), δ = (1.5, 1, −1).
