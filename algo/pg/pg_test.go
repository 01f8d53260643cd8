package pg_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/pg"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// linearPG returns a PG whose policy is logits = W·s over two actions, W
// given by rows, trained with Adam at lr 0.01 on the whole batch.
func linearPG(t *testing.T, cfg pg.Config, w ...[]float32) (*pg.PG, *nn.Linear) {
	t.Helper()
	lin := algotest.Linear(w...)
	act := algotest.Discrete(t, 2, 0)
	net, err := actorcritic.NewNetFrom(policy.ObsNet{Layer: nn.Identity}, lin, nil, policy.CategoricalHead{}, act)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Optim.LR = 0.01
	p, err := pg.NewWithNet(cfg, net, act, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return p, lin
}

// TestLoss checks REINFORCE's loss and the direction of Adam's first step
// on a tiny fixed batch, by hand.
//
// logits = W·s with W = ((1, 0), (0, 0)). Transition 1: s = (1, 0), logits
// (1, 0), a = 0, G = 2: log π = 1 − log(1 + e) = −0.313262. Transition 2:
// s = (0, 1), logits (0, 0), a = 1, G = −1: log π = −log 2 = −0.693147.
//
//	loss = −(2·(−0.313262) + (−1)·(−0.693147))/2 = −0.033311
//
// ∂loss/∂logits = −G/2·(onehot(a) − π): transition 1 (−0.268941, 0.268941),
// transition 2 (−0.25, 0.25); ∂loss/∂W sums their outer products with s:
// ((−0.268941, −0.25), (0.268941, 0.25)). Adam's first step moves every
// weight by −lr·sign(gradient): W = ((1.01, 0.01), (−0.01, −0.01)).
//
// With an entropy bonus, EntCoef 4, on the same batch: the entropies are,
// transition 1, π = (0.731059, 0.268941): H = 0.582203;
// transition 2, π = (½, ½): H = log 2 = 0.693147; mean 0.637675.
//
//	loss = −0.033311 − 4·0.637675 = −2.584012
//
// ∂(−4·mean H)/∂logits of transition 1 = 2·π ⊙ (log π + H) = (0.393224,
// −0.393224), which outweighs the policy gradient (−0.268941, 0.268941):
// (0.124282, −0.124282); transition 2's entropy is at its maximum (no
// gradient). Adam's first step: W = ((0.99, 0.01), (0.01, −0.01)), the
// first column moved against the step without the bonus.
func TestLoss(t *testing.T) {
	for _, tc := range []struct {
		entCoef float64
		loss    float64
		weights []float64
	}{
		{0, -0.033311, []float64{1.01, 0.01, -0.01, -0.01}},
		{4, -2.584012, []float64{0.99, 0.01, 0.01, -0.01}},
	} {
		cfg := pg.DefaultConfig()
		cfg.EntCoef = tc.entCoef
		p, lin := linearPG(t, cfg, []float32{1, 0}, []float32{0, 0})
		b := batch.MustNew(
			"obs", nd.MustNew([][]float32{{1, 0}, {0, 1}}),
			"act", nd.MustNew([]int64{0, 1}),
			"returns", nd.MustNew([]float32{2, -1}),
		)
		stats, err := p.UpdateRepeat(b, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !scalar.EqualWithinAbs(stats["loss"], tc.loss, 1e-5) {
			t.Errorf("ent_coef %v: loss %v, want %v", tc.entCoef, stats["loss"], tc.loss)
		}
		for i, want := range tc.weights {
			if got := lin.Weight.Data()[i]; !scalar.EqualWithinAbs(float64(got), want, 1e-6) {
				t.Errorf("ent_coef %v: weights after one step %v, want %v", tc.entCoef, lin.Weight.Data(), tc.weights)
				break
			}
		}
		if p.Updates() != 1 {
			t.Errorf("Updates() = %d after one minibatch", p.Updates())
		}
	}
}

// episodeBuffer holds one env's steps with the given rewards; the last
// one terminates if term, else the episode is unfinished.
func episodeBuffer(t *testing.T, rew []float64, term bool) (buffer.Buffer, *batch.Batch, []int) {
	t.Helper()
	buf, err := buffer.New(buffer.Config{Size: 16})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rew {
		last := i == len(rew)-1
		b := batch.MustNew("obs", []float32{float32(i), 0}, "act", int64(0), "rew", r,
			"terminated", last && term, "truncated", false, "obs_next", []float32{float32(i + 1), 0})
		if _, err := buf.Add(b, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	b, idx := algotest.Take(t, buf)
	return buf, b, idx
}

// TestReturns checks Preprocess's returns by hand, with γ = 0.5.
//
// A terminated episode with rewards (1, 1, 1): G = (1.75, 1.5, 1). As the
// first collection it is standardized with its own statistics, mean
// 1.416667 and variance ((1/3)² + (1/12)² + (5/12)²)/3 = 0.097222:
// (1/3, 1/12, −5/12)/0.311805 = (1.069045, 0.267261, −1.336306). The
// statistics keep them. An unfinished episode with rewards (1, 1) then
// bootstraps from μ: G = (1 + 0.5·(1 + 0.5μ), 1 + 0.5μ) = (1.854167,
// 1.708333), stored as (G − μ)/√(σ² + 10⁻⁸) = (0.4375, 0.291667)/0.311805
// = (1.403121, 0.935414).
// Without standardization the bootstrap value is 0: G = (1.5, 1).
//
// An unfinished episode with rewards (1, 1) as the first collection
// bootstraps from the mean of its returns bootstrapped from 0, (1.5, 1):
// 1.25. G = (1 + 0.5·(1 + 0.5·1.25), 1 + 0.5·1.25) = (1.8125, 1.625), of
// mean 1.71875 and standard deviation 0.09375: stored as (1, −1) (within
// 10⁻⁶ of the 10⁻⁸ added to the variance).
func TestReturns(t *testing.T) {
	returns := func(p *pg.PG, rew []float64, term bool) []float32 {
		buf, b, idx := episodeBuffer(t, rew, term)
		if err := p.Preprocess(b, buf, idx); err != nil {
			t.Fatal(err)
		}
		r, err := batch.Values[float32](b, "returns")
		if err != nil {
			t.Fatal(err)
		}
		return append([]float32(nil), r...)
	}
	check := func(name string, got []float32, want ...float64) {
		t.Helper()
		for i := range want {
			if !scalar.EqualWithinAbs(float64(got[i]), want[i], 1e-5) {
				t.Errorf("%s: returns %v, want %v", name, got, want)
				return
			}
		}
	}
	cfg := pg.DefaultConfig()
	cfg.Gamma = 0.5
	p, _ := linearPG(t, cfg, []float32{0, 0}, []float32{0, 0})
	check("first, standardized", returns(p, []float64{1, 1, 1}, true), 1.069045, 0.267261, -1.336306)
	if s := p.Counters.Returns; !scalar.EqualWithinAbs(s.Mean, 1.416667, 1e-6) || !scalar.EqualWithinAbs(s.Var, 0.097222, 1e-6) || s.Count != 3 {
		t.Errorf("statistics %+v, want mean 1.416667, var 0.097222, count 3", s)
	}
	check("unfinished, standardized", returns(p, []float64{1, 1}, false), 1.403121, 0.935414)

	cfg.ReturnStandardization = false
	q, _ := linearPG(t, cfg, []float32{0, 0}, []float32{0, 0})
	check("unfinished, raw", returns(q, []float64{1, 1}, false), 1.5, 1)

	cfg.ReturnStandardization = true
	r, _ := linearPG(t, cfg, []float32{0, 0}, []float32{0, 0})
	check("first unfinished, standardized", returns(r, []float64{1, 1}, false), 1, -1)
	if s := r.Counters.Returns; !scalar.EqualWithinAbs(s.Mean, 1.71875, 1e-6) || !scalar.EqualWithinAbs(s.Var, 0.0087890625, 1e-6) || s.Count != 2 {
		t.Errorf("statistics %+v, want mean 1.71875, var 0.0087890625, count 2", s)
	}
}

// TestRunningMeanStd compares the merged statistics with those of all the
// values at once, computed directly.
// TestNormalHead checks the Gaussian's log-density and entropy by hand:
// μ = (0, 1), log σ = (0, ln 2), a = (1, 1):
//
//	log p = (−½ − 0 − ½ log 2π) + (0 − ln 2 − ½ log 2π) = −3.031024
//	H = (½ + ½ log 2π) + (½ + ½ log 2π + ln 2) = 3.531024
//
// and the gradient of log p with respect to log σ: ((a − μ)²/σ² − 1) = (0,
// −1).
// TestRolloutDict loads Dict observations (nested Batches) and gathers
// minibatches of the same structure.
func TestConfigErrors(t *testing.T) {
	obs, act := algotest.Box(t, -1, 1, 4), algotest.Discrete(t, 2, 0)
	for _, tc := range []struct {
		name string
		edit func(*pg.Config)
	}{
		{"gamma", func(c *pg.Config) { c.Gamma = -0.1 }},
		{"lr", func(c *pg.Config) { c.Optim.LR = -1 }},
		{"grad norm", func(c *pg.Config) { c.MaxGradNorm = math.NaN() }},
		{"decay", func(c *pg.Config) { c.LRDecaySteps = -1 }},
		{"bound", func(c *pg.Config) { c.Policy.Map.Bound = "sigmoid" }},
		{"hidden", func(c *pg.Config) { c.Net.Hidden = []int{-3} }},
		{"entropy", func(c *pg.Config) { c.EntCoef = -0.01 }},
	} {
		cfg := pg.DefaultConfig()
		tc.edit(&cfg)
		if _, err := pg.New(cfg, obs, act, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, pg.ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", tc.name, err)
		}
	}
	net, err := actorcritic.NewNet(actorcritic.NetConfig{Hidden: []int{4}}, obs, act, false, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pg.NewWithNet(pg.DefaultConfig(), net, algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 1))); !errors.Is(err, pg.ErrConfig) {
		t.Errorf("a net for 2 actions in a space of 3: %v", err)
	}
	p, err := pg.New(pg.DefaultConfig(), obs, act, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpdateRepeat(batch.MustNew("obs", nd.Zeros(nd.Float32, 2, 4), "act", nd.MustNew([]int64{0, 1})), 0, 1); err == nil {
		t.Error("UpdateRepeat accepted a batch without returns")
	}
	for _, args := range [][2]int{{-1, 1}, {0, 0}} {
		func() {
			defer func() {
				if e, ok := recover().(error); !ok || !errors.Is(e, algo.ErrValue) {
					t.Errorf("UpdateRepeat(batch %d, repeat %d) panicked with %v, want algo.ErrValue", args[0], args[1], e)
				}
			}()
			p.UpdateRepeat(new(batch.Batch), args[0], args[1])
		}()
	}
}

// TestCheck runs algotest's on-policy checks (determinism, resume from a
// saved state, the allocation lock of an update, a smoke run) with both
// heads, on a PG with two hidden layers of 16, without and with Baseline.
func TestCheck(t *testing.T) {
	for _, baseline := range []bool{false, true} {
		newPG := func(hidden ...int) func(testing.TB, env.Space, *rand.Rand) *pg.PG {
			return func(t testing.TB, act env.Space, rng *rand.Rand) *pg.PG {
				cfg := pg.DefaultConfig()
				cfg.Net.Hidden = hidden
				cfg.Baseline = baseline
				p, err := pg.New(cfg, algotest.Box(t, -10, 10, 4), act, rng)
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
		}
		t.Run(map[bool]string{false: "returns", true: "baseline"}[baseline], func(t *testing.T) {
			algotest.CheckOnPolicy(t, algotest.OnPolicy[*pg.PG]{
				New:    newPG(16, 16),
				Params: func(p *pg.PG) nn.Params { return p.Net.Params() },
				Other: func(t testing.TB, act env.Space) *pg.PG {
					return newPG(8)(t, act, rand.New(rand.NewPCG(1, 1)))
				},
			})
		})
	}
}

// TestSchedule checks the linear learning-rate decay over env steps.
func TestSchedule(t *testing.T) {
	cfg := pg.DefaultConfig()
	cfg.Optim.LR, cfg.LRDecaySteps = 0.01, 1000
	p, err := pg.New(cfg, algotest.Box(t, -1, 1, 4), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		steps int64
		want  float64
	}{{0, 0.01}, {250, 0.0075}, {1000, 0}, {5000, 0}} {
		p.Schedule(tc.steps)
		if got := p.Opt.LR(); !scalar.EqualWithinAbs(got, tc.want, 1e-12) {
			t.Errorf("after %d steps lr = %v, want %v", tc.steps, got, tc.want)
		}
	}
}
