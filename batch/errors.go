package batch

import (
	"errors"
	"strings"
)

// Sentinel errors. Every error batch returns, and every value it panics
// with, is an *Error wrapping one of these (and, where nd refused an
// operation, nd's error too), so callers can test with errors.Is.
var (
	// ErrKey: a key that is empty or holds the path separator, a key or
	// path that is missing, keys that an operation may not create.
	ErrKey = errors.New("batch: bad key")
	// ErrType: a value of a kind the operation cannot handle (a string in
	// arithmetic, a custom leaf where it cannot take part, an array where a
	// Batch is needed).
	ErrType = errors.New("batch: unsupported value")
	// ErrLen: a leaf without a batch axis (a scalar) where a length is needed.
	ErrLen = errors.New("batch: no length")
	// ErrStructure: batches whose keys or value kinds disagree (Cat of
	// different structures, the unaggregatable cases of Stack, arithmetic
	// between different trees).
	ErrStructure = errors.New("batch: structures differ")
	// ErrShape: a destination that does not have the structure or shape an
	// operation writes (a panic value: a programmer error).
	ErrShape = errors.New("batch: destination mismatch")
	// ErrIndex: indexing a leaf that has no axis to index (a panic value).
	ErrIndex = errors.New("batch: index error")
	// ErrValue: a bad argument (a split size ≤ 0, a missing random source).
	ErrValue = errors.New("batch: bad value")
	// ErrFormat: encoded data that is truncated, corrupt or of an unknown
	// version, or a value that the encoding cannot hold.
	ErrFormat = errors.New("batch: bad encoding")
)

// Error is the type of batch's errors and panic values.
type Error struct {
	// Kind is one of the sentinel errors above.
	Kind error
	// Path is the key path concerned ("obs.camera"), or "" for the whole
	// batch.
	Path string
	// Msg says what went wrong.
	Msg string
	// Err is the underlying cause (often an *nd.Error), or nil.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("batch: ")
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

// within prefixes the path of a batch error by key, as the error passes up
// from a nested Batch; other errors are returned unchanged. Paths are built
// on the way up, from the failing leaf, because building them on the way
// down would allocate on every call.
func within(key string, err error) error {
	if e, ok := err.(*Error); ok {
		if e.Path == "" {
			e.Path = key
		} else {
			e.Path = key + Sep + e.Path
		}
	}
	return err
}

// errAt returns an error about the value at key.
func errAt(kind error, key, msg string, err error) *Error {
	return &Error{Kind: kind, Path: key, Msg: msg, Err: err}
}
