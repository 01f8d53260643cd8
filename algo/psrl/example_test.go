package psrl_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/psrl"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
)

// ExamplePSRL updates PSRL's posterior with transitions of a 2-state,
// 2-action MDP in which action 1 moves to state 1, whose action 0 pays 1,
// and reads the greedy actions of the drawn MDP's solution.
func ExamplePSRL() {
	two, _ := env.NewDiscrete(2, 0)
	p, err := psrl.New(psrl.DefaultConfig(), two, two, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	var obs, next, act []int64
	var rew []float64
	for range 20 { // every state-action pair, 20 times
		obs, next, act = append(obs, 0, 0, 1, 1), append(next, 0, 1, 1, 0), append(act, 0, 1, 0, 1)
		rew = append(rew, 0, 0, 1, 0)
	}
	b := batch.MustNew("obs", obs, "obs_next", next, "act", act, "rew", rew, "terminated", make([]bool, len(obs)))
	if _, err := p.UpdateRepeat(b, 0, 1); err != nil {
		fmt.Println(err)
		return
	}
	q := p.Q().Data()
	for s := range 2 {
		best := 0
		if q[2*s+1] > q[2*s] {
			best = 1
		}
		fmt.Printf("state %d: action %d\n", s, best)
	}
	// Output:
	// state 0: action 1
	// state 1: action 0
}
