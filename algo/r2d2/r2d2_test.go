package r2d2_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/r2d2"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
)

// small returns a configuration of hidden units that crosses a target
// update within CheckOffPolicy's updates.
func small(cell string, hidden int) r2d2.Config {
	cfg := r2d2.DefaultConfig()
	cfg.Cell, cfg.Hidden, cfg.HeadHidden = cell, hidden, []int{hidden}
	cfg.BurnIn, cfg.SeqLen, cfg.TargetUpdateFreq = 3, 5, 10
	return cfg
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		cell    string
		dueling bool
	}{{r2d2.LSTM, false}, {r2d2.GRU, true}} {
		t.Run(c.cell, func(t *testing.T) {
			mk := func(hidden int) func(t testing.TB, rng *rand.Rand) *r2d2.R2D2 {
				return func(t testing.TB, rng *rand.Rand) *r2d2.R2D2 {
					cfg := small(c.cell, hidden)
					cfg.Dueling = c.dueling
					r, err := r2d2.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 3, 1), rng)
					if err != nil {
						t.Fatal(err)
					}
					return r
				}
			}
			algotest.CheckOffPolicy(t, algotest.OffPolicy[*r2d2.R2D2]{
				New:    mk(16),
				Params: func(r *r2d2.R2D2) nn.Params { return r.Net().Params() },
				Other:  func(t testing.TB) *r2d2.R2D2 { return mk(8)(t, rand.New(rand.NewPCG(1, 1))) },
				Buffer: func(t testing.TB, rng *rand.Rand) buffer.Buffer {
					return algotest.Collection(t, 4, 100, algotest.Discrete(t, 3, 1), rng)
				},
				BatchSize: 16,
				Explore:   func(r *r2d2.R2D2) { r.Policy().SetTrainingStep(true) },
			})
		})
	}
}

// TestNewRefuses checks that New names what it cannot take: each invalid
// field of the config, and spaces other than a Box of one axis and a
// Discrete.
func TestNewRefuses(t *testing.T) {
	obs, act := algotest.Box(t, -1, 1, 4), algotest.Discrete(t, 2, 0)
	img, err := env.NewBox(0.0, 1.0, []int{2, 2}, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	set := func(f func(*r2d2.Config)) r2d2.Config { c := r2d2.DefaultConfig(); f(&c); return c }
	cases := []struct {
		name     string
		cfg      r2d2.Config
		obs, act env.Space
	}{
		{"cell", set(func(c *r2d2.Config) { c.Cell = "rnn" }), obs, act},
		{"hidden", set(func(c *r2d2.Config) { c.Hidden = 0 }), obs, act},
		{"head_hidden", set(func(c *r2d2.Config) { c.HeadHidden = []int{0} }), obs, act},
		{"burn_in", set(func(c *r2d2.Config) { c.BurnIn = -1 }), obs, act},
		{"seq_len", set(func(c *r2d2.Config) { c.SeqLen = 0 }), obs, act},
		{"n_step", set(func(c *r2d2.Config) { c.NStep = 0 }), obs, act},
		{"gamma", set(func(c *r2d2.Config) { c.Gamma = 1.5 }), obs, act},
		{"target_update_freq", set(func(c *r2d2.Config) { c.TargetUpdateFreq = 0 }), obs, act},
		{"eta", set(func(c *r2d2.Config) { c.Eta = math.NaN() }), obs, act},
		{"rescale_eps", set(func(c *r2d2.Config) { c.ValueRescale, c.RescaleEps = true, 0 }), obs, act},
		{"max_grad_norm", set(func(c *r2d2.Config) { c.MaxGradNorm = -1 }), obs, act},
		{"eps_train", set(func(c *r2d2.Config) { c.EpsTrain = 2 }), obs, act},
		{"eps_decay_steps", set(func(c *r2d2.Config) { c.EpsDecaySteps = -1 }), obs, act},
		{"lr", set(func(c *r2d2.Config) { c.Optim.LR = -1 }), obs, act},
		{"ez_greedy mu", set(func(c *r2d2.Config) { c.Hold.Mu = -1 }), obs, act},
		{"ez_greedy mu NaN", set(func(c *r2d2.Config) { c.Hold.Mu = math.NaN() }), obs, act},
		{"ez_greedy max_duration", set(func(c *r2d2.Config) { c.Hold.MaxDuration = -1 }), obs, act},
		{"ez_greedy max_duration too long", set(func(c *r2d2.Config) { c.Hold.MaxDuration = 1<<16 + 1 }), obs, act},
		{"Box actions", r2d2.DefaultConfig(), obs, algotest.Box(t, -1, 1, 2)},
		{"image observations", r2d2.DefaultConfig(), img, act},
		{"Discrete observations", r2d2.DefaultConfig(), act, act},
	}
	for _, c := range cases {
		if _, err := r2d2.New(c.cfg, c.obs, c.act, rand.New(rand.NewPCG(1, 2))); !errors.Is(err, r2d2.ErrConfig) {
			t.Errorf("%s: error %v; want ErrConfig", c.name, err)
		}
	}
}
