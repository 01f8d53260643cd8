package distributed_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/buffer/distributed"
	"github.com/gorl/gorl/internal/testrand"
	"github.com/gorl/gorl/nd"
)

// maskedRows returns n transitions in the action-mask form (obs a Dict of
// "obs" [n, 2] and "action_mask" [n, 3] int8) with obs.obs[i] = (first+i,
// −(first+i)), act = first+i, rew = (first+i)/10 and a string tag.
func maskedRows(first, n int) *batch.Batch {
	o := make([][]float32, n)
	mask := make([][]int8, n)
	act := make([]int64, n)
	rew := make([]float64, n)
	flags := make([]bool, n)
	tag := make([]any, n)
	for i := range n {
		x := float32(first + i)
		o[i] = []float32{x, -x}
		mask[i] = []int8{1, int8(i % 2), 1}
		act[i] = int64(first + i)
		rew[i] = float64(first+i) / 10
		tag[i] = fmt.Sprint("t", first+i)
	}
	obs := batch.MustNew("obs", o, "action_mask", mask)
	return batch.MustNew("obs", obs, "act", act, "rew", rew, "terminated", flags, "truncated", flags, "obs_next", obs, "tag", tag)
}

// asTransitions returns the rows of maskedRows(first, n) as Machin
// transitions: obs and obs_next major, the numbers sub, tag custom.
func asTransitions(t *testing.T, first, n int) []*buffer.Transition {
	b := maskedRows(first, n)
	var out []*buffer.Transition
	for i := range n {
		row := func(key string) any {
			v, _ := b.Get(key)
			switch v := v.(type) {
			case *batch.Batch:
				g := &batch.Batch{}
				for k, x := range v.Items() {
					g.Set(k, nd.Take(x.(*nd.Array), []int{i}))
				}
				return g
			case *nd.Array:
				return v.At(i)
			}
			t.Fatalf("key %s holds %T", key, v)
			return nil
		}
		major := batch.MustNew("obs", row("obs"), "obs_next", row("obs_next"))
		// The buffer adds Tianshou's done = terminated or truncated.
		sub := batch.MustNew("act", row("act"), "rew", row("rew"), "terminated", row("terminated"), "truncated", row("truncated"), "done", false)
		tr, err := buffer.NewTransition(major, sub, map[string]any{"tag": row("tag")})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tr)
	}
	return out
}

// sameForm reports whether got and want are the same value in the same
// form: types, shapes and elements.
func sameForm(got, want any) error {
	switch w := want.(type) {
	case *nd.Array:
		g, ok := got.(*nd.Array)
		if !ok {
			return fmt.Errorf("%T, want *nd.Array", got)
		}
		if !slices.Equal(g.Shape(), w.Shape()) || g.DType() != w.DType() {
			return fmt.Errorf("array %v %v, want %v %v", g.DType(), g.Shape(), w.DType(), w.Shape())
		}
		gf, err1 := g.AsType(nd.Float64)
		wf, err2 := w.AsType(nd.Float64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("conversion: %v %v", err1, err2)
		}
		if !slices.Equal(nd.ToSlice[float64](gf), nd.ToSlice[float64](wf)) {
			return fmt.Errorf("values %v, want %v", nd.ToSlice[float64](gf), nd.ToSlice[float64](wf))
		}
	case []*nd.Array:
		g, ok := got.([]*nd.Array)
		if !ok || len(g) != len(w) {
			return fmt.Errorf("%T of %d, want []*nd.Array of %d", got, len(g), len(w))
		}
		for i := range w {
			if err := sameForm(g[i], w[i]); err != nil {
				return fmt.Errorf("[%d]: %v", i, err)
			}
		}
	case *batch.Batch:
		g, ok := got.(*batch.Batch)
		if !ok {
			return fmt.Errorf("%T, want *batch.Batch", got)
		}
		if !slices.Equal(slices.Sorted(g.Keys()), slices.Sorted(w.Keys())) {
			return fmt.Errorf("keys %v, want %v", slices.Sorted(g.Keys()), slices.Sorted(w.Keys()))
		}
		for k, x := range w.Items() {
			y, _ := g.Get(k)
			if err := sameForm(y, x); err != nil {
				return fmt.Errorf("%s: %v", k, err)
			}
		}
	case map[string][]*nd.Array:
		g, ok := got.(map[string][]*nd.Array)
		if !ok || len(g) != len(w) {
			return fmt.Errorf("%T, want map[string][]*nd.Array of %d", got, len(w))
		}
		for k, x := range w {
			if err := sameForm(g[k], x); err != nil {
				return fmt.Errorf("%s: %v", k, err)
			}
		}
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return fmt.Errorf("%T %v, want map[string]any of %d", got, got, len(w))
		}
		for k, x := range w {
			if err := sameForm(g[k], x); err != nil {
				return fmt.Errorf("%s: %v", k, err)
			}
		}
	default:
		if !reflect.DeepEqual(got, want) {
			return fmt.Errorf("%#v, want %#v", got, want)
		}
	}
	return nil
}

