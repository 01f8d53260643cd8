package discretecql_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/discretecql"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// TestLoss checks the loss of one update on the five transitions of
// algotest.Five against float64 code, for several penalty weights w: with
// N = 4 quantiles at τ̂ = (1/8, 3/8, 5/8, 7/8) of an MLP 2→6→4·3 (QR-DQN's
// network), 1-step returns Gⱼ = r + γ·(1 − terminated)·Z(s′)ⱼₐ′ with a′ the
// argmax of the quantiles' mean, the loss is the batch mean of the quantile
// Huber loss (κ = 1) of Z(s)·ₐ against G plus w·(mean log Σₐ exp Q(s, a) −
// mean Q(s, aₜ)), Q the quantiles' mean (Tianshou's DiscreteCQLPolicy).
func TestLoss(t *testing.T) {
	const n, nAct, gamma = 4, 3, 0.9
	tau := []float64{1.0 / 8, 3.0 / 8, 5.0 / 8, 7.0 / 8}
	act := []int64{0, 2, 1, 1, 0}
	for _, w := range []float64{0, 1, 10} {
		cfg := discretecql.DefaultConfig()
		cfg.Hidden, cfg.NumQuantiles, cfg.NStep, cfg.Gamma, cfg.MinQWeight = []int{6}, n, 1, gamma, w
		c, err := discretecql.New(cfg, algotest.Box(t, -10, 10, 2), algotest.Discrete(t, nAct, 0), rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		z64 := func(s []float32) [][]float64 { // [N][A]
			out := algotest.MLP64(c.QRDQN().Params(), "", []float64{float64(s[0]), float64(s[1])})
			z := make([][]float64, n)
			for j := range z {
				z[j] = out[j*nAct : (j+1)*nAct]
			}
			return z
		}
		mean := func(z [][]float64, a int) float64 {
			var m float64
			for j := range n {
				m += z[j][a] / n
			}
			return m
		}
		tr := algotest.Five()
		var qr, lse, qa float64
		for i := range tr.Obs {
			zn, zs := z64(tr.Next[i]), z64(tr.Obs[i])
			best := 0
			for a := range nAct {
				if mean(zn, a) > mean(zn, best) {
					best = a
				}
			}
			for k := range n {
				for j := range n {
					g := tr.Rew[i]
					if !tr.Term[i] {
						g += gamma * zn[j][best]
					}
					u := g - zs[k][act[i]]
					h := math.Abs(u) - 0.5
					if math.Abs(u) <= 1 {
						h = 0.5 * u * u
					}
					ind := 0.0
					if u <= 0 {
						ind = 1
					}
					qr += math.Abs(tau[k]-ind) * h / n
				}
			}
			var sum float64
			for a := range nAct {
				sum += math.Exp(mean(zs, a))
			}
			lse += math.Log(sum)
			qa += mean(zs, int(act[i]))
		}
		b := float64(len(tr.Obs))
		qr, pen := qr/b, (lse-qa)/b
		stats, err := c.Update(algotest.Preprocessed(t, c, tr, act))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []struct {
			key  string
			want float64
		}{{"loss/cql", pen}, {"loss", qr + w*pen}} {
			if !scalar.EqualWithinAbsOrRel(stats[k.key], k.want, 1e-5, 1e-5) {
				t.Errorf("w = %v: %s = %v, want %v", w, k.key, stats[k.key], k.want)
			}
		}
	}
}

func small(hidden int) discretecql.Config {
	cfg := discretecql.DefaultConfig()
	cfg.Hidden, cfg.NumQuantiles, cfg.TargetUpdateFreq, cfg.EpsTrain, cfg.EpsTest = []int{hidden}, 5, 5, 0.5, 0.5
	return cfg
}

func TestCheckOffPolicy(t *testing.T) {
	act := algotest.Discrete(t, 2, 0)
	o := algotest.SmallOffPolicy(discretecql.New, small, act, func(c *discretecql.CQL) nn.Params {
		return append(c.QRDQN().Network().Params().Prefixed("q"), c.QRDQN().Target().Params().Prefixed("target")...)
	})
	o.Explore = func(c *discretecql.CQL) { c.Policy().(*policy.Q).SetEps(1, 1) }
	algotest.CheckOffPolicy(t, o)
}

func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, discretecql.DefaultConfig, discretecql.New, discretecql.ErrConfig, algotest.Discrete(t, 2, 0),
		[]algotest.Reject[discretecql.Config]{
			{Name: "gamma", Edit: func(c *discretecql.Config) { c.Gamma = 1.5 }, Want: "gamma"},
			{Name: "n_step", Edit: func(c *discretecql.Config) { c.NStep = 0 }, Want: "n_step"},
			{Name: "both targets", Edit: func(c *discretecql.Config) { c.Tau = 0.1 }, Want: "tau"},
			{Name: "num_quantiles", Edit: func(c *discretecql.Config) { c.NumQuantiles = 0 }, Want: "num_quantiles"},
			{Name: "min_q_weight", Edit: func(c *discretecql.Config) { c.MinQWeight = -1 }, Want: "min_q_weight"},
			{Name: "eps", Edit: func(c *discretecql.Config) { c.EpsTest = 2 }, Want: "ε"},
			{Name: "hidden", Edit: func(c *discretecql.Config) { c.Hidden = []int{0} }, Want: "hidden"},
		}, algotest.Box(t, -1, 1, 2))
}

// TestBadBatch: refused batches leave the network unchanged.
func TestBadBatch(t *testing.T) {
	cfg := discretecql.DefaultConfig()
	cfg.NumQuantiles = 2
	c, err := discretecql.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	before := c.QRDQN().Params().Clone()
	obs := nd.Zeros(nd.Float32, 2, 4)
	ret := nd.Zeros(nd.Float32, 2, 2)
	for _, tc := range []struct {
		name string
		b    *batch.Batch
	}{
		{"no returns", batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 1}))},
		{"action outside", batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 2}), "returns", ret)},
		{"int returns", batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 1}), "returns", nd.Zeros(nd.Int64, 2, 2))},
		{"returns of one quantile", batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 1}), "returns", nd.MustNew([]float32{0, 0}))},
		{"no obs", batch.MustNew("act", nd.MustNew([]int64{0, 1}), "returns", ret)},
	} {
		if _, err := c.Update(tc.b); err == nil {
			t.Errorf("%s: Update accepted the batch", tc.name)
		}
	}
	if !algotest.EqualParams(before, c.QRDQN().Params()) {
		t.Error("a refused batch changed the network")
	}
}

// TestActAllocations locks acting with exploration at zero allocations.
func TestActAllocations(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	c, err := discretecql.New(discretecql.DefaultConfig(), algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	obs := batch.MustNew("obs", nd.Zeros(nd.Float32, 10, 4))
	var out batch.Batch
	act := func() {
		if err := c.Policy().Act(&out, obs, nil, true); err != nil {
			t.Fatal(err)
		}
	}
	act()
	if a := testing.AllocsPerRun(50, act); a != 0 {
		t.Errorf("acting allocates %v times", a)
	}
}
