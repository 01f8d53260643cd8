package nn

import "errors"

// Errors returned by package nn, wrapped with details (a name, a shape, an
// offset); test for them with errors.Is.
var (
	// ErrMismatch reports two parameter sets that do not have the same
	// structure (names, order, shapes), or a file whose tensors do not match
	// the parameters they are loaded into.
	ErrMismatch = errors.New("nn: parameter sets do not match")
	// ErrFormat reports a malformed safetensors file: a bad header length,
	// invalid JSON, an unknown dtype, offsets out of bounds, overlapping or
	// leaving gaps, or a truncated data section.
	ErrFormat = errors.New("nn: malformed safetensors file")
	// ErrConfig reports an invalid module configuration or argument (a
	// non-positive size, an unknown activation, τ outside [0, 1]).
	ErrConfig = errors.New("nn: invalid configuration")
	// ErrMissingInput reports an input a Model declares that none of the
	// batches given to Call holds.
	ErrMissingInput = errors.New("nn: missing input")
	// ErrDuplicateInput reports an input a Model declares that more than one
	// batch given to Call holds.
	ErrDuplicateInput = errors.New("nn: input supplied twice")
	// ErrInputType reports a batch value that cannot be fed to a model as a
	// float32 tensor (a string, a nested Batch, an Object array).
	ErrInputType = errors.New("nn: input is not a numeric array or tensor")
)
