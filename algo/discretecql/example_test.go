package discretecql_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/discretecql"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// A discrete CQL's update reports the conservative penalty beside the
// total loss. With one quantile and no hidden layer, the network is
// Q(s) = W·s + b; setting W to the identity and b to 0 gives Q = (1, 3) on
// s = (1, 3). The data's action 0 has value 1 and return 1: the quantile
// loss is 0, and the penalty log(e¹ + e³) − 1 = 2.127 weighted by 10 is the
// whole loss.
func ExampleCQL() {
	cfg := discretecql.DefaultConfig()
	cfg.Hidden, cfg.NumQuantiles = nil, 1
	obs, _ := env.NewBox(-5.0, 5.0, []int{2}, nd.Float32)
	space, _ := env.NewDiscrete(2, 0)
	c, err := discretecql.New(cfg, obs, space, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	for _, p := range c.QRDQN().Params() {
		d := p.Tensor.Data()
		clear(d)
		if len(d) == 4 { // the weight matrix
			d[0], d[3] = 1, 1
		}
	}
	stats, err := c.Update(batch.MustNew(
		"obs", nd.MustNew([][]float32{{1, 3}}),
		"act", nd.MustNew([]int64{0}),
		"returns", nd.MustNew([][]float32{{1}}),
	))
	if err != nil {
		panic(err)
	}
	fmt.Printf("cql %.3f, total %.3f\n", stats["loss/cql"], stats["loss"])
	// Output: cql 2.127, total 21.269
}
