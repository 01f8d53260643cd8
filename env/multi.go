package env

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/nd"
)

// MultiDiscrete is the space of integer arrays whose element i lies in
// [start[i], start[i]+nvec[i]), Gymnasium's MultiDiscrete: several Discrete
// spaces side by side (an array of them for a multi-dimensional nvec).
// Sample returns int64 arrays.
type MultiDiscrete struct {
	nvec, start []int64 // C order
	shape       []int
	nvecArr     *nd.Array
	startArr    *nd.Array
}

// NewMultiDiscrete returns the space with the given numbers of values and
// smallest values. nvec and start are each a (nested) Go slice of integers
// or an integer *nd.Array; start may be nil (all zeros) and must otherwise
// have nvec's shape. NewMultiDiscrete returns an error wrapping ErrSpace if
// they do not convert, their shapes differ, an nvec element is not positive
// or a range overflows int64.
func NewMultiDiscrete(nvec, start any) (*MultiDiscrete, error) {
	nv, err := intArray("nvec", nvec)
	if err != nil {
		return nil, err
	}
	s := &MultiDiscrete{shape: nv.Shape(), nvec: nd.ToSlice[int64](nv)}
	if start == nil {
		s.start = make([]int64, len(s.nvec))
	} else {
		st, err := intArray("start", start)
		if err != nil {
			return nil, err
		}
		if !slices.Equal(st.Shape(), s.shape) {
			return nil, fmt.Errorf("%w: MultiDiscrete start of shape %s differs from nvec's %s",
				ErrSpace, tupleString(st.Shape()), tupleString(s.shape))
		}
		s.start = nd.ToSlice[int64](st)
	}
	for i, n := range s.nvec {
		if n <= 0 {
			return nil, fmt.Errorf("%w: MultiDiscrete nvec %v has a non-positive element", ErrSpace, s.nvec)
		}
		if s.start[i] > math.MaxInt64-(n-1) {
			return nil, fmt.Errorf("%w: MultiDiscrete range at flat position %d overflows int64", ErrSpace, i)
		}
	}
	s.nvecArr, _ = nd.FromSlice(s.nvec, s.shape...)
	s.startArr, _ = nd.FromSlice(s.start, s.shape...)
	return s, nil
}

// intArray converts v to an int64 array.
func intArray(name string, v any) (*nd.Array, error) {
	a, ok := v.(*nd.Array)
	if !ok {
		var err error
		if a, err = nd.New(v); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrSpace, name, err)
		}
	}
	if !a.DType().IsInteger() {
		return nil, fmt.Errorf("%w: %s of dtype %v is not an integer array", ErrSpace, name, a.DType())
	}
	if a.DType() == nd.Uint64 {
		if m, _ := nd.Max(a); a.Size() > 0 && m.Item().(uint64) > math.MaxInt64 {
			return nil, fmt.Errorf("%w: %s has an element above the int64 range", ErrSpace, name)
		}
	}
	return a.AsType(nd.Int64)
}

// NVec returns a copy of the numbers of values, an int64 array of the
// space's shape.
func (s *MultiDiscrete) NVec() *nd.Array { return s.nvecArr.Copy() }

// Start returns a copy of the smallest values, an int64 array of the
// space's shape.
func (s *MultiDiscrete) Start() *nd.Array { return s.startArr.Copy() }

// Shape returns a copy of the space's shape, nvec's.
func (s *MultiDiscrete) Shape() []int { return slices.Clone(s.shape) }

// DType returns nd.Int64.
func (s *MultiDiscrete) DType() nd.DType { return nd.Int64 }

// Contains reports whether x is an integer array of the space's shape whose
// elements lie in their ranges.
func (s *MultiDiscrete) Contains(x any) bool {
	a, ok := x.(*nd.Array)
	if !ok || !shapeEqual(a, s.shape) {
		return false
	}
	return eachInt(a, func(i int, v int64) bool { return v >= s.start[i] && v-s.start[i] < s.nvec[i] })
}

// Sample returns a new int64 array with each element uniform in its range.
func (s *MultiDiscrete) Sample(rng *rand.Rand) any {
	a := nd.Zeros(nd.Int64, s.shape...)
	s.SampleTo(a, rng)
	return a
}

