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
// are those of Tianshou's Pendulum test (batch 64, 64-64 networks) with its
// ensemble of 4 and the default of 10.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	for _, n := range []int{4, 10} {
		b.Run(fmt.Sprintf("%s/batch=64/hidden=64/critics=%d", algotest.BLASTag(), n), func(b *testing.B) {
			cfg := redq.DefaultConfig()
			cfg.EnsembleSize, cfg.ActorDelay = n, 1
			algotest.BenchUpdate(b, 64, func(obs, act env.Space, rng *rand.Rand) (*redq.REDQ, error) {
				return redq.New(cfg, obs, act, rng)
			})
		})
	}
}
