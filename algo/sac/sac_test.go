package sac_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/sac"
	"github.com/gorl/gorl/buffer"
)

func small(hidden int) sac.Config {
	cfg := sac.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden = []int{hidden}, []int{hidden}
	cfg.Tau = 0.1
	return cfg
}

func newSAC(hidden int) func(t testing.TB, rng *rand.Rand) *sac.SAC {
	return func(t testing.TB, rng *rand.Rand) *sac.SAC {
		s, err := sac.New(small(hidden), algotest.Box(t, -10, 10, 4), algotest.Box(t, -2, 2, 2), rng)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.OffPolicy[*sac.SAC]{
		New:    newSAC(16),
		Params: (*sac.SAC).Params,
		Other:  func(t testing.TB) *sac.SAC { return newSAC(8)(t, rand.New(rand.NewPCG(1, 1))) },
		Buffer: func(t testing.TB, rng *rand.Rand) buffer.Buffer {
			return algotest.Collection(t, 4, 50, algotest.Box(t, -2, 2, 2), rng)
		},
	})
}

func TestNewRejects(t *testing.T) {
	box := algotest.Box(t, -1, 1, 2)
	for _, tc := range []struct {
		name string
		edit func(*sac.Config)
		want string
	}{
		{"tau 0", func(c *sac.Config) { c.Tau = 0 }, "tau"},
		{"tau above 1", func(c *sac.Config) { c.Tau = 1.01 }, "tau"},
		{"alpha", func(c *sac.Config) { c.Alpha = 0 }, "alpha"},
		{"gamma", func(c *sac.Config) { c.Gamma = -1 }, "gamma"},
		{"n_step", func(c *sac.Config) { c.NStep = 0 }, "n_step"},
		{"actor_hidden", func(c *sac.Config) { c.ActorHidden = []int{0} }, "actor_hidden"},
		{"bound", func(c *sac.Config) { c.Map.Bound = "wrap" }, "map"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := sac.DefaultConfig()
			tc.edit(&cfg)
			_, err := sac.New(cfg, box, box, rand.New(rand.NewPCG(1, 1)))
			if !errors.Is(err, sac.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: %v; want ErrConfig naming %q", err, tc.want)
			}
		})
	}
	_, err := sac.New(sac.DefaultConfig(), box, algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 1)))
	if !errors.Is(err, sac.ErrConfig) || !strings.Contains(err.Error(), "Discrete") {
		t.Errorf("New on a Discrete space: %v; want ErrConfig naming the space", err)
	}
}
