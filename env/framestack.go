package env

import (
	"fmt"

	"github.com/gorl/gorl/nd"
)

// FrameStack stacks the last k observations along a new first axis,
// Gymnasium's FrameStackObservation with its default "reset" padding: the
// observation of Reset fills every slot, and each Step shifts the newest
// observation in. Its observation space is the wrapped Box repeated k
// times, of shape (k, …). The frames are saved with the env's state.
//
// The stacked observation is a view of a buffer the wrapper owns, valid
// until the next call; stepping copies one frame twice and does not allocate.
type FrameStack struct {
	wrapper
	k     int
	space *Box
	frame *Box
	buf   *nd.Array   // 2k frames: frame j is kept at rows j and j+k
	rows  []*nd.Array // rows[j] = buf[j], a view
	views []*nd.Array // views[t] = buf[t+1 : t+1+k], the stack when the newest frame is at row t
	t     int         // row of the newest frame, in [0, k)
}

// NewFrameStack wraps e. It returns an error wrapping ErrSpace unless e's
// observation space is a Box and k ≥ 1.
func NewFrameStack(e Env, k int) (*FrameStack, error) {
	box, ok := e.ObservationSpace().(*Box)
	if !ok || k < 1 {
		return nil, fmt.Errorf("%w: FrameStack(%d) of %v: want a Box and k ≥ 1", ErrSpace, k, e.ObservationSpace())
	}
	shape := append([]int{k}, box.shape...)
	low, high := nd.Zeros(nd.Float64, shape...), nd.Zeros(nd.Float64, shape...)
	n := len(box.low)
	setFloats(low, func(i int) float64 { return box.low[i%n] })
	setFloats(high, func(i int) float64 { return box.high[i%n] })
	space, err := NewBox(low, high, shape, box.dt)
	if err != nil {
		return nil, err
	}
	f := &FrameStack{wrapper: wrapper{e}, k: k, space: space, frame: box,
		buf: nd.Zeros(box.dt, append([]int{2 * k}, box.shape...)...)}
	for j := 0; j < 2*k; j++ {
		f.rows = append(f.rows, f.buf.Index(nd.I(j)))
	}
	for t := 0; t < k; t++ {
		f.views = append(f.views, f.buf.Index(nd.Range(t+1, t+1+k)))
	}
	f.t = k - 1
	return f, nil
}

// ObservationSpace returns the stacked Box.
func (f *FrameStack) ObservationSpace() Space { return f.space }

// push writes obs as the newest frame.
func (f *FrameStack) push(obs any) error {
	a, ok := obs.(*nd.Array)
	if !ok || !shapeEqual(a, f.frame.shape) {
		return fmt.Errorf("env: FrameStack: the wrapped env returned %s, not an array of shape %s", describe(obs), tupleString(f.frame.shape))
	}
	f.t = (f.t + 1) % f.k
	// Both copies read a: copying between rows of buf would make CopyTo
	// copy the source first, since they share a buffer.
	for _, row := range [2]*nd.Array{f.rows[f.t], f.rows[f.t+f.k]} {
		if err := nd.CopyTo(row, a); err != nil {
			return fmt.Errorf("env: FrameStack: %w", err)
		}
	}
	return nil
}

// Reset resets the wrapped env and fills the stack with its observation.
func (f *FrameStack) Reset(seed Seed) (any, Info, error) {
	obs, info, err := f.inner.Reset(seed)
	if err != nil {
		return nil, info, err
	}
	for range f.k {
		if err := f.push(obs); err != nil {
			return nil, info, err
		}
	}
	return f.views[f.t], info, nil
}

// Step steps the wrapped env and shifts its observation into the stack.
func (f *FrameStack) Step(action any) (any, float64, bool, bool, Info, error) {
	obs, r, term, trunc, info, err := f.inner.Step(action)
	if err != nil {
		return nil, r, term, trunc, info, err
	}
	if err := f.push(obs); err != nil {
		return nil, r, term, trunc, info, err
	}
	return f.views[f.t], r, term, trunc, info, nil
}

const frameStackTag = "FrameStack/1"

// MarshalState returns the frames and the wrapped env's state.
func (f *FrameStack) MarshalState() ([]byte, error) {
	return marshalWrapper(frameStackTag, func(w *stateWriter) {
		w.uint(uint64(f.t))
		w.array(f.buf)
	}, f.inner)
}

// UnmarshalState restores a state MarshalState returned.
func (f *FrameStack) UnmarshalState(data []byte) error {
	var t uint64
	buf := nd.ZerosLike(f.buf)
	return unmarshalWrapper(data, frameStackTag, func(r *stateReader) {
		if t = r.uint(); r.err == nil && t >= uint64(f.k) {
			r.fail("newest frame %d of %d", t, f.k)
		}
		r.array(buf)
	}, f.inner, func() {
		f.t = int(t)
		nd.CopyTo(f.buf, buf)
	})
}
