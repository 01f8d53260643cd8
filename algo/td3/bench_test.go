package td3_test

import (
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/td3"
)

// BenchmarkUpdate measures one update cycle (algotest.BenchUpdateSizes)
// with actions of 1 dimension, as Pendulum's: sampling, 3-step returns with
// the target networks on obs_next, and the TD3 update. The sizes are those of
// the comparison (batch 256, hidden layers 256-256) and of
// Tianshou's Pendulum test (batch 128, 128-128).
func BenchmarkUpdate(b *testing.B) {
	algotest.BenchUpdateSizes(b, td3.New, func(hidden int) td3.Config {
		cfg := td3.DefaultConfig()
		cfg.ActorHidden, cfg.Critic.Hidden = []int{hidden, hidden}, []int{hidden, hidden}
		return cfg
	})
}
