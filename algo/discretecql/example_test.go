package discretecql_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/discretecql"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// A discrete CQL's update reports the TD loss and the conservative
// penalty: here Q(s) = s for two actions, the data's action 0 has value 1
// and return 1 (no TD error), and the penalty is log(e¹ + e³) − 1 = 2.127.
func ExampleCQL() {
	linear := func() policy.ObsNet {
		return policy.ObsNet{Layer: &nn.Linear{Weight: tensor.MustFromSlice([]float32{1, 0, 0, 1}, 2, 2).SetRequiresGrad(true)}}
	}
	space, _ := env.NewDiscrete(2, 0)
	c, err := discretecql.NewWithNetworks(discretecql.DefaultConfig(), linear(), linear(), space, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	stats, err := c.Update(batch.MustNew(
		"obs", nd.MustNew([][]float32{{1, 3}}),
		"act", nd.MustNew([]int64{0}),
		"returns", nd.MustNew([]float32{1}),
	))
	if err != nil {
		panic(err)
	}
	fmt.Printf("td %.3f, cql %.3f, total %.3f\n", stats["loss/td"], stats["loss/cql"], stats["loss"])
	// Output: td 0.000, cql 2.127, total 21.269
}
