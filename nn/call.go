package nn

import (
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// Model is a network that declares the names of its inputs, the Go form of
// the argument names Machin's safe_call reads from a model's forward method.
type Model interface {
	// Inputs returns the input names in the order Call expects them. The
	// caller does not modify the result, so a model can return the same
	// slice every time (and should, for acting without allocations).
	Inputs() []string
	// Call records the model's computation on tp, with in[i] the value of
	// Inputs()[i], and returns its output.
	Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor
}

// Caller feeds a Model the values its inputs name, taken from one or more
// batches: Machin's safe_call. The zero Caller is ready to use.
//
// A Caller remembers the tensors it made for the last call, so calling the
// same model again with the same arrays (a replay buffer sampling into the
// same destination batch, an env writing into the same observation array)
// allocates nothing. Use one Caller per model for that. A Caller is not safe
// for concurrent use.
type Caller struct {
	in    []*tensor.Tensor
	cache []input
}

// input is the tensor made for one input from a batch value.
type input struct {
	src *nd.Array // the array it was made from
	t   *tensor.Tensor
	// dst is set when src is not contiguous float32: t then owns a copy,
	// refreshed on every later call through dst (an nd view of t's memory).
	dst *nd.Array
}

// Call looks up every input m declares in bs (as a key or key path, with
// batch.Batch.Get), passes the values to m.Call in the declared order, and
// returns its output. Keys that m does not declare are ignored; nil batches
// are skipped.
//
// A value may be a *tensor.Tensor, used as it is, or a numeric *nd.Array: a
// C-contiguous float32 array is used without copying (the tensor shares its
// memory), other dtypes and layouts are converted to float32 (a copy, made
// again at every call so that it follows the array's contents).
//
// Call returns an error wrapping ErrMissingInput naming an input that no batch
// holds, ErrDuplicateInput naming an input that more than one batch holds,
// and ErrInputType naming an input whose value is not a tensor or numeric
// array (nil, a string, a nested Batch, an Object array); m is not called
// then.
func (c *Caller) Call(tp *tensor.Tape, m Model, bs ...*batch.Batch) (*tensor.Tensor, error) {
	names := m.Inputs()
	if len(c.cache) < len(names) {
		c.cache = append(c.cache, make([]input, len(names)-len(c.cache))...)
	}
	c.in = c.in[:0]
	for i, name := range names {
		var v any
		from := -1
		for j, b := range bs {
			if b == nil {
				continue
			}
			if x, ok := b.Get(name); ok {
				if from >= 0 {
					return nil, fmt.Errorf("%w: %q is in batches %d and %d", ErrDuplicateInput, name, from, j)
				}
				v, from = x, j
			}
		}
		if from < 0 {
			return nil, fmt.Errorf("%w: %q (the model's inputs are %q)", ErrMissingInput, name, names)
		}
		t, err := c.cache[i].tensor(v)
		if err != nil {
			return nil, fmt.Errorf("input %q: %w", name, err)
		}
		c.in = append(c.in, t)
	}
	return m.Call(tp, c.in), nil
}

// tensor returns the tensor for the batch value v, reusing the previous one
// when v is the same array.
func (in *input) tensor(v any) (*tensor.Tensor, error) {
	switch v := v.(type) {
	case *tensor.Tensor:
		return v, nil
	case *nd.Array:
		if v != in.src {
			*in = input{}
			t, err := tensor.FromND(v) // a view of contiguous float32, a copy otherwise
			if err != nil {
				return nil, fmt.Errorf("%w: %v", ErrInputType, err)
			}
			in.src, in.t = v, t
			if v.DType() != nd.Float32 || !v.IsContiguous() {
				in.dst = t.ND()
			}
			return t, nil
		}
		if in.dst != nil { // a converted copy: refresh it
			if err := nd.CopyTo(in.dst, v); err != nil {
				*in = input{}
				return nil, fmt.Errorf("%w: %v", ErrInputType, err)
			}
		}
		return in.t, nil
	}
	return nil, fmt.Errorf("%w: %T", ErrInputType, v)
}
