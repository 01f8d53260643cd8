package nd

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error nd returns, and every value it panics with,
// is an *Error wrapping one of these, so callers can test with errors.Is.
var (
	// ErrShape: shapes that do not match or do not broadcast, a ragged
	// nested slice, a destination of the wrong shape.
	ErrShape = errors.New("nd: shape mismatch")
	// ErrIndex: an index out of range, too many indices, a bad mask.
	ErrIndex = errors.New("nd: index error")
	// ErrCast: a value or dtype that the casting rule does not allow.
	ErrCast = errors.New("nd: cannot cast")
	// ErrDType: an operation that the dtype does not support (arithmetic on
	// Object arrays, a Go type with no dtype).
	ErrDType = errors.New("nd: unsupported dtype")
	// ErrValue: a bad argument value (an empty reduction, a zero step).
	ErrValue = errors.New("nd: bad value")
)

// Error is the type of nd's errors and panic values: Kind is one of the
// sentinel errors above and Msg says what went wrong, in terms of the
// caller's values.
type Error struct {
	Kind error
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns e.Kind.
func (e *Error) Unwrap() error { return e.Kind }

func errorf(kind error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: "nd: " + fmt.Sprintf(format, args...)}
}

// shapeString prints a shape as numpy does: (2, 3), (4,), ().
func shapeString(shape []int) string {
	switch len(shape) {
	case 0:
		return "()"
	case 1:
		return fmt.Sprintf("(%d,)", shape[0])
	}
	b := []byte{'('}
	for i, d := range shape {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = fmt.Appendf(b, "%d", d)
	}
	return string(append(b, ')'))
}
