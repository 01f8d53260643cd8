package crr_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/crr"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
)

func linear(w [][]float32) policy.ObsNet { return policy.ObsNet{Layer: algotest.Linear(w...)} }

// Two observations of 3 numbers, 3 actions; logits = A·s, Q = C·s.
var (
	obsRows = [][]float32{{1, 2, 0.5}, {-1, 0, 3}}
	acts    = []int{1, 2}
	rets    = []float64{2.5, -4}
	wActor  = [][]float32{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	wCritic = [][]float32{{0.5, 0, 0}, {0, 1, 0}, {0, 0, -1}}
)

// expected computes the losses in float64 for the filter f of the
// advantage.
func expected(f func(adv float64) float64) (actor, critic, pen, meanF float64) {
	mul := func(w [][]float32, s []float32) []float64 {
		out := make([]float64, len(w))
		for i, r := range w {
			for j, v := range r {
				out[i] += float64(v) * float64(s[j])
			}
		}
		return out
	}
	n := float64(len(obsRows))
	for i, s := range obsRows {
		logits, q := mul(wActor, s), mul(wCritic, s)
		var z, lse float64
		for k := range logits {
			z += math.Exp(logits[k])
			lse += math.Exp(q[k])
		}
		a := acts[i]
		var v float64
		for k := range q {
			v += math.Exp(logits[k]) / z * q[k]
		}
		w := f(q[a] - v)
		actor += -(logits[a] - math.Log(z)) * w / n
		d := q[a] - rets[i]
		critic += 0.5 * d * d / n
		pen += (math.Log(lse) - q[a]) / n
		meanF += w / n
	}
	return actor, critic, pen, meanF
}

// TestLoss checks the three losses and the filters' weights on a tiny fixed
// batch against float64 arithmetic in the test: the exp filter unbounded
// and with an upper bound of 1.5 (TestAdvantages checks that it clips one
// row), the binary filter, and all.
func TestLoss(t *testing.T) {
	for _, c := range []struct {
		name   string
		filter crr.Filter
		beta   float64
		bound  float64
		f      func(adv float64) float64
	}{
		{"exp", crr.Exp, 1, 20, func(a float64) float64 { return math.Exp(a) }},
		{"exp β 2", crr.Exp, 2, 20, func(a float64) float64 { return math.Exp(a / 2) }},
		{"exp bounded", crr.Exp, 1, 1.5, func(a float64) float64 { return math.Min(math.Exp(a), 1.5) }},
		{"binary", crr.Binary, 1, 20, func(a float64) float64 {
			if a > 0 {
				return 1
			}
			return 0
		}},
		{"all", crr.All, 1, 20, func(float64) float64 { return 1 }},
	} {
		cfg := crr.DefaultConfig()
		cfg.Filter, cfg.Beta, cfg.RatioUpperBound = c.filter, c.beta, c.bound
		zero := [][]float32{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}
		a, err := crr.NewWithNetworks(cfg, linear(wActor), linear(wCritic), linear(zero), linear(zero), algotest.Discrete(t, 3, 0),
			rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		stats, err := a.Update(batch.MustNew("obs", nd.MustNew(obsRows), "act", nd.MustNew([]int64{1, 2}),
			"returns", nd.MustNew([]float32{2.5, -4})))
		if err != nil {
			t.Fatal(err)
		}
		actor, critic, pen, meanF := expected(c.f)
		for _, k := range []struct {
			key  string
			want float64
		}{
			{"loss/actor", actor}, {"loss/critic", critic}, {"loss/cql", pen}, {"weight", meanF},
			{"loss", actor + critic + 10*pen},
		} {
			if !scalar.EqualWithinAbs(stats[k.key], k.want, 1e-5) {
				t.Errorf("%s: %s = %v, want %v", c.name, k.key, stats[k.key], k.want)
			}
		}
	}
}

// TestWeightIsConstant: the filter's weight carries no gradient, so the
// actor's loss does not reach the critic, and the critic's first step is
// the same under every filter (with the weight on the graph, as Tianshou
// computes it, the Exp filter's would differ).
func TestWeightIsConstant(t *testing.T) {
	criticAfter := func(f crr.Filter) []float32 {
		cfg := crr.DefaultConfig()
		cfg.Filter = f
		critic := linear(wCritic)
		zero := [][]float32{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}
		a, err := crr.NewWithNetworks(cfg, linear(wActor), critic, linear(zero), linear(zero), algotest.Discrete(t, 3, 0),
			rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Update(batch.MustNew("obs", nd.MustNew(obsRows), "act", nd.MustNew([]int64{1, 2}),
			"returns", nd.MustNew([]float32{2.5, -4}))); err != nil {
			t.Fatal(err)
		}
		return append([]float32(nil), critic.Params()[0].Tensor.Data()...)
	}
	all := criticAfter(crr.All)
	for _, f := range []crr.Filter{crr.Exp, crr.Binary} {
		if got := criticAfter(f); !slices.Equal(got, all) {
			t.Errorf("the critic's step under %s %v differs from under all %v", f, got, all)
		}
	}
}

// TestAdvantages: of the fixture's two rows, one has an advantage above
// log 1.5 (its exp weight is clipped to the bound) and one a negative one
// (binary weight 0), so the cases of TestLoss cover every branch.
func TestAdvantages(t *testing.T) {
	var advs []float64
	expected(func(a float64) float64 { advs = append(advs, a); return 0 })
	if len(advs) != 2 || !(advs[0] > math.Log(1.5) && advs[1] < 0 || advs[1] > math.Log(1.5) && advs[0] < 0) {
		t.Errorf("advantages %v: want one above log 1.5 and one below 0", advs)
	}
}

// TestTargets checks Preprocess's one-step target Σₐ π′(a|s′)·Q′(s′, a)
// by hand, and that a terminated step does not bootstrap.
func TestTargets(t *testing.T) {
	for _, term := range []bool{false, true} {
		cfg := crr.DefaultConfig()
		cfg.Gamma = 0.5
		ta := linear([][]float32{{0, 0}, {0, 0}})
		tc := linear([][]float32{{0, 0}, {0, 0}})
		a, err := crr.NewWithNetworks(cfg, linear([][]float32{{1, 0}, {0, 1}}), linear([][]float32{{1, 0}, {0, 1}}), ta, tc,
			algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		// π′(s′) = softmax(0, log 3) = (1/4, 3/4), Q′(s′) = (4, 8) at s′ = (1, 1).
		copy(ta.Params()[0].Tensor.Data(), []float32{0, 0, float32(math.Log(3)), 0})
		copy(tc.Params()[0].Tensor.Data(), []float32{4, 0, 0, 8})
		buf, err := buffer.New(buffer.Config{Size: 4})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := buf.Add(batch.MustNew("obs", []float32{0, 0}, "act", int64(0), "rew", 1.0, "terminated", term,
			"truncated", false, "obs_next", []float32{1, 1}), nil, nil); err != nil {
			t.Fatal(err)
		}
		b := new(batch.Batch)
		if err := buf.TakeTo(b, []int{0}); err != nil {
			t.Fatal(err)
		}
		if err := a.Preprocess(b, buf, []int{0}); err != nil {
			t.Fatal(err)
		}
		want := 1 + 0.5*(0.25*4+0.75*8)
		if term {
			want = 1
		}
		if got, _ := batch.Values[float32](b, "returns"); !scalar.EqualWithinAbs(float64(got[0]), want, 1e-5) {
			t.Errorf("terminated %v: return %v, want %v", term, got[0], want)
		}
	}
}

func small(hidden int) crr.Config {
	cfg := crr.DefaultConfig()
	cfg.Hidden, cfg.TargetUpdateFreq = []int{hidden}, 5
	return cfg
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(crr.New, small, algotest.Discrete(t, 2, 0), (*crr.CRR).Params))
}

func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, crr.DefaultConfig, crr.New, crr.ErrConfig, algotest.Discrete(t, 2, 0), []algotest.Reject[crr.Config]{
		{Name: "gamma", Edit: func(c *crr.Config) { c.Gamma = -1 }, Want: "gamma"},
		{Name: "n_step", Edit: func(c *crr.Config) { c.NStep = 0 }, Want: "n_step"},
		{Name: "both targets", Edit: func(c *crr.Config) { c.Tau = 0.5 }, Want: "target_update_freq"},
		{Name: "filter", Edit: func(c *crr.Config) { c.Filter = "max" }, Want: "policy_improvement_mode"},
		{Name: "beta", Edit: func(c *crr.Config) { c.Beta = 0 }, Want: "beta"},
		{Name: "ratio_upper_bound", Edit: func(c *crr.Config) { c.RatioUpperBound = -1 }, Want: "ratio_upper_bound"},
		{Name: "min_q_weight", Edit: func(c *crr.Config) { c.MinQWeight = math.Inf(1) }, Want: "min_q_weight"},
		{Name: "hidden", Edit: func(c *crr.Config) { c.Hidden = []int{-1} }, Want: "hidden"},
	}, algotest.Box(t, -1, 1, 2))
	shared := linear([][]float32{{1, 0}, {0, 1}})
	z := func() policy.ObsNet { return linear([][]float32{{0, 0}, {0, 0}}) }
	if _, err := crr.NewWithNetworks(crr.DefaultConfig(), shared, shared, z(), z(), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("an actor and critic sharing a tensor were accepted")
	}
}

// TestActAllocations locks acting at zero allocations.
func TestActAllocations(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	a, err := crr.New(crr.DefaultConfig(), algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	obs := batch.MustNew("obs", nd.Zeros(nd.Float32, 10, 4))
	var out batch.Batch
	act := func() {
		if err := a.Policy().Act(&out, obs, nil, false); err != nil {
			t.Fatal(err)
		}
	}
	act()
	if n := testing.AllocsPerRun(50, act); n != 0 {
		t.Errorf("acting allocates %v times", n)
	}
}
