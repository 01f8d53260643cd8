package buffer_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/internal/testrand"
	"github.com/gorl/gorl/nd"
)

// machinTransition is seed 004's transition: state and next_state zeros
// [1, 5], action zeros [1, 2], reward 1.0, terminal False, plus custom
// attributes.
func machinTransition(t testing.TB, custom map[string]any) *buffer.Transition {
	t.Helper()
	state := nd.Zeros(nd.Float32, 1, 5)
	action := nd.Zeros(nd.Float32, 1, 2)
	tr, err := buffer.NewDefaultTransition(batch.MustNew("state", state), batch.MustNew("action", action),
		batch.MustNew("state", state), 1.0, false, custom)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestSeed004Summary reproduces seed 004's summary: 100 stored transitions
// sampled with random_unique and concatenation give state {"state":
// [n, 5]}, action {"action": [n, 2]}, next_state {"state": [n, 5]}, and
// reward and terminal of shape [n, 1].
func TestSeed004Summary(t *testing.T) {
	m, err := buffer.NewMemory(1000, buffer.DefaultRequired...)
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if _, err := m.Append(machinTransition(t, nil)); err != nil {
			t.Fatal(err)
		}
	}
	rng := testrand.New(t, 4)
	n, res, err := m.SampleBatch(32, true, buffer.SampleRandomUnique, []string{"state", "action", "reward", "next_state", "terminal", "*"}, nil, rng)
	if err != nil {
		t.Fatal(err)
	}
	if n != 32 || len(res) != 6 {
		t.Fatalf("sampled %d, %d results", n, len(res))
	}
	state, action, reward, next, terminal, others := res[0].(*batch.Batch), res[1].(*batch.Batch), res[2].(*nd.Array), res[3].(*batch.Batch), res[4].(*nd.Array), res[5].(map[string]any)
	for _, c := range []struct {
		name string
		a    *nd.Array
		want *nd.Array
	}{
		{"state.state", arrayOf(t, state, "state"), nd.Zeros(nd.Float32, 32, 5)},
		{"action.action", arrayOf(t, action, "action"), nd.Zeros(nd.Float32, 32, 2)},
		{"next_state.state", arrayOf(t, next, "state"), nd.Zeros(nd.Float32, 32, 5)},
		{"reward", reward, mustFull(t, nd.Float64, 1.0, 32, 1)},
		{"terminal", terminal, nd.Zeros(nd.Bool, 32, 1)},
	} {
		if !nd.Equal(c.a, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.a, c.want)
		}
	}
	if len(others) != 0 {
		t.Errorf("others = %v, want no attribute", others)
	}
}

