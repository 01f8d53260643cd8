package env

import (
	"fmt"
	"image"
)

// wrapper forwards every method to the wrapped env. The wrappers of this
// package embed it and override what they change, so each of them is a
// Renderer and a Stater that returns errors.ErrUnsupported when the wrapped
// env is not one, and has Unwrap.
type wrapper struct{ inner Env }

func (w wrapper) Reset(seed Seed) (any, Info, error) { return w.inner.Reset(seed) }

func (w wrapper) Step(action any) (any, float64, bool, bool, Info, error) {
	return w.inner.Step(action)
}

// ObservationSpace returns the wrapped env's observation space.
func (w wrapper) ObservationSpace() Space { return w.inner.ObservationSpace() }

// ActionSpace returns the wrapped env's action space.
func (w wrapper) ActionSpace() Space { return w.inner.ActionSpace() }

// Close closes the wrapped env.
func (w wrapper) Close() error { return w.inner.Close() }

// Render renders the wrapped env (see the package function Render).
func (w wrapper) Render() (image.Image, error) { return Render(w.inner) }

// MarshalState returns the wrapped env's state (see the package function
// MarshalState); wrappers with a state of their own add it.
func (w wrapper) MarshalState() ([]byte, error) { return MarshalState(w.inner) }

// UnmarshalState restores the wrapped env's state.
func (w wrapper) UnmarshalState(data []byte) error { return UnmarshalState(w.inner, data) }

// Unwrap returns the wrapped env.
func (w wrapper) Unwrap() Env { return w.inner }

// TimeLimit truncates episodes after a fixed number of steps, Gymnasium's
// TimeLimit: the Step that completes MaxEpisodeSteps steps since Reset
// reports truncated (as well as terminated, if the env terminated then).
// After an episode ends, by termination or truncation, Step returns an
// error wrapping ErrNeedReset until the next Reset. Its state (the step
// count) is saved with the wrapped env's.
type TimeLimit struct {
	wrapper
	max     int
	elapsed int
	ended   bool // no episode is running: before the first Reset or after an end
}

// NewTimeLimit wraps e so that its episodes last at most maxEpisodeSteps
// steps. It returns an error if maxEpisodeSteps is not positive.
func NewTimeLimit(e Env, maxEpisodeSteps int) (*TimeLimit, error) {
	if maxEpisodeSteps <= 0 {
		return nil, fmt.Errorf("env: TimeLimit of %d steps: want a positive number", maxEpisodeSteps)
	}
	return &TimeLimit{wrapper: wrapper{e}, max: maxEpisodeSteps, ended: true}, nil
}

// MaxEpisodeSteps returns the time limit, in steps.
func (t *TimeLimit) MaxEpisodeSteps() int { return t.max }

// Elapsed returns the number of steps taken since the last Reset.
func (t *TimeLimit) Elapsed() int { return t.elapsed }

// Reset resets the wrapped env and the step count.
func (t *TimeLimit) Reset(seed Seed) (any, Info, error) {
	t.elapsed, t.ended = 0, true
	obs, info, err := t.inner.Reset(seed)
	if err == nil {
		t.ended = false
	}
	return obs, info, err
}

// Step steps the wrapped env and sets truncated when the time limit is
// reached. A failing Step of the wrapped env is not counted.
func (t *TimeLimit) Step(action any) (any, float64, bool, bool, Info, error) {
	if t.ended {
		return nil, 0, false, false, nil, fmt.Errorf("env: TimeLimit(%d): Step with no episode running: %w", t.max, ErrNeedReset)
	}
	obs, r, term, trunc, info, err := t.inner.Step(action)
	if err != nil {
		return obs, r, term, trunc, info, err
	}
	t.elapsed++
	if t.elapsed >= t.max {
		trunc = true
	}
	t.ended = term || trunc
	return obs, r, term, trunc, info, nil
}

const timeLimitTag = "TimeLimit/1"

// MarshalState returns the step count and the wrapped env's state.
func (t *TimeLimit) MarshalState() ([]byte, error) {
	return marshalWrapper(timeLimitTag, func(w *stateWriter) {
		w.uint(uint64(t.elapsed))
		w.bool(t.ended)
	}, t.inner)
}

// UnmarshalState restores a state MarshalState returned.
func (t *TimeLimit) UnmarshalState(data []byte) error {
	var elapsed uint64
	var ended bool
	return unmarshalWrapper(data, timeLimitTag, func(r *stateReader) {
		elapsed, ended = r.uint(), r.bool()
		if r.err == nil && elapsed > uint64(t.max) {
			r.fail("elapsed steps %d exceed the limit %d", elapsed, t.max)
		}
	}, t.inner, func() { t.elapsed, t.ended = int(elapsed), ended })
}
