package ppo_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/trainer"
)

// PPO on an env with a Box action space gets a Gaussian head: its policy
// samples continuous actions, mapped to the Box's bounds.
func ExampleContinuousConfig() {
	e, _ := env.Make("Pendulum-v1")
	p, err := ppo.New(ppo.ContinuousConfig(), e.ObservationSpace(), e.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%T\n", p.Net.Head())
	for _, prm := range p.Policy().Params() {
		fmt.Println(prm.Name, prm.Tensor.Shape())
	}
	act, _ := policy.ComputeAction(p.Policy(), e.ObservationSpace().Sample(rand.New(rand.NewPCG(3, 4))))
	fmt.Println("action shape", act.Shape())
	// Output:
	// *actorcritic.NormalHead
	// actor.0.weight [64 3]
	// actor.0.bias [64]
	// actor.2.weight [64 64]
	// actor.2.bias [64]
	// actor.4.weight [1 64]
	// actor.4.bias [1]
	// head.log_std [1]
	// action shape [1]
}

// A PPO update by hand: Preprocess adds what the update needs to the
// collection, UpdateRepeat makes passes over shuffled minibatches (here 3
// passes of 2 minibatches of 2 transitions).
func ExampleNew() {
	obs, _ := env.NewBox(-1.0, 1.0, []int{2}, nd.Float32)
	act, _ := env.NewDiscrete(2, 0)
	p, err := ppo.New(ppo.DefaultConfig(), obs, act, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	buf, _ := buffer.New(buffer.Config{Size: 10})
	for i := range 4 {
		buf.Add(batch.MustNew("obs", []float32{float32(i) / 4, 0}, "act", int64(i%2), "rew", 1.0,
			"terminated", i == 3, "truncated", false, "obs_next", []float32{float32(i+1) / 4, 0}), nil, nil)
	}
	idx := buf.SampleIndices(0, nil)
	b, _ := buf.Take(idx)
	if err := p.Preprocess(b, buf, idx); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("v_s", b.Has("v_s"), "returns", b.Has("returns"), "adv", b.Has("adv"), "logp_old", b.Has("logp_old"))
	stats, err := p.UpdateRepeat(b, 2, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(slices.Sorted(maps.Keys(stats)), "after", p.Updates(), "gradient steps")
	// Output:
	// v_s true returns true adv true logp_old true
	// [clip_loss entropy loss vf_loss] after 6 gradient steps
}

// Example_cartPole trains PPO on CartPole with the settings of Tianshou's
// test (the speed run) until the mean return of 100 test episodes reaches
// 195. It prints "solved: true within an epoch: true"; it is not run by go
// test (a learning run takes a few tenths of a second to seconds; the
// learning tests run it on five seeds).
func Example_cartPole() {
	envs := func(n int) []env.Env {
		es := make([]env.Env, n)
		for i := range es {
			es[i], _ = env.Make("CartPole-v1")
		}
		return es
	}
	probe, _ := env.Make("CartPole-v1")
	p, err := ppo.New(ppo.DefaultConfig(), probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		fmt.Println(err)
		return
	}
	threshold := 195.0
	cfg := trainer.Config{Epochs: 10, StepPerEpoch: 50_000, StepPerCollect: 2000, RepeatPerCollect: 10, BatchSize: 64,
		TestEpisodes: 100, TestInTrain: true, RewardThreshold: &threshold}
	tr, err := trainer.New(p, cfg, trainer.Setup{TrainEnvs: envs(20), TestEnvs: envs(100), Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tr.Close()
	res, err := tr.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("solved:", res.Solved, "within an epoch:", res.EnvSteps <= 50_000)
}

// A Config is DefaultConfig with the fields a run changes, here smaller
// networks and normalized advantages, trained for 2 epochs of 32 steps on
// fake envs whose episodes last 8 steps: the trainer makes one update per
// collection of 16 steps, and each update 2 passes of 2 minibatches of 8,
// so 4 collections make 16 gradient steps. Example_cartPole trains on
// CartPole.
func ExampleConfig() {
	cfg := ppo.DefaultConfig()
	cfg.Net.Hidden = []int{16}
	cfg.AdvantageNormalization = true
	probe := envtest.MustNew(envtest.Config{})
	p, err := ppo.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	fakes := func(n int) []env.Env {
		es := make([]env.Env, n)
		for i := range es {
			es[i] = envtest.MustNew(envtest.Config{ID: i, Lengths: []int{8}})
		}
		return es
	}
	tc := trainer.Config{Epochs: 2, StepPerEpoch: 32, StepPerCollect: 16, RepeatPerCollect: 2, BatchSize: 8, TestEpisodes: 2}
	tr, err := trainer.New(p, tc, trainer.Setup{TrainEnvs: fakes(2), TestEnvs: fakes(2), Seed: 1})
	if err != nil {
		panic(err)
	}
	defer tr.Close()
	res, err := tr.Run(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println("env steps:", res.EnvSteps, "updates:", res.GradientSteps, "gradient steps:", p.Updates())
	// Output: env steps: 64 updates: 4 gradient steps: 16
}
