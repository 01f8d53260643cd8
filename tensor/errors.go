package tensor

import (
	"errors"
	"fmt"
)

// Error is the type of the sentinel errors that package tensor panics with.
// A panic value v from this package satisfies errors.Is(v, ErrX) for one of the
// values below and carries a message naming the operation and the operands.
type Error string

func (e Error) Error() string { return string(e) }

const (
	// ErrShape reports operands whose shapes do not fit the operation, an axis
	// outside the tensor's dimensions, or a destination of the wrong size.
	ErrShape Error = "tensor: shape mismatch"
	// ErrIndex reports an index value (a class label, an action, a row
	// number) outside the range of its axis.
	ErrIndex Error = "tensor: index out of range"
	// ErrArg reports a scalar argument outside its domain: a dropout
	// probability outside [0, 1], a stride below 1, a negative padding.
	ErrArg Error = "tensor: invalid argument"
	// ErrGrad reports a gradient request that cannot be honoured: Backward
	// on a tensor that is not a scalar recorded with gradients on that tape,
	// an input that requires gradients recorded on another tape, or
	// SetRequiresGrad on a tensor a tape produced.
	ErrGrad Error = "tensor: invalid gradient request"
	// ErrStale reports a tensor used after the tape that produced it was
	// Reset: its memory now belongs to the next step.
	ErrStale Error = "tensor: tensor used after its tape was reset"
)

// ErrDType is wrapped by the error FromND returns for an array whose
// element type has no float32 conversion (Object).
var ErrDType = errors.New("tensor: unsupported dtype")

// panicf panics with an error wrapping kind.
func panicf(kind Error, format string, args ...any) {
	panic(fmt.Errorf("%w: "+format, append([]any{kind}, args...)...))
}
