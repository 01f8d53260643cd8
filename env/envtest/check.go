package envtest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// MaxCheckSteps bounds the steps Check takes in one episode; an env whose
// episode does not end by then (an env without time limit, say) is checked
// without its end.
const MaxCheckSteps = 2000

// Check tests that e behaves as the env.Env contract says, after
// testing/fstest.TestFS, and reports each violation with t.Errorf:
//
//   - both spaces are non-nil, print, equal themselves, contain their
//     samples, and fill a batch of samples with SampleTo;
//   - Reset with a seed returns an observation in the observation space;
//     every Step with a sampled action returns one, and a finite reward;
//   - two Resets with the same seed followed by the same actions give the
//     same observations, rewards and flags;
//   - after an episode ends, Step returns an error wrapping
//     env.ErrNeedReset, and Reset starts a new episode (with or without a
//     seed);
//   - a Stater (unless it returns errors.ErrUnsupported) restores a saved state so that the same actions give the
//     same results again, and rejects truncated data with an error wrapping
//     env.ErrState, unchanged;
//   - a Renderer (unless it returns errors.ErrUnsupported) renders a non-empty frame after Reset;
//   - Close returns nil, twice.
//
// The reproducibility test assumes that a seed determines an episode, as
// Gymnasium's env checker does; freeze wrappers that carry statistics from
// one episode to the next (NormalizeObservation, NormalizeReward) before
// checking them. Check uses e and closes it. It calls only t.Helper,
// t.Errorf and t.Logf.
func Check(t testing.TB, e env.Env) {
	t.Helper()
	c := &checker{t: t, e: e, rng: rand.New(rand.NewPCG(1, 2))}
	if !c.spaces() {
		return
	}
	if c.episodes() {
		c.state()
		c.render()
	}
	if err := e.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v, want nil", err)
	}
}

type checker struct {
	t   testing.TB
	e   env.Env
	rng *rand.Rand
}

// step is what one Step returned, with the observation copied.
type step struct {
	obs         any
	reward      float64
	term, trunc bool
}

func (c *checker) errorf(format string, args ...any) {
	c.t.Helper()
	c.t.Errorf(format, args...)
}

// spaces checks both spaces; it reports whether Check can go on.
func (c *checker) spaces() bool {
	c.t.Helper()
	ok := true
	for _, s := range []struct {
		name  string
		space env.Space
	}{{"ObservationSpace", c.e.ObservationSpace()}, {"ActionSpace", c.e.ActionSpace()}} {
		if s.space == nil {
			c.errorf("%s() is nil", s.name)
			ok = false
			continue
		}
		if s.space.String() == "" {
			c.errorf("%s().String() is empty", s.name)
		}
		if !s.space.Equal(s.space) {
			c.errorf("%s() %v does not equal itself", s.name, s.space)
		}
		for i := 0; i < 20; i++ {
			if x := s.space.Sample(c.rng); !s.space.Contains(x) {
				c.errorf("%s() %v does not contain its sample %v", s.name, s.space, x)
				break
			}
		}
		c.sampleTo(s.name, s.space)
	}
	return ok
}

// sampleTo checks that SampleTo fills a batch of 3 values: an array for an
// array space, a Batch of such arrays for Dict and Tuple spaces.
func (c *checker) sampleTo(name string, s env.Space) {
	c.t.Helper()
	var dst any
	var row func(i int) any
	switch v := s.Sample(c.rng).(type) {
	case *nd.Array:
		a := nd.Zeros(v.DType(), append([]int{3}, v.Shape()...)...)
		dst, row = a, func(i int) any { return a.Index(nd.I(i)) }
	case *batch.Batch:
		b := batch.ZerosStacked(v, 3)
		dst, row = b, func(i int) any { return b.Index(nd.I(i)) }
	default:
		c.errorf("%s() %v samples a %T, not an *nd.Array or *batch.Batch", name, s, v)
		return
	}
	if err := catch(func() { s.SampleTo(dst, c.rng) }); err != nil {
		c.errorf("%s().SampleTo into a batch of 3: %v", name, err)
		return
	}
	for i := 0; i < 3; i++ {
		if x := row(i); !s.Contains(x) {
			c.errorf("%s() %v does not contain row %d of SampleTo: %v", name, s, i, x)
		}
	}
}

// catch runs f and returns the value it panics with, as an error.
func catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	f()
	return nil
}

// copyValue returns a copy of an observation, which the env may overwrite.
func copyValue(v any) any {
	switch x := v.(type) {
	case *nd.Array:
		return x.Copy()
	case *batch.Batch:
		return x.Clone()
	}
	return v
}

// equalValues reports whether two copied observations are equal.
func equalValues(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch x := a.(type) {
	case *nd.Array:
		y, ok := b.(*nd.Array)
		return ok && nd.Equal(x, y)
	case *batch.Batch:
		y, ok := b.(*batch.Batch)
		return ok && batch.Equal(x, y)
	}
	return false
}

// reset resets e with seed and checks the observation.
func (c *checker) reset(seed env.Seed) (any, bool) {
	c.t.Helper()
	obs, _, err := c.e.Reset(seed)
	if err != nil {
		c.errorf("Reset(%v): %v", seed, err)
		return nil, false
	}
	if !c.e.ObservationSpace().Contains(obs) {
		c.errorf("Reset(%v) observation %v is not in %v", seed, obs, c.e.ObservationSpace())
		return nil, false
	}
	return copyValue(obs), true
}

