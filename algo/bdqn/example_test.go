package bdqn_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/bdqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// BDQN on a Box of two dimensions acts with the indices of 5 points per
// dimension, which its policy maps to the points the env receives.
func ExampleNew() {
	obs, _ := env.NewBox(-1.0, 1.0, []int{3}, nd.Float32)
	act, _ := env.NewBox(-2.0, 2.0, []int{2}, nd.Float32)
	cfg := bdqn.DefaultConfig()
	cfg.Bins = 5
	b, err := bdqn.New(cfg, obs, act, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	var dst batch.Batch
	if err := b.Policy().Act(&dst, batch.MustNew("obs", [][]float32{{0.1, 0.2, 0.3}}), nil, false); err != nil {
		fmt.Println(err)
		return
	}
	a, _ := dst.Array("act")
	points := nd.Zeros(nd.Float32, 1, 2)
	b.Policy().(interface {
		MapActionTo(env, act *nd.Array) error
	}).MapActionTo(points, a)
	fmt.Println(a.Shape(), a.DType(), nd.Data[float32](points)[0] >= -2)
	// Output: [1 2] float32 true
}
