package maze_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/c51"
	"github.com/gorl/gorl/algo/discretesac"
	"github.com/gorl/gorl/algo/fqf"
	"github.com/gorl/gorl/algo/iqn"
	"github.com/gorl/gorl/algo/qrdqn"
	"github.com/gorl/gorl/algo/rainbow"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env/maze"
)

// offPolicy runs a on masked mazes: random prefill, then its own policy,
// with a few updates on the masked batches after each round.
func offPolicy(t *testing.T, a algo.OffPolicy) {
	t.Helper()
	var l algo.Learner
	rng := rand.New(rand.NewPCG(3, 4))
	envSteps := int64(0)
	run(t, a, true, 4, 300, func(buf buffer.Buffer) error {
		envSteps += 300
		if s, ok := a.(algo.Scheduled); ok {
			s.Schedule(envSteps)
		}
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

// TestMaskedQuantileNeverInvalid: QR-DQN, IQN and FQF with ε = 0.5.
func TestMaskedQuantileNeverInvalid(t *testing.T) {
	e := maze.New()
	obs, act := e.ObservationSpace(), e.ActionSpace()
	build := map[string]func() (algo.OffPolicy, error){
		"qrdqn": func() (algo.OffPolicy, error) {
			cfg := qrdqn.DefaultConfig()
			cfg.Hidden, cfg.NumQuantiles, cfg.EpsTrain = []int{32}, 16, 0.5
			return qrdqn.New(cfg, obs, act, rand.New(rand.NewPCG(1, 2)))
		},
		"iqn": func() (algo.OffPolicy, error) {
			cfg := iqn.DefaultConfig()
			cfg.Hidden, cfg.Cosines, cfg.EpsTrain = []int{32}, 16, 0.5
			return iqn.New(cfg, obs, act, rand.New(rand.NewPCG(1, 2)))
		},
		"fqf": func() (algo.OffPolicy, error) {
			cfg := fqf.DefaultConfig()
			cfg.Hidden, cfg.HeadHidden, cfg.Cosines, cfg.NumFractions, cfg.EpsTrain = []int{32}, []int{32}, 16, 8, 0.5
			return fqf.New(cfg, obs, act, rand.New(rand.NewPCG(1, 2)))
		},
	}
	for name, mk := range build {
		t.Run(name, func(t *testing.T) {
			a, err := mk()
			if err != nil {
				t.Fatal(err)
			}
			offPolicy(t, a)
		})
	}
}

// TestMaskedDiscreteSACNeverInvalid: the actor samples from masked logits,
// and discrete SAC updates on the masked batches in between.
func TestMaskedDiscreteSACNeverInvalid(t *testing.T) {
	cfg := discretesac.DefaultConfig()
	cfg.ActorHidden, cfg.CriticHidden = []int{32}, []int{32}
	e := maze.New()
	a, err := discretesac.New(cfg, e.ObservationSpace(), e.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	offPolicy(t, a)
}
