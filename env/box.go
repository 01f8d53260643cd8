package env

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/nd"
)

// Box is the space of arrays of one shape and dtype whose elements lie in
// [low, high] elementwise, Gymnasium's Box. Bounds may be infinite for
// float dtypes.
type Box struct {
	low, high []float64 // bounds in C order, rounded to dtype
	shape     []int
	dt        nd.DType
	lowArr    *nd.Array // low and high as arrays of dtype, for Low, High and String
	highArr   *nd.Array
}

// NewBox returns the space of arrays of the given shape and dtype bounded by
// low and high, like Gymnasium's Box(low, high, shape, dtype). low and high
// are each a Go number, a (nested) Go slice of numbers or an *nd.Array,
// broadcast to shape. A nil shape is taken, as Gymnasium takes it, from the
// bound that is an array (their shapes must then agree), and is (1,) when
// both are numbers; pass []int{} for 0-d values. The bounds are rounded to
// dtype, as Gymnasium stores them.
//
// dt must be a float or integer dtype. NewBox returns an error wrapping
// ErrSpace if a bound does not convert or broadcast, a bound is NaN, low >
// high somewhere, or an integer Box has a bound outside its dtype's range.
func NewBox(low, high any, shape []int, dt nd.DType) (*Box, error) {
	if !dt.IsFloat() && !dt.IsInteger() {
		return nil, fmt.Errorf("%w: Box of dtype %v: want a float or integer dtype", ErrSpace, dt)
	}
	lo, err := boxBound("low", low)
	if err != nil {
		return nil, err
	}
	hi, err := boxBound("high", high)
	if err != nil {
		return nil, err
	}
	if shape == nil {
		switch {
		case lo.Ndim() == 0 && hi.Ndim() == 0:
			shape = []int{1}
		case lo.Ndim() == 0:
			shape = hi.Shape()
		case hi.Ndim() == 0 || slices.Equal(lo.Shape(), hi.Shape()):
			shape = lo.Shape()
		default:
			return nil, fmt.Errorf("%w: Box bounds of shapes %s and %s differ and no shape is given",
				ErrSpace, tupleString(lo.Shape()), tupleString(hi.Shape()))
		}
	}
	for _, d := range shape {
		if d < 0 {
			return nil, fmt.Errorf("%w: Box shape %s has a negative dimension", ErrSpace, tupleString(shape))
		}
	}
	b := &Box{shape: slices.Clone(shape), dt: dt}
	if b.low, err = broadcastBound("low", lo, shape); err != nil {
		return nil, err
	}
	if b.high, err = broadcastBound("high", hi, shape); err != nil {
		return nil, err
	}
	imin, imax := intRange(dt)
	for i := range b.low {
		l, h := roundTo(dt, b.low[i]), roundTo(dt, b.high[i])
		switch {
		case math.IsNaN(l) || math.IsNaN(h):
			return nil, fmt.Errorf("%w: Box bound is NaN", ErrSpace)
		case l > h:
			return nil, fmt.Errorf("%w: Box low %v > high %v at flat position %d", ErrSpace, l, h, i)
		case dt.IsInteger() && (l < imin || h > imax):
			return nil, fmt.Errorf("%w: Box bounds [%v, %v] do not fit %v", ErrSpace, l, h, dt)
		}
		b.low[i], b.high[i] = l, h
	}
	b.lowArr, b.highArr = boundArray(b.low, shape, dt), boundArray(b.high, shape, dt)
	return b, nil
}

// boxBound converts a bound to a float64 array.
func boxBound(name string, v any) (*nd.Array, error) {
	a, ok := v.(*nd.Array)
	if !ok {
		var err error
		if a, err = nd.New(v); err != nil {
			return nil, fmt.Errorf("%w: Box %s: %w", ErrSpace, name, err)
		}
	}
	if !a.DType().IsFloat() && !a.DType().IsInteger() {
		return nil, fmt.Errorf("%w: Box %s of dtype %v is not numeric", ErrSpace, name, a.DType())
	}
	return a.AsType(nd.Float64)
}

// broadcastBound returns the elements of a broadcast to shape, in C order.
func broadcastBound(name string, a *nd.Array, shape []int) ([]float64, error) {
	v, err := a.BroadcastTo(shape...)
	if err != nil {
		return nil, fmt.Errorf("%w: Box %s of shape %s does not broadcast to %s", ErrSpace, name,
			tupleString(a.Shape()), tupleString(shape))
	}
	return nd.ToSlice[float64](v), nil
}

