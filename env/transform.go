package env

import "fmt"

// TransformObservation applies a function to every observation, Gymnasium's
// TransformObservation.
type TransformObservation struct {
	wrapper
	fn    func(obs any) (any, error)
	space Space
}

// NewTransformObservation wraps e so that Reset and Step return fn(obs).
// space is the observation space of fn's results; nil keeps e's. fn may
// keep and reuse its result across calls (the usual ownership rule), and
// its error is returned from Reset or Step. It returns an error if fn is nil.
func NewTransformObservation(e Env, fn func(obs any) (any, error), space Space) (*TransformObservation, error) {
	if fn == nil {
		return nil, fmt.Errorf("env: TransformObservation with a nil function")
	}
	if space == nil {
		space = e.ObservationSpace()
	}
	return &TransformObservation{wrapper: wrapper{e}, fn: fn, space: space}, nil
}

// ObservationSpace returns the space given to NewTransformObservation.
func (t *TransformObservation) ObservationSpace() Space { return t.space }

// Reset resets the wrapped env and transforms its observation.
func (t *TransformObservation) Reset(seed Seed) (any, Info, error) {
	obs, info, err := t.inner.Reset(seed)
	if err != nil {
		return nil, info, err
	}
	if obs, err = t.fn(obs); err != nil {
		return nil, info, fmt.Errorf("env: TransformObservation: %w", err)
	}
	return obs, info, nil
}

// Step steps the wrapped env and transforms its observation.
func (t *TransformObservation) Step(action any) (any, float64, bool, bool, Info, error) {
	obs, r, term, trunc, info, err := t.inner.Step(action)
	if err != nil {
		return nil, r, term, trunc, info, err
	}
	if obs, err = t.fn(obs); err != nil {
		return nil, r, term, trunc, info, fmt.Errorf("env: TransformObservation: %w", err)
	}
	return obs, r, term, trunc, info, nil
}

// TransformReward applies a function to every reward, Gymnasium's
// TransformReward.
type TransformReward struct {
	wrapper
	fn func(float64) float64
}

// NewTransformReward wraps e so that Step returns fn(reward). It returns an
// error if fn is nil.
func NewTransformReward(e Env, fn func(reward float64) float64) (*TransformReward, error) {
	if fn == nil {
		return nil, fmt.Errorf("env: TransformReward with a nil function")
	}
	return &TransformReward{wrapper: wrapper{e}, fn: fn}, nil
}

// Step steps the wrapped env and transforms its reward.
func (t *TransformReward) Step(action any) (any, float64, bool, bool, Info, error) {
	obs, r, term, trunc, info, err := t.inner.Step(action)
	if err != nil {
		return obs, r, term, trunc, info, err
	}
	return obs, t.fn(r), term, trunc, info, nil
}

// TruncatedAsTerminated reports truncation as termination: Step returns
// terminated = terminated || truncated and truncated = false, so that
// learners do not bootstrap past a time limit.
type TruncatedAsTerminated struct{ wrapper }

// NewTruncatedAsTerminated wraps e.
func NewTruncatedAsTerminated(e Env) *TruncatedAsTerminated {
	return &TruncatedAsTerminated{wrapper{e}}
}

// Step steps the wrapped env and merges truncation into termination.
func (t *TruncatedAsTerminated) Step(action any) (any, float64, bool, bool, Info, error) {
	obs, r, term, trunc, info, err := t.inner.Step(action)
	return obs, r, term || trunc, false, info, err
}
