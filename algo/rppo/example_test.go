package rppo_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/rppo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic"
	"github.com/gorl/gorl/nd"
)

// A recurrent PPO for the velocity-free CartPole; its policy returns the
// next hidden state with every action and stores the one it acted from.
func ExampleNew() {
	e, err := env.Make("CartPoleNoVel-v1")
	if err != nil {
		panic(err)
	}
	defer e.Close()
	r, err := rppo.New(rppo.DefaultConfig(), e.ObservationSpace(), e.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	obs, _, err := e.Reset(env.SeedOf(3))
	if err != nil {
		panic(err)
	}
	in := batch.MustNew(batch.KeyObs, obs.(*nd.Array).Index(nd.NewAxis()))
	out := &batch.Batch{}
	if err := r.Policy().Act(out, in, nil, true); err != nil {
		panic(err)
	}
	state, _ := out.Array(batch.KeyState)
	fmt.Println("observation", e.ObservationSpace())
	fmt.Println("state", state.Shape())
	// Output:
	// observation Box([-4.8        -0.41887903], [4.8        0.41887903], (2,), float32)
	// state [1 64]
}
