package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/r2d2"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// R2D2: a recurrent Q network learned from prioritized sequences with
// stored states and burn-in, for partially observed envs
// (CartPoleNoVel-v1).

// r2d2Run is the algorithm configuration of gorl's R2D2 runs: R2D2's own,
// and prioritized sequence replay, which lives in the buffer.
type r2d2Run struct {
	r2d2.Config
	// Prioritized replays sequences in proportion to their priorities
	// (each stored at the sequence's first trained step) with these
	// settings; null means uniform replay. Default α 0.9, β 0.6 (the
	// paper's) with the weights of each batch divided by their maximum.
	Prioritized *buffer.PriorityConfig `json:"prioritized"`
}

func init() {
	Register("r2d2", Algorithm[r2d2Run]{
		Doc: "recurrent DQN in the R2D2 style (LSTM or GRU, stored states, burn-in, n-step double Q, prioritized sequences); off-policy, Discrete actions",
		Defaults: func(envID string) (*r2d2Run, RunDefaults) {
			t := trainer.DefaultConfig()
			t.Epochs, t.StepPerEpoch, t.StepPerCollect, t.UpdatePerStep = 10, 10_000, 8, 0.125
			t.BatchSize, t.PrefillSteps = 32, 1000
			return &r2d2Run{Config: r2d2.DefaultConfig(), Prioritized: &buffer.PriorityConfig{Alpha: 0.9, Beta: 0.6, WeightNorm: true}},
				RunDefaults{Trainer: t, TrainEnvs: 8, TestEnvs: 100, BufferSize: 50_000}
		},
		New: func(c *r2d2Run, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return r2d2.New(c.Config, obs, act, rng)
		},
		Buffer: func(c *r2d2Run, size, n int) (buffer.Buffer, error) { return replayBuffer(c.Prioritized, size, n) },
	})
}
