package pg_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/pg"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// linearPG returns a PG whose policy is logits = W·s over two actions, W
// given by rows, trained with Adam at lr 0.01 on the whole batch.
func linearPG(t *testing.T, cfg pg.Config, w ...[]float32) (*pg.PG, *nn.Linear) {
	t.Helper()
	lin := algotest.Linear(w...)
	act := algotest.Discrete(t, 2, 0)
	net, err := pg.NewNetFrom(policy.ObsNet{Layer: nn.Identity}, lin, nil, policy.CategoricalHead{}, act)
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
func TestLoss(t *testing.T) {
	cfg := pg.DefaultConfig()
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
	if !scalar.EqualWithinAbs(stats["loss"], -0.033311, 1e-6) {
		t.Errorf("loss %v, want −0.033311", stats["loss"])
	}
	for i, want := range []float64{1.01, 0.01, -0.01, -0.01} {
		if got := lin.Weight.Data()[i]; !scalar.EqualWithinAbs(float64(got), want, 1e-6) {
			t.Errorf("weights after one step %v, want (1.01, 0.01, −0.01, −0.01)", lin.Weight.Data())
			break
		}
	}
	if p.Updates() != 1 {
		t.Errorf("Updates() = %d after one minibatch", p.Updates())
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
// A terminated episode with rewards (1, 1, 1): G = (1.75, 1.5, 1).
// Standardized, the first collection divides by √(1 + 10⁻⁸) around 0; the
// statistics become mean 1.416667 and variance ((1/3)² + (1/12)² +
// (5/12)²)/3 = 0.097222. An unfinished episode with rewards (1, 1) then
// bootstraps from μ: G = (1 + 0.5·(1 + 0.5μ), 1 + 0.5μ) = (1.854167,
// 1.708333), stored as (G − μ)/√(σ² + 10⁻⁸) = (0.4375, 0.291667)/0.311805
// = (1.403121, 0.935414).
// Without standardization the bootstrap value is 0: G = (1.5, 1).
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
	check("first, standardized", returns(p, []float64{1, 1, 1}, true), 1.75, 1.5, 1)
	if s := p.Counters.Returns; !scalar.EqualWithinAbs(s.Mean, 1.416667, 1e-6) || !scalar.EqualWithinAbs(s.Var, 0.097222, 1e-6) || s.Count != 3 {
		t.Errorf("statistics %+v, want mean 1.416667, var 0.097222, count 3", s)
	}
	check("unfinished, standardized", returns(p, []float64{1, 1}, false), 1.403121, 0.935414)

	cfg.ReturnStandardization = false
	q, _ := linearPG(t, cfg, []float32{0, 0}, []float32{0, 0})
	check("unfinished, raw", returns(q, []float64{1, 1}, false), 1.5, 1)
}

// TestRunningMeanStd compares the merged statistics with those of all the
// values at once, computed directly.
func TestRunningMeanStd(t *testing.T) {
	batches := [][]float32{{1, 2, 3}, {4, 5}, {-7}, {0.5, 0.25, 10, 11}}
	var r pg.RunningMeanStd
	if got := r.Std(0); got != 1 {
		t.Errorf("Std before any update = %v, want 1 (variance 1)", got)
	}
	var all []float64
	for _, b := range batches {
		r.Update(b)
		for _, v := range b {
			all = append(all, float64(v))
		}
		var mean, ss float64
		for _, v := range all {
			mean += v
		}
		mean /= float64(len(all))
		for _, v := range all {
			ss += (v - mean) * (v - mean)
		}
		if !scalar.EqualWithinAbs(r.Mean, mean, 1e-12) || !scalar.EqualWithinAbs(r.Var, ss/float64(len(all)), 1e-12) || r.Count != int64(len(all)) {
			t.Errorf("after %v: %+v, want mean %v var %v count %d", all, r, mean, ss/float64(len(all)), len(all))
		}
	}
	before := r
	r.Update(nil)
	if r != before {
		t.Error("an empty update changed the statistics")
	}
}

// TestNormalHead checks the Gaussian's log-density and entropy by hand:
// μ = (0, 1), log σ = (0, ln 2), a = (1, 1):
//
//	log p = (−½ − 0 − ½ log 2π) + (0 − ln 2 − ½ log 2π) = −3.031024
//	H = (½ + ½ log 2π) + (½ + ½ log 2π + ln 2) = 3.531024
//
// and the gradient of log p with respect to log σ: ((a − μ)²/σ² − 1) = (0,
// −1).
func TestNormalHead(t *testing.T) {
	h := pg.NewNormalHead(2, 0)
	h.LogStd.Data()[1] = float32(math.Ln2)
	var tp tensor.Tape
	d := h.New()
	mean := tensor.MustFromSlice([]float32{0, 1}, 1, 2)
	if err := h.Set(d, &tp, mean); err != nil {
		t.Fatal(err)
	}
	lp := d.LogProb(tensor.MustFromSlice([]float32{1, 1}, 1, 2))
	if lp.NDim() != 1 || lp.Dim(0) != 1 || !scalar.EqualWithinAbs(float64(lp.Data()[0]), -3.031024, 1e-5) {
		t.Errorf("log p = %v, want [−3.031024]", lp)
	}
	ent := d.(interface{ Entropy() *tensor.Tensor }).Entropy()
	if !scalar.EqualWithinAbs(float64(ent.Data()[0]), 3.531024, 1e-5) {
		t.Errorf("entropy %v, want 3.531024", ent.Data())
	}
	tp.Backward(tp.Sum(lp))
	if g := h.LogStd.Grad(); !scalar.EqualWithinAbs(float64(g[0]), 0, 1e-5) || !scalar.EqualWithinAbs(float64(g[1]), -1, 1e-5) {
		t.Errorf("∂log p/∂log σ = %v, want (0, −1)", g)
	}
	if ps := h.Params(); len(ps) != 1 || ps[0].Name != "log_std" {
		t.Errorf("Params %v", ps)
	}
	// Set again on a reset tape reuses the distribution.
	tp.Reset()
	if err := h.Set(d, &tp, mean); err != nil {
		t.Fatal(err)
	}
	bad := tensor.MustFromSlice([]float32{float32(math.NaN()), 0}, 1, 2)
	if err := h.Set(d, &tp, bad); err == nil {
		t.Error("a NaN mean gave no error")
	}
}

func TestRollout(t *testing.T) {
	act := algotest.Discrete(t, 3, 5)
	b := batch.MustNew(
		"obs", nd.MustNew([][]float64{{0, 0}, {1, 10}, {2, 20}, {3, 30}, {4, 40}, {5, 50}, {6, 60}, {7, 70}, {8, 80}, {9, 90}}),
		"act", nd.MustNew([]int64{5, 6, 7, 5, 6, 7, 5, 6, 7, 5}),
		"obs_next", nd.MustNew([][]float64{{1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}}),
	)
	var r pg.Rollout
	if err := r.Load(b, act, true); err != nil {
		t.Fatal(err)
	}
	if r.Len() != 10 || r.ObsNext() == nil {
		t.Fatalf("Len %d, obs_next %v", r.Len(), r.ObsNext())
	}
	// Actions become category indices (the space starts at 5).
	for i, a := range r.Act().Data() {
		if want := float32(i % 3); a != want {
			t.Errorf("act[%d] = %v, want %v", i, a, want)
		}
	}
	for _, tc := range []struct{ size, n, last int }{
		{4, 2, 6}, {3, 3, 4}, {5, 2, 5}, {0, 1, 10}, {10, 1, 10}, {64, 1, 10}, {1, 10, 1},
	} {
		if got := r.Minibatches(tc.size); got != tc.n {
			t.Errorf("Minibatches(%d) = %d, want %d", tc.size, got, tc.n)
			continue
		}
		if got := len(r.Rows(tc.n-1, tc.size)); got != tc.last {
			t.Errorf("size %d: the last minibatch has %d rows, want %d", tc.size, got, tc.last)
		}
	}
	// After a shuffle the minibatches of 4 cover every row once, and ObsRows
	// gathers their observations.
	r.Shuffle(rand.New(rand.NewPCG(1, 2)))
	seen := map[int]bool{}
	var tp tensor.Tape
	for i := range r.Minibatches(4) {
		rows := r.Rows(i, 4)
		obs, err := r.ObsRows(&tp, rows).Get("obs")
		if !err {
			t.Fatal("no obs in the minibatch")
		}
		o := obs.(*tensor.Tensor)
		for k, row := range rows {
			seen[row] = true
			if o.Data()[2*k] != float32(row) || o.Data()[2*k+1] != float32(10*row) {
				t.Errorf("minibatch %d row %d: obs (%v, %v), want (%d, %d)", i, row, o.Data()[2*k], o.Data()[2*k+1], row, 10*row)
			}
		}
	}
	if len(seen) != 10 {
		t.Errorf("the minibatches cover %d of 10 rows", len(seen))
	}
	// Columns: stored arrays share memory; reading copies.
	out := new(batch.Batch)
	r.Column("adv").Data()[3] = 7
	if err := r.Store(out, "adv"); err != nil {
		t.Fatal(err)
	}
	if v, _ := batch.Values[float32](out, "adv"); v[3] != 7 {
		t.Errorf("stored column %v", v)
	}
	in := batch.MustNew("adv", nd.MustNew([]float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}))
	if err := r.Read(in, "adv"); err != nil {
		t.Fatal(err)
	}
	if r.Column("adv").Data()[9] != 9 {
		t.Errorf("read column %v", r.Column("adv").Data())
	}

	for _, tc := range []struct {
		name string
		b    *batch.Batch
		next bool
	}{
		{"action outside", batch.MustNew("obs", nd.Zeros(nd.Float32, 2, 2), "act", nd.MustNew([]int64{5, 8})), false},
		{"action below", batch.MustNew("obs", nd.Zeros(nd.Float32, 2, 2), "act", nd.MustNew([]int64{4, 5})), false},
		{"no act", batch.MustNew("obs", nd.Zeros(nd.Float32, 2, 2)), false},
		{"no obs", batch.MustNew("act", nd.MustNew([]int64{5, 5})), false},
		{"no obs_next", batch.MustNew("obs", nd.Zeros(nd.Float32, 2, 2), "act", nd.MustNew([]int64{5, 5})), true},
		{"short obs_next", batch.MustNew("obs", nd.Zeros(nd.Float32, 2, 2), "obs_next", nd.Zeros(nd.Float32, 1, 2), "act", nd.MustNew([]int64{5, 5})), true},
		{"act rows", batch.MustNew("obs", nd.Zeros(nd.Float32, 2, 2), "act", nd.MustNew([]int64{5})), false},
		{"empty", batch.MustNew("obs", nd.Zeros(nd.Float32, 0, 2), "act", nd.Zeros(nd.Int64, 0)), false},
		{"string obs", batch.MustNew("obs", "text", "act", nd.MustNew([]int64{5})), false},
	} {
		if err := r.Load(tc.b, act, tc.next); err == nil {
			t.Errorf("%s: Load accepted it", tc.name)
		}
	}
	// Box actions are copied as they are; their width must match.
	box := algotest.Box(t, -1, 1, 2)
	bb := batch.MustNew("obs", nd.Zeros(nd.Float32, 2, 3), "act", nd.MustNew([][]float32{{0.5, -3}, {1, 2}}))
	if err := r.Load(bb, box, false); err != nil {
		t.Fatal(err)
	}
	if r.ObsNext() != nil {
		t.Error("ObsNext after a Load without obs_next")
	}
	if got := r.Act().Data(); got[1] != -3 || got[3] != 2 {
		t.Errorf("Box actions %v", got)
	}
	bb = batch.MustNew("obs", nd.Zeros(nd.Float32, 2, 3), "act", nd.Zeros(nd.Float32, 2, 3))
	if err := r.Load(bb, box, false); err == nil {
		t.Error("Load accepted Box actions of another width")
	}
}

// TestRolloutDict loads Dict observations (nested Batches) and gathers
// minibatches of the same structure.
func TestRolloutDict(t *testing.T) {
	obs := batch.MustNew("pos", nd.MustNew([][]float32{{0}, {1}, {2}}), "cam", batch.MustNew("rgb", nd.MustNew([][]uint8{{0, 0}, {10, 11}, {20, 21}})))
	b := batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 1, 0}))
	var r pg.Rollout
	if err := r.Load(b, algotest.Discrete(t, 2, 0), false); err != nil {
		t.Fatal(err)
	}
	var tp tensor.Tape
	mb := r.ObsRows(&tp, []int{2, 0})
	pos, ok := mb.Get("obs.pos")
	rgb, ok2 := mb.Get("obs.cam.rgb")
	if !ok || !ok2 {
		t.Fatalf("minibatch %v lacks obs.pos or obs.cam.rgb", mb)
	}
	if p := pos.(*tensor.Tensor).Data(); p[0] != 2 || p[1] != 0 {
		t.Errorf("obs.pos %v, want [2 0]", p)
	}
	if c := rgb.(*tensor.Tensor).Data(); c[0] != 20 || c[1] != 21 || c[2] != 0 {
		t.Errorf("obs.cam.rgb %v, want [20 21 0 0]", c)
	}
	whole, _ := r.Obs().Get("obs.cam.rgb")
	if s := whole.(*tensor.Tensor).Shape(); s[0] != 3 || s[1] != 2 {
		t.Errorf("whole obs.cam.rgb of shape %v", s)
	}
}

