package td3bc_test

import (
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/td3bc"
)

// BenchmarkUpdate measures one update cycle (algotest.BenchUpdateSizes)
// with actions of 1 dimension, as Pendulum's: sampling, 3-step returns with
// the target networks, and the TD3+BC update with observation
// normalization, at the sizes the continuous actor-critics share.
func BenchmarkUpdate(b *testing.B) {
	algotest.BenchUpdateSizes(b, td3bc.New, func(hidden int) td3bc.Config {
		cfg := td3bc.DefaultConfig()
		cfg.ActorHidden, cfg.Critic.Hidden = []int{hidden, hidden}, []int{hidden, hidden}
		return cfg
	})
}
