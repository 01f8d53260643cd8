package trainer

import (
	"errors"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/nd"
)

// TestTrackedResume saves a tracked env mid-episode and restores it into
// another: the next Reset hands back the saved observation, and the episode
// continues with its running return.
func TestTrackedResume(t *testing.T) {
	a := newTracked(envtest.MustNew(envtest.Config{Lengths: []int{5}}), true)
	if _, _, err := a.Reset(env.SeedOf(1)); err != nil {
		t.Fatal(err)
	}
	act := nd.MustNew(int64(0))
	for range 3 {
		if _, _, _, _, _, err := a.Step(act); err != nil {
			t.Fatal(err)
		}
	}
	state, err := a.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	b := newTracked(envtest.MustNew(envtest.Config{Lengths: []int{5}}), true)
	if err := b.UnmarshalState(state); err != nil {
		t.Fatal(err)
	}
	obs, _, err := b.Reset(env.SeedOf(99)) // the seed is ignored: the episode goes on
	if err != nil {
		t.Fatal(err)
	}
	// The Fake's observation is [ID, episode, step].
	if got := nd.ToSlice[float32](obs.(*nd.Array)); got[2] != 3 {
		t.Errorf("observation after the restoring Reset %v, want step 3", got)
	}
	for range 2 {
		if _, _, _, _, _, err := b.Step(act); err != nil {
			t.Fatal(err)
		}
	}
	if eps := b.drain(nil); len(eps) != 1 || eps[0].ret != 5 || eps[0].len != 5 {
		t.Errorf("finished episodes %v, want one of return 5 and length 5", eps)
	}
	// A test env (not resumable) is reset for real.
	c := newTracked(envtest.MustNew(envtest.Config{Lengths: []int{5}}), false)
	if err := c.UnmarshalState(state); err != nil {
		t.Fatal(err)
	}
	obs, _, _ = c.Reset(env.NoSeed)
	if got := nd.ToSlice[float32](obs.(*nd.Array)); got[2] != 0 {
		t.Errorf("a test env was not reset: %v", got)
	}
	if err := b.UnmarshalState(state[:len(state)-3]); !errors.Is(err, env.ErrState) {
		t.Errorf("truncated state: %v, want ErrState", err)
	}
}

// FuzzTrackedState feeds arbitrary bytes to a tracked env's UnmarshalState:
// it must never panic, and a state it accepts must marshal again.
func FuzzTrackedState(f *testing.F) {
	e := newTracked(envtest.MustNew(envtest.Config{Lengths: []int{5}}), true)
	e.Reset(env.SeedOf(1))
	e.Step(nd.MustNew(int64(1)))
	s, err := e.MarshalState()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(s)
	f.Add([]byte(trackedTag + "\x00"))
	f.Add([]byte(trackedTag + "\x03\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e := newTracked(envtest.MustNew(envtest.Config{Lengths: []int{5}}), true)
		if err := e.UnmarshalState(data); err != nil {
			return
		}
		if _, err := e.MarshalState(); err != nil {
			t.Errorf("a restored state does not marshal: %v", err)
		}
	})
}