func TestNet(t *testing.T) {
	obs, disc, box := algotest.Box(t, -1, 1, 4), algotest.Discrete(t, 3, 0), algotest.Box(t, -2, 2, 2)
	rng := rand.New(rand.NewPCG(1, 2))
	shared, err := pg.NewNet(pg.NetConfig{Hidden: []int{8, 8}, Shared: true, OrthogonalGain: 1}, obs, disc, true, rng)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range shared.Params() {
		names = append(names, p.Name)
	}
	want := []string{"trunk.0.weight", "trunk.0.bias", "trunk.2.weight", "trunk.2.bias", "actor.weight", "actor.bias", "critic.weight", "critic.bias"}
	if len(names) != len(want) {
		t.Fatalf("parameters %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("parameters %v, want %v", names, want)
		}
	}
	// Orthogonal weights: W·Wᵀ = I for the 8×8 trunk layer; zero biases.
	w := shared.Params().Lookup("trunk.2.weight").Data()
	for i := range 8 {
		for j := range 8 {
			var dot float64
			for k := range 8 {
				dot += float64(w[i*8+k]) * float64(w[j*8+k])
			}
			if want := map[bool]float64{true: 1, false: 0}[i == j]; !scalar.EqualWithinAbs(dot, want, 1e-5) {
				t.Fatalf("trunk.2.weight rows %d·%d = %v, want %v", i, j, dot, want)
			}
		}
	}
	for _, p := range shared.Params() {
		if p.Tensor.NDim() == 1 {
			for _, v := range p.Tensor.Data() {
				if v != 0 {
					t.Fatalf("%s not zero", p.Name)
				}
			}
		}
	}
	var tp tensor.Tape
	x := batch.MustNew("obs", nd.Zeros(nd.Float32, 5, 4))
	d, v, err := shared.DistValue(&tp, x)
	if err != nil {
		t.Fatal(err)
	}
	if v.NDim() != 1 || v.Dim(0) != 5 || d.(interface{ K() int }).K() != 3 {
		t.Errorf("values of shape %v, distribution %v", v.Shape(), d)
	}
	if _, err := shared.Dist(&tp, batch.MustNew("x", nd.Zeros(nd.Float32, 5, 4))); err == nil {
		t.Error("Dist accepted a batch without obs")
	}

	sep, err := pg.NewNet(pg.NetConfig{Hidden: []int{8}}, obs, box, false, rng)
	if err != nil {
		t.Fatal(err)
	}
	if sep.HasCritic() {
		t.Error("a Net built without critic has one")
	}
	if _, err := sep.Value(&tp, x); !errors.Is(err, pg.ErrConfig) {
		t.Errorf("Value without critic: %v", err)
	}
	if _, ok := sep.Head().(*pg.NormalHead); !ok {
		t.Errorf("Box head %T", sep.Head())
	}
	if ps := sep.Params(); ps[len(ps)-1].Name != "head.log_std" {
		t.Errorf("the last parameter is %s, want head.log_std", ps[len(ps)-1].Name)
	}

	for _, tc := range []struct {
		name     string
		cfg      pg.NetConfig
		obs, act env.Space
	}{
		{"shared without hidden", pg.NetConfig{Shared: true}, obs, disc},
		{"hidden 0", pg.NetConfig{Hidden: []int{0}}, obs, disc},
		{"activation", pg.NetConfig{Hidden: []int{4}, Activation: "swish"}, obs, disc},
		{"gain", pg.NetConfig{Hidden: []int{4}, OrthogonalGain: -1}, obs, disc},
		{"log std", pg.NetConfig{Hidden: []int{4}, LogStdInit: math.Inf(1)}, obs, disc},
		{"discrete obs", pg.NetConfig{Hidden: []int{4}}, disc, disc},
		{"2-d box action", pg.NetConfig{Hidden: []int{4}}, obs, boxOf(t, 2, 2)},
	} {
		if _, err := pg.NewNet(tc.cfg, tc.obs, tc.act, true, rng); !errors.Is(err, pg.ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", tc.name, err)
		}
	}
}