func mustFull(t testing.TB, dt nd.DType, v any, shape ...int) *nd.Array {
	t.Helper()
	a, err := nd.Full(dt, v, shape...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestSampleMethods: every method, attribute selection with "*", the
// unconcatenated forms and concatenated custom attributes. Each stored
// transition carries its number in a custom attribute and in its reward.
func TestSampleMethods(t *testing.T) {
	m, err := buffer.NewMemory(10)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 13 { // the ring keeps 3..12
		tr, err := buffer.NewDefaultTransition(batch.MustNew("state", [][]float64{{float64(i)}}), batch.MustNew("action", [][]int{{i}}),
			batch.MustNew("state", [][]float64{{float64(i + 1)}}), float64(i), i%3 == 0, map[string]any{"id": i, "tag": "t"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Append(tr); err != nil {
			t.Fatal(err)
		}
	}
	rng := testrand.New(t, 8)
	ids := func(res []any, k int) []int {
		var out []int
		for _, v := range res[k].([]any) {
			out = append(out, v.(int))
		}
		return out
	}
	// all: every transition, oldest first.
	n, res, err := m.SampleBatch(0, false, buffer.SampleAll, []string{"id"}, nil, rng)
	if err != nil || n != 10 {
		t.Fatal(n, err)
	}
	if got := ids(res, 0); !slices.Equal(got, []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 12}) {
		t.Errorf("all: ids %v", got)
	}
	// random_unique: distinct, at most Len.
	n, res, err = m.SampleBatch(50, false, buffer.SampleRandomUnique, []string{"id"}, nil, rng)
	if err != nil || n != 10 {
		t.Fatal(n, err)
	}
	got := ids(res, 0)
	slices.Sort(got)
	if !slices.Equal(got, []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 12}) {
		t.Errorf("random_unique of 50 from 10: %v", got)
	}
	n, res, err = m.SampleBatch(4, false, buffer.SampleRandomUnique, []string{"id"}, nil, rng)
	if got := ids(res, 0); err != nil || n != 4 || len(got) != 4 || len(slices.Compact(slices.Sorted(slices.Values(got)))) != 4 {
		t.Errorf("random_unique of 4: %v %v", got, err)
	}
	// random: with replacement; min(n, Len) draws.
	n, _, err = m.SampleBatch(50, false, buffer.SampleRandom, []string{"id"}, nil, rng)
	if err != nil || n != 10 {
		t.Errorf("random of 50 from 10: %d %v", n, err)
	}
	// A caller-supplied method: the two newest transitions.
	newest := func(m *buffer.Memory, n int, _ *rand.Rand) ([]int, error) {
		all := m.All()
		return all[len(all)-2:], nil
	}
	n, res, err = m.SampleBatch(2, true, newest, []string{"reward", "*", "state"}, []string{"id"}, rng)
	if err != nil || n != 2 {
		t.Fatal(n, err)
	}
	if r := res[0].(*nd.Array); !nd.Equal(r, nd.MustNew([][]float64{{11}, {12}})) {
		t.Errorf("reward = %v", r)
	}
	rest := res[1].(map[string]any)
	if keys := slices.Sorted(func(yield func(string) bool) {
		for k := range rest {
			if !yield(k) {
				return
			}
		}
	}); !slices.Equal(keys, []string{"action", "id", "next_state", "tag", "terminal"}) {
		t.Errorf("* gave %v", keys)
	}
	if id := rest["id"].(*nd.Array); !nd.Equal(id, nd.MustNew([][]int64{{11}, {12}})) {
		t.Errorf("concatenated custom id = %v, want [[11] [12]]", id)
	}
	if tag := rest["tag"].([]any); !slices.Equal(tag, []any{"t", "t"}) {
		t.Errorf("custom tag not concatenated: %v", tag)
	}
	if term := rest["terminal"].(*nd.Array); !nd.Equal(term, nd.MustNew([][]bool{{false}, {true}})) {
		t.Errorf("terminal = %v", term)
	}
	if s := arrayOf(t, res[2].(*batch.Batch), "state"); !nd.Equal(s, nd.MustNew([][]float64{{11}, {12}})) {
		t.Errorf("state = %v", s)
	}
	// Without concatenation: lists.
	_, res, err = m.SampleBatch(2, false, newest, []string{"state", "reward"}, nil, rng)
	if err != nil {
		t.Fatal(err)
	}
	if st := res[0].(map[string][]*nd.Array)["state"]; len(st) != 2 || !nd.Equal(st[1], nd.MustNew([][]float64{{12}})) {
		t.Errorf("unconcatenated state = %v", st)
	}
	if rw := res[1].([]*nd.Array); len(rw) != 2 || !nd.Equal(rw[0], nd.MustNew([][]float64{{11}})) {
		t.Errorf("unconcatenated reward = %v", rw)
	}
	// Errors.
	if _, _, err := m.SampleBatch(2, true, newest, []string{"nope"}, nil, rng); !errors.Is(err, buffer.ErrKey) {
		t.Errorf("unknown attribute: %v", err)
	}
	if _, _, err := m.SampleBatch(2, true, newest, []string{"tag"}, []string{"tag"}, rng); !errors.Is(err, buffer.ErrType) {
		t.Errorf("concatenating strings: %v", err)
	}
	bad := func(*buffer.Memory, int, *rand.Rand) ([]int, error) { return []int{99}, nil }
	if _, _, err := m.SampleBatch(1, true, bad, nil, nil, rng); !errors.Is(err, buffer.ErrIndex) {
		t.Errorf("method returning a bad slot: %v", err)
	}
	if n, res, err := (&buffer.Memory{}).SampleBatch(3, true, nil, nil, nil, rng); n != 0 || res != nil || err != nil {
		t.Errorf("empty memory: %d %v %v", n, res, err)
	}
}

func TestTransitionErrors(t *testing.T) {
	ok := batch.MustNew("s", nd.Zeros(nd.Float32, 1, 3))
	for _, c := range []struct {
		name       string
		major, sub *batch.Batch
		custom     map[string]any
		kind       error
		path       string
	}{
		{"major not a Batch", batch.MustNew("state", nd.Zeros(nd.Float32, 1, 3)), nil, nil, buffer.ErrType, "state"},
		{"major batch size 2", batch.MustNew("state", batch.MustNew("s", nd.Zeros(nd.Float32, 2, 3))), nil, nil, buffer.ErrType, "state.s"},
		{"major scalar", batch.MustNew("state", batch.MustNew("s", 1.0)), nil, nil, buffer.ErrType, "state.s"},
		{"sub string", batch.MustNew("state", ok), batch.MustNew("reward", "high"), nil, buffer.ErrType, "reward"},
		{"sub batch size 3", batch.MustNew("state", ok), batch.MustNew("reward", []float64{1, 2, 3}), nil, buffer.ErrType, "reward"},
		{"custom array", batch.MustNew("state", ok), nil, map[string]any{"x": nd.Zeros(nd.Float32, 1)}, buffer.ErrType, "x"},
		{"custom array in a list", batch.MustNew("state", ok), nil, map[string]any{"x": []any{1, nd.Zeros(nd.Float32, 1)}}, buffer.ErrType, "x"},
		{"name twice", batch.MustNew("state", ok), batch.MustNew("state", 1.0), nil, buffer.ErrKey, "state"},
		{"star", batch.MustNew("*", ok), nil, nil, buffer.ErrKey, "*"},
	} {
		_, err := buffer.NewTransition(c.major, c.sub, c.custom)
		var e *buffer.Error
		if !errors.Is(err, c.kind) || !errors.As(err, &e) || e.Path != c.path {
			t.Errorf("%s: %v, want %v naming %q", c.name, err, c.kind, c.path)
		}
	}
	// Stored values are copies.
	a := nd.MustNew([][]float64{{1, 2}})
	list := []int{1, 2}
	tr, err := buffer.NewTransition(batch.MustNew("state", batch.MustNew("s", a)), batch.MustNew("reward", 2.0), map[string]any{"list": list})
	if err != nil {
		t.Fatal(err)
	}
	a.SetIndex(9.0, nd.I(0), nd.I(0))
	list[0] = 9
	if got := arrayOf(t, tr.Major("state"), "s"); got.At(0, 0) != 1.0 {
		t.Errorf("major attribute shares the caller's array: %v", got)
	}
	if v, _ := tr.Custom("list"); v.([]int)[0] != 1 {
		t.Errorf("custom attribute shares the caller's slice: %v", v)
	}
	if r := tr.Sub("reward"); !slices.Equal(r.Shape(), []int{1, 1}) {
		t.Errorf("scalar sub attribute has shape %v, want [1 1]", r.Shape())
	}
	if tr.Kind("state") != buffer.Major || tr.Kind("reward") != buffer.Sub || tr.Kind("list") != buffer.Custom || tr.Kind("x") != 0 {
		t.Errorf("kinds: %v %v %v", tr.Kind("state"), tr.Kind("reward"), tr.Kind("list"))
	}
	// Append checks required and matching attributes.
	m, _ := buffer.NewMemory(4, buffer.DefaultRequired...)
	if _, err := m.Append(tr); !errors.Is(err, buffer.ErrKey) {
		t.Errorf("Append without required attributes: %v", err)
	}
	m2, _ := buffer.NewMemory(4)
	m2.Append(machinTransition(t, nil))
	if _, err := m2.Append(machinTransition(t, map[string]any{"extra": 1})); !errors.Is(err, buffer.ErrKey) {
		t.Errorf("Append with other attributes: %v", err)
	}
}

func TestPrioritizedMemory(t *testing.T) {
	p, err := buffer.NewPrioritizedMemory(4, buffer.MemoryPriorityConfig{Epsilon: 1e-9, Alpha: 1, Beta: 0.5, BetaIncrement: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if _, err := p.AppendPriority(machinTransition(t, map[string]any{"id": i}), float64(i+1)); err != nil {
			t.Fatal(err)
		}
	}
	rng := testrand.New(t, 2)
	counts := make([]float64, 4)
	const rounds = 20000
	for range rounds {
		n, _, slots, w, err := p.SampleBatch(2, true, []string{"reward"}, nil, rng)
		if err != nil || n != 2 || len(w) != 2 {
			t.Fatal(n, err)
		}
		for _, s := range slots {
			counts[s]++
		}
	}
	// P(slot i) = (i+1)/10.
	for i, c := range counts {
		if want := float64(i+1) / 10; math.Abs(c/(2*rounds)-want) > 0.01 {
			t.Errorf("slot %d drawn %.4f of the time, want %.2f", i, c/(2*rounds), want)
		}
	}
	if p.Beta() != 1 {
		t.Errorf("β after annealing = %v, want 1", p.Beta())
	}
	// Weights: (4·P)^(−β) normalized by the maximum, with β = 1 now.
	_, _, slots, w, _ := p.SampleBatch(4, false, []string{"id"}, nil, rng)
	lo := 1.0
	for _, s := range slots {
		lo = min(lo, float64(s+1)/10)
	}
	for k, s := range slots {
		if want := (lo / (float64(s+1) / 10)); math.Abs(w[k]-want) > 1e-9 {
			t.Errorf("weight of slot %d = %v, want %v", s, w[k], want)
		}
	}
	if err := p.UpdatePriority([]int{0, 1}, []float64{math.NaN(), 1}); !errors.Is(err, buffer.ErrValue) {
		t.Errorf("NaN priority: %v", err)
	}
	if err := p.UpdatePriority([]int{0, 1, 2, 3}, []float64{0, 0, 0, 5}); err != nil {
		t.Fatal(err)
	}
	_, _, slots, _, _ = p.SampleBatch(8, false, nil, nil, rng)
	for _, s := range slots {
		if s != 3 {
			t.Errorf("after UpdatePriority drew slot %d, want 3 (the others have priority ε)", s)
		}
	}
	// New transitions get the largest priority so far.
	slot, err := p.Append(machinTransition(t, map[string]any{"id": 9}))
	if err != nil || slot != 0 {
		t.Fatal(slot, err)
	}
}
