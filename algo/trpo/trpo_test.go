package trpo_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/trpo"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
)

func newTRPO(hidden ...int) func(t testing.TB, act env.Space, rng *rand.Rand) *trpo.TRPO {
	return func(t testing.TB, act env.Space, rng *rand.Rand) *trpo.TRPO {
		cfg := trpo.ContinuousConfig()
		cfg.Net.Hidden = hidden
		a, err := trpo.New(cfg, algotest.Box(t, -10, 10, 4), act, rng)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
}

// TestTRPO runs the checks every on-policy algorithm passes (determinism,
// exact resume, an update without allocations, a smoke run) with a
// Categorical and a Normal head.
func TestTRPO(t *testing.T) {
	algotest.CheckOnPolicy(t, algotest.OnPolicy[*trpo.TRPO]{
		New:    newTRPO(16, 16),
		Params: func(a *trpo.TRPO) nn.Params { return a.Net.Params() },
		Other: func(t testing.TB, act env.Space) *trpo.TRPO {
			return newTRPO(8)(t, act, rand.New(rand.NewPCG(1, 1)))
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
		set  func(*trpo.Config)
		act  env.Space
		want string
	}{
		{"shared trunk", func(c *trpo.Config) { c.Net.Shared = true }, nil, "separate actor and critic"},
		{"state-dependent exploration", func(c *trpo.Config) { c.Net.SDE = true }, nil, "state-dependent exploration"},
		{"value coefficient", func(c *trpo.Config) { c.VFCoef = 0.5 }, nil, "vf_coef"},
		{"no critic steps", func(c *trpo.Config) { c.CriticIters = 0 }, nil, "optim_critic_iters"},
		{"ELU", func(c *trpo.Config) { c.Net.Activation = nn.ELU }, nil, "identity, ReLU, tanh and sigmoid"},
		{"MultiDiscrete", func(*trpo.Config) {}, multi, "Discrete action space or a Box"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := trpo.ContinuousConfig()
			tc.set(&cfg)
			act := tc.act
			if act == nil {
				act = algotest.Box(t, -2, 2, 1)
			}
			_, err := trpo.New(cfg, algotest.Box(t, -10, 10, 4), act, rand.New(rand.NewPCG(1, 1)))
			if !errors.Is(err, trpo.ErrConfig) && !errors.Is(err, actorcritic.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: %v; want a configuration error naming %q", err, tc.want)
			}
		})
	}
}
