package collector_test

import (
	"context"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"

	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic" // registers CartPole-v1
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// benchSteps is Tianshou's reference measurement: collect(n_step=10000)
// into a VectorReplayBuffer.
const benchSteps = 10_000

// cartPoles returns a vector env of n CartPole-v1 envs, as env.Make builds
// them, made by mk (vector.NewSync or vector.NewAsync).
func cartPoles[V vector.Env](tb testing.TB, n int, mk func([]env.Env) (V, error)) V {
	tb.Helper()
	var es []env.Env
	for i := 0; i < n; i++ {
		e, err := env.Make("CartPole-v1")
		if err != nil {
			tb.Fatal(err)
		}
		es = append(es, e)
	}
	v, err := mk(es)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { v.Close() })
	return v
}

func seedsOf(n int) []env.Seed {
	s := make([]env.Seed, n)
	for i := range s {
		s[i] = env.SeedOf(uint64(i))
	}
	return s
}

// benchCollect measures Collect(NStep: benchSteps) with a buffer of
// 100,000 transitions over the envs (large enough that the ring does not
// matter, as in Tianshou's runs) and reports env steps per second and
// allocations per env step.
func benchCollect(b *testing.B, v vector.Env, pol collector.Policy, random bool) {
	n := v.Len()
	cfg := buffer.DefaultConfig()
	buf, err := buffer.NewVector(cfg, n)
	if err != nil {
		b.Fatal(err)
	}
	c, err := collector.New(collector.Config{Env: v, Policy: pol, Buffer: buf, Explore: true, Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Reset(bg, seedsOf(n)); err != nil {
		b.Fatal(err)
	}
	req := collector.Request{NStep: benchSteps, Random: random}
	if _, err := c.Collect(bg, req); err != nil { // warm up: buffer schema, scratch
		b.Fatal(err)
	}
	runCollect(b, c.Collect, req)
}

// runCollect runs collect b.N times and reports env steps per second of
// wall-clock time, the CPU time per env step (the process's, so for
// goroutine-parallel envs it sums over cores) and the allocations per env
// step.
func runCollect(b *testing.B, collect func(context.Context, collector.Request) (collector.Stats, error), req collector.Request) {
	b.ReportAllocs()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mallocs := ms.Mallocs
	b.ResetTimer()
	cpu0, measured := cputime.Process()
	steps := 0
	for i := 0; i < b.N; i++ {
		s, err := collect(bg, req)
		if err != nil {
			b.Fatal(err)
		}
		steps += s.Steps
	}
	cpu1, _ := cputime.Process()
	b.StopTimer()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
	if measured {
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(steps), "cpu-ns/step")
	}
	b.ReportMetric(float64(ms.Mallocs-mallocs)/float64(steps), "allocs/step")
}

// BenchmarkCollectRandom is the issue's "collector, random policy, 1 / 4 /
// 8 envs (sequential)" row: CartPole-v1 in a vector.Sync, random actions.
// Tianshou 2.0.1: 3.4k / 9.8k / 15.1k steps/s.
func BenchmarkCollectRandom(b *testing.B) {
	for _, n := range []int{1, 4, 8} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			benchCollect(b, cartPoles(b, n, vector.NewSync), nil, true)
		})
	}
}

// BenchmarkCollectPolicy is the steady state with a policy whose output is
// reused (fixedPolicy): the collector's own cost per step, 1 and 8 envs.
func BenchmarkCollectPolicy(b *testing.B) {
	for _, n := range []int{1, 8} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			benchCollect(b, cartPoles(b, n, vector.NewSync), &fixedPolicy{}, false)
		})
	}
}

// BenchmarkCollectMLP is the issue's "collector, MLP 4→64→64→2 ε-greedy
// policy, 8 envs" row. Tianshou 2.0.1: 9.4k steps/s. The BLAS in use is
// logged.
func BenchmarkCollectMLP(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	pol := newMLPPolicy(b, 0.1)
	benchCollect(b, cartPoles(b, 8, vector.NewSync), pol, false)
}

// BenchmarkCollectParallel is the "parallel vector env, 8 envs"
// row: the collector over vector.Async (one goroutine per env), random
// actions. Tianshou 2.0.1 (subprocess envs): 4.7k steps/s.
func BenchmarkCollectParallel(b *testing.B) {
	benchCollect(b, cartPoles(b, 8, vector.NewAsync), nil, true)
}

// BenchmarkAsyncCollect measures the AsyncCollector over vector.Async with
// 8 CartPoles, waiting for 4 envs per vector step.
func BenchmarkAsyncCollect(b *testing.B) {
	v := cartPoles(b, 8, vector.NewAsync)
	c, err := collector.NewAsync(collector.AsyncConfig{Config: collector.Config{Env: v, Rand: rand.New(rand.NewPCG(1, 2)),
		Buffer: func() buffer.Buffer { bb, _ := buffer.NewVector(buffer.DefaultConfig(), 8); return bb }()}, WaitNum: 4})
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Reset(bg, seedsOf(8)); err != nil {
		b.Fatal(err)
	}
	req := collector.Request{NStep: benchSteps, Random: true}
	if _, err := c.Collect(bg, req); err != nil {
		b.Fatal(err)
	}
	runCollect(b, c.Collect, req)
}

// newMLPPolicy returns the ε-greedy Q policy (policy.Q, DQN's) over an
// MLP 4→64→64→2 for CartPole, exploring with ε while the training-step
// flag is on, as a trainer collects.
func newMLPPolicy(tb testing.TB, eps float64) *policy.Q {
	tb.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	net, err := nn.NewMLP(nn.MLPConfig{In: 4, Hidden: []int{64, 64}, Out: 2}, rng)
	if err != nil {
		tb.Fatal(err)
	}
	space, err := env.NewDiscrete(2, 0) // CartPole's actions
	if err != nil {
		tb.Fatal(err)
	}
	p, err := policy.NewQ(policy.ObsNet{Layer: net}, space, rng)
	if err != nil {
		tb.Fatal(err)
	}
	if err := p.SetEps(eps, 0); err != nil {
		tb.Fatal(err)
	}
	p.SetTrainingStep(true)
	return p
}
