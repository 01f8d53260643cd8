package env

import (
	"fmt"
	"math"

	"github.com/gorl/gorl/nd"
)

// floatBox returns e's action space as a float Box, or an error naming the
// wrapper that needs one.
func floatBox(wrapperName string, s Space, finite bool) (*Box, error) {
	b, ok := s.(*Box)
	if !ok || !b.dt.IsFloat() {
		return nil, fmt.Errorf("%w: %s needs a float Box action space, not %v", ErrSpace, wrapperName, s)
	}
	if finite {
		for i := range b.low {
			if math.IsInf(b.low[i], 0) || math.IsInf(b.high[i], 0) {
				return nil, fmt.Errorf("%w: %s needs finite action bounds, not %v", ErrSpace, wrapperName, s)
			}
		}
	}
	return b, nil
}

// mapAction reads action, a numeric array of the given shape, and writes
// f(i, element i) into dst (of the wrapped env's dtype). It returns an
// error wrapping ErrAction if action does not fit.
func mapAction(wrapperName string, action any, shape []int, dst *nd.Array, f func(i int, v float64) float64) error {
	a, ok := action.(*nd.Array)
	if !ok || !shapeEqual(a, shape) || a.DType() == nd.Object {
		return fmt.Errorf("%w: %s: %s is not a numeric array of shape %s", ErrAction, wrapperName, describe(action), tupleString(shape))
	}
	d := nd.Data[float64](dst)
	eachFloat(a, func(i int, v float64) bool { d[i] = f(i, v); return true })
	return nil
}

// describe names a value in error messages.
func describe(v any) string {
	if a, ok := v.(*nd.Array); ok {
		return fmt.Sprintf("a %s %v array", tupleString(a.Shape()), a.DType())
	}
	return fmt.Sprintf("a %T", v)
}

// actionBuffers holds the float64 scratch array an action wrapper computes
// into and the array of the wrapped env's dtype it passes on.
type actionBuffers struct {
	scratch *nd.Array // float64
	out     *nd.Array // the wrapped action space's dtype
}

func newActionBuffers(shape []int, dt nd.DType) actionBuffers {
	return actionBuffers{scratch: nd.Zeros(nd.Float64, shape...), out: nd.Zeros(dt, shape...)}
}

// result casts the scratch values to the output dtype and returns the output.
func (b actionBuffers) result() *nd.Array {
	if b.out.DType() == nd.Float64 {
		return b.scratch
	}
	s := nd.Data[float64](b.scratch)
	setFloats(b.out, func(i int) float64 { return s[i] })
	return b.out
}

// ClipAction clips actions to the bounds of the wrapped env's float Box
// action space, Gymnasium's ClipAction. Its own action space is the Box
// of the same shape and dtype with infinite bounds; actions may have any
// numeric dtype. A NaN stays NaN.
type ClipAction struct {
	wrapper
	box   *Box
	space *Box
	buf   actionBuffers
}

// NewClipAction wraps e. It returns an error wrapping ErrSpace unless e's
// action space is a float Box.
func NewClipAction(e Env) (*ClipAction, error) {
	box, err := floatBox("ClipAction", e.ActionSpace(), false)
	if err != nil {
		return nil, err
	}
	space, err := NewBox(math.Inf(-1), math.Inf(1), box.shape, box.dt)
	if err != nil {
		return nil, err
	}
	return &ClipAction{wrapper: wrapper{e}, box: box, space: space, buf: newActionBuffers(box.shape, box.dt)}, nil
}

// ActionSpace returns the unbounded Box.
func (c *ClipAction) ActionSpace() Space { return c.space }

// Step clips action and steps the wrapped env with it. It returns an error
// wrapping ErrAction if action is not a numeric array of the space's shape.
func (c *ClipAction) Step(action any) (any, float64, bool, bool, Info, error) {
	err := mapAction("ClipAction", action, c.box.shape, c.buf.scratch, func(i int, v float64) float64 {
		return math.Min(math.Max(v, c.box.low[i]), c.box.high[i]) // NaN stays NaN
	})
	if err != nil {
		return nil, 0, false, false, nil, err
	}
	return c.inner.Step(c.buf.result())
}

// RescaleAction maps actions affinely from [min, max] to the bounds [low,
// high] of the wrapped env's float Box action space, Gymnasium's
// RescaleAction: a ↦ low + (high − low)·(a − min)/(max − min), per element,
// computed in float64. Actions outside [min, max] are mapped, not clipped.
type RescaleAction struct {
	wrapper
	box   *Box
	space *Box
	buf   actionBuffers
}

