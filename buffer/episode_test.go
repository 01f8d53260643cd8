package buffer_test

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
)

func TestBufferNum(t *testing.T) {
	replay := mustReplay(t, buffer.Config{Size: 8})
	vector, err := buffer.NewVector(buffer.Config{Size: 12}, 3)
	if err != nil {
		t.Fatal(err)
	}
	manager, err := buffer.NewManager(buffer.Config{}, []int{2, 5})
	if err != nil {
		t.Fatal(err)
	}
	cached, err := buffer.NewCached(buffer.Config{Size: 10}, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	prio := mustPrioritized(t, buffer.Config{Size: 8}, buffer.DefaultPriorityConfig())
	prioVec, err := buffer.NewPrioritizedVector(buffer.Config{Size: 8}, 2, buffer.DefaultPriorityConfig())
	if err != nil {
		t.Fatal(err)
	}
	her, err := buffer.NewHERVector(buffer.Config{Size: 8}, 4, buffer.HERConfig{Horizon: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		b    buffer.Buffer
		want int
	}{{"Replay", replay, 1}, {"Vector", vector, 3}, {"Manager", manager, 2}, {"Cached", cached, 4},
		{"Prioritized", prio, 1}, {"PrioritizedVector", prioVec, 2}, {"HERVector", her, 4}} {
		if got := c.b.BufferNum(); got != c.want {
			t.Errorf("%s.BufferNum() = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestEndEpisode abandons an episode after three steps, as a collector does
// when it resets an env: the third step becomes truncated, Next stops there,
// and the next episode is reported on its own (length 2, starting at index
// 3), where Tianshou's bookkeeping would merge the two (length 5, start 0).
func TestEndEpisode(t *testing.T) {
	b := mustReplay(t, buffer.Config{Size: 10})
	for i := range 3 {
		mustAdd(t, b, step(i, 1, false, false), nil)
	}
	b.EndEpisode([]int{0})
	if !b.Truncated()[2] || !b.Done()[2] || b.Terminated()[2] {
		t.Fatalf("step 2: terminated %v truncated %v done %v, want false true true", b.Terminated()[2], b.Truncated()[2], b.Done()[2])
	}
	if got := b.UnfinishedIndex(); len(got) != 0 {
		t.Errorf("UnfinishedIndex = %v after EndEpisode, want none", got)
	}
	var steps []buffer.Step
	for i := 3; i < 5; i++ {
		steps = append(steps, mustAdd(t, b, step(i, 2, false, i == 4), nil)...)
	}
	if want := (buffer.Step{Index: 4, EpisodeReturn: 4, EpisodeLen: 2, EpisodeStart: 3}); steps[1] != want {
		t.Errorf("end of the next episode: %+v, want %+v", steps[1], want)
	}
	if want := (buffer.Step{Index: 3, EpisodeStart: 3}); steps[0] != want {
		t.Errorf("first step of the next episode: %+v, want %+v", steps[0], want)
	}
	all := []int{0, 1, 2, 3, 4}
	if got, want := b.Next(all), []int{1, 2, 2, 4, 4}; !slices.Equal(got, want) {
		t.Errorf("Next = %v, want %v", got, want)
	}
	if got, want := b.Prev(all), []int{0, 0, 1, 3, 3}; !slices.Equal(got, want) {
		t.Errorf("Prev = %v, want %v", got, want)
	}

	// Ending an ended episode, or one of an empty sub-buffer, changes
	// nothing.
	before, _ := batch.NewCopy("d", dataOf(b)) // Data is a view: copy it
	b.EndEpisode([]int{0, 0})
	after, _ := batch.NewCopy("d", dataOf(b))
	if !batch.Equal(before, after) {
		t.Error("EndEpisode after a done step changed the storage")
	}
	empty := mustReplay(t, buffer.Config{Size: 3})
	empty.EndEpisode([]int{0})
	if empty.Len() != 0 {
		t.Error("EndEpisode of an empty buffer added something")
	}
	func() {
		defer func() {
			if e, ok := recover().(error); !ok || !errors.Is(e, buffer.ErrIndex) {
				t.Errorf("EndEpisode([1]) of a Replay: panic %v, want ErrIndex", e)
			}
		}()
		b.EndEpisode([]int{1})
	}()
}

// TestEndEpisodeVector ends the episode of sub-buffer 1 only; sub-buffer 0
// continues its own.
func TestEndEpisodeVector(t *testing.T) {
	b, err := buffer.NewVector(buffer.Config{Size: 8}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		mustAdd(t, b, vectorStep(i, 1, false), nil) // indices 0, 1 and 4, 5
	}
	b.EndEpisode([]int{1})
	if got, want := b.Truncated(), []bool{false, false, false, false, false, true, false, false}; !slices.Equal(got, want) {
		t.Fatalf("truncated %v, want %v", got, want)
	}
	steps := mustAdd(t, b, vectorStep(2, 1, true), nil) // indices 2 and 6, both done
	want := []buffer.Step{{Index: 2, EpisodeReturn: 3, EpisodeLen: 3, EpisodeStart: 0}, {Index: 6, EpisodeReturn: 1, EpisodeLen: 1, EpisodeStart: 6}}
	if !slices.Equal(steps, want) {
		t.Errorf("steps %+v, want %+v", steps, want)
	}
}

// vectorStep is one step of two envs with the given reward and done flag.
func vectorStep(i int, rew float64, done bool) *batch.Batch {
	return batch.MustNew("obs", []int64{int64(i), int64(10 + i)}, "act", []int64{0, 0}, "rew", []float64{rew, rew},
		"terminated", []bool{done, done}, "truncated", []bool{false, false})
}

// TestEndEpisodeCached moves cache 0's partial episode, now truncated, into
// the main ring, in order, and empties the cache; cache 1 is untouched.
func TestEndEpisodeCached(t *testing.T) {
	b, err := buffer.NewCached(buffer.Config{Size: 6}, 2, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		mustAdd(t, b, vectorStep(i, 1, false), nil)
	}
	// Layout | main 0-5 | cache 0: 6-9 | cache 1: 10-13 |.
	b.EndEpisode([]int{0})
	if got, want := b.SampleIndices(0, nil), []int{0, 1, 2, 10, 11, 12}; !slices.Equal(got, want) {
		t.Fatalf("indices %v, want %v (cache 0's episode in the main ring)", got, want)
	}
	obs, err := b.Get([]int{0, 1, 2}, "obs")
	if err != nil {
		t.Fatal(err)
	}
	if got := batch.MustNew("o", obs); !batch.Equal(got, batch.MustNew("o", []int64{0, 1, 2})) {
		t.Errorf("moved obs %v, want [0 1 2]", obs)
	}
	if got, want := b.Truncated()[:3], []bool{false, false, true}; !slices.Equal(got, want) {
		t.Errorf("main truncated %v, want %v", got, want)
	}
	// Both caches end an episode: cache 0's new one (1 step) goes to main
	// index 3, cache 1's (4 steps) to 4, 5, 0, 1, wrapping the main ring.
	steps := mustAdd(t, b, vectorStep(3, 1, true), nil)
	want := []buffer.Step{{Index: 3, EpisodeReturn: 1, EpisodeLen: 1, EpisodeStart: 3}, {Index: 1, EpisodeReturn: 4, EpisodeLen: 4, EpisodeStart: 4}}
	if !slices.Equal(steps, want) {
		t.Errorf("steps %+v, want %+v", steps, want)
	}
}

// TestEndEpisodeSaved checks that an ended episode's bookkeeping survives
// Save and Load: the loaded buffer reports the next episode as the original
// does.
func TestEndEpisodeSaved(t *testing.T) {
	b := mustPrioritized(t, buffer.Config{Size: 8}, buffer.DefaultPriorityConfig())
	for i := range 3 {
		mustAdd(t, b, step(i, 1, false, false), nil)
	}
	b.EndEpisode([]int{0})
	var file bytes.Buffer
	if err := b.Save(&file); err != nil {
		t.Fatal(err)
	}
	loaded, err := buffer.Load(bytes.NewReader(file.Bytes()), int64(file.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []buffer.Buffer{b, loaded} {
		got := mustAdd(t, x, step(3, 5, true, false), nil)
		if want := (buffer.Step{Index: 3, EpisodeReturn: 5, EpisodeLen: 1, EpisodeStart: 3}); got[0] != want {
			t.Errorf("%T: %+v, want %+v", x, got[0], want)
		}
	}
}
