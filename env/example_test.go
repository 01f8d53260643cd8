package env_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic" // registers the classic-control envs
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

// Make returns a registered env in its standard TimeLimit; importing
// env/classic registers the classic-control tasks.
func ExampleMake() {
	e, err := env.Make("Pendulum-v1")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	fmt.Println(e.(*env.TimeLimit).MaxEpisodeSteps(), e.ObservationSpace(), e.ActionSpace())
	_, err = env.Make("Pendulum-v9")
	fmt.Println(errors.Is(err, env.ErrNotRegistered))
	// Output:
	// 200 Box([-1. -1. -8.], [1. 1. 8.], (3,), float32) Box(-2.0, 2.0, (1,), float32)
	// true
}

func ExampleDict() {
	pos, _ := env.NewBox(-1.0, 1.0, []int{2}, nd.Float32)
	id, _ := env.NewDiscrete(4, 0)
	d, _ := env.NewDict(env.DictEntry{Key: "pos", Space: pos}, env.DictEntry{Key: "id", Space: id})
	fmt.Println(d)
	x := d.Sample(rand.New(rand.NewPCG(1, 2))).(*batch.Batch)
	fmt.Println(d.Contains(x), slices.Collect(x.Keys()))
	// Output:
	// Dict('pos': Box(-1.0, 1.0, (2,), float32), 'id': Discrete(4))
	// true [pos id]
}

func ExampleTuple() {
	a, _ := env.NewDiscrete(2, 0)
	b, _ := env.NewMultiBinary(3)
	t, _ := env.NewTuple(a, b)
	x := t.Sample(rand.New(rand.NewPCG(1, 2))).(*batch.Batch)
	fmt.Println(t, slices.Collect(x.Keys()), t.Contains(x))
	// Output:
	// Tuple(Discrete(2), MultiBinary(3)) [0 1] true
}

// ClipAction and RescaleAction in front of Pendulum, whose torque lies in
// [-2, 2]: the agent acts in [-1, 1].
func ExampleRescaleAction() {
	e, _ := env.Make("Pendulum-v1")
	r, _ := env.NewRescaleAction(e, -1.0, 1.0)
	c, _ := env.NewClipAction(r)
	fmt.Println(r.ActionSpace(), c.ActionSpace())
	c.Reset(env.SeedOf(1))
	// 3 is clipped to 1, which RescaleAction maps to a torque of 2.
	_, reward, _, _, _, err := c.Step(nd.MustNew([]float32{3}))
	fmt.Println(reward < 0, err)
	// Output:
	// Box(-1.0, 1.0, (1,), float32) Box(-inf, inf, (1,), float32)
	// true <nil>
}

func ExampleNormalizeObservation() {
	inner, _ := envtest.New(envtest.Config{ID: 5, Lengths: []int{10}})
	n, _ := env.NewNormalizeObservation(inner, 1e-8)
	n.Reset(env.NoSeed)
	for i := 0; i < 3; i++ {
		n.Step(nd.MustNew(int64(0)))
	}
	// The fake's observations are [5, 0, step]: the constant 5 normalizes
	// to about 0 (the prior's count of 1e-4 keeps it from 0 exactly), the
	// step count 4 to (4 − 2)/√2, its mean and variance over steps 0 to 4.
	obs, _, _, _, _, _ := n.Step(nd.MustNew(int64(0)))
	fmt.Println(obs.(*nd.Array).Str())
	st := n.Stats()
	fmt.Printf("mean %.3f, var %.3f\n", st.Mean[2], st.Var[2])
	// Output:
	// [0.00438525 0.         1.4142206 ]
	// mean 2.000, var 2.000
}

func ExampleTransformObservation() {
	inner, _ := envtest.New(envtest.Config{Lengths: []int{10}})
	scaled, _ := env.NewBox(0, math.Inf(1), []int{3}, nd.Float32)
	e, _ := env.NewTransformObservation(inner, func(obs any) (any, error) {
		return nd.Mul(obs.(*nd.Array), float32(0.5))
	}, scaled)
	e.Reset(env.NoSeed)
	obs, _, _, _, _, _ := e.Step(nd.MustNew(int64(1)))
	fmt.Println(obs.(*nd.Array).Str())
	// Output:
	// [0.  0.  0.5]
}

