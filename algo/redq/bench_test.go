package redq_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/redq"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update cycle (algotest.BenchUpdate) with
// actions of 1 dimension, as Pendulum's: sampling, 1-step returns with the
// drawn subset of target critics on obs_next, and the REDQ update with the
// actor stepped every update (ActorDelay 1, the dearest cycle). The sizes
// are those of Tianshou's Pendulum test (batch 64, 64-64 networks) and those
// of the SAC benchmark (batch 256, 256-256), with ensembles of 2, 4 (the
// Pendulum test's) and 10 (the default).
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	for _, size := range []int{64, 256} {
		for _, n := range []int{2, 4, 10} {
			b.Run(fmt.Sprintf("%s/batch=%d/hidden=%d/critics=%d", algotest.BLASTag(), size, size, n), func(b *testing.B) {
				cfg := redq.DefaultConfig()
				cfg.EnsembleSize, cfg.ActorDelay = n, 1
				cfg.ActorHidden, cfg.Critic.Hidden = []int{size, size}, []int{size, size}
				algotest.BenchUpdate(b, size, func(obs, act env.Space, rng *rand.Rand) (*redq.REDQ, error) {
					return redq.New(cfg, obs, act, rng)
				})
			})
		}
	}
}
