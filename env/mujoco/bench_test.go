package mujoco

import (
	"context"
	"sync"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
)

// The benchmarks step HalfCheetah (planar, 9 dofs, never terminates) and
// Humanoid (free-floating, 23 dofs, falls within a few dozen steps of zero
// controls), the cheapest and the dearest locomotion tasks, with zero
// controls from the same seeded start. An op is one env step (frame skip
// physics steps); steps/s counts env steps over all envs.
var benchTasks = []string{"HalfCheetah-v4", "Humanoid-v4"}

// fallen reports whether a Humanoid state has left the healthy height range
// (the raw benchmark's stand-in for termination); other tasks never fall.
func fallen(e *Env) bool {
	return e.t.id == "Humanoid-v4" && !(1.0 < e.s.qpos[2] && e.s.qpos[2] < 2.0)
}

// BenchmarkRawStep measures the physics alone: frame-skip calls of mj_step
// per op through the same binding, with no observation, reward or checks;
// a fallen Humanoid is reset as the env would be.
func BenchmarkRawStep(b *testing.B) {
	for _, id := range benchTasks {
		b.Run(id, func(b *testing.B) {
			e := mustNew(b, id)
			if _, _, err := e.Reset(env.SeedOf(1)); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				for range e.t.frameSkip {
					e.s.lib.callMD(e.s.lib.step, e.s.md)
				}
				if fallen(e) {
					e.Reset(env.NoSeed)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}

// BenchmarkStep measures Env.Step: the physics plus mj_rnePostConstraint,
// the observation, the reward and the checks.
func BenchmarkStep(b *testing.B) {
	for _, id := range benchTasks {
		b.Run(id, func(b *testing.B) {
			e := mustNew(b, id)
			a := nd.Zeros(nd.Float32, e.s.nu)
			if _, _, err := e.Reset(env.SeedOf(1)); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				_, _, term, _, _, err := e.Step(a)
				if err != nil {
					b.Fatal(err)
				}
				if term {
					e.Reset(env.NoSeed)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}

// BenchmarkRawStep8 runs the raw physics of 8 envs on 8 goroutines, one op
// being one step of each: the bound for BenchmarkAsync8 on this machine.
func BenchmarkRawStep8(b *testing.B) {
	const n = 8
	for _, id := range benchTasks {
		b.Run(id, func(b *testing.B) {
			envs := make([]*Env, n)
			for i := range envs {
				envs[i] = mustNew(b, id)
				if _, _, err := envs[i].Reset(env.SeedOf(uint64(i))); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			var wg sync.WaitGroup
			for _, e := range envs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range b.N {
						for range e.t.frameSkip {
							e.s.lib.callMD(e.s.lib.step, e.s.md)
						}
						if fallen(e) {
							e.Reset(env.NoSeed)
						}
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}

// BenchmarkAsync8 steps 8 envs, as env.Make builds them (with TimeLimit),
// through the goroutine-per-env vector.Async, resetting the envs whose
// episode ended as the collector does.
func BenchmarkAsync8(b *testing.B) {
	const n = 8
	ctx := context.Background()
	for _, id := range benchTasks {
		b.Run(id, func(b *testing.B) {
			needLibrary(b)
			envs := make([]env.Env, n)
			seeds := make([]env.Seed, n)
			for i := range envs {
				var err error
				if envs[i], err = env.Make(id); err != nil {
					b.Fatal(err)
				}
				seeds[i] = env.SeedOf(uint64(i))
			}
			v, err := vector.NewAsync(envs)
			if err != nil {
				b.Fatal(err)
			}
			defer v.Close()
			if _, err := v.Reset(ctx, nil, seeds); err != nil {
				b.Fatal(err)
			}
			nu := envs[0].ActionSpace().(*env.Box).Shape()[0]
			act := nd.Zeros(nd.Float32, n, nu)
			ended := make([]int, 0, n)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				r, err := v.Step(ctx, nil, act)
				if err != nil {
					b.Fatal(err)
				}
				ended = ended[:0]
				for j, id := range r.IDs {
					if r.Terminated[j] || r.Truncated[j] {
						ended = append(ended, id)
					}
				}
				if len(ended) > 0 {
					if _, err := v.Reset(ctx, ended, nil); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}

// BenchmarkWrapper measures what Env.Step adds to the physics: the same
// Step with a frame skip of 0, so that it reads the action, runs
// mj_rnePostConstraint, computes the reward and writes the observation
// without calling mj_step. Compare it with BenchmarkRawStep.
func BenchmarkWrapper(b *testing.B) {
	for _, id := range benchTasks {
		b.Run(id, func(b *testing.B) {
			e := mustNew(b, id)
			t := *e.t
			t.frameSkip = 0
			e.t = &t
			a := nd.Zeros(nd.Float32, e.s.nu)
			if _, _, err := e.Reset(env.SeedOf(1)); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, _, _, _, _, err := e.Step(a); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
