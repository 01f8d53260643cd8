package buffer

import (
	"errors"
	"strings"
)

// Sentinel errors. Every error the package returns, and every value it
// panics with, is an *Error wrapping one of these (and, where nd, batch or
// the HDF5 binding refused something, their error too), so callers can test
// with errors.Is.
var (
	// ErrKey: a required key missing from a transition (obs, act, rew,
	// terminated, truncated; state, action, … for Machin transitions), or
	// a key that does not exist.
	ErrKey = errors.New("buffer: bad key")
	// ErrType: a value that cannot be stored where the buffer's schema
	// puts it (a float action into an integer column, a Batch where an
	// array is stored, a reward that is not one number per transition).
	ErrType = errors.New("buffer: unsupported value")
	// ErrValue: an invalid configuration or argument (a size ≤ 0, α ≤ 0, a
	// priority that is NaN or infinite, a missing random source).
	ErrValue = errors.New("buffer: bad value")
	// ErrEmpty: sampling from a buffer that holds no transition.
	ErrEmpty = errors.New("buffer: empty")
	// ErrFormat: a saved buffer that is truncated, corrupt, of an unknown
	// version, or holding a value the format cannot represent.
	ErrFormat = errors.New("buffer: bad file")
	// ErrIndex: an index or buffer id out of range (a panic value: a
	// programmer error, as in slice indexing).
	ErrIndex = errors.New("buffer: index out of range")
	// ErrShape: a destination of the wrong length (a panic value).
	ErrShape = errors.New("buffer: destination mismatch")
)

// Error is the type of the package's errors and panic values.
type Error struct {
	// Kind is one of the sentinel errors above.
	Kind error
	// Path is the key path concerned ("obs.camera"), or "".
	Path string
	// Msg says what went wrong.
	Msg string
	// Err is the underlying cause (an *nd.Error, *batch.Error, I/O error…),
	// or nil.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("buffer: ")
	if e.Path != "" {
		b.WriteString("key ")
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns Kind and, if set, Err.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

func errorf(kind error, path, msg string) *Error {
	return &Error{Kind: kind, Path: path, Msg: msg}
}