// roundTo returns v rounded to a value of dt (float32 rounding; integers
// are kept, ±Inf too).
func roundTo(dt nd.DType, v float64) float64 {
	if dt == nd.Float32 {
		return float64(float32(v))
	}
	return v
}

// boundArray returns the bounds as a new array of dtype dt.
func boundArray(v []float64, shape []int, dt nd.DType) *nd.Array {
	a := nd.Zeros(dt, shape...)
	setFloats(a, func(i int) float64 { return v[i] })
	return a
}

// Low returns a copy of the lower bounds, an array of the Box's shape and dtype.
func (b *Box) Low() *nd.Array { return b.lowArr.Copy() }

// High returns a copy of the upper bounds, an array of the Box's shape and dtype.
func (b *Box) High() *nd.Array { return b.highArr.Copy() }

// Shape returns a copy of the Box's shape.
func (b *Box) Shape() []int { return slices.Clone(b.shape) }

// DType returns the Box's dtype.
func (b *Box) DType() nd.DType { return b.dt }

// Contains reports whether x is an array of the Box's shape whose dtype can
// be cast safely to the Box's dtype (numpy's can_cast) and whose elements
// all lie within the bounds (a NaN does not).
func (b *Box) Contains(x any) bool {
	a, ok := x.(*nd.Array)
	if !ok || !shapeEqual(a, b.shape) || !canCastSafe(a.DType(), b.dt) {
		return false
	}
	return eachFloat(a, func(i int, v float64) bool { return v >= b.low[i] && v <= b.high[i] })
}

// Sample returns a new random array of the Box, drawn as Gymnasium draws
// it: see SampleTo.
func (b *Box) Sample(rng *rand.Rand) any {
	a := nd.Zeros(b.dt, b.shape...)
	b.SampleTo(a, rng)
	return a
}

// SampleTo fills dst, a contiguous array of the Box's dtype whose trailing
// dimensions are its shape, with independent samples drawn as Gymnasium
// draws them, per element: uniform in [low, high] when both bounds are
// finite (in [low, high+1) and floored for integer dtypes), low plus a
// standard exponential when only low is finite, high minus one when only
// high is, and a standard normal when neither is. SampleTo panics if dst
// does not fit.
func (b *Box) SampleTo(dst any, rng *rand.Rand) {
	a := sampleDst(b, dst, b.dt, b.shape)
	n := len(b.low)
	if n == 0 {
		return
	}
	integer := b.dt.IsInteger()
	setFloats(a, func(i int) float64 {
		lo, hi := b.low[i%n], b.high[i%n]
		if integer {
			hi++
		}
		var v float64
		switch inf := [2]bool{math.IsInf(lo, 0), math.IsInf(hi, 0)}; inf {
		case [2]bool{false, false}:
			v = lo + (hi-lo)*rng.Float64()
		case [2]bool{false, true}:
			v = lo + rng.ExpFloat64()
		case [2]bool{true, false}:
			v = hi - rng.ExpFloat64()
		default:
			v = rng.NormFloat64()
		}
		if integer {
			v = math.Floor(v)
		}
		return v
	})
}

// Equal reports whether other is a Box with the same shape, dtype and bounds.
func (b *Box) Equal(other Space) bool {
	o, ok := other.(*Box)
	return ok && o.dt == b.dt && slices.Equal(o.shape, b.shape) &&
		slices.Equal(o.low, b.low) && slices.Equal(o.high, b.high)
}

// String returns Gymnasium's repr, "Box(low, high, shape, dtype)", where a
// bound whose elements are all equal prints as that one number:
// "Box(-1.0, 1.0, (3,), float32)", "Box([-4.8 -inf], [4.8 inf], (2,), float32)".
func (b *Box) String() string {
	return fmt.Sprintf("Box(%s, %s, %s, %v)", shortRepr(b.lowArr), shortRepr(b.highArr), tupleString(b.shape), b.dt)
}

// shortRepr is Gymnasium's Box._short_repr: the single value of an array
// whose elements are all equal, else numpy's str of the array.
func shortRepr(a *nd.Array) string {
	if a.Size() == 0 {
		return a.Str()
	}
	lo, _ := nd.Min(a)
	hi, _ := nd.Max(a)
	if nd.Equal(lo, hi) {
		return lo.Str()
	}
	return a.Str()
}
