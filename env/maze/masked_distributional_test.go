package maze_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/c51"
	"github.com/gorl/gorl/algo/rainbow"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env/maze"
)

// offPolicy runs a on masked mazes: random prefill, then its own policy,
// with a few updates on the masked batches after each round.
func offPolicy(t *testing.T, a interface {
	algo.OffPolicy
	algo.Scheduled
}) {
	t.Helper()
	var l algo.Learner
	rng := rand.New(rand.NewPCG(3, 4))
	envSteps := int64(0)
	run(t, a, true, 4, 300, func(buf buffer.Buffer) error {
		envSteps += 300
		a.Schedule(envSteps)
		for range 10 {
			if _, err := l.Step(a, buf, 32, rng); err != nil {
				return err
			}
		}
		return nil
	})
}

// TestMaskedC51NeverInvalid: ε = 0.5 so that many actions are random.
func TestMaskedC51NeverInvalid(t *testing.T) {
	cfg := c51.DefaultConfig()
	cfg.Hidden, cfg.EpsTrain = []int{32}, 0.5
	e := maze.New()
	a, err := c51.New(cfg, e.ObservationSpace(), e.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	offPolicy(t, a)
}

// TestMaskedRainbowNeverInvalid: noisy dueling heads on the real
// observation, acting through the noise.
func TestMaskedRainbowNeverInvalid(t *testing.T) {
	cfg := rainbow.DefaultConfig()
	cfg.Hidden = []int{32}
	e := maze.New()
	a, err := rainbow.New(cfg, e.ObservationSpace(), e.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	offPolicy(t, a)
}
