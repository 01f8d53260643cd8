package npg_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/npg"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
)

func newNPG(hidden ...int) func(t testing.TB, act env.Space, rng *rand.Rand) *npg.NPG {
	return func(t testing.TB, act env.Space, rng *rand.Rand) *npg.NPG {
		cfg := npg.ContinuousConfig()
		cfg.Net.Hidden = hidden
		// The collections are random: a Fisher of rank at most 32 among
		// hundreds of parameters, whose damped inverse makes the default
		// step of 0.5 blow the Gaussian's σ up.
		cfg.ActorStepSize = 0.01
		a, err := npg.New(cfg, algotest.Box(t, -10, 10, 4), act, rng)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
}

// TestNPG runs the checks every on-policy algorithm passes (determinism,
// exact resume, an update without allocations, a smoke run) with a
// Categorical and a Normal head.
func TestNPG(t *testing.T) {
	algotest.CheckOnPolicy(t, algotest.OnPolicy[*npg.NPG]{
		New:    newNPG(16, 16),
		Params: func(a *npg.NPG) nn.Params { return a.Net.Params() },
		Other: func(t testing.TB, act env.Space) *npg.NPG {
			return newNPG(8)(t, act, rand.New(rand.NewPCG(1, 1)))
		},
	})
}

// TestRefuses checks that New refuses, with a message naming the cause,
// settings and spaces the natural gradient cannot take.
func TestRefuses(t *testing.T) {
	multi, err := env.NewMultiDiscrete([]int64{3, 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		set  func(*npg.Config)
		act  env.Space
		want string
	}{
		{"shared trunk", func(c *npg.Config) { c.Net.Shared = true }, nil, "separate actor and critic"},
		{"state-dependent exploration", func(c *npg.Config) { c.Net.SDE = true }, nil, "state-dependent exploration"},
		{"value coefficient", func(c *npg.Config) { c.VFCoef = 0.5 }, nil, "vf_coef"},
		{"no critic steps", func(c *npg.Config) { c.CriticIters = 0 }, nil, "optim_critic_iters"},
		{"ELU", func(c *npg.Config) { c.Net.Activation = nn.ELU }, nil, "identity, ReLU, tanh and sigmoid"},
		{"MultiDiscrete", func(*npg.Config) {}, multi, "Discrete action space or a Box"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := npg.ContinuousConfig()
			tc.set(&cfg)
			act := tc.act
			if act == nil {
				act = algotest.Box(t, -2, 2, 1)
			}
			_, err := npg.New(cfg, algotest.Box(t, -10, 10, 4), act, rand.New(rand.NewPCG(1, 1)))
			if !errors.Is(err, npg.ErrConfig) && !errors.Is(err, actorcritic.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: %v; want a configuration error naming %q", err, tc.want)
			}
		})
	}
}
