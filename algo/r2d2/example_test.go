package r2d2_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/r2d2"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic"
	"github.com/gorl/gorl/nd"
)

// An R2D2 for the velocity-free CartPole; its policy returns the next
// state with every action and stores the one it acted from; an LSTM's
// state holds its h and c side by side.
func ExampleNew() {
	e, err := env.Make("CartPoleNoVel-v1")
	if err != nil {
		panic(err)
	}
	defer e.Close()
	cfg := r2d2.DefaultConfig()
	cfg.Cell = r2d2.LSTM
	r, err := r2d2.New(cfg, e.ObservationSpace(), e.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	obs, _, err := e.Reset(env.SeedOf(3))
	if err != nil {
		panic(err)
	}
	in := batch.MustNew(batch.KeyObs, obs.(*nd.Array).Index(nd.NewAxis()))
	out := &batch.Batch{}
	if err := r.Policy().Act(out, in, nil, false); err != nil {
		panic(err)
	}
	state, _ := out.Array(batch.KeyState)
	fmt.Println("cell", r.Config().Cell, "state", state.Shape())
	// Output:
	// cell lstm state [1 128]
}
