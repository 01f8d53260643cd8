package collector_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic" // registers Pendulum-v1
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
)

// leftPolicy always pushes left (action 0). It keeps its action array in
// dst, which the collector hands back on every call for the same number of
// envs, so acting allocates nothing after the first call.
type leftPolicy struct{}

func (leftPolicy) Act(dst, obs *batch.Batch, state any, explore bool) error {
	k, err := obs.Len()
	if err != nil {
		return err
	}
	if a, ok := dst.Get("act"); ok && a.(*nd.Array).Dim(0) == k {
		return nil // the zeros set last time
	}
	return dst.Set("act", nd.Zeros(nd.Int64, k))
}

// fakeEnvs returns a vector env of fakes whose episodes last the given
// numbers of steps, with a reward of 1 per step.
func fakeEnvs(lengths ...int) *vector.Sync {
	var envs []env.Env
	for i, l := range lengths {
		envs = append(envs, envtest.MustNew(envtest.Config{ID: i, Lengths: []int{l}}))
	}
	v, err := vector.NewSync(envs)
	if err != nil {
		panic(err)
	}
	return v
}

// A Collector over two envs whose episodes last 3 and 4 steps collects
// exactly three episodes: env 0 finishes two (steps 3 and 6), env 1 one
// (step 4), and env 0 stops once the third episode is under way.
func ExampleCollector() {
	ctx := context.Background()
	envs := fakeEnvs(3, 4)
	defer envs.Close()
	buf, err := buffer.NewVector(buffer.Config{Size: 20}, 2)
	if err != nil {
		panic(err)
	}
	c, err := collector.New(collector.Config{Env: envs, Policy: leftPolicy{}, Buffer: buf, Explore: true})
	if err != nil {
		panic(err)
	}
	if err := c.Reset(ctx, []env.Seed{env.SeedOf(1), env.SeedOf(2)}); err != nil {
		panic(err)
	}
	s, err := c.Collect(ctx, collector.Request{NEpisode: 3})
	if err != nil {
		panic(err)
	}
	fmt.Println("steps:", s.Steps, "episodes:", s.Episodes, "lengths:", s.Lens)
	fmt.Printf("return: mean %.3f std %.3f\n", s.Return.Mean, s.Return.Std)
	fmt.Println("stored:", buf.Len())
	// Output:
	// steps: 10 episodes: 3 lengths: [3 4 3]
	// return: mean 3.333 std 0.471
	// stored: 10
}

