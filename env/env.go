package env

import (
	"errors"
	"fmt"
	"image"
)

// Env is a reinforcement-learning environment with Gymnasium's semantics.
//
// Observations and actions are values of the env's spaces: an *nd.Array
// for Discrete, Box, MultiDiscrete and MultiBinary spaces, a *batch.Batch for
// Dict and Tuple spaces (see Space).
//
// The observation and the Info that Reset and Step return may be owned by
// the env and overwritten by its next call of any method: an env may return
// the same array every step so that stepping does not allocate. Callers copy
// what they keep. The env does not keep a reference to the action it is
// given once Step returns.
//
// An episode starts with Reset and ends with the first Step that reports
// terminated or truncated. Step before the first Reset or after the end of an
// episode returns an error wrapping ErrNeedReset and changes nothing; so does
// a Step with an action the env cannot use, which wraps ErrAction. Errors
// name the env. An Env is not safe for concurrent use. Using an env after
// Close is a programmer error: an env may panic then.
type Env interface {
	// Reset starts a new episode and returns its first observation. A
	// valid seed reseeds the env's random stream first, so equal seeds
	// give equal episodes for equal actions; NoSeed continues the current
	// stream (Gymnasium's reset(seed=None)). An env that was never seeded
	// seeds itself from the runtime's random source on its first Reset, as
	// Gymnasium does.
	Reset(seed Seed) (obs any, info Info, err error)

	// Step applies action and returns the next observation, the reward,
	// whether the episode terminated (a terminal state of the task) or was
	// truncated (cut short by something outside the task, such as a time
	// limit), and auxiliary information.
	Step(action any) (obs any, reward float64, terminated, truncated bool, info Info, err error)

	// ObservationSpace returns the space the observations lie in. It
	// returns the same value on every call.
	ObservationSpace() Space

	// ActionSpace returns the space of the actions Step accepts. It
	// returns the same value on every call.
	ActionSpace() Space

	// Close releases the env's resources. Calling Close more than once
	// is allowed; later calls do nothing and return nil.
	Close() error
}

// Info holds the auxiliary information Reset and Step return, Gymnasium's
// info dict. A nil Info is empty. An Info returned by an env may be reused by
// its next call.
type Info map[string]any

// Renderer is implemented by envs that can draw their current state.
type Renderer interface {
	// Render returns an RGB frame of the current state. The frame may be
	// owned by the env and redrawn by its next Render call. Render before
	// the first Reset returns an error.
	Render() (image.Image, error)
}

// Stater is implemented by envs whose whole state (physics, episode
// counters, random stream) can be saved and restored, so that a run resumed
// from a checkpoint continues exactly as the uninterrupted run would have.
type Stater interface {
	// MarshalState returns the env's state as bytes.
	MarshalState() ([]byte, error)
	// UnmarshalState restores a state that MarshalState returned. It
	// returns an error wrapping ErrState, and leaves the env unchanged,
	// if data is corrupt or was made by a different kind of env.
	UnmarshalState(data []byte) error
}

// Errors that envs and this package return, tested with errors.Is.
var (
	// ErrNeedReset is wrapped by the error of a Step before the first
	// Reset or after the end of an episode.
	ErrNeedReset = errors.New("env: Reset needed")
	// ErrAction is wrapped by the error of a Step whose action is not a
	// value the env can use: outside its action space, of the wrong
	// shape or dtype, NaN.
	ErrAction = errors.New("env: invalid action")
	// ErrState is wrapped by the error of UnmarshalState for corrupt data
	// or data made by a different kind of env.
	ErrState = errors.New("env: invalid state data")
	// ErrSpace is wrapped by the errors of the space constructors and of
	// wrappers given an env whose spaces they cannot handle.
	ErrSpace = errors.New("env: invalid space")
	// ErrNotRegistered is wrapped by the error of Make for an unknown id.
	ErrNotRegistered = errors.New("env: id not registered")
)

// Render returns e's frame if e is a Renderer, and an error wrapping
// errors.ErrUnsupported otherwise. Wrappers render through it.
func Render(e Env) (image.Image, error) {
	r, ok := e.(Renderer)
	if !ok {
		return nil, fmt.Errorf("env: %T cannot render: %w", e, errors.ErrUnsupported)
	}
	return r.Render()
}

// MarshalState returns e's state if e is a Stater, and an error wrapping
// errors.ErrUnsupported otherwise.
func MarshalState(e Env) ([]byte, error) {
	s, ok := e.(Stater)
	if !ok {
		return nil, fmt.Errorf("env: %T cannot save its state: %w", e, errors.ErrUnsupported)
	}
	return s.MarshalState()
}

// UnmarshalState restores e's state if e is a Stater, and returns an error
// wrapping errors.ErrUnsupported otherwise.
func UnmarshalState(e Env, data []byte) error {
	s, ok := e.(Stater)
	if !ok {
		return fmt.Errorf("env: %T cannot restore a state: %w", e, errors.ErrUnsupported)
	}
	return s.UnmarshalState(data)
}

// Unwrapped returns the innermost env of a stack of wrappers: it follows
// Unwrap() Env methods, which every wrapper of this package has, until an
// env has none. It is Gymnasium's env.unwrapped.
func Unwrapped(e Env) Env {
	for {
		w, ok := e.(interface{ Unwrap() Env })
		if !ok {
			return e
		}
		e = w.Unwrap()
	}
}
