package distribution

import "fmt"

// Error is the type of the sentinel errors of package distribution. Every
// error it returns and every value it panics with satisfies errors.Is(v, ErrX)
// for one of the values below and carries a message naming the operation.
type Error string

func (e Error) Error() string { return string(e) }

const (
	// ErrShape reports parameters or values whose shapes do not fit: logits
	// without a category axis, a location and a scale that do not broadcast,
	// a value that does not broadcast with the batch shape, distributions of
	// different shapes to stack or concatenate. It is a panic value for the
	// caller's own tensors and an error from Stack and Cat.
	ErrShape Error = "distribution: shape mismatch"
	// ErrParam reports parameter values outside their domain (NaN logits,
	// negative probabilities, a scale that is not positive), returned by the
	// Set methods: a policy whose outputs became NaN produces it.
	ErrParam Error = "distribution: invalid parameter"
	// ErrValue reports a value outside the support of the distribution, such
	// as a category that is not an integer in [0, K); LogProb panics with it.
	ErrValue Error = "distribution: value outside the support"
	// ErrKind reports distributions of different kinds (or on different
	// tapes) given to Stack or Cat, and operations the wrapped distribution
	// of an Independent does not have (RSample, Entropy).
	ErrKind Error = "distribution: unsupported combination"
)

// errorf returns an error wrapping kind.
func errorf(kind Error, format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{kind}, args...)...)
}

// panicf panics with an error wrapping kind.
func panicf(kind Error, format string, args ...any) {
	panic(errorf(kind, format, args...))
}
