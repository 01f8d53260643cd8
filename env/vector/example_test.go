package vector_test

import (
	"context"
	"fmt"
	"time"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
)

// A collection loop over four CartPoles: step all, reset those whose
// episode ended (vector envs never reset by themselves).
func ExampleSync() {
	var envs []env.Env
	for i := 0; i < 4; i++ {
		e, _ := env.Make("CartPole-v1")
		envs = append(envs, e)
	}
	v, _ := vector.NewSync(envs)
	defer v.Close()
	ctx := context.Background()
	seeds := []env.Seed{env.SeedOf(0), env.SeedOf(1), env.SeedOf(2), env.SeedOf(3)}
	res, _ := v.Reset(ctx, nil, seeds)
	fmt.Println(res.Obs.(*nd.Array).Shape())

	act := nd.Zeros(nd.Int64, 4) // always push left
	episodes := 0
	for step := 0; step < 100; step++ {
		res, err := v.Step(ctx, nil, act)
		if err != nil {
			fmt.Println(err)
			return
		}
		var ended []int
		for j, id := range res.IDs {
			if res.Terminated[j] || res.Truncated[j] {
				ended = append(ended, id)
			}
		}
		if len(ended) > 0 {
			episodes += len(ended)
			v.Reset(ctx, ended, nil)
		}
	}
	fmt.Println(episodes > 0)
	// Output:
	// [4 4]
	// true
}

// Send starts envs without waiting; Recv returns the first to finish.
func ExampleAsync() {
	var envs []env.Env
	for i, sleep := range []time.Duration{100, 1, 200} {
		envs = append(envs, envtest.MustNew(envtest.Config{ID: i, Lengths: []int{10}, Sleep: sleep * time.Millisecond}))
	}
	v, _ := vector.NewAsync(envs)
	defer v.Close()
	ctx := context.Background()
	v.Reset(ctx, nil, nil)

	v.Send(nil, nd.Zeros(nd.Int64, 3))
	res, _ := v.Recv(ctx, 1) // wait for one env
	fmt.Println("first:", res.IDs, "still running:", v.Running())
	res, _ = v.Recv(ctx, 0) // wait for the rest
	fmt.Println("then:", res.IDs)
	// Output:
	// first: [1] still running: 2
	// then: [0 2]
}
