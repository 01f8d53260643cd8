package minatar

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
)

// idle is a game whose frames change nothing: Breakout's four channels
// and state, a step that does nothing and an empty drawing.
type idle struct{ breakout }

func (*idle) step(int, random) (float64, bool) { return 0, false }
func (*idle) observe([]uint8)                  {}
func (*idle) redraw([]uint8)                   {}

// BenchmarkStepOverhead times what every game's step pays besides its
// rules and its drawing, the floor under BenchmarkStep: the call through
// env.Env, the action's decoding, the sticky draw and the two calls into
// the game (its step and its redraw), with BenchmarkStep's random actions.
func BenchmarkStepOverhead(b *testing.B) {
	e, err := New("Breakout", DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	e.g = &idle{}
	var ee env.Env = e
	ee.Reset(env.SeedOf(1))
	rng := rand.New(rand.NewPCG(1, 1))
	acts := make([]*nd.Array, 1024)
	for i := range acts {
		acts[i] = nd.Zeros(nd.Int64)
		nd.Data[int64](acts[i])[0] = int64(rng.IntN(numActions))
	}
	b.ReportAllocs()
	b.ResetTimer()
	m := cputime.Start(b)
	for i := 0; i < b.N; i++ {
		if _, _, _, _, _, err := ee.Step(acts[i%len(acts)]); err != nil {
			b.Fatal(err)
		}
	}
	m.Report()
}
