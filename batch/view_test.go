package batch_test

import (
	"strings"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

func rolloutBatch(t testing.TB) *batch.Batch {
	// Seed 001 §4's RolloutBatchProtocol batch.
	return batch.MustNew(
		"obs", [][]float64{{1, 2}, {3, 4}},
		"obs_next", [][]float64{{2, 3}, {4, 5}},
		"act", []int{0, 1},
		"rew", []float64{1, 2},
		"terminated", []bool{false, true},
		"truncated", []bool{false, false},
		"info", []any{map[string]any{}, map[string]any{}},
	)
}

func TestViews(t *testing.T) {
	b := rolloutBatch(t)
	r, err := batch.AsRollout(b)
	if err != nil {
		t.Fatal(err)
	}
	if !nd.Equal(r.Rew(), arr(t, []float64{1, 2})) || !nd.Equal(r.Act(), arr(t, []int{0, 1})) {
		t.Errorf("rew %v act %v", r.Rew(), r.Act())
	}
	if !nd.Equal(r.Terminated(), arr(t, []bool{false, true})) || r.Truncated() == nil || r.ObsNext() == nil || r.Obs() == nil {
		t.Error("accessors")
	}
	if info, ok := r.Info().(*batch.Batch); !ok || info.NumKeys() != 0 {
		t.Errorf("info = %v: a list of empty dicts stacks to a reserved Batch", r.Info())
	}
	// Writes go to the Batch; the Batch's methods are available.
	r.SetRew(arr(t, []float64{5, 6}))
	wantArray(t, b, "rew", arr(t, []float64{5, 6}))
	if n, _ := r.Len(); n != 2 {
		t.Errorf("Len through the view = %d", n)
	}
	if err := r.SetObs([]float32{1, 2}); err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "obs", arr(t, []float32{1, 2}))
	// A Rollout is also an Obs.
	o, err := batch.AsObs(r.Batch)
	if err != nil || o.Obs() == nil {
		t.Fatal(err)
	}
	// Up the hierarchy.
	b.Set("returns", []float64{1, 1})
	b.Set("adv", []float64{0.5, 0.5})
	b.Set("v_s", []float64{0, 0})
	b.Set("logp_old", []float64{-1, -1})
	lo, err := batch.AsLogpOld(b)
	if err != nil {
		t.Fatal(err)
	}
	lo.SetAdv(arr(t, []float64{2, 2}))
	lo.SetVS(arr(t, []float64{3, 3}))
	lo.SetReturns(arr(t, []float64{4, 4}))
	lo.SetLogpOld(arr(t, []float64{-2, -2}))
	lo.SetTerminated(arr(t, []bool{true, true}))
	lo.SetTruncated(arr(t, []bool{true, false}))
	lo.SetAct(arr(t, []int{3, 3}))
	if err := lo.SetObsNext(nil); err != nil {
		t.Fatal(err)
	}
	if err := lo.SetInfo(batch.MustNew()); err != nil {
		t.Fatal(err)
	}
	wa, err := batch.AsWithAdvantages(b)
	if err != nil {
		t.Fatal(err)
	}
	if !nd.Equal(wa.Adv(), arr(t, []float64{2, 2})) || !nd.Equal(wa.VS(), arr(t, []float64{3, 3})) || !nd.Equal(wa.Returns(), arr(t, []float64{4, 4})) || !nd.Equal(lo.LogpOld(), arr(t, []float64{-2, -2})) {
		t.Error("advantage accessors")
	}
	if _, err := batch.AsWithReturns(b); err != nil {
		t.Fatal(err)
	}

	// Policy outputs.
	dist := mustCategorical(t, [][]float64{{0.5, 0.5}, {0.1, 0.9}})
	p := batch.MustNew("act", []int{1, 0}, "state", nil, "logits", [][]float32{{0, 0}, {1, 2}}, "dist", dist, "log_prob", []float32{-0.7, -0.1})
	dl, err := batch.AsDistLogProb(p)
	if err != nil {
		t.Fatal(err)
	}
	if dl.Dist() != batch.Leaf(dist) || dl.State() != nil || dl.Logits() == nil || dl.LogProb() == nil || dl.Act() == nil {
		t.Error("policy accessors")
	}
	if err := dl.SetState([]float32{1}); err != nil {
		t.Fatal(err)
	}
	if err := dl.SetLogits(nil); err != nil {
		t.Fatal(err)
	}
	if err := dl.SetLogProb(1.5); err != nil {
		t.Fatal(err)
	}
	dl.SetDist(mustCategorical(t, [][]float64{{1, 0}, {0, 1}}))
	if _, err := batch.AsDist(p); err != nil {
		t.Fatal(err)
	}
	if _, err := batch.AsModelOutput(p); err != nil {
		t.Fatal(err)
	}
	as, err := batch.AsActState(p)
	if err != nil || as.State() == nil {
		t.Fatal(err)
	}
	a, err := batch.AsAct(batch.MustNew("act", []int{1, 2, 3}))
	if err != nil || !nd.Equal(a.Act(), arr(t, []int{1, 2, 3})) {
		t.Fatal(err)
	}
	a.Delete("act")
	if a.Act() != nil {
		t.Error("accessor of a removed key")
	}
}

func TestViewErrors(t *testing.T) {
	tests := []struct {
		name    string
		as      func(*batch.Batch) error
		b       *batch.Batch
		kind    error
		missing []string
	}{
		{"rollout missing", func(b *batch.Batch) error { _, err := batch.AsRollout(b); return err },
			batch.MustNew("obs", 1, "act", []int{1}), batch.ErrKey, []string{"info", "obs_next", "rew", "terminated", "truncated"}},
		{"obs missing", func(b *batch.Batch) error { _, err := batch.AsObs(b); return err }, batch.MustNew(), batch.ErrKey, []string{"obs", "info"}},
		{"logp_old missing", func(b *batch.Batch) error { _, err := batch.AsLogpOld(b); return err }, rolloutBatch(t), batch.ErrKey, []string{"returns", "adv", "v_s", "logp_old"}},
		{"dist missing", func(b *batch.Batch) error { _, err := batch.AsDistLogProb(b); return err }, batch.MustNew("act", []int{1}), batch.ErrKey, []string{"state", "logits", "dist", "log_prob"}},
		{"act not an array", func(b *batch.Batch) error { _, err := batch.AsAct(b); return err }, batch.MustNew("act", "left"), batch.ErrType, nil},
		{"dist not a leaf", func(b *batch.Batch) error { _, err := batch.AsDist(b); return err },
			batch.MustNew("act", []int{1}, "state", nil, "logits", 1, "dist", []float64{1}), batch.ErrType, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.as(tt.b)
			wantErr(t, err, tt.kind, "")
			if len(tt.missing) > 0 && !strings.Contains(err.Error(), "missing keys "+strings.Join(tt.missing, ", ")) {
				t.Errorf("error %q does not name the missing keys %v", err, tt.missing)
			}
		})
	}
	for _, as := range []func(*batch.Batch) error{
		func(b *batch.Batch) error { _, err := batch.AsActState(b); return err },
		func(b *batch.Batch) error { _, err := batch.AsWithReturns(b); return err },
		func(b *batch.Batch) error { _, err := batch.AsWithAdvantages(b); return err },
		func(b *batch.Batch) error { _, err := batch.AsModelOutput(b); return err },
		func(b *batch.Batch) error { _, err := batch.AsDist(b); return err },
	} {
		wantErr(t, as(batch.MustNew()), batch.ErrKey, "")
	}
}
