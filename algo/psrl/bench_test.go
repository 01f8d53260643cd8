package psrl_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/psrl"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/tabular"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
)

// BenchmarkUpdate measures one posterior update (counts, a drawn MDP and
// value iteration) after an episode of NChain-v0 (5 states, 1,000 steps:
// Tianshou's test collects one episode per update) and of FrozenLake-v1
// (16 states, an episode of 100 steps).
func BenchmarkUpdate(b *testing.B) {
	chain, err := tabular.NChain(5, 0.2, 2, 10)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		m     *tabular.MDP
		steps int
	}{{"NChain", chain, 1000}, {"FrozenLake", tabular.FrozenLake(), 100}} {
		b.Run(c.name, func(b *testing.B) {
			obs, _ := env.NewDiscrete(int64(c.m.States), 0)
			act, _ := env.NewDiscrete(int64(c.m.Actions), 0)
			p, err := psrl.New(psrl.DefaultConfig(), obs, act, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			s := make([]int64, c.steps)
			s2 := make([]int64, c.steps)
			a := make([]int64, c.steps)
			for i := range s {
				s[i], a[i] = rng.Int64N(int64(c.m.States)), rng.Int64N(int64(c.m.Actions))
				s2[i] = rng.Int64N(int64(c.m.States))
			}
			bt := batch.MustNew("obs", s, "obs_next", s2, "act", a, "rew", nd.Zeros(nd.Float64, c.steps),
				"terminated", nd.Zeros(nd.Bool, c.steps))
			cputime.Measure(b, func() {
				if _, err := p.UpdateRepeat(bt, 0, 1); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