func ExampleTransformReward() {
	inner, _ := envtest.New(envtest.Config{Lengths: []int{10}})
	e, _ := env.NewTransformReward(inner, func(r float64) float64 { return -r })
	e.Reset(env.NoSeed)
	_, r, _, _, _, _ := e.Step(nd.MustNew(int64(1)))
	fmt.Println(r)
	// Output:
	// -1
}

func ExampleTruncatedAsTerminated() {
	limited, _ := env.NewTimeLimit(envtest.MustNew(envtest.Config{Lengths: []int{10}}), 1)
	e := env.NewTruncatedAsTerminated(limited)
	e.Reset(env.NoSeed)
	_, _, terminated, truncated, _, _ := e.Step(nd.MustNew(int64(1)))
	fmt.Println(terminated, truncated)
	// Output:
	// true false
}

func ExampleTimeLimit() {
	e, _ := env.NewTimeLimit(envtest.MustNew(envtest.Config{Lengths: []int{100}}), 2)
	e.Reset(env.NoSeed)
	for i := 0; i < 2; i++ {
		_, _, terminated, truncated, _, _ := e.Step(nd.MustNew(int64(1)))
		fmt.Println(e.Elapsed(), terminated, truncated)
	}
	// Output:
	// 1 false false
	// 2 false true
}

func ExampleIDs() {
	for _, id := range env.IDs() {
		if !strings.HasPrefix(id, "test/") {
			fmt.Println(id)
		}
	}
	// Output:
	// Acrobot-v1
	// CartPole-v1
	// CartPoleNoVel-v1
	// MountainCar-v0
	// MountainCarContinuous-v0
	// Pendulum-v1
	// PendulumNoVel-v1
}

// A zero NormalizeConfig normalizes nothing; the fields left at 0 take
// VecNormalize's defaults.
func ExampleNormalizeConfig() {
	fmt.Println(env.NormalizeConfig{}.Enabled())
	cfg := env.NormalizeConfig{Obs: true, Reward: true, Gamma: 0.98}
	fmt.Println(cfg.Enabled(), cfg.Validate())
	cfg.Gamma = 1.5
	fmt.Println(cfg.Validate() != nil)
	// Output:
	// false
	// true <nil>
	// true
}

// A training env updates the Normalizer's statistics; a test env behind
// the same Normalizer reads them as they are. The fake's observations are
// [id, episode, step]; the training env's Reset and 4 steps see the steps
// 0 to 4.
func ExampleNormalizer_Wrap() {
	n, err := env.NewNormalizer(env.NormalizeConfig{Obs: true}, 3)
	if err != nil {
		panic(err)
	}
	train, _ := n.Wrap(envtest.MustNew(envtest.Config{ID: 0, Lengths: []int{100}}), true)
	test, _ := n.Wrap(envtest.MustNew(envtest.Config{ID: 0, Lengths: []int{100}}), false)
	train.Reset(env.SeedOf(1))
	for range 4 {
		train.Step(nd.MustNew(int64(0)))
	}
	obs, _ := n.Stats()
	fmt.Printf("step mean %.3f, var %.3f\n", obs.Mean[2], obs.Var[2])
	test.Reset(env.SeedOf(2))
	o, _, _, _, _, _ := test.Step(nd.MustNew(int64(0)))
	// Step 1 normalizes to (1 − 2)/√2; the constant id and episode to 0.
	fmt.Printf("%.3f\n", nd.Data[float32](o.(*nd.Array)))
	after, _ := n.Stats()
	fmt.Println("unchanged by the test env:", after.Mean[2] == obs.Mean[2])
	// Output:
	// step mean 2.000, var 2.000
	// [0.000 0.000 -0.707]
	// unchanged by the test env: true
}

// ClipAction bounds the actions to Pendulum's torque range [−2, 2]: an
// action of 5 steps the env as 2 does.
func ExampleClipAction() {
	raw, _ := env.Make("Pendulum-v1")
	inner, _ := env.Make("Pendulum-v1")
	clipped, err := env.NewClipAction(inner)
	if err != nil {
		panic(err)
	}
	fmt.Println(clipped.ActionSpace())
	raw.Reset(env.SeedOf(3))
	clipped.Reset(env.SeedOf(3))
	_, r2, _, _, _, _ := raw.Step(nd.MustNew([]float32{2}))
	_, r5, _, _, _, _ := clipped.Step(nd.MustNew([]float32{5}))
	fmt.Printf("%.4f %.4f\n", r2, r5)
	// Output:
	// Box(-inf, inf, (1,), float32)
	// -0.1219 -0.1219
}