// SampleTo fills dst, a contiguous int64 array whose trailing dimensions
// are the space's shape, with independent uniform values. It panics if dst
// does not fit.
func (s *MultiDiscrete) SampleTo(dst any, rng *rand.Rand) {
	d := nd.Data[int64](sampleDst(s, dst, nd.Int64, s.shape))
	n := len(s.nvec)
	for i := range d {
		d[i] = s.start[i%n] + rng.Int64N(s.nvec[i%n])
	}
}

// Equal reports whether other is a MultiDiscrete with the same nvec and start.
func (s *MultiDiscrete) Equal(other Space) bool {
	o, ok := other.(*MultiDiscrete)
	return ok && slices.Equal(o.shape, s.shape) && slices.Equal(o.nvec, s.nvec) && slices.Equal(o.start, s.start)
}

// String returns Gymnasium's repr: "MultiDiscrete([2 3])", with
// ", start=[…]" when a start is not zero.
func (s *MultiDiscrete) String() string {
	for _, v := range s.start {
		if v != 0 {
			return fmt.Sprintf("MultiDiscrete(%s, start=%s)", s.nvecArr.Str(), s.startArr.Str())
		}
	}
	return fmt.Sprintf("MultiDiscrete(%s)", s.nvecArr.Str())
}

// MultiBinary is the space of arrays of one shape whose elements are 0 or
// 1, Gymnasium's MultiBinary. Sample returns int8 arrays.
type MultiBinary struct {
	shape []int
}

// NewMultiBinary returns the space of 0/1 arrays of the given shape (at
// least one dimension). It returns an error wrapping ErrSpace if there is no
// dimension or one is not positive.
func NewMultiBinary(shape ...int) (*MultiBinary, error) {
	if len(shape) == 0 {
		return nil, fmt.Errorf("%w: MultiBinary needs a shape", ErrSpace)
	}
	for _, d := range shape {
		if d <= 0 {
			return nil, fmt.Errorf("%w: MultiBinary shape %s has a non-positive dimension", ErrSpace, tupleString(shape))
		}
	}
	return &MultiBinary{shape: slices.Clone(shape)}, nil
}

// Shape returns a copy of the space's shape.
func (s *MultiBinary) Shape() []int { return slices.Clone(s.shape) }

// DType returns nd.Int8.
func (s *MultiBinary) DType() nd.DType { return nd.Int8 }

// Contains reports whether x is a numeric or bool array of the space's
// shape holding only zeros and ones.
func (s *MultiBinary) Contains(x any) bool {
	a, ok := x.(*nd.Array)
	if !ok || !shapeEqual(a, s.shape) {
		return false
	}
	return eachFloat(a, func(_ int, v float64) bool { return v == 0 || v == 1 })
}

// Sample returns a new int8 array of uniform zeros and ones.
func (s *MultiBinary) Sample(rng *rand.Rand) any {
	a := nd.Zeros(nd.Int8, s.shape...)
	s.SampleTo(a, rng)
	return a
}

// SampleTo fills dst, a contiguous int8 array whose trailing dimensions are
// the space's shape, with uniform zeros and ones. It panics if dst does not
// fit.
func (s *MultiBinary) SampleTo(dst any, rng *rand.Rand) {
	d := nd.Data[int8](sampleDst(s, dst, nd.Int8, s.shape))
	for i := range d {
		d[i] = int8(rng.IntN(2))
	}
}

// Equal reports whether other is a MultiBinary of the same shape.
func (s *MultiBinary) Equal(other Space) bool {
	o, ok := other.(*MultiBinary)
	return ok && slices.Equal(o.shape, s.shape)
}

// String returns Gymnasium's repr: "MultiBinary(4)" for a 1-d space,
// "MultiBinary((2, 3))" otherwise.
func (s *MultiBinary) String() string {
	if len(s.shape) == 1 {
		return fmt.Sprintf("MultiBinary(%d)", s.shape[0])
	}
	return fmt.Sprintf("MultiBinary(%s)", tupleString(s.shape))
}
