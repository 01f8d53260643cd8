package icm_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/algo/icm"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// ExampleICM wraps a DQN with the curiosity module and runs one update
// cycle on a small buffer; the statistics hold DQN's loss and the module's
// own, the intrinsic reward among them.
func ExampleICM() {
	obs, _ := env.NewBox([]float32{-1, -1}, []float32{1, 1}, nil, nd.Float32)
	act, _ := env.NewDiscrete(2, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	d, err := dqn.New(dqn.DefaultConfig(), obs, act, rng)
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := icm.New(icm.DefaultConfig(), d, obs, act, rng)
	if err != nil {
		fmt.Println(err)
		return
	}
	buf, _ := buffer.New(buffer.Config{Size: 100})
	for i := range 100 {
		x := float32(i%10) / 10
		b := batch.MustNew("obs", []float32{x, -x}, "act", int64(i%2), "rew", -1.0,
			"terminated", false, "truncated", i%10 == 9, "obs_next", []float32{x + 0.1, -x - 0.1})
		if _, err := buf.Add(b, nil, nil); err != nil {
			fmt.Println(err)
			return
		}
	}
	var l algo.Learner
	st, err := l.Step(m, buf, 16, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		fmt.Println(err)
		return
	}
	_, hasLoss := st["loss"]
	fmt.Println("DQN's loss:", hasLoss, "intrinsic reward > 0:", st["icm/reward"] > 0)
	// Output:
	// DQN's loss: true intrinsic reward > 0: true
}
