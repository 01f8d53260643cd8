package td3_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/td3"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

func small(hidden int) td3.Config {
	cfg := td3.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden = []int{hidden}, []int{hidden}
	cfg.Tau = 0.1
	return cfg
}

func newTD3(hidden int) func(t testing.TB, rng *rand.Rand) *td3.TD3 {
	return func(t testing.TB, rng *rand.Rand) *td3.TD3 {
		d, err := td3.New(small(hidden), algotest.Box(t, -10, 10, 4), algotest.Box(t, -2, 2, 2), rng)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.OffPolicy[*td3.TD3]{
		New:    newTD3(16),
		Params: (*td3.TD3).Params,
		Other:  func(t testing.TB) *td3.TD3 { return newTD3(8)(t, rand.New(rand.NewPCG(1, 1))) },
		Buffer: func(t testing.TB, rng *rand.Rand) buffer.Buffer {
			return algotest.Collection(t, 4, 50, algotest.Box(t, -2, 2, 2), rng)
		},
	})
}

func TestNewRejects(t *testing.T) {
	box := algotest.Box(t, -1, 1, 2)
	for _, tc := range []struct {
		name string
		edit func(*td3.Config)
		want string
	}{
		{"tau 0", func(c *td3.Config) { c.Tau = 0 }, "tau"},
		{"tau above 1", func(c *td3.Config) { c.Tau = 1.5 }, "tau"},
		{"negative noise", func(c *td3.Config) { c.Noise.Sigma = -0.1 }, "sigma"},
		{"unknown noise", func(c *td3.Config) { c.Noise.Kind = "pink" }, "noise kind"},
		{"gamma", func(c *td3.Config) { c.Gamma = 2 }, "gamma"},
		{"n_step", func(c *td3.Config) { c.NStep = 0 }, "n_step"},
		{"max_action", func(c *td3.Config) { c.MaxAction = 0 }, "max_action"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := td3.DefaultConfig()
			tc.edit(&cfg)
			_, err := td3.New(cfg, box, box, rand.New(rand.NewPCG(1, 1)))
			if !errors.Is(err, td3.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: %v; want ErrConfig naming %q", err, tc.want)
			}
		})
	}
	_, err := td3.New(td3.DefaultConfig(), box, algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 1)))
	if !errors.Is(err, td3.ErrConfig) || !strings.Contains(err.Error(), "Discrete") {
		t.Errorf("New on a Discrete space: %v; want ErrConfig naming the space", err)
	}
}

var _ = nn.Params{}
var _ policy.Policy
