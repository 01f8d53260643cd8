package ddpg_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/ddpg"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

func small(hidden int) ddpg.Config {
	cfg := ddpg.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden = []int{hidden}, []int{hidden}
	cfg.Tau = 0.1
	return cfg
}

func newDDPG(hidden int) func(t testing.TB, rng *rand.Rand) *ddpg.DDPG {
	return func(t testing.TB, rng *rand.Rand) *ddpg.DDPG {
		d, err := ddpg.New(small(hidden), algotest.Box(t, -10, 10, 4), algotest.Box(t, -2, 2, 2), rng)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.OffPolicy[*ddpg.DDPG]{
		New:    newDDPG(16),
		Params: (*ddpg.DDPG).Params,
		Other:  func(t testing.TB) *ddpg.DDPG { return newDDPG(8)(t, rand.New(rand.NewPCG(1, 1))) },
		Buffer: func(t testing.TB, rng *rand.Rand) buffer.Buffer {
			return algotest.Collection(t, 4, 50, algotest.Box(t, -2, 2, 2), rng)
		},
	})
}

func TestNewRejects(t *testing.T) {
	box := algotest.Box(t, -1, 1, 2)
	for _, tc := range []struct {
		name string
		edit func(*ddpg.Config)
		want string
	}{
		{"tau 0", func(c *ddpg.Config) { c.Tau = 0 }, "tau"},
		{"tau above 1", func(c *ddpg.Config) { c.Tau = 1.5 }, "tau"},
		{"negative noise", func(c *ddpg.Config) { c.Noise.Sigma = -0.1 }, "sigma"},
		{"unknown noise", func(c *ddpg.Config) { c.Noise.Kind = "pink" }, "noise kind"},
		{"gamma", func(c *ddpg.Config) { c.Gamma = 2 }, "gamma"},
		{"n_step", func(c *ddpg.Config) { c.NStep = 0 }, "n_step"},
		{"max_action", func(c *ddpg.Config) { c.MaxAction = 0 }, "max_action"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := ddpg.DefaultConfig()
			tc.edit(&cfg)
			_, err := ddpg.New(cfg, box, box, rand.New(rand.NewPCG(1, 1)))
			if !errors.Is(err, ddpg.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: %v; want ErrConfig naming %q", err, tc.want)
			}
		})
	}
	_, err := ddpg.New(ddpg.DefaultConfig(), box, algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 1)))
	if !errors.Is(err, ddpg.ErrConfig) || !strings.Contains(err.Error(), "Discrete") {
		t.Errorf("New on a Discrete space: %v; want ErrConfig naming the space", err)
	}
}

var _ = nn.Params{}
var _ policy.Policy
