package buffer_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/batch/batchtest"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
)

func step(obs int, rew float64, terminated, truncated bool) *batch.Batch {
	return batch.MustNew("obs", obs, "act", obs, "rew", rew, "terminated", terminated, "truncated", truncated, "obs_next", obs+1)
}

// TestWrapAround fills a ring of 5 with 8 steps: an episode terminated at
// step 2, one truncated at step 6 (crossing the ring boundary), and an
// unfinished one. Expected values computed by hand from Tianshou's rules.
func TestWrapAround(t *testing.T) {
	b := mustReplay(t, buffer.Config{Size: 5})
	var steps []buffer.Step
	for i := range 8 {
		s := mustAdd(t, b, step(i, float64(i), i == 2, i == 6), nil)
		steps = append(steps, s...)
	}
	want := []buffer.Step{
		{Index: 0}, {Index: 1}, {Index: 2, EpisodeReturn: 3, EpisodeLen: 3},
		{Index: 3, EpisodeStart: 3}, {Index: 4, EpisodeStart: 3}, {Index: 0, EpisodeStart: 3},
		{Index: 1, EpisodeReturn: 3 + 4 + 5 + 6, EpisodeLen: 4, EpisodeStart: 3},
		{Index: 2, EpisodeStart: 2},
	}
	if !slices.Equal(steps, want) {
		t.Errorf("steps =\n%+v\nwant\n%+v", steps, want)
	}
	if got, want := arrayOf(t, b.Data(), "obs"), nd.MustNew([]int64{5, 6, 7, 3, 4}); !nd.Equal(got, want) {
		t.Errorf("obs = %v, want %v", got, want)
	}
	if b.Len() != 5 {
		t.Errorf("Len = %d, want 5", b.Len())
	}
	idx := b.SampleIndices(0, nil)
	if want := []int{3, 4, 0, 1, 2}; !slices.Equal(idx, want) {
		t.Errorf("chronological indices = %v, want %v", idx, want)
	}
	if got, want := b.Prev(idx), []int{3, 3, 4, 0, 2}; !slices.Equal(got, want) {
		t.Errorf("Prev = %v, want %v", got, want)
	}
	if got, want := b.Next(idx), []int{4, 0, 1, 1, 2}; !slices.Equal(got, want) {
		t.Errorf("Next = %v, want %v", got, want)
	}
	if got := b.UnfinishedIndex(); !slices.Equal(got, []int{2}) {
		t.Errorf("UnfinishedIndex = %v, want [2]", got)
	}
	// Truncated, not terminated: done but no termination.
	if b.Terminated()[1] || !b.Truncated()[1] || !b.Done()[1] {
		t.Errorf("flags at 1: terminated %v truncated %v done %v, want false true true", b.Terminated()[1], b.Truncated()[1], b.Done()[1])
	}
	all, err := b.Take(idx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := arrayOf(t, all, "obs"), nd.MustNew([]int64{3, 4, 5, 6, 7}); !nd.Equal(got, want) {
		t.Errorf("buf[:].obs = %v, want %v", got, want)
	}
	b.Reset()
	if b.Len() != 0 || len(b.SampleIndices(0, nil)) != 0 || len(b.UnfinishedIndex()) != 0 {
		t.Errorf("after Reset: Len %d, indices %v", b.Len(), b.SampleIndices(0, nil))
	}
	if s := mustAdd(t, b, step(9, 1, false, false), nil); s[0].Index != 0 || s[0].EpisodeStart != 0 {
		t.Errorf("first Add after Reset: %+v", s[0])
	}
}

// TestStackStoredObsNext checks frame stacking of a stored obs_next near
// an episode start and across the ring start: obs_next stacks like obs,
// over the previous steps of the episode.
func TestStackStoredObsNext(t *testing.T) {
	b := mustReplay(t, buffer.Config{Size: 4, StackNum: 3})
	for i := range 6 { // episodes 0..1 (done at 1) and 2..5
		mustAdd(t, b, step(i, 0, i == 1, false), nil)
	}
	// Positions: 0→4, 1→5, 2→2, 3→3.
	got, err := b.Take([]int{2, 3, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	wantObs := nd.MustNew([][]int64{{2, 2, 2}, {2, 2, 3}, {2, 3, 4}, {3, 4, 5}})
	wantNext := nd.MustNew([][]int64{{3, 3, 3}, {3, 3, 4}, {3, 4, 5}, {4, 5, 6}})
	if o := arrayOf(t, got, "obs"); !nd.Equal(o, wantObs) {
		t.Errorf("obs = %v, want %v", o, wantObs)
	}
	if o := arrayOf(t, got, "obs_next"); !nd.Equal(o, wantNext) {
		t.Errorf("obs_next = %v, want %v", o, wantNext)
	}
	if a := arrayOf(t, got, "act"); !nd.Equal(a, nd.MustNew([]int64{2, 3, 4, 5})) {
		t.Errorf("act is not stacked: %v", a)
	}
}

// TestSaveOnlyLastObs stores only the newest of 4 stacked frames and
// rebuilds the stacks when sampling: the sampled obs equal the stacks the
// environment gave (which repeat the episode's first frame).
func TestSaveOnlyLastObs(t *testing.T) {
	const frames = 4
	b := mustReplay(t, buffer.Config{Size: 6, StackNum: frames, IgnoreObsNext: true, SaveOnlyLastObs: true})
	frame := func(i int) []uint8 { return []uint8{uint8(i), uint8(100 + i)} }
	var given [][][]uint8
	start := 0
	for i := range 9 {
		stack := make([][]uint8, frames)
		for k := range frames {
			stack[k] = frame(max(start, i-frames+1+k))
		}
		given = append(given, stack)
		done := i == 3
		mustAdd(t, b, batch.MustNew("obs", stack, "act", i, "rew", 1.0, "terminated", done, "truncated", false,
			"obs_next", stack), nil)
		if done {
			start = i + 1
		}
	}
	if s := arrayOf(t, b.Data(), "obs").Shape(); !slices.Equal(s, []int{6, 2}) {
		t.Fatalf("stored obs shape %v, want [6 2] (one frame per transition)", s)
	}
	idx := b.SampleIndices(0, nil) // steps 3..8
	got, err := b.Take(idx)
	if err != nil {
		t.Fatal(err)
	}
	obs := arrayOf(t, got, "obs")
	for k := range idx {
		want := nd.MustNew(given[3+k])
		// Step 3 ends the first episode, whose frames 0..2 were
		// overwritten: its stack pads with the oldest stored frame.
		if k == 0 {
			want = nd.MustNew([][]uint8{frame(3), frame(3), frame(3), frame(3)})
		}
		if row := obs.Index(nd.I(k)); !nd.Equal(row, want) {
			t.Errorf("obs of step %d = %v, want %v", 3+k, row, want)
		}
	}
	if next := arrayOf(t, got, "obs_next").Index(nd.I(1)); !nd.Equal(next, nd.MustNew(given[5])) {
		t.Errorf("derived obs_next of step 4 = %v, want the obs of step 5 %v", next, given[5])
	}
}

// TestSampleAvail: with stack 3 only indices with two earlier steps in
// their episode are sampled (hand-computed: 4 and 5).
func TestSampleAvail(t *testing.T) {
	b := mustReplay(t, buffer.Config{Size: 10, StackNum: 3, SampleAvail: true})
	for i := range 8 {
		mustAdd(t, b, step(i, 0, i == 1 || i == 5, false), nil)
	}
	if got := b.SampleIndices(0, nil); !slices.Equal(got, []int{4, 5}) {
		t.Errorf("SampleIndices(0) = %v, want [4 5]", got)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	seen := map[int]int{}
	for _, g := range b.SampleIndices(1000, rng) {
		seen[g]++
	}
	if len(seen) != 2 || seen[4] == 0 || seen[5] == 0 {
		t.Errorf("sampled %v, want only 4 and 5", seen)
	}
	// Without SampleAvail every stored index is drawn.
	b2 := mustReplay(t, buffer.Config{Size: 10, StackNum: 3})
	for i := range 8 {
		mustAdd(t, b2, step(i, 0, i == 1 || i == 5, false), nil)
	}
	if got := b2.SampleIndices(0, nil); len(got) != 8 {
		t.Errorf("without SampleAvail: %v", got)
	}
}

// TestSchemaGrows: keys appearing later extend the storage (earlier rows
// zero), keys missing later are stored as zero, strings and custom leaves
// go into Object arrays and leaves are restacked when sampled.
func TestSchemaGrows(t *testing.T) {
	b := mustReplay(t, buffer.Config{Size: 4})
	mustAdd(t, b, batch.MustNew("obs", 0, "act", 0, "rew", 0, "terminated", false, "truncated", false, "info", &batch.Batch{}), nil)
	mustAdd(t, b, batch.MustNew("obs", 1, "act", 1, "rew", 0, "terminated", false, "truncated", false,
		"info", batch.MustNew("x", 2.5, "msg", "hi")), nil)
	probs := nd.MustNew([]float64{0.25, 0.75})
	dist, err := batchtest.NewCategorical(probs)
	if err != nil {
		t.Fatal(err)
	}
	mustAdd(t, b, batch.MustNew("obs", 2, "act", 2, "rew", 0, "terminated", false, "truncated", false,
		"policy", batch.MustNew("dist", dist)), nil)
	got, err := b.Take([]int{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if x := arrayOf(t, got, "info.x"); !nd.Equal(x, nd.MustNew([]float64{0, 2.5, 0})) {
		t.Errorf("info.x = %v, want [0 2.5 0]", x)
	}
	if m := arrayOf(t, got, "info.msg"); !nd.Equal(m, nd.MustNew([]any{nil, "hi", nil})) {
		t.Errorf("info.msg = %v, want [None 'hi' None]", m)
	}
	// Row 0 and 1 have no distribution: the column stays an Object array.
	if d, _ := got.Get("policy.dist"); d == nil {
		t.Error("policy.dist missing")
	}
	only, err := b.Take([]int{2, 2})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := only.Get("policy.dist")
	c, ok := d.(*batchtest.Categorical)
	if !ok || !slices.Equal(c.BatchShape(), []int{2}) || !nd.Equal(c.Probs.Index(nd.I(1)), probs) {
		t.Errorf("policy.dist = %v, want a Categorical of batch shape [2] restacked from the stored rows", d)
	}
	// A leaf before other keys: the keys after it are sampled too.
	b2 := mustReplay(t, buffer.Config{Size: 2})
	mustAdd(t, b2, batch.MustNew("obs", 0, "act", 0, "rew", 0, "terminated", false, "truncated", false,
		"info", batch.MustNew("dist", dist), "policy", batch.MustNew("logp", -1.5)), nil)
	two, err := b2.Take([]int{0})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := two.Get("info.dist"); !ok || !two.Has("policy.logp") {
		t.Errorf("sampled %v, want info.dist and policy.logp", two)
	}
	keys := slices.Collect(got.Keys())
	if want := []string{"obs", "act", "rew", "terminated", "truncated", "done", "info", "policy"}; !slices.Equal(keys, want) {
		t.Errorf("sampled keys %v, want %v", keys, want)
	}
}

func TestAddErrors(t *testing.T) {
	b := mustReplay(t, buffer.Config{Size: 4})
	mustAdd(t, b, step(0, 1, false, false), nil)
	before := b.Data().String()
	for _, tc := range []struct {
		name string
		data *batch.Batch
		kind error
		path string
	}{
		{"missing rew", batch.MustNew("obs", 1, "act", 1, "terminated", false, "truncated", false), buffer.ErrKey, "rew"},
		{"missing truncated", batch.MustNew("obs", 1, "act", 1, "rew", 1, "terminated", false), buffer.ErrKey, "truncated"},
		{"float action into int", batch.MustNew("obs", 1, "act", 0.5, "rew", 1, "terminated", false, "truncated", false), buffer.ErrType, "act"},
		{"vector reward", batch.MustNew("obs", 1, "act", 1, "rew", []float64{1, 2}, "terminated", false, "truncated", false), buffer.ErrType, "rew"},
		{"obs of another shape", batch.MustNew("obs", []int{1, 2}, "act", 1, "rew", 1, "terminated", false, "truncated", false), buffer.ErrType, "obs"},
		{"Batch for an array", batch.MustNew("obs", batch.MustNew("x", 1), "act", 1, "rew", 1, "terminated", false, "truncated", false), buffer.ErrType, "obs"},
		{"string flag", batch.MustNew("obs", 1, "act", 1, "rew", 1, "terminated", "yes", "truncated", false), buffer.ErrType, "terminated"},
		{"Batch reward", batch.MustNew("obs", 1, "act", 1, "rew", batch.MustNew("a", 1), "terminated", false, "truncated", false), buffer.ErrType, "rew"},
		{"late new key with a bad obs", batch.MustNew("obs", 1.5, "act", 1, "rew", 1, "terminated", false, "truncated", false, "extra", 3), buffer.ErrType, "obs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := b.Add(tc.data, nil, nil)
			var e *buffer.Error
			if !errors.Is(err, tc.kind) || !errors.As(err, &e) || e.Path != tc.path {
				t.Fatalf("error %v, want %v naming %q", err, tc.kind, tc.path)
			}
			if b.Len() != 1 || b.Data().String() != before {
				t.Errorf("buffer changed by a failed Add")
			}
		})
	}
	// A string reward on a fresh buffer.
	fresh := mustReplay(t, buffer.Config{Size: 2})
	if _, err := fresh.Add(batch.MustNew("obs", "text", "act", 1, "rew", "high", "terminated", false, "truncated", false), nil, nil); !errors.Is(err, buffer.ErrType) || fresh.Len() != 0 {
		t.Errorf("string reward: %v", err)
	}
	// Object observations (strings) are stored.
	mustAdd(t, fresh, batch.MustNew("obs", "text", "act", 1, "rew", 1, "terminated", false, "truncated", false), nil)
	// Flags given as numbers are stored as value ≠ 0.
	mustAdd(t, b, batch.MustNew("obs", 2, "act", 2, "rew", 1, "terminated", 1, "truncated", 0.0), nil)
	if !b.Terminated()[1] || b.Truncated()[1] || !b.Done()[1] {
		t.Errorf("numeric flags: terminated %v truncated %v", b.Terminated()[1], b.Truncated()[1])
	}
}

func TestPanics(t *testing.T) {
	v, err := buffer.NewVector(buffer.Config{Size: 4}, 2)
	if err != nil {
		t.Fatal(err)
	}
	mustPanic := func(name string, kind error, f func()) {
		t.Helper()
		defer func() {
			r := recover()
			e, ok := r.(*buffer.Error)
			if !ok || !errors.Is(e, kind) {
				t.Errorf("%s: panic %v, want a *buffer.Error wrapping %v", name, r, kind)
			}
		}()
		f()
	}
	mustPanic("bad buffer id", buffer.ErrIndex, func() {
		v.Add(vecStep([]int64{1}, []bool{false}), []int{2}, nil)
	})
	mustAdd(t, v, vecStep([]int64{1, 2}, []bool{false, false}), nil)
	mustPanic("TakeTo out of range", buffer.ErrIndex, func() { v.TakeTo(&batch.Batch{}, []int{4}) })
	mustPanic("NextTo length", buffer.ErrShape, func() { v.NextTo(make([]int, 1), []int{0, 1}) })
	mustPanic("PrevTo out of range", buffer.ErrIndex, func() { v.PrevTo(make([]int, 1), []int{-1}) })
	mustPanic("nil rng", buffer.ErrValue, func() { v.SampleIndices(3, nil) })
}

func TestEmptyBuffer(t *testing.T) {
	b := mustReplay(t, buffer.Config{Size: 3})
	rng := rand.New(rand.NewPCG(1, 1))
	if err := b.SampleTo(&batch.Batch{}, make([]int, 2), rng); !errors.Is(err, buffer.ErrEmpty) {
		t.Errorf("SampleTo on an empty buffer: %v, want ErrEmpty", err)
	}
	if _, _, err := b.Sample(2, rng); !errors.Is(err, buffer.ErrEmpty) {
		t.Errorf("Sample on an empty buffer: %v, want ErrEmpty", err)
	}
	if got := b.SampleIndices(5, rng); len(got) != 0 {
		t.Errorf("SampleIndices on an empty buffer = %v", got)
	}
	if got := b.Prev([]int{1}); !slices.Equal(got, []int{1}) {
		t.Errorf("Prev on an empty buffer = %v", got)
	}
}

// TestCached follows episodes through two caches of 3 into a main ring of
// 4 (indices 0–3 main, 4–6 cache 0, 7–9 cache 1), hand-computed.
func TestCached(t *testing.T) {
	b, err := buffer.NewCached(buffer.Config{Size: 4}, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	add := func(ids []int, obs []int64, term []bool) []buffer.Step {
		t.Helper()
		s, err := b.Add(vecStep(obs, term), ids, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := add(nil, []int64{10, 20}, []bool{false, false}); s[0].Index != 4 || s[1].Index != 7 {
		t.Errorf("first steps at %+v, want cache indices 4 and 7", s)
	}
	s := add(nil, []int64{11, 21}, []bool{true, false})
	if want := (buffer.Step{Index: 1, EpisodeReturn: 2, EpisodeLen: 2, EpisodeStart: 0}); s[0] != want {
		t.Errorf("finished episode of cache 0: %+v, want %+v (moved to main 0..1)", s[0], want)
	}
	if want := (buffer.Step{Index: 8, EpisodeStart: 7}); s[1] != want {
		t.Errorf("cache 1 step: %+v, want %+v", s[1], want)
	}
	if got := b.SampleIndices(0, nil); !slices.Equal(got, []int{0, 1, 7, 8}) {
		t.Errorf("indices after the move = %v, want [0 1 7 8]", got)
	}
	// The second episode (20, 21, 22) moves to main 2, 3 and wraps to 0,
	// overwriting 10.
	s = add([]int{1}, []int64{22}, []bool{true})
	if want := (buffer.Step{Index: 0, EpisodeReturn: 3, EpisodeLen: 3, EpisodeStart: 2}); s[0] != want {
		t.Errorf("finished episode of cache 1: %+v, want %+v", s[0], want)
	}
	idx := b.SampleIndices(0, nil)
	if !slices.Equal(idx, []int{1, 2, 3, 0}) {
		t.Errorf("indices = %v, want [1 2 3 0]", idx)
	}
	all, err := b.Take(idx)
	if err != nil {
		t.Fatal(err)
	}
	if got := arrayOf(t, all, "obs"); !nd.Equal(got, nd.MustNew([]int64{11, 20, 21, 22})) {
		t.Errorf("main ring obs = %v, want [11 20 21 22]", got)
	}
	if got := b.Next([]int{1, 2, 3}); !slices.Equal(got, []int{1, 3, 0}) {
		t.Errorf("Next in the main ring = %v, want [1 3 0]", got)
	}
	if b.Len() != 4 || len(b.UnfinishedIndex()) != 0 {
		t.Errorf("Len %d, unfinished %v", b.Len(), b.UnfinishedIndex())
	}
}

func TestUpdateDerivesObsNext(t *testing.T) {
	src := mustReplay(t, buffer.Config{Size: 5, IgnoreObsNext: true})
	for i := range 4 {
		mustAdd(t, src, step(i, 1, i == 1, false), nil)
	}
	dst := mustReplay(t, buffer.Config{Size: 3})
	mustAdd(t, dst, step(100, 1, false, false), nil)
	to, err := dst.Update(src)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(to, []int{1, 2, 0, 1}) {
		t.Errorf("Update indices = %v, want [1 2 0 1] (wrapping)", to)
	}
	got := arrayOf(t, dst.Data(), "obs_next")
	// Positions 0, 1, 2 hold src's steps 2, 3, 1, whose obs_next is derived
	// as the obs of the next step (the step itself at an episode's end and
	// at the newest step): 3, 3, 1.
	if want := nd.MustNew([]int64{3, 3, 1}); !nd.Equal(got, want) {
		t.Errorf("obs_next = %v, want %v", got, want)
	}
	// A column that cannot take the other's rows: nothing changes.
	bad := mustReplay(t, buffer.Config{Size: 3})
	mustAdd(t, bad, batch.MustNew("obs", []int{1, 2}, "act", 1, "rew", 1, "terminated", false, "truncated", false), nil)
	before := bad.Data().String()
	if _, err := bad.Update(src); !errors.Is(err, buffer.ErrType) || bad.Len() != 1 || bad.Data().String() != before {
		t.Errorf("Update with another obs shape: %v, Len %d", err, bad.Len())
	}
	if _, err := dst.Update(dst); !errors.Is(err, buffer.ErrValue) {
		t.Errorf("self update: %v", err)
	}
	if !strings.HasPrefix(dst.String(), "ReplayBuffer(\n") {
		t.Errorf("String = %q", dst.String())
	}
}

// TestRepeatedIDs sends two rows to one cache in a single Add, the first
// ending an episode: it moves alone to the main ring and the second row
// starts the next episode in the cache (hand-computed).
func TestRepeatedIDs(t *testing.T) {
	b, err := buffer.NewCached(buffer.Config{Size: 4}, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	mustAdd(t, b, vecStep([]int64{1}, []bool{false}), nil)
	s := mustAdd(t, b, vecStep([]int64{2, 3}, []bool{true, false}), []int{0, 0})
	want := []buffer.Step{{Index: 1, EpisodeReturn: 2, EpisodeLen: 2, EpisodeStart: 0}, {Index: 4, EpisodeStart: 4}}
	if !slices.Equal(s, want) {
		t.Errorf("steps %+v, want %+v", s, want)
	}
	all, err := b.Take(b.SampleIndices(0, nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := arrayOf(t, all, "obs"); !nd.Equal(got, nd.MustNew([]int64{1, 2, 3})) {
		t.Errorf("obs = %v, want [1 2 3] (main 0–1, then the emptied cache at 4)", got)
	}
}

// TestUpdateFromEmpty checks that updating from an empty buffer, itself
// included, copies nothing and is no error: Tianshou's update returns an
// empty index array when the other buffer is empty, before any other check.
// A non-empty buffer still cannot be updated from itself.
func TestUpdateFromEmpty(t *testing.T) {
	empty := mustReplay(t, buffer.Config{Size: 3})
	full := mustReplay(t, buffer.Config{Size: 3})
	mustAdd(t, full, step(1, 1, false, false), nil)
	for _, tc := range []struct {
		name     string
		dst, src *buffer.Replay
		wantLen  int
	}{
		{"empty from itself", empty, empty, 0},
		{"full from empty", full, empty, 1},
	} {
		to, err := tc.dst.Update(tc.src)
		if err != nil || to == nil || len(to) != 0 || tc.dst.Len() != tc.wantLen {
			t.Errorf("%s: Update = %v, %v; Len %d, want [], nil; Len %d", tc.name, to, err, tc.dst.Len(), tc.wantLen)
		}
	}
	if _, err := full.Update(full); !errors.Is(err, buffer.ErrValue) {
		t.Errorf("non-empty self update: %v, want ErrValue", err)
	}
}
