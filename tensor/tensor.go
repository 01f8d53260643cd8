package tensor

import (
	"fmt"
	"strconv"
	"strings"
)

// Tensor is an n-dimensional array of float32 values stored row-major and
// contiguously, with an optional gradient.
//
// A tensor is either a leaf, created by New or FromSlice (parameters, inputs),
// or the result of an operation on a Tape. A leaf lives until it is garbage
// collected; a tape's result lives until the tape is Reset. See the package
// documentation for views and for what each operation allocates.
type Tensor struct {
	data  []float32
	shape []int
	// grad holds the gradient when gradSet; its capacity is kept when the
	// gradient is cleared, so steady-state steps do not allocate.
	grad         []float32
	gradSet      bool
	requiresGrad bool
	// tape is the tape whose arena holds this tensor (nil for leaves and for
	// results computed without a tape); gen is the tape generation it belongs
	// to.
	tape *Tape
	gen  uint32
}

// New returns a leaf tensor of the given shape filled with zeros. A tensor
// with no dimensions is a scalar holding one value.
//
// New panics with ErrShape if a dimension is negative.
func New(shape ...int) *Tensor {
	n := checkedNumel("New", shape)
	return &Tensor{data: make([]float32, n), shape: append([]int{}, shape...)}
}

// FromSlice returns a leaf tensor of the given shape that references data
// without copying it: writes through either are visible in both. With no shape
// it is one-dimensional of length len(data).
//
// It returns an error wrapping ErrShape if a dimension is negative or the
// shape's size differs from len(data).
func FromSlice(data []float32, shape ...int) (*Tensor, error) {
	if err := sliceShapeError(data, shape); err != nil {
		return nil, err
	}
	t := &Tensor{data: data}
	if len(shape) == 0 {
		t.shape = []int{len(data)}
	} else {
		t.shape = append([]int{}, shape...)
	}
	return t, nil
}

// MustFromSlice is like FromSlice but panics instead of returning an error.
func MustFromSlice(data []float32, shape ...int) *Tensor {
	t, err := FromSlice(data, shape...)
	if err != nil {
		panic(err)
	}
	return t
}

func sliceShapeError(data []float32, shape []int) error {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return fmt.Errorf("%w: negative dimension in %v", ErrShape, shape)
		}
		n *= d
	}
	if len(shape) > 0 && n != len(data) {
		return fmt.Errorf("%w: shape %v holds %d values, data has %d", ErrShape, shape, n, len(data))
	}
	return nil
}

// checkedNumel returns the number of elements of shape, panicking with
// ErrShape for a negative dimension.
func checkedNumel(op string, shape []int) int {
	n := 1
	for _, d := range shape {
		if d < 0 {
			panicf(ErrShape, "%s: negative dimension in %v", op, shape)
		}
		n *= d
	}
	return n
}

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// Shape returns the dimensions. The slice belongs to the tensor: do not
// modify it.
func (t *Tensor) Shape() []int { return t.shape }

// NDim returns the number of dimensions (0 for a scalar).
func (t *Tensor) NDim() int { return len(t.shape) }

// Dim returns the size of dimension i; negative i counts from the end.
// Dim panics with ErrShape if i is out of range.
func (t *Tensor) Dim(i int) int { return t.shape[axisIndex("Dim", i, len(t.shape))] }

// Len returns the number of elements.
func (t *Tensor) Len() int { return len(t.data) }

// Data returns the values in row-major order. The slice is the tensor's
// memory (or that of the tensor it is a view of): writes change the tensor.
func (t *Tensor) Data() []float32 { return t.data }

// Item returns the only value of a one-element tensor.
// Item panics with ErrShape if the tensor has more or fewer elements.
func (t *Tensor) Item() float32 {
	if len(t.data) != 1 {
		panicf(ErrShape, "Item of a tensor of shape %v", t.shape)
	}
	return t.data[0]
}

// RequiresGrad reports whether gradients are computed for t: a leaf marked
// with SetRequiresGrad, or a tape result that depends on one while the tape
// records gradients.
func (t *Tensor) RequiresGrad() bool { return t.requiresGrad }

// SetRequiresGrad marks a leaf as a tensor whose gradient Backward computes
// (a parameter) or unmarks it. It returns t.
//
// SetRequiresGrad panics with ErrGrad if t was produced by a tape.
func (t *Tensor) SetRequiresGrad(on bool) *Tensor {
	if t.tape != nil {
		panicf(ErrGrad, "SetRequiresGrad on a tensor produced by a tape (detach it or use a leaf)")
	}
	t.requiresGrad = on
	return t
}

// Grad returns the gradient accumulated in t by Backward since the last
// ZeroGrad, with t's shape, or nil if there is none. The slice is t's gradient
// memory: an optimizer may change it in place (clipping, scaling).
//
// Gradients accumulate: each Backward adds to a leaf's gradient, as in
// PyTorch. A tape result's gradient is recomputed by each Backward and valid
// until the tape is Reset.
func (t *Tensor) Grad() []float32 {
	if !t.gradSet {
		return nil
	}
	return t.grad
}

// ZeroGrad drops t's gradient, so the next Backward writes it afresh. The
// memory is kept for reuse and not cleared, which costs nothing; Grad returns
// nil until the next Backward reaches t (PyTorch's zero_grad(set_to_none=True)).
func (t *Tensor) ZeroGrad() { t.gradSet = false }

// Fill sets every element to v.
func (t *Tensor) Fill(v float32) {
	for i := range t.data {
		t.data[i] = v
	}
}

// String formats the values as nested brackets, numpy style, for example
// "[[1 2] [3 4]]"; a scalar prints as its value.
func (t *Tensor) String() string {
	var b strings.Builder
	var rec func(dim, off int)
	rec = func(dim, off int) {
		if dim == len(t.shape) {
			b.WriteString(strconv.FormatFloat(float64(t.data[off]), 'g', -1, 32))
			return
		}
		b.WriteByte('[')
		stride := numel(t.shape[dim+1:])
		for i := 0; i < t.shape[dim]; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			rec(dim+1, off+i*stride)
		}
		b.WriteByte(']')
	}
	rec(0, 0)
	return b.String()
}

// axisIndex resolves a possibly negative axis of an ndim-dimensional tensor.
func axisIndex(op string, axis, ndim int) int {
	a := axis
	if a < 0 {
		a += ndim
	}
	if a < 0 || a >= ndim {
		panicf(ErrShape, "%s: axis %d out of range for %d dimensions", op, axis, ndim)
	}
	return a
}

// split returns the sizes before, at and after axis: a tensor viewed as
// [outer, n, inner].
func split(shape []int, axis int) (outer, n, inner int) {
	return numel(shape[:axis]), shape[axis], numel(shape[axis+1:])
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// resize returns s with length n, reusing its memory when it is large enough.
// The contents are unspecified.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