// NewRescaleAction wraps e so that its actions range over [min, max]; min
// and max are Go numbers, slices or arrays broadcast to the action shape, as
// NewBox takes them. It returns an error wrapping ErrSpace unless e's action
// space is a float Box with finite bounds and min < max holds everywhere
// with finite values.
func NewRescaleAction(e Env, min, max any) (*RescaleAction, error) {
	box, err := floatBox("RescaleAction", e.ActionSpace(), true)
	if err != nil {
		return nil, err
	}
	space, err := NewBox(min, max, box.shape, box.dt)
	if err != nil {
		return nil, fmt.Errorf("RescaleAction: %w", err)
	}
	for i := range space.low {
		if !(space.low[i] < space.high[i]) || math.IsInf(space.low[i], 0) || math.IsInf(space.high[i], 0) {
			return nil, fmt.Errorf("%w: RescaleAction to %v needs finite min < max", ErrSpace, space)
		}
	}
	return &RescaleAction{wrapper: wrapper{e}, box: box, space: space, buf: newActionBuffers(box.shape, box.dt)}, nil
}

// ActionSpace returns the Box [min, max].
func (r *RescaleAction) ActionSpace() Space { return r.space }

// Step rescales action and steps the wrapped env with it. It returns an
// error wrapping ErrAction if action is not a numeric array of the space's
// shape.
func (r *RescaleAction) Step(action any) (any, float64, bool, bool, Info, error) {
	err := mapAction("RescaleAction", action, r.box.shape, r.buf.scratch, func(i int, v float64) float64 {
		lo, hi := r.box.low[i], r.box.high[i]
		return lo + (hi-lo)*((v-r.space.low[i])/(r.space.high[i]-r.space.low[i]))
	})
	if err != nil {
		return nil, 0, false, false, nil, err
	}
	return r.inner.Step(r.buf.result())
}

// ContinuousToDiscrete turns the wrapped env's 1-d float Box action space
// into a MultiDiscrete one with n values per dimension, Tianshou's
// ContinuousToDiscrete: action k in dimension i stands for the k-th of n
// evenly spaced points from low[i] to high[i], both included (numpy's
// linspace; the single point low[i] when n is 1).
type ContinuousToDiscrete struct {
	wrapper
	space *MultiDiscrete
	mesh  [][]float64
	buf   actionBuffers
}

// NewContinuousToDiscrete wraps e. It returns an error wrapping ErrSpace
// unless e's action space is a 1-d float Box with finite bounds and n ≥ 1.
func NewContinuousToDiscrete(e Env, n int) (*ContinuousToDiscrete, error) {
	mesh, err := ActionMesh(e.ActionSpace(), n)
	if err != nil {
		return nil, err
	}
	box := e.ActionSpace().(*Box)
	nvec := make([]int64, len(mesh))
	for i := range nvec {
		nvec[i] = int64(n)
	}
	space, err := NewMultiDiscrete(nvec, nil)
	if err != nil {
		return nil, err
	}
	return &ContinuousToDiscrete{wrapper: wrapper{e}, space: space, mesh: mesh, buf: newActionBuffers(box.shape, box.dt)}, nil
}

// ActionMesh returns the points ContinuousToDiscrete maps the n actions of
// each dimension of the action space s to: n evenly spaced points from
// low[i] to high[i], both included, one slice per dimension. Policies that
// act in the discretized space of a Box themselves (branching Q-networks)
// map their actions with it. It returns an error wrapping ErrSpace unless s
// is a 1-d float Box with finite bounds and n ≥ 1.
func ActionMesh(s Space, n int) ([][]float64, error) {
	box, err := floatBox("ContinuousToDiscrete", s, true)
	if err != nil {
		return nil, err
	}
	if len(box.shape) != 1 || n < 1 {
		return nil, fmt.Errorf("%w: ContinuousToDiscrete(%d) of %v: want a 1-d Box and n ≥ 1", ErrSpace, n, box)
	}
	mesh := make([][]float64, box.shape[0])
	for i := range mesh {
		mesh[i] = linspace(box.low[i], box.high[i], n)
	}
	return mesh, nil
}

// linspace returns numpy's linspace(lo, hi, n): lo + k·(hi − lo)/(n − 1)
// for k < n − 1, and hi exactly as the last point.
func linspace(lo, hi float64, n int) []float64 {
	p := make([]float64, n)
	if n == 1 {
		p[0] = lo
		return p
	}
	step := (hi - lo) / float64(n-1)
	for k := range p {
		p[k] = float64(k)*step + lo
	}
	p[n-1] = hi
	return p
}

// ActionSpace returns the MultiDiscrete space.
func (c *ContinuousToDiscrete) ActionSpace() Space { return c.space }

// Step maps action, an integer array of the MultiDiscrete space, to its
// points and steps the wrapped env with them. It returns an error wrapping
// ErrAction if action is not in the space.
func (c *ContinuousToDiscrete) Step(action any) (any, float64, bool, bool, Info, error) {
	a, ok := action.(*nd.Array)
	if !ok || !c.space.Contains(a) {
		return nil, 0, false, false, nil, fmt.Errorf("%w: ContinuousToDiscrete: %s is not in %v", ErrAction, describe(action), c.space)
	}
	d := nd.Data[float64](c.buf.scratch)
	eachInt(a, func(i int, k int64) bool { d[i] = c.mesh[i][k]; return true })
	return c.inner.Step(c.buf.result())
}
