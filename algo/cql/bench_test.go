package cql_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/cql"
	"github.com/gorl/gorl/env"
)

// BenchmarkUpdate measures one update cycle (algotest.BenchUpdateSizes)
// with actions of 1 dimension, as Pendulum's: sampling, one-step soft
// returns, the conservative penalty over 3·10 proposals per observation
// (the critics on 30 times the batch), and SAC's actor and α steps. The
// sizes are those the actor-critics are compared at (batch 256, 256-256)
// and batch 128 with 128-128; Tianshou's Pendulum test of CQL uses batch 64
// with 64-64 (the "tianshou" sub-benchmark).
func BenchmarkUpdate(b *testing.B) {
	cfg := func(hidden int) cql.Config {
		c := cql.DefaultConfig()
		c.ActorHidden, c.Critic.Hidden = []int{hidden, hidden}, []int{hidden, hidden}
		return c
	}
	algotest.BenchUpdateSizes(b, cql.New, cfg)
	b.Run(algotest.BLASTag()+"/tianshou/batch=64/hidden=64", func(b *testing.B) {
		c := cfg(64)
		algotest.BenchUpdate(b, 64, func(obs, act env.Space, rng *rand.Rand) (*cql.CQL, error) { return cql.New(c, obs, act, rng) })
	})
}
