package maddpg_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/maddpg"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent/spread"
)

// Train MADDPG on SimpleSpread for a few episodes, then play one greedy
// episode.
func Example() {
	e, err := spread.New(spread.DefaultConfig())
	if err != nil {
		panic(err)
	}
	cfg := maddpg.DefaultConfig()
	cfg.BatchSize = 32
	m, err := maddpg.New(cfg, e, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	for ep := range 4 {
		if _, err := m.Episode(e, env.SeedOf(uint64(ep)), true, true); err != nil {
			panic(err)
		}
	}
	if _, err := m.Episode(e, env.SeedOf(100), false, false); err != nil {
		panic(err)
	}
	fmt.Println(len(m.IDs()), "agents,", m.Len(), "transitions,", m.Counters.Updates, "updates")
	// Output: 3 agents, 100 transitions, 18 updates
}
