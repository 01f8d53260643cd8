package env_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/nd"
)

// An episode loop: Reset with a seed, Step until the episode terminates or
// is truncated. The env here is a fake whose episodes last 4 steps, behind
// a TimeLimit of 3.
func ExampleEnv() {
	inner, _ := envtest.New(envtest.Config{Lengths: []int{4}})
	e, _ := env.NewTimeLimit(inner, 3)
	defer e.Close()

	rng := rand.New(rand.NewPCG(1, 2))
	obs, _, _ := e.Reset(env.SeedOf(42))
	fmt.Println("reset:", obs.(*nd.Array).Str())
	for {
		obs, r, terminated, truncated, _, err := e.Step(e.ActionSpace().Sample(rng))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(obs.(*nd.Array).Str(), r, terminated, truncated)
		if terminated || truncated {
			break
		}
	}
	_, _, _, _, _, err := e.Step(e.ActionSpace().Sample(rng))
	fmt.Println(err)
	// Output:
	// reset: [0. 0. 0.]
	// [0. 0. 1.] 1 false false
	// [0. 0. 2.] 1 false false
	// [0. 0. 3.] 1 false true
	// env: TimeLimit(3): Step with no episode running: env: Reset needed
}

func ExampleDiscrete() {
	d, _ := env.NewDiscrete(3, -1)
	rng := rand.New(rand.NewPCG(1, 2))
	batch := nd.Zeros(nd.Int64, 5) // five envs' actions at once
	d.SampleTo(batch, rng)
	fmt.Println(d, d.Contains(nd.MustNew(int64(1))), d.Contains(nd.MustNew(int64(2))))
	fmt.Println(d.Contains(batch.Index(nd.I(0))))
	// Output:
	// Discrete(3, start=-1) true false
	// true
}

func ExampleBox() {
	b, _ := env.NewBox(-1.0, []float64{1, 2}, nil, nd.Float32)
	fmt.Println(b)
	fmt.Println(b.Contains(nd.MustNew([]float32{0.5, 1.5})), b.Contains(nd.MustNew([]float32{0.5, 2.5})))
	x := b.Sample(rand.New(rand.NewPCG(1, 2)))
	fmt.Println(b.Contains(x))
	// Output:
	// Box(-1.0, [1. 2.], (2,), float32)
	// true false
	// true
}

func ExampleMultiDiscrete() {
	m, _ := env.NewMultiDiscrete([]int64{2, 3}, []int64{0, 1})
	fmt.Println(m, m.Shape())
	fmt.Println(m.Contains(nd.MustNew([]int64{1, 3})), m.Contains(nd.MustNew([]int64{1, 0})))
	// Output:
	// MultiDiscrete([2 3], start=[0 1]) [2]
	// true false
}

func ExampleMultiBinary() {
	m, _ := env.NewMultiBinary(4)
	fmt.Println(m, m.DType(), m.Contains(nd.MustNew([]bool{true, false, true, true})))
	// Output:
	// MultiBinary(4) int8 true
}

func ExampleSeed() {
	fmt.Println(env.SeedOf(7), env.NoSeed)
	v, ok := env.SeedOf(7).Value()
	fmt.Println(v, ok)
	// Output:
	// 7 none
	// 7 true
}

func ExampleFrameStack() {
	inner, _ := envtest.New(envtest.Config{Lengths: []int{5}})
	fs, _ := env.NewFrameStack(inner, 3)
	fmt.Println(fs.ObservationSpace())
	fs.Reset(env.NoSeed)
	fs.Step(nd.MustNew(int64(0)))
	obs, _, _, _, _, _ := fs.Step(nd.MustNew(int64(0)))
	fmt.Println(obs.(*nd.Array).Str())
	// Output:
	// Box(0.0, inf, (3, 3), float32)
	// [[0. 0. 0.]
	//  [0. 0. 1.]
	//  [0. 0. 2.]]
}

func ExampleRunningMeanStd() {
	r := env.NewRunningMeanStd(1)
	for _, x := range []float64{1, 2, 3, 4} {
		r.Update([]float64{x})
	}
	fmt.Printf("mean %.4f var %.4f count %.4f\n", r.Mean[0], r.Var[0], r.Count)
	// Output:
	// mean 2.4999 var 1.2501 count 4.0001
}

// Rewards of 1 per step scaled by the running deviation of their
// discounted sum: the first reward meets the prior statistics (count 1e-4),
// hence its large value.
func ExampleNormalizeReward() {
	inner, _ := envtest.New(envtest.Config{Lengths: []int{100}})
	n, _ := env.NewNormalizeReward(inner, 0.99, 1e-8)
	n.Reset(env.SeedOf(1))
	for i := 0; i < 3; i++ {
		_, r, _, _, _, _ := n.Step(nd.MustNew(int64(1)))
		fmt.Printf("%.4f\n", r)
	}
	// Output:
	// 70.7142
	// 2.0196
	// 1.2432
}

func ExampleRecordEpisodeStatistics() {
	inner, _ := envtest.New(envtest.Config{Lengths: []int{3}})
	e := env.NewRecordEpisodeStatistics(inner)
	e.Reset(env.NoSeed)
	for {
		_, _, term, trunc, info, _ := e.Step(nd.MustNew(int64(0)))
		if term || trunc {
			st := info["episode"].(env.EpisodeStats)
			fmt.Println(st.Return, st.Length)
			break
		}
	}
	// Output:
	// 3 3
}

func ExampleContinuousToDiscrete() {
	inner := &echo{}
	inner.act, _ = env.NewBox(-2.0, 2.0, []int{1}, nd.Float32)
	inner.obs, _ = env.NewBox(-2.0, 2.0, []int{1}, nd.Float64)
	inner.last = nd.Zeros(nd.Float64, 1)
	c, _ := env.NewContinuousToDiscrete(inner, 5)
	c.Reset(env.NoSeed)
	fmt.Println(c.ActionSpace())
	for k := int64(0); k < 5; k++ {
		obs, _, _, _, _, _ := c.Step(nd.MustNew([]int64{k}))
		fmt.Print(obs.(*nd.Array).Str(), " ")
	}
	fmt.Println()
	// Output:
	// MultiDiscrete([5])
	// [-2.] [-1.] [0.] [1.] [2.]
}
