package classic_test

import (
	"testing"

	gorlenv "github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// BenchmarkEnvStep times one env.Env Step of each adapter per iteration,
// with the actions of BenchmarkStep (alternating between the first two, or
// ±0.5), resetting episodes that end: the adapter's cost over the raw Step
// is reading the action array and writing the observation array.
// "/Make" adds the TimeLimit of env.Make.
func BenchmarkEnvStep(b *testing.B) {
	for _, id := range ids {
		for _, made := range []bool{false, true} {
			name := id
			if made {
				name += "/Make"
			}
			b.Run(name, func(b *testing.B) {
				a, _ := adapter(b, id)
				var e gorlenv.Env = a
				if made {
					e, _ = gorlenv.NewTimeLimit(a, 500)
				}
				acts := [2]*nd.Array{nd.MustNew(int64(0)), nd.MustNew(int64(1))}
				if _, ok := e.ActionSpace().(*gorlenv.Box); ok {
					acts = [2]*nd.Array{nd.MustNew([]float32{-0.5}), nd.MustNew([]float32{0.5})}
				}
				e.Reset(gorlenv.SeedOf(1))
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					_, r, term, trunc, _, err := e.Step(acts[i&1])
					if err != nil {
						b.Fatal(err)
					}
					if term || trunc {
						e.Reset(gorlenv.NoSeed)
					}
					sinkReward += r
				}
			})
		}
	}
}
