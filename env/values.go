package env

import (
	"math"
	"strconv"

	"github.com/gorl/gorl/nd"
)

// number is the set of numeric element types of nd arrays.
type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// contiguous returns a, or a contiguous copy of it.
func contiguous(a *nd.Array) *nd.Array {
	if a.IsContiguous() {
		return a
	}
	return a.Copy()
}

// eachFloat calls f with every element of a (a numeric or Bool array) as a
// float64, in C order, stopping when f returns false. It reports whether it
// visited every element. It does not allocate for contiguous arrays.
func eachFloat(a *nd.Array, f func(i int, v float64) bool) bool {
	a = contiguous(a)
	switch a.DType() {
	case nd.Bool:
		for i, v := range nd.Data[bool](a) {
			x := 0.0
			if v {
				x = 1
			}
			if !f(i, x) {
				return false
			}
		}
		return true
	case nd.Int8:
		return eachAs(nd.Data[int8](a), f)
	case nd.Int16:
		return eachAs(nd.Data[int16](a), f)
	case nd.Int32:
		return eachAs(nd.Data[int32](a), f)
	case nd.Int64:
		return eachAs(nd.Data[int64](a), f)
	case nd.Uint8:
		return eachAs(nd.Data[uint8](a), f)
	case nd.Uint16:
		return eachAs(nd.Data[uint16](a), f)
	case nd.Uint32:
		return eachAs(nd.Data[uint32](a), f)
	case nd.Uint64:
		return eachAs(nd.Data[uint64](a), f)
	case nd.Float32:
		return eachAs(nd.Data[float32](a), f)
	case nd.Float64:
		return eachAs(nd.Data[float64](a), f)
	}
	return false
}

func eachAs[T number](d []T, f func(i int, v float64) bool) bool {
	for i, v := range d {
		if !f(i, float64(v)) {
			return false
		}
	}
	return true
}

// eachInt calls f with every element of a (an integer array) as an int64,
// in C order, stopping when f returns false. Unsigned values above
// math.MaxInt64 are passed as math.MaxInt64 with big set. It reports whether
// it visited every element, and false for a non-integer array.
func eachInt(a *nd.Array, f func(i int, v int64) bool) bool {
	a = contiguous(a)
	switch a.DType() {
	case nd.Int8:
		return eachIntAs(nd.Data[int8](a), f)
	case nd.Int16:
		return eachIntAs(nd.Data[int16](a), f)
	case nd.Int32:
		return eachIntAs(nd.Data[int32](a), f)
	case nd.Int64:
		return eachIntAs(nd.Data[int64](a), f)
	case nd.Uint8:
		return eachIntAs(nd.Data[uint8](a), f)
	case nd.Uint16:
		return eachIntAs(nd.Data[uint16](a), f)
	case nd.Uint32:
		return eachIntAs(nd.Data[uint32](a), f)
	case nd.Uint64:
		for i, v := range nd.Data[uint64](a) {
			x := int64(math.MaxInt64)
			if v <= math.MaxInt64 {
				x = int64(v)
			}
			if !f(i, x) {
				return false
			}
		}
		return true
	}
	return false
}

func eachIntAs[T ~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32](d []T, f func(i int, v int64) bool) bool {
	for i, v := range d {
		if !f(i, int64(v)) {
			return false
		}
	}
	return true
}

// setFloats sets every element of dst (a contiguous numeric array) to
// f(i), converted to dst's dtype: rounded for floats, truncated toward zero
// for integers (callers pass integral values).
func setFloats(dst *nd.Array, f func(i int) float64) {
	switch dst.DType() {
	case nd.Int8:
		setAs(nd.Data[int8](dst), f)
	case nd.Int16:
		setAs(nd.Data[int16](dst), f)
	case nd.Int32:
		setAs(nd.Data[int32](dst), f)
	case nd.Int64:
		setAs(nd.Data[int64](dst), f)
	case nd.Uint8:
		setAs(nd.Data[uint8](dst), f)
	case nd.Uint16:
		setAs(nd.Data[uint16](dst), f)
	case nd.Uint32:
		setAs(nd.Data[uint32](dst), f)
	case nd.Uint64:
		setAs(nd.Data[uint64](dst), f)
	case nd.Float32:
		setAs(nd.Data[float32](dst), f)
	case nd.Float64:
		setAs(nd.Data[float64](dst), f)
	default:
		panic(&nd.Error{Kind: nd.ErrDType, Msg: "env: cannot write numbers into a " + dst.DType().String() + " array"})
	}
}

func setAs[T number](d []T, f func(i int) float64) {
	for i := range d {
		d[i] = T(f(i))
	}
}

// canCastSafe reports whether numpy's can_cast(from, to) with its default
// "safe" rule holds: every value of from is exactly a value of to, except
// that numpy counts int64 and uint64 → float64 as safe.
func canCastSafe(from, to nd.DType) bool {
	if from == to {
		return true
	}
	if from == nd.Bool {
		return to != nd.Object
	}
	signed := func(dt nd.DType) bool { return dt >= nd.Int8 && dt <= nd.Int64 }
	unsigned := func(dt nd.DType) bool { return dt >= nd.Uint8 && dt <= nd.Uint64 }
	switch {
	case unsigned(from) && unsigned(to), signed(from) && signed(to):
		return to.Size() >= from.Size()
	case unsigned(from) && signed(to):
		return to.Size() > from.Size()
	case (signed(from) || unsigned(from)) && to == nd.Float32:
		return from.Size() <= 2
	case (signed(from) || unsigned(from)) && to == nd.Float64:
		return true
	case from == nd.Float32 && to == nd.Float64:
		return true
	}
	return false
}

// intRange returns the smallest and largest values of an integer dtype as
// float64 (the largest uint64 and int64 round up to 2⁶⁴ and 2⁶³).
func intRange(dt nd.DType) (lo, hi float64) {
	switch dt {
	case nd.Int8:
		return math.MinInt8, math.MaxInt8
	case nd.Int16:
		return math.MinInt16, math.MaxInt16
	case nd.Int32:
		return math.MinInt32, math.MaxInt32
	case nd.Int64:
		return math.MinInt64, math.MaxInt64
	case nd.Uint8:
		return 0, math.MaxUint8
	case nd.Uint16:
		return 0, math.MaxUint16
	case nd.Uint32:
		return 0, math.MaxUint32
	case nd.Uint64:
		return 0, math.MaxUint64
	}
	return math.Inf(-1), math.Inf(1)
}

// shapeEqual reports whether a has the given shape, without allocating.
func shapeEqual(a *nd.Array, shape []int) bool {
	if a.Ndim() != len(shape) {
		return false
	}
	for i, d := range shape {
		if a.Dim(i) != d {
			return false
		}
	}
	return true
}

// tupleString formats a shape as Python prints a tuple: (), (3,), (2, 3).
func tupleString(shape []int) string {
	b := []byte{'('}
	for i, d := range shape {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(d), 10)
	}
	if len(shape) == 1 {
		b = append(b, ',')
	}
	return string(append(b, ')'))
}