func boxOf(t *testing.T, shape ...int) *env.Box {
	b, err := env.NewBox(-1.0, 1.0, shape, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

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
	} {
		cfg := pg.DefaultConfig()
		tc.edit(&cfg)
		if _, err := pg.New(cfg, obs, act, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, pg.ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", tc.name, err)
		}
	}
	net, err := pg.NewNet(pg.NetConfig{Hidden: []int{4}}, obs, act, false, rand.New(rand.NewPCG(1, 1)))
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

// train runs updates of a PG made from seed on collections drawn from seed,
// with act the action space, and returns it.
func train(t testing.TB, seed uint64, act env.Space, updates int) *pg.PG {
	cfg := pg.DefaultConfig()
	cfg.Net.Hidden = []int{16, 16}
	p, err := pg.New(cfg, algotest.Box(t, -10, 10, 4), act, rand.New(rand.NewPCG(seed, 2)))
	if err != nil {
		t.Fatal(err)
	}
	var l algo.Learner
	for i := range updates {
		buf := algotest.Collection(t, 4, 25, act, rand.New(rand.NewPCG(seed, uint64(i))))
		if _, err := l.StepAll(p, buf, 32, 2); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// TestDeterminism trains twice from the same seed, with a Discrete and a
// Box action space, and compares every parameter bit for bit; another seed
// must give other parameters.
func TestDeterminism(t *testing.T) {
	for _, act := range []env.Space{algotest.Discrete(t, 2, 0), algotest.Box(t, -2, 2, 2)} {
		a, b, c := train(t, 7, act, 4), train(t, 7, act, 4), train(t, 8, act, 4)
		if !algotest.EqualParams(a.Net.Params(), b.Net.Params()) {
			t.Errorf("%v: two runs of one seed differ", act)
		}
		if algotest.EqualParams(a.Net.Params(), c.Net.Params()) {
			t.Errorf("%v: two seeds gave the same parameters", act)
		}
	}
}

// TestSaveLoad saves a PG during training, loads the state into a fresh
// one, and checks that both continue identically: parameters, return
// statistics and the policy's samples.
func TestSaveLoad(t *testing.T) {
	act := algotest.Box(t, -2, 2, 2)
	p := train(t, 3, act, 3)
	var state bytes.Buffer
	if err := p.Save(&state); err != nil {
		t.Fatal(err)
	}
	fresh, err := pg.New(p.Config(), algotest.Box(t, -10, 10, 4), act, rand.New(rand.NewPCG(99, 99)))
	if err != nil {
		t.Fatal(err)
	}
	if err := fresh.Load(bytes.NewReader(state.Bytes())); err != nil {
		t.Fatal(err)
	}
	if fresh.Counters != p.Counters {
		t.Errorf("loaded counters %+v, want %+v", fresh.Counters, p.Counters)
	}
	var l1, l2 algo.Learner
	for i := range 2 {
		buf := algotest.Collection(t, 4, 25, act, rand.New(rand.NewPCG(5, uint64(i))))
		if _, err := l1.StepAll(p, buf, 32, 2); err != nil {
			t.Fatal(err)
		}
		if _, err := l2.StepAll(fresh, buf, 32, 2); err != nil {
			t.Fatal(err)
		}
	}
	if !algotest.EqualParams(p.Net.Params(), fresh.Net.Params()) {
		t.Error("parameters differ after resuming")
	}
	obs := batch.MustNew("obs", nd.Zeros(nd.Float32, 8, 4))
	var o1, o2 batch.Batch
	for _, q := range []*pg.PG{p, fresh} {
		q.Policy().SetTrainingStep(true)
	}
	p.Policy().Act(&o1, obs, nil, true)
	fresh.Policy().Act(&o2, obs, nil, true)
	if !batch.Equal(&o1, &o2) {
		t.Error("the policies' samples differ after resuming")
	}
	other := p.Config()
	other.Net.Hidden = []int{8}
	wrong, err := pg.New(other, algotest.Box(t, -10, 10, 4), act, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := wrong.Load(bytes.NewReader(state.Bytes())); !errors.Is(err, algo.ErrState) {
		t.Errorf("loading into another network: %v, want ErrState", err)
	}
}

// TestUpdateAllocations locks the steady state of an update (Preprocess and
// UpdateRepeat on a collection of the same size) at zero allocations, for
// both heads.
func TestUpdateAllocations(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	for _, act := range []env.Space{algotest.Discrete(t, 2, 0), algotest.Box(t, -2, 2, 2)} {
		p := train(t, 1, act, 1)
		buf := algotest.Collection(t, 4, 25, act, rand.New(rand.NewPCG(1, 1)))
		b, idx := algotest.Take(t, buf)
		step := func() {
			if err := p.Preprocess(b, buf, idx); err != nil {
				t.Fatal(err)
			}
			if _, err := p.UpdateRepeat(b, 32, 2); err != nil {
				t.Fatal(err)
			}
		}
		step()
		if a := testing.AllocsPerRun(20, step); a != 0 {
			t.Errorf("%v: an update allocates %v times", act, a)
		}
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
