package minatar_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/minatar"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
)

var sinkReward float64

// BenchmarkStep times one Step of each game (v0, sticky actions) through
// the env.Env interface, with uniformly random actions drawn beforehand;
// episodes that end are reset, so the Resets of a random player's short
// episodes are included. Each reports cpu-ns/op, the process's CPU time per
// step, next to the wall-clock ns/op, which a loaded machine inflates.
func BenchmarkStep(b *testing.B) {
	for _, g := range minatar.Games {
		b.Run(g, func(b *testing.B) {
			e, err := env.Make(g + "-MinAtar-v0")
			if err != nil {
				b.Fatal(err)
			}
			e.Reset(env.SeedOf(1))
			rng := rand.New(rand.NewPCG(1, 1))
			acts := make([]*nd.Array, 1024)
			for i := range acts {
				acts[i] = nd.Zeros(nd.Int64)
				nd.Data[int64](acts[i])[0] = int64(rng.IntN(6))
			}
			b.ReportAllocs()
			b.ResetTimer()
			m := cputime.Start(b)
			for i := 0; i < b.N; i++ {
				_, r, term, _, _, err := e.Step(acts[i%len(acts)])
				if err != nil {
					b.Fatal(err)
				}
				if term {
					e.Reset(env.NoSeed)
				}
				sinkReward += r
			}
			m.Report()
		})
	}
}

// BenchmarkRender times drawing Breakout's 160×160 frame.
func BenchmarkRender(b *testing.B) {
	e, _ := minatar.New("Breakout", minatar.DefaultConfig())
	e.Reset(env.SeedOf(1))
	cputime.Measure(b, func() {
		if _, err := e.Render(); err != nil {
			b.Fatal(err)
		}
	})
}