// TestSampleBatchMatchesMemory: a learner's SampleBatch with SampleAll over
// one member gives, for each attribute selection and with and without
// concatenation, what buffer.Memory.SampleBatch gives with SampleAll over
// the same transitions in Machin's form (the local memory is the
// reference).
func TestSampleBatchMatchesMemory(t *testing.T) {
	tr := transport(t)
	a, err := distributed.New(tr, distributed.Config{Group: "mf", Member: "a", Heartbeat: beat}, replay(t, 100))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.Add(maskedRows(0, 5)); err != nil {
		t.Fatal(err)
	}
	learner, err := distributed.New(tr, distributed.Config{Group: "mf", Member: "learner", Heartbeat: beat}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer learner.Close()
	waitFor(t, "the member", func() bool { return learner.Len() == 5 })
	mem, err := buffer.NewMemory(100)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range asTransitions(t, 0, 5) {
		if _, err := mem.Append(tr); err != nil {
			t.Fatal(err)
		}
	}
	rng := testrand.New(t, 1)
	for _, tc := range []struct {
		attrs, custom []string
	}{
		{[]string{"obs", "act", "rew"}, nil},
		{[]string{"rew", "obs_next"}, nil},
		{[]string{"obs", "*"}, nil},
		{[]string{"tag", "terminated"}, nil},
		{[]string{"act", "*"}, []string{"nothing"}},
	} {
		for _, concat := range []bool{true, false} {
			t.Run(fmt.Sprint(tc.attrs, concat), func(t *testing.T) {
				n, got, err := learner.SampleBatch(ctx(t), 3, concat, distributed.SampleAll, tc.attrs, tc.custom, rng)
				if err != nil {
					t.Fatal(err)
				}
				wn, want, err := mem.SampleBatch(3, concat, buffer.SampleAll, tc.attrs, tc.custom, rng)
				if err != nil {
					t.Fatal(err)
				}
				if n != wn || len(got) != len(want) {
					t.Fatalf("%d transitions, %d attributes; want %d, %d", n, len(got), wn, len(want))
				}
				for i := range want {
					if err := sameForm(got[i], want[i]); err != nil {
						t.Errorf("%s: %v", tc.attrs[i], err)
					}
				}
			})
		}
	}
	if _, _, err := learner.SampleBatch(ctx(t), 3, true, distributed.SampleAll, []string{"nope"}, nil, rng); !errors.Is(err, buffer.ErrKey) {
		t.Errorf("unknown attribute: %v, want ErrKey", err)
	}
	if _, _, err := learner.SampleBatch(ctx(t), 3, true, distributed.SampleAll, []string{"tag"}, []string{"tag"}, rng); !errors.Is(err, buffer.ErrType) {
		t.Errorf("string custom attribute concatenated: %v, want ErrType", err)
	}
	if n, res, err := learner.SampleBatch(ctx(t), 0, true, distributed.SampleRandomUnique, nil, nil, rng); n != 0 || res != nil || err != nil {
		t.Errorf("SampleBatch of 0: %d, %v, %v; want 0, nil, nil as buffer.Memory gives", n, res, err)
	}
	if _, _, err := learner.SampleBatch(ctx(t), 3, true, distributed.Method(9), nil, nil, rng); !errors.Is(err, distributed.ErrDistributed) {
		t.Errorf("unknown method: %v, want ErrDistributed", err)
	}
}

// TestSampleBatchMethods: across members holding 3, 4 and 5 transitions,
// SampleAll returns each of the 12 once, SampleRandomUnique min(n, 12)
// distinct ones, SampleRandom n stored ones (Machin's sample methods). The
// heartbeat is longer than the other tests' so that a loaded machine (the
// race detector on two busy cores) does not expire a member between two of
// the 80 samples, which would end a sample short of that member's share.
func TestSampleBatchMethods(t *testing.T) {
	tr := transport(t)
	slowBeat := 4 * beat
	for i, size := range []int{3, 4, 5} {
		m, err := distributed.New(tr, distributed.Config{Group: "mm", Member: fmt.Sprint("m", i), Heartbeat: slowBeat}, replay(t, 100))
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		if err := m.Add(rows(100*i, size)); err != nil {
			t.Fatal(err)
		}
	}
	learner, err := distributed.New(tr, distributed.Config{Group: "mm", Member: "learner", Heartbeat: slowBeat}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer learner.Close()
	waitFor(t, "the members", func() bool { return learner.Len() == 12 })
	stored := []float64{0, 1, 2, 100, 101, 102, 103, 200, 201, 202, 203, 204}
	rng := testrand.New(t, 2)
	for _, tc := range []struct {
		name     string
		method   distributed.Method
		n, want  int
		distinct bool
	}{
		{"all", distributed.SampleAll, 1, 12, true},
		{"unique 8", distributed.SampleRandomUnique, 8, 8, true},
		{"unique beyond Len", distributed.SampleRandomUnique, 100, 12, true},
		{"random 30", distributed.SampleRandom, 30, 30, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for range 20 {
				n, res, err := learner.SampleBatch(ctx(t), tc.n, true, tc.method, []string{"obs", "act"}, nil, rng)
				if err != nil {
					t.Fatal(err)
				}
				obs := nd.ToSlice[float32](res[0].(*nd.Array))
				act := nd.ToSlice[int64](res[1].(*nd.Array))
				if n != tc.want || len(obs) != tc.want {
					t.Fatalf("%d transitions (%d obs), want %d", n, len(obs), tc.want)
				}
				seen := map[float32]bool{}
				for k, o := range obs {
					if !slices.Contains(stored, float64(o)) || act[k] != int64(o) {
						t.Fatalf("row %d: obs %v act %v is no stored transition", k, o, act[k])
					}
					if tc.distinct && seen[o] {
						t.Fatalf("obs %v drawn twice", o)
					}
					seen[o] = true
				}
			}
		})
	}
}

// TestPrioritizedSampleBatch: the prioritized form gives the handles and
// the weights Sample would (the same seed), and the attributes.
func TestPrioritizedSampleBatch(t *testing.T) {
	tr := transport(t)
	local, err := buffer.NewPrioritized(buffer.Config{Size: 100}, buffer.DefaultPriorityConfig())
	if err != nil {
		t.Fatal(err)
	}
	a, err := distributed.NewPrioritized(tr, distributed.Config{Group: "pf", Member: "a", Heartbeat: beat}, local, 0.4)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.Add(rows(0, 6), []float64{1, 2, 3, 4, 5, 6}); err != nil {
		t.Fatal(err)
	}
	s, err := a.Sample(ctx(t), 16, testrand.New(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	n, res, hs, w, err := a.SampleBatch(ctx(t), 16, true, []string{"obs"}, nil, testrand.New(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	if n != 16 || !slices.Equal(hs, s.Handles) {
		t.Fatalf("%d transitions, handles %v; want 16, %v", n, hs, s.Handles)
	}
	if want := column(t, s.Batch, "weight"); !slices.Equal(w, want) {
		t.Errorf("weights %v, want Sample's %v", w, want)
	}
	if got, want := nd.ToSlice[float32](res[0].(*nd.Array)), column(t, s.Batch, "obs"); len(got) != len(want) {
		t.Errorf("obs %v, want %v", got, want)
	} else {
		for k := range want {
			if float64(got[k]) != want[k] {
				t.Errorf("obs %v, want %v", got, want)
				break
			}
		}
	}
}
