package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/c51"
	"github.com/gorl/gorl/algo/rainbow"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// c51Run is the algorithm configuration of gorl's C51 runs: C51's own, and
// prioritized replay, which lives in the buffer.
type c51Run struct {
	c51.Config
	// Prioritized replays transitions in proportion to their cross
	// entropies with these settings; null means uniform replay.
	Prioritized *buffer.PriorityConfig `json:"prioritized"`
}

// rainbowRun is the algorithm configuration of gorl's Rainbow runs.
type rainbowRun struct {
	rainbow.Config
	// Prioritized replays transitions in proportion to their cross
	// entropies with these settings (default α 0.6, β 0.4 with
	// Tianshou's weight_norm); null means uniform replay.
	Prioritized *buffer.PriorityConfig `json:"prioritized"`
}

// categoricalDefaults are the run settings of Tianshou's CartPole tests of
// C51 and Rainbow (test/discrete/test_c51.py, test_rainbow.py): 8 training
// and 100 test envs, a buffer of 20,000, 10 epochs of 8,000 env steps,
// collections of 8 steps with one gradient step of 64 each (update_per_step
// 0.125), a prefill of batch size × training envs, and a stop at the env's
// stop threshold (195 on CartPole).
func categoricalDefaults() RunDefaults {
	t := trainer.DefaultConfig()
	t.Epochs, t.StepPerEpoch, t.StepPerCollect, t.UpdatePerStep = 10, 8000, 8, 0.125
	t.BatchSize, t.PrefillSteps = 64, 64*8
	return RunDefaults{Trainer: t, TrainEnvs: 8, TestEnvs: 100, BufferSize: 20_000}
}

// replayBuffer returns a vector buffer of n sub-buffers of size in all,
// prioritized with p unless p is nil.
func replayBuffer(p *buffer.PriorityConfig, size, n int) (buffer.Buffer, error) {
	if p == nil {
		return buffer.NewVector(buffer.Config{Size: size}, n)
	}
	return buffer.NewPrioritizedVector(buffer.Config{Size: size}, n, *p)
}

func init() {
	Register("c51", Algorithm[c51Run]{
		Doc: "categorical DQN (return distributions over atoms, n-step, prioritized replay); off-policy, Discrete actions",
		Defaults: func(envID string) (*c51Run, RunDefaults) {
			return &c51Run{Config: c51.DefaultConfig()}, categoricalDefaults()
		},
		New: func(c *c51Run, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return c51.New(c.Config, obs, act, rng)
		},
		Buffer: func(c *c51Run, size, n int) (buffer.Buffer, error) { return replayBuffer(c.Prioritized, size, n) },
	})
	Register("rainbow", Algorithm[rainbowRun]{
		Doc: "Rainbow: C51 with a noisy dueling head, n-step returns and prioritized replay; off-policy, Discrete actions",
		Defaults: func(envID string) (*rainbowRun, RunDefaults) {
			p := buffer.DefaultPriorityConfig()
			p.WeightNorm = true
			return &rainbowRun{Config: rainbow.DefaultConfig(), Prioritized: &p}, categoricalDefaults()
		},
		New: func(c *rainbowRun, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			return rainbow.New(c.Config, obs, act, rng)
		},
		Buffer: func(c *rainbowRun, size, n int) (buffer.Buffer, error) { return replayBuffer(c.Prioritized, size, n) },
	})
}
