package buffer_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
)

func vecStep(obs []int64, term []bool) *batch.Batch {
	rew := make([]float64, len(obs))
	for i := range rew {
		rew[i] = 1
	}
	return batch.MustNew("obs", obs, "act", obs, "rew", rew, "terminated", term, "truncated", make([]bool, len(obs)))
}

// TestVectorEpisodes follows a hand-computed sequence in a Vector of two
// sub-buffers of 5 (indices 0–4 and 5–9) with unequal fill.
func TestVectorEpisodes(t *testing.T) {
	b, err := buffer.NewVector(buffer.Config{Size: 10}, 2)
	if err != nil {
		t.Fatal(err)
	}
	var steps []buffer.Step
	add := func(ids []int, obs []int64, term []bool) []buffer.Step {
		t.Helper()
		var err error
		steps, err = b.Add(vecStep(obs, term), ids, steps[:0])
		if err != nil {
			t.Fatal(err)
		}
		return steps
	}
	if s := add([]int{0, 1}, []int64{0, 100}, []bool{false, false}); s[0].Index != 0 || s[1].Index != 5 {
		t.Errorf("first add stored at %v, want indices 0 and 5", s)
	}
	s := add([]int{0}, []int64{1}, []bool{true})
	if want := (buffer.Step{Index: 1, EpisodeReturn: 2, EpisodeLen: 2, EpisodeStart: 0}); s[0] != want {
		t.Errorf("episode end in sub-buffer 0: %+v, want %+v", s[0], want)
	}
	s = add([]int{1, 0}, []int64{101, 2}, []bool{false, false})
	if want := []buffer.Step{{Index: 6, EpisodeStart: 5}, {Index: 2, EpisodeStart: 2}}; !slices.Equal(s, want) {
		t.Errorf("rows to sub-buffers 1, 0: %+v, want %+v", s, want)
	}
	s = add(nil, []int64{3, 102}, []bool{false, true})
	if want := []buffer.Step{{Index: 3, EpisodeStart: 2}, {Index: 7, EpisodeReturn: 3, EpisodeLen: 3, EpisodeStart: 5}}; !slices.Equal(s, want) {
		t.Errorf("default ids: %+v, want %+v", s, want)
	}
	if b.Len() != 7 {
		t.Errorf("Len = %d, want 7", b.Len())
	}
	idx := b.SampleIndices(0, nil)
	if want := []int{0, 1, 2, 3, 5, 6, 7}; !slices.Equal(idx, want) {
		t.Fatalf("SampleIndices(0) = %v, want %v", idx, want)
	}
	if got, want := b.Prev(idx), []int{0, 0, 2, 2, 5, 5, 6}; !slices.Equal(got, want) {
		t.Errorf("Prev = %v, want %v", got, want)
	}
	if got, want := b.Next(idx), []int{1, 1, 3, 3, 6, 7, 7}; !slices.Equal(got, want) {
		t.Errorf("Next = %v, want %v", got, want)
	}
	if got, want := b.UnfinishedIndex(), []int{3}; !slices.Equal(got, want) {
		t.Errorf("UnfinishedIndex = %v, want %v", got, want)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, g := range b.SampleIndices(200, rng) {
		if !slices.Contains(idx, g) {
			t.Fatalf("sampled index %d is not stored", g)
		}
	}
	all, err := b.Take(idx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := arrayOf(t, all, "obs"), nd.MustNew([]int64{0, 1, 2, 3, 100, 101, 102}); !nd.Equal(got, want) {
		t.Errorf("obs in time order = %v, want %v", got, want)
	}
}

// cartPoleStep is one CartPole-shaped transition (obs float32[4]).
func cartPoleStep(i int, done bool) *batch.Batch {
	f := float32(i)
	return batch.MustNew(
		"obs", []float32{f, f + 0.1, f + 0.2, f + 0.3},
		"act", int64(i%2),
		"rew", 1.0,
		"terminated", done,
		"truncated", false,
		"obs_next", []float32{f + 1, f + 1.1, f + 1.2, f + 1.3},
	)
}

func TestAddAndSampleToDoNotAllocate(t *testing.T) {
	b := mustReplay(t, buffer.Config{Size: 1000})
	data := cartPoleStep(1, false)
	steps := make([]buffer.Step, 0, 1)
	var err error
	if allocs := testing.AllocsPerRun(100, func() {
		if steps, err = b.Add(data, nil, steps[:0]); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("Add: %v allocations, want 0", allocs)
	}
	dst := &batch.Batch{}
	idx := make([]int, 64)
	rng := rand.New(rand.NewPCG(1, 1))
	if err := b.SampleTo(dst, idx, rng); err != nil {
		t.Fatal(err)
	}
	if allocs := testing.AllocsPerRun(100, func() {
		if err := b.SampleTo(dst, idx, rng); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("SampleTo: %v allocations, want 0", allocs)
	}
}

func TestVectorAddDoesNotAllocate(t *testing.T) {
	b, err := buffer.NewVector(buffer.Config{Size: 800}, 8)
	if err != nil {
		t.Fatal(err)
	}
	obs := make([][]float32, 8)
	for i := range obs {
		obs[i] = []float32{1, 2, 3, 4}
	}
	data := batch.MustNew("obs", obs, "act", make([]int64, 8), "rew", make([]float64, 8),
		"terminated", make([]bool, 8), "truncated", make([]bool, 8), "obs_next", obs)
	steps := make([]buffer.Step, 0, 8)
	if allocs := testing.AllocsPerRun(100, func() {
		if steps, err = b.Add(data, nil, steps[:0]); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("Vector.Add: %v allocations, want 0", allocs)
	}
}
