package bcqc_test

import (
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/bcqc"
)

// BenchmarkUpdate measures one update cycle (algotest.BenchUpdateSizes)
// with actions of 1 dimension, as Pendulum's: sampling, the target over 10
// sampled actions per next observation, and the VAE, critic and Φ steps, at
// the sizes the continuous actor-critics share (the VAE as wide as the
// other networks).
func BenchmarkUpdate(b *testing.B) {
	algotest.BenchUpdateSizes(b, bcqc.New, func(hidden int) bcqc.Config {
		cfg := bcqc.DefaultConfig()
		cfg.ActorHidden, cfg.Critic.Hidden, cfg.VAEHidden = []int{hidden, hidden}, []int{hidden, hidden}, []int{hidden, hidden}
		return cfg
	})
}