// Random collection samples the action space with the collector's random
// source, Tianshou's collect(random=True), typically to fill a buffer
// before training. With n envs, n_step is rounded up to whole vector
// steps.
func ExampleCollector_Collect_random() {
	envs := fakeEnvs(4, 4, 4)
	defer envs.Close()
	c, err := collector.New(collector.Config{Env: envs, Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		panic(err)
	}
	s, err := c.Collect(context.Background(), collector.Request{NStep: 10, Random: true})
	if err != nil {
		panic(err)
	}
	fmt.Println("steps:", s.Steps, "episodes:", s.Episodes)
	// Output:
	// steps: 12 episodes: 3
}

// Hooks see every stored step and every finished episode, with the buffer
// indices they went to.
func ExampleConfig_hooks() {
	envs := fakeEnvs(2, 3)
	defer envs.Close()
	buf, err := buffer.NewVector(buffer.Config{Size: 20}, 2) // sub-buffer 1 starts at index 10
	if err != nil {
		panic(err)
	}
	c, err := collector.New(collector.Config{Env: envs, Policy: leftPolicy{}, Buffer: buf,
		OnStep: func(e collector.StepEvent) {
			fmt.Printf("env %d stored at %d\n", e.Env, e.Index)
		},
		OnEpisode: func(e collector.EpisodeEvent) {
			fmt.Printf("env %d finished an episode: return %.0f, indices %d…%d\n", e.Env, e.Return, e.Start, e.End)
		},
	})
	if err != nil {
		panic(err)
	}
	if _, err := c.Collect(context.Background(), collector.Request{NStep: 4}); err != nil {
		panic(err)
	}
	// Output:
	// env 0 stored at 0
	// env 1 stored at 10
	// env 0 stored at 1
	// env 1 stored at 11
	// env 0 finished an episode: return 2, indices 0…1
}

// An AsyncCollector stores the results of the first envs to finish and
// sends those envs their next actions at once. Here the envs run one after
// the other (vector.Sync steps the envs it was sent in order), and waiting
// for one env at a time makes them take turns; the envs still running at
// the end of a Collect are received by the next one.
func ExampleAsyncCollector() {
	envs := fakeEnvs(9, 9, 9)
	defer envs.Close()
	var order []int
	c, err := collector.NewAsync(collector.AsyncConfig{
		Config:  collector.Config{Env: envs, Policy: leftPolicy{}, OnStep: func(e collector.StepEvent) { order = append(order, e.Env) }},
		WaitNum: 1,
	})
	if err != nil {
		panic(err)
	}
	s, err := c.Collect(context.Background(), collector.Request{NStep: 5})
	if err != nil {
		panic(err)
	}
	fmt.Println("envs stepped:", order)
	fmt.Println("steps:", s.Steps, "in flight:", envs.Running())
	// Output:
	// envs stepped: [0 1 2 0 1]
	// steps: 5 in flight: 2
}

// A policy with a hidden state returns it under "state"; the collector
// hands each env's state back on its next step, zeroed when a new episode
// begins, and stores it under policy.hidden_state.
func ExamplePolicy_hiddenState() {
	envs := fakeEnvs(2)
	defer envs.Close()
	buf, err := buffer.NewVector(buffer.Config{Size: 10}, 1)
	if err != nil {
		panic(err)
	}
	counter := policyFunc(func(dst, obs *batch.Batch, state any, _ bool) error {
		k, _ := obs.Len()
		next := nd.Zeros(nd.Float32, k, 1) // a real policy would reuse it
		if state != nil {
			copy(nd.Data[float32](next), nd.Data[float32](state.(*nd.Array)))
		}
		for i := range nd.Data[float32](next) {
			nd.Data[float32](next)[i]++
		}
		return dst.Update("act", nd.Zeros(nd.Int64, k), "state", next)
	})
	c, err := collector.New(collector.Config{Env: envs, Policy: counter, Buffer: buf})
	if err != nil {
		panic(err)
	}
	if _, err := c.Collect(context.Background(), collector.Request{NStep: 5}); err != nil {
		panic(err)
	}
	data, err := buf.Take(buf.SampleIndices(0, nil))
	if err != nil {
		panic(err)
	}
	hs, _ := data.Array("policy.hidden_state")
	fmt.Println(nd.ToSlice[float32](hs))
	// Output:
	// [1 2 1 2 1]
}

// halfPolicy's actions live in [−1, 1], as a tanh output layer makes them;
// as an ActionMapper it scales them to the env's torque range [−2, 2] and
// back.
type halfPolicy struct{}

func (halfPolicy) Act(dst, obs *batch.Batch, _ any, _ bool) error {
	k, err := obs.Len()
	if err != nil {
		return err
	}
	act, err := nd.Full(nd.Float32, 0.5, k, 1)
	if err != nil {
		return err
	}
	return dst.Set("act", act)
}

func (halfPolicy) MapActionTo(envAct, act *nd.Array) error {
	for i, a := range nd.Data[float32](act) {
		nd.Data[float32](envAct)[i] = 2 * a
	}
	return nil
}

func (halfPolicy) UnmapActionTo(act, envAct *nd.Array) error {
	for i, a := range nd.Data[float32](envAct) {
		nd.Data[float32](act)[i] = a / 2
	}
	return nil
}

// An ActionMapper's env actions go to the env and its own actions to the
// buffer; random actions, sampled in the env's action space, are stored
// unmapped, so the buffer holds actions in [−1, 1] only.
func ExampleActionMapper() {
	ctx := context.Background()
	pendulum, err := env.Make("Pendulum-v1") // actions: Box(-2.0, 2.0, (1,), float32)
	if err != nil {
		panic(err)
	}
	envs, err := vector.NewSync([]env.Env{pendulum})
	if err != nil {
		panic(err)
	}
	defer envs.Close()
	buf, err := buffer.NewVector(buffer.Config{Size: 10}, 1)
	if err != nil {
		panic(err)
	}
	c, err := collector.New(collector.Config{Env: envs, Policy: halfPolicy{}, Buffer: buf, Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		panic(err)
	}
	if err := c.Reset(ctx, []env.Seed{env.SeedOf(0)}); err != nil {
		panic(err)
	}
	for _, random := range []bool{false, true} {
		if _, err := c.Collect(ctx, collector.Request{NStep: 2, Random: random}); err != nil {
			panic(err)
		}
	}
	data, err := buf.Take(buf.SampleIndices(0, nil))
	if err != nil {
		panic(err)
	}
	act, _ := data.Array("act")
	fmt.Printf("%.3f\n", nd.ToSlice[float32](act))
	// Output:
	// [0.500 0.500 0.353 -0.077]
}

// A Request asks for steps or for episodes, exactly one of the two;
// ResetBeforeCollect abandons the episodes in progress first.
func ExampleRequest() {
	ctx := context.Background()
	envs := fakeEnvs(5)
	defer envs.Close()
	c, err := collector.New(collector.Config{Env: envs, Policy: leftPolicy{}})
	if err != nil {
		panic(err)
	}
	s, _ := c.Collect(ctx, collector.Request{NStep: 3})
	fmt.Println("steps:", s.Steps, "episodes:", s.Episodes)
	// The episode under way has 2 steps left, but a reset starts a new one.
	s, _ = c.Collect(ctx, collector.Request{NEpisode: 1, ResetBeforeCollect: true})
	fmt.Println("steps:", s.Steps, "episodes:", s.Episodes)
	_, err = c.Collect(ctx, collector.Request{NStep: 3, NEpisode: 1})
	fmt.Println(errors.Is(err, collector.ErrRequest))
	// Output:
	// steps: 3 episodes: 0
	// steps: 5 episodes: 1
	// true
}

// An AsyncConfig is a Config plus the number of envs to wait for; WaitNum
// 0 waits for all of them, so every vector step steps every env: 3 steps
// of 2 envs take 2 vector steps.
func ExampleAsyncConfig() {
	envs := fakeEnvs(9, 9)
	defer envs.Close()
	c, err := collector.NewAsync(collector.AsyncConfig{Config: collector.Config{Env: envs, Policy: leftPolicy{}}, WaitNum: 0})
	if err != nil {
		panic(err)
	}
	s, err := c.Collect(context.Background(), collector.Request{NStep: 3})
	fmt.Println("steps:", s.Steps, err)
	_, err = collector.NewAsync(collector.AsyncConfig{Config: collector.Config{Env: envs, Policy: leftPolicy{}}, WaitNum: -1})
	fmt.Println(errors.Is(err, collector.ErrConfig))
	// Output:
	// steps: 4 <nil>
	// true
}
