package ppo_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// TestLoss checks PPO's losses on tiny fixed batches by hand. The actor's
// logits and the critic's values are 0, so π(a|s) = ½ for both actions,
// the entropy is ln 2 = 0.693147 and V = 0; logp_old sets the ratio r =
// ½/π_old. Two transitions with Â = (1, −1), G = (1, −2), V_old = (−0.5,
// −1), ε = 0.2:
//
//	r = 2 (π_old = ¼):   min(2·1, 1.2·1) = 1.2, min(2·(−1), 1.2·(−1)) = −2 → clip loss −(1.2 − 2)/2 = 0.4
//	dual clip c = 1.5:  the second becomes max(−2, 1.5·(−1)) = −1.5       → 0.15
//	dual clip c = 3:    max(−2, −3) = −2, unchanged                       → 0.4
//	r = ½ (π_old = 1):  min(0.5, 0.8) = 0.5, min(−0.5, −0.8) = −0.8     → 0.15
//	normalized Â = (1, −1)/(√2 + 10⁻⁸) = ±0.707107 with r = 2:
//	                    min(1.414214, 0.848528), min(−1.414214, −0.848528) → −(0.848528 − 1.414214)/2 = 0.282843
//
// Value loss without clipping ((1 − 0)² + (−2 − 0)²)/2 = 2.5; with
// clipping V_clip = V_old + clip(V − V_old, ±0.2) = (−0.3, −0.8), so
// max(1, 1.3²) = 1.69 and max(4, 1.2²) = 4: 2.845. The loss is the clip
// loss plus 0.5 times the value loss (no entropy bonus).
func TestLoss(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		logpOld              float64
		dual                 float64
		valueClip, normalize bool
		clip, vf             float64
	}{
		{"ratio 2", math.Log(0.25), 0, false, false, 0.4, 2.5},
		{"dual clip 1.5", math.Log(0.25), 1.5, false, false, 0.15, 2.5},
		{"dual clip 3", math.Log(0.25), 3, false, false, 0.4, 2.5},
		{"ratio 0.5", 0, 0, false, false, 0.15, 2.5},
		{"value clip", math.Log(0.25), 0, true, false, 0.4, 2.845},
		{"normalized", math.Log(0.25), 0, false, true, 0.282843, 2.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := ppo.DefaultConfig()
			cfg.DualClip, cfg.ValueClip, cfg.AdvantageNormalization = tc.dual, tc.valueClip, tc.normalize
			act := algotest.Discrete(t, 2, 0)
			net, err := actorcritic.NewNetFrom(policy.ObsNet{Layer: nn.Identity}, algotest.Linear([]float32{0, 0}, []float32{0, 0}),
				algotest.Linear([]float32{0, 0}), policy.CategoricalHead{}, act)
			if err != nil {
				t.Fatal(err)
			}
			p, err := ppo.NewWithNet(cfg, net, act, rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			lo := float32(tc.logpOld)
			b := batch.MustNew(
				"obs", nd.MustNew([][]float32{{1, 0}, {2, 3}}),
				"act", nd.MustNew([]int64{0, 1}),
				"adv", nd.MustNew([]float32{1, -1}),
				"returns", nd.MustNew([]float32{1, -2}),
				"v_s", nd.MustNew([]float32{-0.5, -1}),
				"logp_old", nd.MustNew([]float32{lo, lo}),
			)
			stats, err := p.UpdateRepeat(b, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]float64{"clip_loss": tc.clip, "vf_loss": tc.vf, "entropy": math.Ln2, "loss": tc.clip + 0.5*tc.vf}
			for k, w := range want {
				if !scalar.EqualWithinAbs(stats[k], w, 1e-5) {
					t.Errorf("%s = %v, want %v", k, stats[k], w)
				}
			}
		})
	}
}

