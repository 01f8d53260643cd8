package actorcritic_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

func TestRunningMeanStd(t *testing.T) {
	batches := [][]float32{{1, 2, 3}, {4, 5}, {-7}, {0.5, 0.25, 10, 11}}
	var r actorcritic.RunningMeanStd
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

func TestNormalHead(t *testing.T) {
	h := actorcritic.NewNormalHead(2, 0)
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
	var r actorcritic.Rollout
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

func TestRolloutDict(t *testing.T) {
	obs := batch.MustNew("pos", nd.MustNew([][]float32{{0}, {1}, {2}}), "cam", batch.MustNew("rgb", nd.MustNew([][]uint8{{0, 0}, {10, 11}, {20, 21}})))
	b := batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 1, 0}))
	var r actorcritic.Rollout
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
	shared, err := actorcritic.NewNet(actorcritic.NetConfig{Hidden: []int{8, 8}, Shared: true, OrthogonalGain: 1}, obs, disc, true, rng)
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

	sep, err := actorcritic.NewNet(actorcritic.NetConfig{Hidden: []int{8}}, obs, box, false, rng)
	if err != nil {
		t.Fatal(err)
	}
	if sep.HasCritic() {
		t.Error("a Net built without critic has one")
	}
	if _, err := sep.Value(&tp, x); !errors.Is(err, actorcritic.ErrConfig) {
		t.Errorf("Value without critic: %v", err)
	}
	if _, ok := sep.Head().(*actorcritic.NormalHead); !ok {
		t.Errorf("Box head %T", sep.Head())
	}
	if ps := sep.Params(); ps[len(ps)-1].Name != "head.log_std" {
		t.Errorf("the last parameter is %s, want head.log_std", ps[len(ps)-1].Name)
	}

	for _, tc := range []struct {
		name     string
		cfg      actorcritic.NetConfig
		obs, act env.Space
	}{
		{"shared without hidden", actorcritic.NetConfig{Shared: true}, obs, disc},
		{"hidden 0", actorcritic.NetConfig{Hidden: []int{0}}, obs, disc},
		{"activation", actorcritic.NetConfig{Hidden: []int{4}, Activation: "swish"}, obs, disc},
		{"gain", actorcritic.NetConfig{Hidden: []int{4}, OrthogonalGain: -1}, obs, disc},
		{"log std", actorcritic.NetConfig{Hidden: []int{4}, LogStdInit: math.Inf(1)}, obs, disc},
		{"discrete obs", actorcritic.NetConfig{Hidden: []int{4}}, disc, disc},
		{"2-d box action", actorcritic.NetConfig{Hidden: []int{4}}, obs, boxOf(t, 2, 2)},
	} {
		if _, err := actorcritic.NewNet(tc.cfg, tc.obs, tc.act, true, rng); !errors.Is(err, actorcritic.ErrConfig) {
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
