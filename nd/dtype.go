package nd

import (
	"fmt"
	"math"
	"unsafe"
)

// DType is the element type of an Array.
//
// The zero DType is not a valid element type; every constructor takes one of
// the named constants below.
type DType uint8

// The element types, with numpy's names.
const (
	Bool DType = iota + 1
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float32
	Float64
	// Object elements are arbitrary Go values held as `any`; nil plays
	// numpy's None.
	Object
)

var dtypeNames = [...]string{
	Bool: "bool", Int8: "int8", Int16: "int16", Int32: "int32", Int64: "int64",
	Uint8: "uint8", Uint16: "uint16", Uint32: "uint32", Uint64: "uint64",
	Float32: "float32", Float64: "float64", Object: "object",
}

// ifaceSize is the size of a Go interface value (two words).
const ifaceSize = int(unsafe.Sizeof(any(nil)))

var dtypeSizes = [...]int{
	Bool: 1, Int8: 1, Int16: 2, Int32: 4, Int64: 8, Uint8: 1, Uint16: 2, Uint32: 4,
	Uint64: 8, Float32: 4, Float64: 8, Object: ifaceSize,
}

// String returns numpy's name of the dtype: "bool", "int64", "float32",
// "object", …; an invalid DType prints as "DType(n)".
func (dt DType) String() string {
	if !dt.valid() {
		return fmt.Sprintf("DType(%d)", uint8(dt))
	}
	return dtypeNames[dt]
}

// Size returns the number of bytes one element occupies; for Object it is
// the size of a Go interface value. It returns 0 for an invalid DType.
func (dt DType) Size() int {
	if !dt.valid() {
		return 0
	}
	return dtypeSizes[dt]
}

func (dt DType) valid() bool { return dt >= Bool && dt <= Object }

// kind orders dtypes as numpy's same_kind casting does:
// bool < unsigned < signed < float < object.
type kind uint8

const (
	kindBool kind = iota
	kindUint
	kindInt
	kindFloat
	kindObject
)

func (dt DType) kind() kind {
	switch dt {
	case Bool:
		return kindBool
	case Uint8, Uint16, Uint32, Uint64:
		return kindUint
	case Int8, Int16, Int32, Int64:
		return kindInt
	case Float32, Float64:
		return kindFloat
	}
	return kindObject
}

// IsInteger reports whether dt is a signed or unsigned integer dtype.
func (dt DType) IsInteger() bool { k := dt.kind(); return k == kindUint || k == kindInt }

// IsFloat reports whether dt is Float32 or Float64.
func (dt DType) IsFloat() bool { return dt == Float32 || dt == Float64 }

func intOfSize(n int) DType {
	switch n {
	case 1:
		return Int8
	case 2:
		return Int16
	case 4:
		return Int32
	}
	return Int64
}

// ResultType returns the dtype numpy's result_type gives for two arrays of
// dtypes a and b: the smallest dtype both can be cast to safely, so
// int64+float32 → float64, int8+uint8 → int16, uint64+int64 → float64,
// bool+int32 → int32, and anything with Object → Object. Invalid dtypes
// give Object.
func ResultType(a, b DType) DType {
	if a == b && a.valid() {
		return a
	}
	if !a.valid() || !b.valid() || a == Object || b == Object {
		return Object
	}
	ka, kb := a.kind(), b.kind()
	if ka > kb {
		a, b, ka, kb = b, a, kb, ka
	}
	// Now ka <= kb.
	switch {
	case ka == kindBool:
		return b
	case ka == kb: // same kind, different size
		if a.Size() > b.Size() {
			return a
		}
		return b
	case kb == kindFloat:
		if b == Float32 && a.Size() <= 2 {
			return Float32
		}
		return Float64
	default: // a unsigned, b signed
		if b.Size() > a.Size() {
			return b
		}
		if a.Size() < 8 {
			return intOfSize(2 * a.Size())
		}
		return Float64
	}
}

// CanCast reports whether numpy's "same_kind" rule allows casting from one
// dtype to another: a cast within a kind (float64 → float32, int64 → int8)
// or to a later kind in bool < unsigned < signed < float. Every dtype casts
// to Object; Object casts only to Object.
func CanCast(from, to DType) bool {
	if !from.valid() || !to.valid() {
		return false
	}
	return from.kind() <= to.kind()
}

// DTypeOf returns the dtype whose elements have the Go type T: Bool for
// bool, Int8…Int64 and Uint8…Uint64 for the sized integer types, Float32,
// Float64, and Object for any (the element type of Object arrays). For any
// other T (int, string, a named type, another interface) it returns the
// zero DType, which is not a valid element type.
func DTypeOf[T any]() DType {
	var z T
	switch any(z).(type) {
	case bool:
		return Bool
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int64:
		return Int64
	case uint8:
		return Uint8
	case uint16:
		return Uint16
	case uint32:
		return Uint32
	case uint64:
		return Uint64
	case float32:
		return Float32
	case float64:
		return Float64
	case nil:
		// T is an interface type; only `any` itself is an element type.
		if _, ok := any((*T)(nil)).(*any); ok {
			return Object
		}
	}
	return 0
}

