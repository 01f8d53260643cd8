package trainer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
)

// episode is a finished episode's return and length.
type episode struct {
	ret float64
	len int
}

// tracked wraps each env the trainer runs. It records the return and
// length of every finished episode (the training statistics), and saves,
// besides the env's own state, what a collector keeps about the env: the
// last observation and the running return and length of the episode in
// progress. After such a state is restored into a resumable env, its next
// Reset returns the saved observation instead of resetting, so a new
// collector continues the episode in progress exactly where the saved run
// was, and the statistics of that episode stay whole.
type tracked struct {
	env.Env
	resumable bool

	ret     float64
	len     int
	done    []episode
	lastObs any

	// Set by UnmarshalState: the next Reset returns resumeObs.
	resuming  bool
	resumeObs any
	// hasState is false after restoring a state saved without the env's
	// own state (the env is not an env.Stater): the env must be reset.
	hasState bool
}

func newTracked(e env.Env, resumable bool) *tracked {
	return &tracked{Env: e, resumable: resumable, hasState: true}
}

// Unwrap returns the wrapped env.
func (t *tracked) Unwrap() env.Env { return t.Env }

// Reset resets the env and starts a new episode, or after a restored state
// returns the observation saved with it (once).
func (t *tracked) Reset(seed env.Seed) (any, env.Info, error) {
	if t.resuming {
		t.resuming = false
		return t.resumeObs, nil, nil
	}
	obs, info, err := t.Env.Reset(seed)
	if err != nil {
		return nil, nil, err
	}
	t.ret, t.len, t.lastObs = 0, 0, obs
	return obs, info, nil
}

// Step steps the env and records the episode's end.
func (t *tracked) Step(action any) (any, float64, bool, bool, env.Info, error) {
	obs, rew, term, trunc, info, err := t.Env.Step(action)
	if err != nil {
		return obs, rew, term, trunc, info, err
	}
	t.ret += rew
	t.len++
	t.lastObs = obs
	if term || trunc {
		t.done = append(t.done, episode{t.ret, t.len})
		t.ret, t.len = 0, 0
	}
	return obs, rew, term, trunc, info, nil
}

// drain appends the episodes finished since the last drain to eps and
// forgets them.
func (t *tracked) drain(eps []episode) []episode {
	eps = append(eps, t.done...)
	t.done = t.done[:0]
	return eps
}

const trackedTag = "trainer/env/1"

// MarshalState returns
//
//	tag, flags:u8 (bit 0: env state present, bit 1: observation present),
//	[len:uvarint env state], return:f64, length:uvarint,
//	[len:uvarint observation as a batch.Batch {"obs": …} encoding]
//
// The env's own state is left out (and the env reset on restore) if the env
// cannot save it.
func (t *tracked) MarshalState() ([]byte, error) {
	b := append([]byte(nil), trackedTag...)
	inner, err := env.MarshalState(t.Env)
	var flags byte
	switch {
	case err == nil:
		flags |= 1
	case errors.Is(err, errors.ErrUnsupported):
	default:
		return nil, err
	}
	var obs []byte
	if t.lastObs != nil && flags&1 != 0 {
		ob, err := batch.New("obs", t.lastObs)
		if err != nil {
			return nil, fmt.Errorf("trainer: saving the last observation: %w", err)
		}
		if obs, err = ob.MarshalBinary(); err != nil {
			return nil, fmt.Errorf("trainer: saving the last observation: %w", err)
		}
		flags |= 2
	}
	b = append(b, flags)
	if flags&1 != 0 {
		b = binary.AppendUvarint(b, uint64(len(inner)))
		b = append(b, inner...)
	}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(t.ret))
	b = binary.AppendUvarint(b, uint64(t.len))
	if flags&2 != 0 {
		b = binary.AppendUvarint(b, uint64(len(obs)))
		b = append(b, obs...)
	}
	return b, nil
}

// UnmarshalState restores what MarshalState saved; see tracked.
func (t *tracked) UnmarshalState(data []byte) error {
	bad := func(what string) error { return fmt.Errorf("%w: trainer env state: %s", env.ErrState, what) }
	if len(data) < len(trackedTag)+1 || string(data[:len(trackedTag)]) != trackedTag {
		return bad("missing tag")
	}
	flags := data[len(trackedTag)]
	data = data[len(trackedTag)+1:]
	field := func() ([]byte, error) {
		n, k := binary.Uvarint(data)
		if k <= 0 || n > uint64(len(data)-k) {
			return nil, bad("truncated")
		}
		f := data[k : k+int(n)]
		data = data[k+int(n):]
		return f, nil
	}
	var inner, obs []byte
	var err error
	if flags&1 != 0 {
		if inner, err = field(); err != nil {
			return err
		}
	}
	if len(data) < 8 {
		return bad("truncated")
	}
	ret := math.Float64frombits(binary.LittleEndian.Uint64(data))
	data = data[8:]
	n, k := binary.Uvarint(data)
	if k <= 0 || n > math.MaxInt32 {
		return bad("episode length")
	}
	data = data[k:]
	if flags&2 != 0 {
		if obs, err = field(); err != nil {
			return err
		}
	}
	if len(data) != 0 || flags&^3 != 0 {
		return bad("trailing bytes or unknown flags")
	}
	var o any
	if obs != nil {
		var ob batch.Batch
		if err := ob.UnmarshalBinary(obs); err != nil {
			return bad(err.Error())
		}
		o, _ = ob.Get("obs")
	}
	if flags&1 != 0 {
		if err := env.UnmarshalState(t.Env, inner); err != nil {
			return err
		}
	}
	t.ret, t.len, t.lastObs = ret, int(n), o
	t.hasState = flags&1 != 0
	t.resuming = t.resumable && t.hasState && o != nil
	t.resumeObs = o
	t.done = t.done[:0]
	return nil
}

// Render renders the wrapped env (see env.Render).
func (t *tracked) Render() (image.Image, error) { return env.Render(t.Env) }
