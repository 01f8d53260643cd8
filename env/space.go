package env

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/nd"
)

// Space is a set of observations or actions, Gymnasium's spaces.Space.
//
// A value of a Discrete, Box, MultiDiscrete or MultiBinary space is an
// *nd.Array of the space's shape whose dtype can be cast safely to the
// space's dtype; a value of a Dict or Tuple space is a *batch.Batch with one
// key per sub-space. Spaces are immutable and safe for concurrent use.
type Space interface {
	// Shape returns the shape of the space's values (nil for 0-d values
	// and for Dict and Tuple spaces, whose values have no single shape).
	Shape() []int
	// DType returns the dtype of the arrays Sample returns (0, not a valid
	// dtype, for Dict and Tuple spaces).
	DType() nd.DType
	// Contains reports whether x is a value of the space.
	Contains(x any) bool
	// Sample returns a new random value of the space, drawn from rng.
	Sample(rng *rand.Rand) any
	// SampleTo fills dst with random values of the space drawn from rng,
	// without allocating. For array spaces dst is a C-contiguous array of
	// the space's dtype whose trailing dimensions are the space's shape;
	// each leading index (a batch of envs, say) gets its own sample. For
	// Dict and Tuple spaces dst is a Batch whose leaves are such arrays.
	// SampleTo panics with an *nd.Error wrapping nd.ErrShape if dst does
	// not fit.
	SampleTo(dst any, rng *rand.Rand)
	// Equal reports whether other is the same space.
	Equal(other Space) bool
	// String returns Gymnasium's repr of the space, such as
	// "Discrete(2)" or "Box(-1.0, 1.0, (3,), float32)".
	String() string
}

// sampleDst checks that dst is an array of dtype dt whose trailing
// dimensions are shape, and returns it; it panics otherwise.
func sampleDst(space Space, dst any, dt nd.DType, shape []int) *nd.Array {
	a, ok := dst.(*nd.Array)
	if ok && a.DType() == dt && a.IsContiguous() && a.Ndim() >= len(shape) {
		lead := a.Ndim() - len(shape)
		fits := true
		for i, d := range shape {
			fits = fits && a.Dim(lead+i) == d
		}
		if fits {
			return a
		}
	}
	desc := fmt.Sprintf("%T", dst)
	if ok {
		desc = fmt.Sprintf("%s %v array", tupleString(a.Shape()), a.DType())
	}
	panic(&nd.Error{Kind: nd.ErrShape, Msg: fmt.Sprintf(
		"%v.SampleTo: destination %s is not a contiguous %v array of shape (..., %s)",
		space, desc, dt, tupleString(shape)[1:])})
}

// Discrete is the space of the integers start, start+1, …, start+n−1,
// Gymnasium's Discrete(n, start). Its values are 0-d integer arrays; Sample
// returns int64 ones.
type Discrete struct {
	n, start int64
}

// NewDiscrete returns the space {start, …, start+n−1}. It returns an error
// wrapping ErrSpace if n ≤ 0 or start+n−1 overflows an int64.
func NewDiscrete(n, start int64) (*Discrete, error) {
	if n <= 0 {
		return nil, fmt.Errorf("%w: Discrete(%d): n must be positive", ErrSpace, n)
	}
	if start > math.MaxInt64-(n-1) {
		return nil, fmt.Errorf("%w: Discrete(%d, start=%d) overflows int64", ErrSpace, n, start)
	}
	return &Discrete{n: n, start: start}, nil
}

// N returns the number of values.
func (s *Discrete) N() int64 { return s.n }

// Start returns the smallest value.
func (s *Discrete) Start() int64 { return s.start }

// Shape returns nil: the values are 0-d.
func (s *Discrete) Shape() []int { return nil }

// DType returns nd.Int64.
func (s *Discrete) DType() nd.DType { return nd.Int64 }

// Contains reports whether x is a 0-d array of an integer dtype holding a
// value in [start, start+n).
func (s *Discrete) Contains(x any) bool {
	_, err := s.Int(x)
	return err == nil
}

// Int returns the integer x holds, or an error wrapping ErrAction if x is
// not a value of the space (not a 0-d integer array, or out of range). It
// does not allocate.
func (s *Discrete) Int(x any) (int64, error) {
	a, ok := x.(*nd.Array)
	if !ok {
		return 0, fmt.Errorf("%w: %T is not a value of %v", ErrAction, x, s)
	}
	if a.Ndim() != 0 || !a.DType().IsInteger() {
		return 0, fmt.Errorf("%w: a %s %v array is not a value of %v", ErrAction, tupleString(a.Shape()), a.DType(), s)
	}
	var v int64
	if a.DType() == nd.Int64 { // the dtype of Sample and of vector envs' action slots
		v = nd.Data[int64](a)[0]
	} else {
		eachInt(a, func(_ int, x int64) bool { v = x; return true })
	}
	if v < s.start || v-s.start >= s.n {
		return 0, fmt.Errorf("%w: %d is not in %v", ErrAction, v, s)
	}
	return v, nil
}

// Sample returns a new 0-d int64 array holding a uniform value of the space.
func (s *Discrete) Sample(rng *rand.Rand) any {
	a := nd.Zeros(nd.Int64)
	s.SampleTo(a, rng)
	return a
}

// SampleTo sets every element of dst, a contiguous int64 array, to a
// uniform value of the space. It panics if dst is not such an array.
func (s *Discrete) SampleTo(dst any, rng *rand.Rand) {
	d := nd.Data[int64](sampleDst(s, dst, nd.Int64, nil))
	for i := range d {
		d[i] = s.start + rng.Int64N(s.n)
	}
}

// Equal reports whether other is a Discrete with the same n and start.
func (s *Discrete) Equal(other Space) bool {
	o, ok := other.(*Discrete)
	return ok && *o == *s
}

// String returns "Discrete(n)", or "Discrete(n, start=s)" when s ≠ 0.
func (s *Discrete) String() string {
	if s.start != 0 {
		return fmt.Sprintf("Discrete(%d, start=%d)", s.n, s.start)
	}
	return fmt.Sprintf("Discrete(%d)", s.n)
}