// scalar describes a Go scalar value: its dtype when stored, whether it
// is weak in numpy 2's sense (NEP 50: Go int, float64 and bool behave like
// Python's int, float and bool), and its value as float64 / int64 / uint64
// for range checks.
type scalar struct {
	dt   DType
	weak bool
	f    float64
	i    int64
	u    uint64
	neg  bool // an integer value below zero (i valid)
	v    any
}

// scalarOf classifies a Go value. ok is false when v is not a bool or a
// number (a string, nil, a struct…): such values only fit Object arrays.
func scalarOf(v any) (s scalar, ok bool) {
	s.v = v
	switch x := v.(type) {
	case bool:
		s.dt, s.weak = Bool, true
		if x {
			s.i, s.u, s.f = 1, 1, 1
		}
	case int:
		s.dt, s.weak = Int64, true
		s.setInt(int64(x))
	case int8:
		s.dt = Int8
		s.setInt(int64(x))
	case int16:
		s.dt = Int16
		s.setInt(int64(x))
	case int32:
		s.dt = Int32
		s.setInt(int64(x))
	case int64:
		s.dt = Int64
		s.setInt(x)
	case uint:
		s.dt = Uint64
		s.setUint(uint64(x))
	case uint8:
		s.dt = Uint8
		s.setUint(uint64(x))
	case uint16:
		s.dt = Uint16
		s.setUint(uint64(x))
	case uint32:
		s.dt = Uint32
		s.setUint(uint64(x))
	case uint64:
		s.dt = Uint64
		s.setUint(x)
	case uintptr:
		s.dt = Uint64
		s.setUint(uint64(x))
	case float32:
		s.dt = Float32
		s.f = float64(x)
	case float64:
		s.dt, s.weak = Float64, true
		s.f = x
	default:
		s.dt = Object
		return s, false
	}
	return s, true
}

func (s *scalar) setInt(i int64) {
	s.i, s.f, s.neg = i, float64(i), i < 0
	s.u = uint64(i)
}

func (s *scalar) setUint(u uint64) {
	s.u, s.f, s.i = u, float64(u), int64(u)
	if u > math.MaxInt64 {
		// Keep i meaningless but neg false; fits checks use u.
		s.i = math.MaxInt64
	}
}

// weakResult returns the dtype of an operation between an array of dtype dt
// and the scalar s (NEP 50): a weak scalar adopts the array's dtype unless
// its kind is higher (a float scalar makes int arrays float64, an int scalar
// makes bool arrays int64); a strong scalar promotes like an array.
func weakResult(dt DType, s scalar) DType {
	if !s.weak || dt == Object {
		return ResultType(dt, s.dt)
	}
	if weakCategory(s.dt) <= weakCategory(dt) {
		return dt
	}
	return s.dt // Int64 or Float64
}

// weakCategory orders dtypes for NEP 50: a Python (weak) int adopts any
// integer dtype, signed or not.
func weakCategory(dt DType) int {
	switch dt.kind() {
	case kindBool:
		return 0
	case kindUint, kindInt:
		return 1
	}
	return 2
}

// fits reports whether the scalar's value is representable in dt, the check
// numpy 2 applies to Python ints (an out-of-range int is an OverflowError).
// Floats fit any float dtype (float32 overflow gives inf, as in numpy).
func (s scalar) fits(dt DType) bool {
	switch dt.kind() {
	case kindObject, kindFloat:
		return true
	case kindBool:
		return s.dt == Bool
	}
	if s.dt.kind() == kindFloat {
		return false
	}
	if s.dt == Bool {
		return true
	}
	isUint := s.dt.kind() == kindUint
	switch dt {
	case Int8:
		return !isUint && s.i >= math.MinInt8 && s.i <= math.MaxInt8 || isUint && s.u <= math.MaxInt8
	case Int16:
		return !isUint && s.i >= math.MinInt16 && s.i <= math.MaxInt16 || isUint && s.u <= math.MaxInt16
	case Int32:
		return !isUint && s.i >= math.MinInt32 && s.i <= math.MaxInt32 || isUint && s.u <= math.MaxInt32
	case Int64:
		return !isUint || s.u <= math.MaxInt64
	case Uint8:
		return !s.neg && s.u <= math.MaxUint8
	case Uint16:
		return !s.neg && s.u <= math.MaxUint16
	case Uint32:
		return !s.neg && s.u <= math.MaxUint32
	case Uint64:
		return !s.neg
	}
	return false
}
