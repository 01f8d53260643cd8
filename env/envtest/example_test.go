package envtest_test

import (
	"fmt"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/nd"
)

// A fake whose episodes last 2 and then 3 steps, with rewards known in
// advance.
func ExampleFake() {
	f := envtest.MustNew(envtest.Config{ID: 1, Lengths: []int{2, 3}, Reward: func(e, s int) float64 { return float64(10*e + s) }})
	for episode := 0; episode < 2; episode++ {
		obs, _, _ := f.Reset(env.NoSeed)
		fmt.Print(obs.(*nd.Array).Str())
		for {
			obs, r, terminated, _, _, _ := f.Step(nd.MustNew(int64(0)))
			fmt.Print(" ", r, obs.(*nd.Array).Str())
			if terminated {
				break
			}
		}
		fmt.Println()
	}
	// Output:
	// [1. 0. 0.] 1[1. 0. 1.] 2[1. 0. 2.]
	// [1. 1. 0.] 11[1. 1. 1.] 12[1. 1. 2.] 13[1. 1. 3.]
}
