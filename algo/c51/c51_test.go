package c51_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/c51"
	"github.com/gorl/gorl/algo/categorical"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// softmax64 returns the softmax of x in float64.
func softmax64(x []float64) []float64 {
	m := slices.Max(x)
	out := make([]float64, len(x))
	s := 0.0
	for i, v := range x {
		out[i] = math.Exp(v - m)
		s += out[i]
	}
	for i := range out {
		out[i] /= s
	}
	return out
}

// project64 is the projection of the distribution p on r + d·zⱼ onto the
// atoms z, by the triangular kernel (Tianshou's form).
func project64(z, p []float64, r, d float64) []float64 {
	dz := z[1] - z[0]
	out := make([]float64, len(z))
	for i, zi := range z {
		for j, zj := range z {
			tz := math.Min(math.Max(r+d*zj, z[0]), z[len(z)-1])
			out[i] += p[j] * math.Max(0, 1-math.Abs(tz-zi)/dz)
		}
	}
	return out
}

func f64(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// TestLoss checks Preprocess's projected targets, Update's cross entropy
// (plain and importance-weighted) and the priorities Postprocess reports on
// the five transitions of algotest.Five (the second terminated, the last
// truncated) with 2-step returns, γ = 0.9, 3 actions and 5 atoms over
// [−2, 2], so that shifted atoms fall outside the support and the terminated
// windows collapse onto their rewards. The expected values come from
// float64 code here: the networks evaluated by algotest.MLP64, the n-step
// windows written out by hand, the projection by the triangular kernel, and
// the cross entropy of a float64 softmax. The target network is perturbed so
// that it differs from the online network, which picks the next action.
func TestLoss(t *testing.T) {
	const gamma, atoms, nAct = 0.9, 5, 3
	cfg := c51.DefaultConfig()
	cfg.Hidden, cfg.NumAtoms, cfg.VMin, cfg.VMax = []int{6}, atoms, -2, 2
	cfg.Gamma, cfg.NStep = gamma, 2
	c, err := c51.New(cfg, algotest.Box(t, -10, 10, 2), algotest.Discrete(t, nAct, 0), rand.New(rand.NewPCG(4, 2)))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for _, p := range c.Target().Params() {
		for i := range p.Tensor.Data() {
			p.Tensor.Data()[i] += float32(rng.NormFloat64())
		}
	}
	tr := algotest.Five()
	acts := []int64{0, 2, 1, 1, 0}
	buf, err := buffer.NewPrioritized(buffer.Config{Size: 10}, buffer.PriorityConfig{Alpha: 1, Beta: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range tr.Obs {
		b := batch.MustNew("obs", tr.Obs[i], "act", acts[i], "rew", tr.Rew[i],
			"terminated", tr.Term[i], "truncated", i == len(tr.Obs)-1, "obs_next", tr.Next[i])
		if _, err := buf.Add(b, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	idx := []int{0, 1, 2, 3, 4}
	b, err := buf.Take(idx)
	if err != nil {
		t.Fatal(err)
	}
	b.Delete("weight")
	if err := c.Preprocess(b, buf, idx); err != nil {
		t.Fatal(err)
	}

	// The 2-step windows: step 0 ends at the terminated step 1, steps 1 and
	// 4 are one step long, steps 2 and 3 reach steps 3 and 4 (4 truncated:
	// it bootstraps).
	r := tr.Rew
	windows := []struct {
		sum, disc float64
		last      int
	}{
		{r[0] + gamma*r[1], 0, 1},
		{r[1], 0, 1},
		{r[2] + gamma*r[3], gamma * gamma, 3},
		{r[3] + gamma*r[4], gamma * gamma, 4},
		{r[4], gamma, 4},
	}
	z := []float64{-2, -1, 0, 1, 2}
	logits := func(ps nn.Params, obs []float32) [][]float64 {
		out := algotest.MLP64(ps, "", f64(obs))
		rows := make([][]float64, nAct)
		for a := range rows {
			rows[a] = out[a*atoms : (a+1)*atoms]
		}
		return rows
	}
	wantDist := make([][]float64, len(idx))
	for i, w := range windows {
		next := tr.Next[w.last]
		best, bestQ := 0, math.Inf(-1)
		for a, l := range logits(c.Network().Params(), next) {
			q := 0.0
			for j, p := range softmax64(l) {
				q += p * z[j]
			}
			if q > bestQ {
				best, bestQ = a, q
			}
		}
		wantDist[i] = project64(z, softmax64(logits(c.Target().Params(), next)[best]), w.sum, w.disc)
	}
	gotDist, err := batch.Values[float32](b, categorical.KeyTargetDist)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range wantDist {
		for j, v := range want {
			if !scalar.EqualWithinAbs(float64(gotDist[i*atoms+j]), v, 1e-5) {
				t.Fatalf("target distribution %d = %v, want %v", i, gotDist[i*atoms:(i+1)*atoms], want)
			}
		}
	}

	// Cross entropies of the online network's distributions of the taken
	// actions against those targets.
	ce := make([]float64, len(idx))
	mean := 0.0
	for i, w := range wantDist {
		l := logits(c.Network().Params(), tr.Obs[i])[acts[i]]
		p := softmax64(l)
		for j := range w {
			ce[i] -= w[j] * math.Log(p[j])
		}
		mean += ce[i] / float64(len(ce))
	}
	weights := []float64{0.5, 1, 2, 1.5, 0.25}
	weighted := 0.0
	for i := range ce {
		weighted += weights[i] * ce[i] / float64(len(ce))
	}
	for _, tc := range []struct {
		name string
		w    []float64
		want float64
	}{{"plain", nil, mean}, {"weighted", weights, weighted}} {
		t.Run(tc.name, func(t *testing.T) {
			fresh, err := c51.New(cfg, algotest.Box(t, -10, 10, 2), algotest.Discrete(t, nAct, 0), rand.New(rand.NewPCG(4, 2)))
			if err != nil {
				t.Fatal(err)
			}
			ub := b.Clone()
			if tc.w != nil {
				if err := ub.Set("weight", tc.w); err != nil {
					t.Fatal(err)
				}
			}
			stats, err := fresh.Update(ub)
			if err != nil {
				t.Fatal(err)
			}
			if !scalar.EqualWithinAbsOrRel(stats["loss"], tc.want, 1e-5, 1e-5) {
				t.Errorf("loss %v, want %v", stats["loss"], tc.want)
			}
		})
	}

	// Priorities: with α = β = 1 the importance weight of a transition is
	// proportional to 1/priority, so weight·cross entropy is the same for
	// all five.
	if _, err := c.Update(b); err != nil {
		t.Fatal(err)
	}
	if err := c.Postprocess(b, buf, idx); err != nil {
		t.Fatal(err)
	}
	after, err := buf.Take(idx)
	if err != nil {
		t.Fatal(err)
	}
	w, err := batch.Values[float64](after, "weight")
	if err != nil {
		t.Fatal(err)
	}
	for i := range w {
		if !scalar.EqualWithinAbsOrRel(w[i]*ce[i], w[0]*ce[0], 1e-5, 1e-4) {
			t.Errorf("weights %v for cross entropies %v: not inversely proportional", w, ce)
			break
		}
	}
}

func newC51(hidden ...int) func(testing.TB, *rand.Rand) *c51.C51 {
	return func(t testing.TB, rng *rand.Rand) *c51.C51 {
		cfg := c51.DefaultConfig()
		cfg.Hidden, cfg.TargetUpdateFreq, cfg.NumAtoms = hidden, 5, 11
		c, err := c51.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 2, 0), rng)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
}

// TestCheck runs algotest's off-policy checks (determinism, resume from a
// saved state across a target update, the allocation lock of an update
// cycle, a smoke run) on a C51 with two hidden layers of 32, 11 atoms and a
// target update every 5 steps.
func TestCheck(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.OffPolicy[*c51.C51]{
		New: newC51(32, 32),
		Params: func(c *c51.C51) nn.Params {
			return append(slices.Clone(c.Network().Params()), c.Target().Params()...)
		},
		Other: func(t testing.TB) *c51.C51 { return newC51(16)(t, rand.New(rand.NewPCG(1, 1))) },
		Buffer: func(t testing.TB, rng *rand.Rand) buffer.Buffer {
			return algotest.Collection(t, 4, 50, algotest.Discrete(t, 2, 0), rng)
		},
		Explore: func(c *c51.C51) { c.Q().SetEps(1, 1) },
	})
}

func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, c51.DefaultConfig, c51.New, c51.ErrConfig, algotest.Discrete(t, 2, 0), []algotest.Reject[c51.Config]{
		{Name: "one atom", Edit: func(c *c51.Config) { c.NumAtoms = 1 }, Want: "num_atoms"},
		{Name: "empty support", Edit: func(c *c51.Config) { c.VMin, c.VMax = 1, 1 }, Want: "v_min"},
		{Name: "gamma", Edit: func(c *c51.Config) { c.Gamma = 1.5 }, Want: "gamma"},
		{Name: "n_step", Edit: func(c *c51.Config) { c.NStep = 0 }, Want: "n_step"},
		{Name: "both targets", Edit: func(c *c51.Config) { c.Tau = 0.1 }, Want: "both"},
		{Name: "eps", Edit: func(c *c51.Config) { c.EpsTest = -0.1 }, Want: "eps_test"},
		{Name: "hidden", Edit: func(c *c51.Config) { c.Hidden = []int{0} }, Want: "hidden"},
		{Name: "no hidden", Edit: func(c *c51.Config) { c.Hidden = nil }, Want: "hidden"},
		{Name: "lr", Edit: func(c *c51.Config) { c.Optim.LR = -1 }, Want: "optim"},
	}, algotest.Box(t, -1, 1, 2))
}

// TestSchedule checks the ε schedule through algo.Scheduled.
func TestSchedule(t *testing.T) {
	cfg := c51.DefaultConfig()
	cfg.Hidden, cfg.EpsTrain, cfg.EpsTrainFinal, cfg.EpsDecaySteps = []int{8}, 1, 0.1, 1000
	c, err := c51.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	q := c.Policy().(*policy.Q)
	for _, tc := range []struct {
		steps int64
		want  float64
	}{{0, 1}, {500, 0.55}, {1000, 0.1}, {5000, 0.1}} {
		c.Schedule(tc.steps)
		if tr, te := q.Eps(); !scalar.EqualWithinAbs(tr, tc.want, 1e-12) || te != 0.05 {
			t.Errorf("after %d steps ε = %v, %v; want %v, 0.05", tc.steps, tr, te, tc.want)
		}
	}
}

// TestBadBatch checks that Update refuses a batch without targets, with an
// action outside the space or with targets of another shape, changing
// nothing.
func TestBadBatch(t *testing.T) {
	c := newC51(8)(t, rand.New(rand.NewPCG(1, 1)))
	before := algotest.State(t, c)
	obs := nd.Zeros(nd.Float32, 2, 4)
	dist := nd.Zeros(nd.Float32, 2, 11)
	for name, b := range map[string]*batch.Batch{
		"no target_dist":  batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 1})),
		"action outside":  batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 2}), categorical.KeyTargetDist, dist),
		"targets [2, 10]": batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 1}), categorical.KeyTargetDist, nd.Zeros(nd.Float32, 2, 10)),
	} {
		if _, err := c.Update(b); err == nil {
			t.Errorf("%s: Update accepted the batch", name)
		}
	}
	if !bytes.Equal(algotest.State(t, c), before) {
		t.Error("a refused batch changed the state")
	}
}
