package npg_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/npg"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// An update on a collection of one episode with a Gaussian head: the
// natural-gradient step of the actor and the critic's steps report their
// statistics.
func ExampleNew() {
	obs, _ := env.NewBox(-1.0, 1.0, []int{2}, nd.Float32)
	act, _ := env.NewBox(-2.0, 2.0, []int{1}, nd.Float32)
	a, err := npg.New(npg.ContinuousConfig(), obs, act, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	buf, _ := buffer.New(buffer.Config{Size: 10})
	for i := range 4 {
		buf.Add(batch.MustNew("obs", []float32{float32(i) / 4, 0}, "act", []float32{float32(i%2) - 0.5}, "rew", float64(i%2),
			"terminated", false, "truncated", i == 3, "obs_next", []float32{float32(i+1) / 4, 0}), nil, nil)
	}
	var l algo.Learner
	stats, err := l.StepAll(a, buf, 0, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(slices.Sorted(maps.Keys(stats)))
	// Output: [actor_loss kl sigma step vf_loss]
}
