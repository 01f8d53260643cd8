package discretecql_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/discretecql"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

func linear(w ...[]float32) policy.ObsNet { return policy.ObsNet{Layer: algotest.Linear(w...)} }

// TestLoss checks the TD loss and the conservative penalty on a tiny fixed
// batch against float64 arithmetic in the test, for several penalty
// weights, and the direction of Adam's first step.
//
// Q(s) = W·s with W = ((1, 0, 0), (0, 1, 0), (0, 0, 1)) over 3 actions.
func TestLoss(t *testing.T) {
	obs := [][]float64{{1, 2, 0.5}, {-1, 0, 3}}
	act := []int{1, 0}
	ret := []float64{2.5, 1}
	// Expected values in float64: Q(s) = s.
	var td, lse, qa float64
	for i, s := range obs {
		d := s[act[i]] - ret[i]
		if math.Abs(d) <= 1 {
			td += 0.5 * d * d
		} else {
			td += math.Abs(d) - 0.5
		}
		var sum float64
		for _, v := range s {
			sum += math.Exp(v)
		}
		lse += math.Log(sum)
		qa += s[act[i]]
	}
	n := float64(len(obs))
	td, pen := td/n, (lse-qa)/n
	for _, w := range []float64{0, 1, 10} {
		cfg := discretecql.DefaultConfig()
		cfg.MinQWeight = w
		id := [][]float32{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
		q := linear(id...)
		c, err := discretecql.NewWithNetworks(cfg, q, linear(id...), algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		stats, err := c.Update(batch.MustNew(
			"obs", nd.MustNew([][]float32{{1, 2, 0.5}, {-1, 0, 3}}),
			"act", nd.MustNew([]int64{1, 0}),
			"returns", nd.MustNew([]float32{2.5, 1}),
		))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []struct {
			key  string
			want float64
		}{{"loss/td", td}, {"loss/cql", pen}, {"loss", td + w*pen}} {
			if !scalar.EqualWithinAbs(stats[k.key], k.want, 1e-5) {
				t.Errorf("w = %v: %s = %v, want %v", w, k.key, stats[k.key], k.want)
			}
		}
		// W[2][2] only gets the penalty's gradient, softmax(s)₂/n > 0 summed
		// over the rows: Adam's first step lowers it by lr when w > 0 and
		// leaves it without w.
		got := float64(q.Params()[0].Tensor.Data()[8])
		want := 1.0
		if w > 0 {
			want = 1 - cfg.Optim.LR
		}
		if !scalar.EqualWithinAbs(got, want, 1e-6) {
			t.Errorf("w = %v: W[2][2] after one step %v, want %v", w, got, want)
		}
	}
}

// TestTargets checks the double-DQN target of Preprocess by hand on a
// one-step episode: the online network picks the action, the target network
// values it, and a terminated step does not bootstrap.
func TestTargets(t *testing.T) {
	for _, term := range []bool{false, true} {
		cfg := discretecql.DefaultConfig()
		cfg.NStep, cfg.Gamma = 1, 0.5
		q := linear([]float32{1, 0}, []float32{0, 1})
		target := linear([]float32{0, 0}, []float32{0, 0})
		c, err := discretecql.NewWithNetworks(cfg, q, target, algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		copy(target.Params()[0].Tensor.Data(), []float32{5, 0, 0, -7}) // Q′(s′) = (5s′₀, −7s′₁)
		buf, err := buffer.New(buffer.Config{Size: 4})
		if err != nil {
			t.Fatal(err)
		}
		// s′ = (1, 2): the online argmax is action 1, Q′ = −14 (action 0
		// would give 5, the largest target value).
		if _, err := buf.Add(batch.MustNew("obs", []float32{0, 0}, "act", int64(0), "rew", 1.0, "terminated", term,
			"truncated", false, "obs_next", []float32{1, 2}), nil, nil); err != nil {
			t.Fatal(err)
		}
		b := new(batch.Batch)
		if err := buf.TakeTo(b, []int{0}); err != nil {
			t.Fatal(err)
		}
		if err := c.Preprocess(b, buf, []int{0}); err != nil {
			t.Fatal(err)
		}
		want := 1 + 0.5*-14.0
		if term {
			want = 1
		}
		if got, _ := batch.Values[float32](b, "returns"); float64(got[0]) != want {
			t.Errorf("terminated %v: return %v, want %v", term, got[0], want)
		}
	}
}

func small(hidden int) discretecql.Config {
	cfg := discretecql.DefaultConfig()
	cfg.Hidden, cfg.TargetUpdateFreq, cfg.Eps = []int{hidden}, 5, 0.5
	return cfg
}

func TestCheckOffPolicy(t *testing.T) {
	act := algotest.Discrete(t, 2, 0)
	o := algotest.SmallOffPolicy(discretecql.New, small, act, func(c *discretecql.CQL) nn.Params {
		return append(c.Network().Params().Prefixed("q"), c.Target().Params().Prefixed("target")...)
	})
	o.Explore = func(c *discretecql.CQL) { c.Policy().(*policy.Q).SetEps(1, 1) }
	algotest.CheckOffPolicy(t, o)
}

func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, discretecql.DefaultConfig, discretecql.New, discretecql.ErrConfig, algotest.Discrete(t, 2, 0),
		[]algotest.Reject[discretecql.Config]{
			{Name: "gamma", Edit: func(c *discretecql.Config) { c.Gamma = 1.5 }, Want: "gamma"},
			{Name: "n_step", Edit: func(c *discretecql.Config) { c.NStep = 0 }, Want: "n_step"},
			{Name: "both targets", Edit: func(c *discretecql.Config) { c.Tau = 0.1 }, Want: "target_update_freq"},
			{Name: "no target", Edit: func(c *discretecql.Config) { c.TargetUpdateFreq = 0 }, Want: "target_update_freq"},
			{Name: "min_q_weight", Edit: func(c *discretecql.Config) { c.MinQWeight = -1 }, Want: "min_q_weight"},
			{Name: "eps", Edit: func(c *discretecql.Config) { c.Eps = 2 }, Want: "eps"},
			{Name: "hidden", Edit: func(c *discretecql.Config) { c.Hidden = []int{0} }, Want: "hidden"},
		}, algotest.Box(t, -1, 1, 2))
}

// TestBadBatch: refused batches leave the network unchanged.
func TestBadBatch(t *testing.T) {
	c, err := discretecql.New(discretecql.DefaultConfig(), algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	before := c.Network().Params().Clone()
	obs := nd.Zeros(nd.Float32, 2, 4)
	ret := nd.MustNew([]float32{0, 0})
	for _, tc := range []struct {
		name string
		b    *batch.Batch
	}{
		{"no returns", batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 1}))},
		{"action outside", batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 2}), "returns", ret)},
		{"int returns", batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 1}), "returns", nd.MustNew([]int64{0, 1}))},
		{"no obs", batch.MustNew("act", nd.MustNew([]int64{0, 1}), "returns", ret)},
	} {
		if _, err := c.Update(tc.b); err == nil {
			t.Errorf("%s: Update accepted the batch", tc.name)
		}
	}
	if !algotest.EqualParams(before, c.Network().Params()) {
		t.Error("a refused batch changed the Q network")
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