// run steps e with the given actions, or with new sampled ones (appended
// to *actions) until the episode ends, for at most MaxCheckSteps steps. It
// checks every result and returns them.
func (c *checker) run(actions *[]any, replay bool) ([]step, bool) {
	c.t.Helper()
	var steps []step
	for i := 0; i < MaxCheckSteps; i++ {
		if replay && i == len(*actions) {
			break
		}
		if !replay {
			*actions = append(*actions, c.e.ActionSpace().Sample(c.rng))
		}
		obs, r, term, trunc, _, err := c.e.Step((*actions)[i])
		if err != nil {
			c.errorf("Step %d with action %v: %v", i+1, (*actions)[i], err)
			return steps, false
		}
		if !c.e.ObservationSpace().Contains(obs) {
			c.errorf("Step %d observation %v is not in %v", i+1, obs, c.e.ObservationSpace())
			return steps, false
		}
		if math.IsNaN(r) || math.IsInf(r, 0) {
			c.errorf("Step %d reward %v is not finite", i+1, r)
			return steps, false
		}
		steps = append(steps, step{copyValue(obs), r, term, trunc})
		if term || trunc {
			break
		}
	}
	return steps, true
}

// same reports the first difference between two runs.
func (c *checker) same(what string, a, b []step, obsA, obsB any) bool {
	c.t.Helper()
	if !equalValues(obsA, obsB) {
		c.errorf("%s: first observations differ: %v and %v", what, obsA, obsB)
		return false
	}
	if len(a) != len(b) {
		c.errorf("%s: %d and %d steps", what, len(a), len(b))
		return false
	}
	for i := range a {
		if !equalValues(a[i].obs, b[i].obs) || a[i].reward != b[i].reward || a[i].term != b[i].term || a[i].trunc != b[i].trunc {
			c.errorf("%s: step %d differs: %+v and %+v", what, i+1, a[i], b[i])
			return false
		}
	}
	return true
}

// episodes checks seeded reproducibility and the end of an episode; it
// reports whether e still works.
func (c *checker) episodes() bool {
	c.t.Helper()
	obs1, ok := c.reset(env.SeedOf(42))
	if !ok {
		return false
	}
	var actions []any
	run1, ok := c.run(&actions, false)
	if !ok {
		return false
	}
	last := run1[len(run1)-1]
	ended := last.term || last.trunc
	if ended {
		_, _, _, _, _, err := c.e.Step(actions[len(actions)-1])
		if !errors.Is(err, env.ErrNeedReset) {
			c.errorf("Step after the episode ended: error %v, want one wrapping env.ErrNeedReset", err)
		}
	} else {
		c.t.Logf("the episode did not end within %d steps; its end is not checked", MaxCheckSteps)
	}
	obs2, ok := c.reset(env.SeedOf(42))
	if !ok {
		return false
	}
	run2, ok := c.run(&actions, true)
	if !ok || !c.same("two Resets with seed 42 and the same actions", run1, run2, obs1, obs2) {
		return false
	}
	if _, ok := c.reset(env.NoSeed); !ok {
		return false
	}
	_, ok = c.run(&[]any{c.e.ActionSpace().Sample(c.rng)}, true)
	return ok
}

// state checks MarshalState and UnmarshalState of a Stater.
func (c *checker) state() {
	c.t.Helper()
	s, ok := c.e.(env.Stater)
	if !ok {
		return
	}
	if _, ok := c.reset(env.SeedOf(7)); !ok {
		return
	}
	// Save mid-episode: after one step, unless that step ended the episode.
	first, ok := c.run(&[]any{c.e.ActionSpace().Sample(c.rng)}, true)
	if !ok {
		return
	}
	if first[0].term || first[0].trunc {
		if _, ok := c.reset(env.NoSeed); !ok {
			return
		}
	}
	var actions []any
	saved, err := s.MarshalState()
	if errors.Is(err, errors.ErrUnsupported) {
		return // a wrapper of an env without state
	}
	if err != nil {
		c.errorf("MarshalState: %v", err)
		return
	}
	run1, ok := c.run(&actions, false)
	if !ok {
		return
	}
	if err := s.UnmarshalState(saved); err != nil {
		c.errorf("UnmarshalState of a saved state: %v", err)
		return
	}
	if len(saved) > 0 {
		if err := s.UnmarshalState(saved[:len(saved)-1]); !errors.Is(err, env.ErrState) {
			c.errorf("UnmarshalState of truncated data: error %v, want one wrapping env.ErrState", err)
		}
	}
	run2, ok := c.run(&actions, true)
	if ok {
		c.same("steps after restoring a saved state", run1, run2, nil, nil)
	}
}

// render checks a Renderer.
func (c *checker) render() {
	c.t.Helper()
	r, ok := c.e.(env.Renderer)
	if !ok {
		return
	}
	if _, ok := c.reset(env.SeedOf(3)); !ok {
		return
	}
	img, err := r.Render()
	if errors.Is(err, errors.ErrUnsupported) {
		return // a wrapper of an env that does not render
	}
	if err != nil {
		c.errorf("Render after Reset: %v", err)
		return
	}
	if img == nil || img.Bounds().Empty() {
		c.errorf("Render after Reset returned an empty frame")
	}
}
