package env

import (
	"fmt"
	"slices"

	"github.com/gorl/gorl/nd"
)

// SelectObservation keeps some elements of a Box observation of one axis
// and drops the others: the partially observed tasks of recurrent RL (a
// CartPole or a Pendulum without its velocities, which a policy must then
// infer from the observations it remembers). Its observation space is the
// wrapped Box restricted to the kept elements, in the order given.
//
// The observation is an array the wrapper owns, valid until the next call;
// stepping does not allocate. The wrapper keeps no state of its own.
type SelectObservation struct {
	wrapper
	keep  []int
	space *Box
	out   *nd.Array
	full  []float64 // scratch: the wrapped observation
}

// NewSelectObservation wraps e so that its observations hold the elements
// keep of e's (a Box of one axis), in that order. It returns an error
// wrapping ErrSpace if e's observation space is not a Box of one axis, or
// keep is empty or holds an index out of range or twice.
func NewSelectObservation(e Env, keep []int) (*SelectObservation, error) {
	box, ok := e.ObservationSpace().(*Box)
	if !ok || len(box.shape) != 1 {
		return nil, fmt.Errorf("%w: SelectObservation of %v: want a Box of one axis", ErrSpace, e.ObservationSpace())
	}
	n := box.shape[0]
	if len(keep) == 0 {
		return nil, fmt.Errorf("%w: SelectObservation of %v keeps nothing", ErrSpace, box)
	}
	seen := make([]bool, n)
	for _, k := range keep {
		if uint(k) >= uint(n) || seen[k] {
			return nil, fmt.Errorf("%w: SelectObservation of %v: index %d out of range or repeated in %v", ErrSpace, box, k, keep)
		}
		seen[k] = true
	}
	low, high := make([]float64, len(keep)), make([]float64, len(keep))
	for i, k := range keep {
		low[i], high[i] = box.low[k], box.high[k]
	}
	space, err := NewBox(low, high, []int{len(keep)}, box.dt)
	if err != nil {
		return nil, err
	}
	return &SelectObservation{wrapper: wrapper{e}, keep: slices.Clone(keep), space: space,
		out: nd.Zeros(box.dt, len(keep)), full: make([]float64, n)}, nil
}

// ObservationSpace returns the Box of the kept elements.
func (s *SelectObservation) ObservationSpace() Space { return s.space }

// Keep returns a copy of the indices kept.
func (s *SelectObservation) Keep() []int { return slices.Clone(s.keep) }

func (s *SelectObservation) selectObs(obs any) (any, error) {
	a, ok := obs.(*nd.Array)
	if !ok || !shapeEqual(a, []int{len(s.full)}) {
		return nil, fmt.Errorf("env: SelectObservation: the wrapped env returned %s, not an array of shape (%d,)", describe(obs), len(s.full))
	}
	if !eachFloat(a, func(i int, v float64) bool { s.full[i] = v; return true }) {
		return nil, fmt.Errorf("env: SelectObservation: an observation of dtype %v", a.DType())
	}
	setFloats(s.out, func(i int) float64 { return s.full[s.keep[i]] })
	return s.out, nil
}

// Reset resets the wrapped env and selects from its observation.
func (s *SelectObservation) Reset(seed Seed) (any, Info, error) {
	obs, info, err := s.inner.Reset(seed)
	if err != nil {
		return nil, info, err
	}
	o, err := s.selectObs(obs)
	return o, info, err
}

// Step steps the wrapped env and selects from its observation.
func (s *SelectObservation) Step(action any) (any, float64, bool, bool, Info, error) {
	obs, r, term, trunc, info, err := s.inner.Step(action)
	if err != nil {
		return nil, r, term, trunc, info, err
	}
	o, err := s.selectObs(obs)
	return o, r, term, trunc, info, err
}
