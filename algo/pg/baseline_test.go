package pg_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/pg"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// baselinePG returns a PG with Baseline whose policy is logits = W·s over
// two actions (W given by actor) and whose critic is V(s) = u·s, trained
// with Adam at lr 0.01 on the whole batch.
func baselinePG(t *testing.T, cfg pg.Config, actor [2][]float32, u []float32) (*pg.PG, *nn.Linear, *nn.Linear) {
	t.Helper()
	lin, crit := algotest.Linear(actor[0], actor[1]), algotest.Linear(u)
	act := algotest.Discrete(t, 2, 0)
	net, err := actorcritic.NewNetFrom(policy.ObsNet{Layer: nn.Identity}, lin, crit, policy.CategoricalHead{}, act)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Baseline = true
	cfg.Optim.LR = 0.01
	p, err := pg.NewWithNet(cfg, net, act, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return p, lin, crit
}

// TestBaselineLoss checks the loss of REINFORCE with baseline and the
// direction of Adam's first step by hand, on the batch of TestLoss with the
// advantages (−1.5, −1), of the opposite sign to the first return, and
// the critic V(s) = (0.5, 0)·s.
//
// log π = (−0.313262, −0.693147) (TestLoss), V = (0.5, 0):
//
//	actor loss = −((−1.5)·(−0.313262) + (−1)·(−0.693147))/2 = −0.581520
//	vf loss    = ((2 − 0.5)² + (−1 − 0)²)/2 = 1.625
//	loss       = −0.581520 + 0.5·1.625 = 0.230980
//
// ∂loss/∂logits = −Â/2·(onehot(a) − π): transition 1 (0.201706,
// −0.201706), transition 2 (−0.25, 0.25); so Adam's first step moves W to
// ((0.99, 0.01), (0.01, −0.01)): the first weight falls, where weighting
// by the return 2 raises it (TestLoss). ∂loss/∂V = 0.5·(V − G) = (−0.75,
// 0.5): u moves to (0.51, −0.01).
func TestBaselineLoss(t *testing.T) {
	p, lin, crit := baselinePG(t, pg.DefaultConfig(), [2][]float32{{1, 0}, {0, 0}}, []float32{0.5, 0})
	b := batch.MustNew(
		"obs", nd.MustNew([][]float32{{1, 0}, {0, 1}}),
		"act", nd.MustNew([]int64{0, 1}),
		"returns", nd.MustNew([]float32{2, -1}),
		"adv", nd.MustNew([]float32{-1.5, -1}),
	)
	stats, err := p.UpdateRepeat(b, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key  string
		want float64
	}{{"loss", 0.230980}, {"vf_loss", 1.625}} {
		if !scalar.EqualWithinAbs(stats[c.key], c.want, 1e-5) {
			t.Errorf("%s %v, want %v", c.key, stats[c.key], c.want)
		}
	}
	for _, c := range []struct {
		name string
		got  []float32
		want []float64
	}{
		{"actor", lin.Weight.Data(), []float64{0.99, 0.01, 0.01, -0.01}},
		{"critic", crit.Weight.Data(), []float64{0.51, -0.01}},
	} {
		for i, w := range c.want {
			if !scalar.EqualWithinAbs(float64(c.got[i]), w, 1e-6) {
				t.Errorf("%s weights after one step %v, want %v", c.name, c.got, c.want)
				break
			}
		}
	}

	// Without adv the update is refused.
	b2 := batch.MustNew("obs", nd.MustNew([][]float32{{1, 0}}), "act", nd.MustNew([]int64{0}), "returns", nd.MustNew([]float32{2}))
	if _, err := p.UpdateRepeat(b2, 0, 1); err == nil {
		t.Error("UpdateRepeat with Baseline accepted a batch without adv")
	}
}

// TestBaselineReturns checks Preprocess with Baseline by hand, with γ = 0.5
// and the critic V(s) = (0.5, 0)·s, which values the i-th observation of
// episodeBuffer's episodes, (i, 0), at i/2.
//
// Without standardization: a terminated episode with rewards (1, 1, 1) has
// G = (1.75, 1.5, 1) and V = (0, 0.5, 1), Â = G − V = (1.75, 1, 0). An
// unfinished one with rewards (1, 1) bootstraps from V of its last next
// observation, (2, 0): 1; G = (1 + 0.5·(1 + 0.5·1), 1 + 0.5·1) = (1.75,
// 1.5), Â = (1.75, 1).
//
// With standardization, as the first collection, σ of the empty statistics
// is 1: the critic's targets are G = (1.75, 1.5, 1) (within 10⁻⁸); the
// statistics then hold G, mean 1.416667, variance 0.097222 (TestReturns),
// and Â = (1.75, 1, 0)/0.311805 = (5.612486, 3.207135, 0). The unfinished
// episode then has values σ·V = (0, 0.155902) and bootstraps from σ·1:
// G = (1 + 0.5·1.155902, 1 + 0.5·0.311805) = (1.577951, 1.155902), stored
// divided by σ: (5.060702, 3.707135). Merged, the statistics have mean
// 1.396771 and variance 0.076740 over 5 returns, and Â = (1.577951, 1)/
// √0.076740 = (5.696180, 3.609858).
func TestBaselineReturns(t *testing.T) {
	columns := func(p *pg.PG, rew []float64, term bool) (ret, adv []float32) {
		buf, b, idx := episodeBuffer(t, rew, term)
		if err := p.Preprocess(b, buf, idx); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			key string
			dst *[]float32
		}{{"returns", &ret}, {"adv", &adv}} {
			v, err := batch.Values[float32](b, c.key)
			if err != nil {
				t.Fatal(err)
			}
			*c.dst = append([]float32(nil), v...)
		}
		return ret, adv
	}
	check := func(name string, got []float32, want ...float64) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %v, want %v", name, got, want)
		}
		for i := range want {
			if !scalar.EqualWithinAbs(float64(got[i]), want[i], 1e-5) {
				t.Errorf("%s: %v, want %v", name, got, want)
				return
			}
		}
	}
	cfg := pg.DefaultConfig()
	cfg.Gamma = 0.5
	cfg.ReturnStandardization = false
	u := []float32{0.5, 0}
	p, _, _ := baselinePG(t, cfg, [2][]float32{{0, 0}, {0, 0}}, u)
	ret, adv := columns(p, []float64{1, 1, 1}, true)
	check("terminated, raw returns", ret, 1.75, 1.5, 1)
	check("terminated, raw advantages", adv, 1.75, 1, 0)
	ret, adv = columns(p, []float64{1, 1}, false)
	check("unfinished, raw returns", ret, 1.75, 1.5)
	check("unfinished, raw advantages", adv, 1.75, 1)

	cfg.ReturnStandardization = true
	q, _, _ := baselinePG(t, cfg, [2][]float32{{0, 0}, {0, 0}}, u)
	ret, adv = columns(q, []float64{1, 1, 1}, true)
	check("first, standardized returns", ret, 1.75, 1.5, 1)
	check("first, standardized advantages", adv, 5.612486, 3.207135, 0)
	ret, adv = columns(q, []float64{1, 1}, false)
	check("unfinished, standardized returns", ret, 5.060702, 3.707135)
	check("unfinished, standardized advantages", adv, 5.696180, 3.609858)
	if s := q.Counters.Returns; !scalar.EqualWithinAbs(s.Mean, 1.396771, 1e-6) || !scalar.EqualWithinAbs(s.Var, 0.076740, 1e-6) || s.Count != 5 {
		t.Errorf("statistics %+v, want mean 1.396771, var 0.076740, count 5", s)
	}
}

// TestBaselineConfig checks that a baseline needs a positive value
// coefficient and a network with a critic, and that New builds one.
func TestBaselineConfig(t *testing.T) {
	obs, act := algotest.Box(t, -1, 1, 4), algotest.Discrete(t, 2, 0)
	cfg := pg.DefaultConfig()
	cfg.Baseline = true
	p, err := pg.New(cfg, obs, act, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Net.HasCritic() {
		t.Error("New with Baseline built a Net without critic")
	}
	for _, tc := range []struct {
		name string
		vf   float64
	}{{"zero", 0}, {"negative", -1}} {
		c := cfg
		c.VFCoef = tc.vf
		if _, err := pg.New(c, obs, act, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, pg.ErrConfig) {
			t.Errorf("vf_coef %s: error %v, want ErrConfig", tc.name, err)
		}
	}
	net, err := actorcritic.NewNet(cfg.Net, obs, act, false, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pg.NewWithNet(cfg, net, act, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, pg.ErrConfig) {
		t.Errorf("a baseline without critic: error %v, want ErrConfig", err)
	}
}