// train runs updates of a PPO made from seed on collections drawn from
// seed, with every option of cfg's on top of edit.
func train(t testing.TB, seed uint64, act env.Space, updates int, edit func(*ppo.Config)) *ppo.PPO {
	cfg := ppo.DefaultConfig()
	if _, ok := act.(*env.Box); ok {
		cfg = ppo.ContinuousConfig()
	}
	cfg.Net.Hidden = []int{16, 16}
	if edit != nil {
		edit(&cfg)
	}
	p, err := ppo.New(cfg, algotest.Box(t, -10, 10, 4), act, rand.New(rand.NewPCG(seed, 2)))
	if err != nil {
		t.Fatal(err)
	}
	var l algo.Learner
	for i := range updates {
		buf := algotest.Collection(t, 4, 25, act, rand.New(rand.NewPCG(seed, uint64(i))))
		if _, err := l.StepAll(p, buf, 32, 3); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// everything turns every option on.
func everything(c *ppo.Config) {
	c.DualClip, c.ValueClip, c.AdvantageNormalization, c.RecomputeAdvantage = 3, true, true, true
	c.ReturnScaling, c.EntCoef, c.LRDecaySteps = true, 0.01, 10_000
}

// TestCheck runs algotest's on-policy checks (determinism, resume from a
// saved state, the allocation lock of an update, a smoke run) with both
// heads, on a PPO with two hidden layers of 16 and three passes per
// update: with the speed run's options and with every option on.
func TestCheck(t *testing.T) {
	newPPO := func(edit func(*ppo.Config), hidden ...int) func(testing.TB, env.Space, *rand.Rand) *ppo.PPO {
		return func(t testing.TB, act env.Space, rng *rand.Rand) *ppo.PPO {
			cfg := ppo.DefaultConfig()
			if _, ok := act.(*env.Box); ok {
				cfg = ppo.ContinuousConfig()
			}
			cfg.Net.Hidden = hidden
			if edit != nil {
				edit(&cfg)
			}
			p, err := ppo.New(cfg, algotest.Box(t, -10, 10, 4), act, rng)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	for name, edit := range map[string]func(*ppo.Config){"default": nil, "everything": everything} {
		t.Run(name, func(t *testing.T) {
			algotest.CheckOnPolicy(t, algotest.OnPolicy[*ppo.PPO]{
				New:    newPPO(edit, 16, 16),
				Params: func(p *ppo.PPO) nn.Params { return p.Net.Params() },
				Other: func(t testing.TB, act env.Space) *ppo.PPO {
					return newPPO(edit, 8)(t, act, rand.New(rand.NewPCG(1, 1)))
				},
				Repeat: 3,
			})
		})
	}
}

// TestRecompute checks that RecomputeAdvantage recomputes the advantages
// stored in the batch after the first pass (the critic has changed since
// Preprocess), and that without it they stay as Preprocess stored them.
func TestRecompute(t *testing.T) {
	act := algotest.Discrete(t, 2, 0)
	for _, recompute := range []bool{false, true} {
		p := train(t, 1, act, 1, func(c *ppo.Config) { c.RecomputeAdvantage = recompute })
		buf := algotest.Collection(t, 4, 25, act, rand.New(rand.NewPCG(2, 2)))
		b, idx := algotest.Take(t, buf)
		if err := p.Preprocess(b, buf, idx); err != nil {
			t.Fatal(err)
		}
		before, err := b.Array("adv")
		if err != nil {
			t.Fatal(err)
		}
		before = before.Copy()
		if _, err := p.UpdateRepeat(b, 32, 3); err != nil {
			t.Fatal(err)
		}
		after, _ := b.Array("adv")
		if changed := !nd.Equal(before, after); changed != recompute {
			t.Errorf("recompute %v: the advantages changed: %v", recompute, changed)
		}
	}
	fresh := train(t, 1, act, 0, func(c *ppo.Config) { c.RecomputeAdvantage = true })
	b := batch.MustNew("obs", nd.Zeros(nd.Float32, 2, 4), "act", nd.MustNew([]int64{0, 1}))
	if _, err := fresh.UpdateRepeat(b, 0, 2); err == nil {
		t.Error("recomputing without a Preprocess gave no error")
	}
}

func TestConfigErrors(t *testing.T) {
	obs, act := algotest.Box(t, -1, 1, 4), algotest.Discrete(t, 2, 0)
	for _, tc := range []struct {
		name string
		edit func(*ppo.Config)
	}{
		{"eps clip 0", func(c *ppo.Config) { c.EpsClip = 0 }},
		{"eps clip 1", func(c *ppo.Config) { c.EpsClip = 1 }},
		{"dual clip", func(c *ppo.Config) { c.DualClip = 0.5 }},
		{"gamma", func(c *ppo.Config) { c.Gamma = 1.5 }},
		{"vf", func(c *ppo.Config) { c.VFCoef = -1 }},
		{"grad norm", func(c *ppo.Config) { c.MaxGradNorm = -1 }},
	} {
		cfg := ppo.DefaultConfig()
		tc.edit(&cfg)
		if _, err := ppo.New(cfg, obs, act, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, ppo.ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", tc.name, err)
		}
	}
	if _, err := ppo.New(ppo.DefaultConfig(), obs, algotest.Box(t, -1, 1, 2), rand.New(rand.NewPCG(1, 1))); err != nil {
		t.Errorf("a Box action space: %v", err)
	}
}
