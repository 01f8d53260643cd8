package nd

import (
	"math"
	"unsafe"
)

// inlineDims is the number of dimensions whose shape and strides are
// allocated together with an Array header, so that a view of an array with
// up to this many dimensions costs one allocation.
const inlineDims = 4

// Array is an n-dimensional array of one dtype, numpy's ndarray.
//
// An Array is a header (dtype, shape, strides in elements, offset) over a
// backing buffer that several arrays (views) may share. Use *Array; the zero
// Array is not usable.
type Array struct {
	ptr     unsafe.Pointer // first element of the backing buffer (a []T's data)
	n       int            // number of elements in the backing buffer
	off     int            // position of element (0, 0, …) in the buffer
	size    int            // product of shape
	dt      DType
	shape   []int // shape and strides live in memory allocated with the
	strides []int // header (inlineArray) or in a Block's
}

// inlineArray is an Array allocated with the storage of its shape and
// strides when it has at most inlineDims dimensions.
type inlineArray struct {
	a    Array
	dims [2 * inlineDims]int
}

// elems returns the whole backing buffer of a as a []T. T must match a.dt.
func elems[T any](a *Array) []T { return unsafe.Slice((*T)(a.ptr), a.n) }

// header returns an Array of dtype dt with ndim dimensions sharing the
// backing buffer of like (if like is not nil); shape and strides are left
// for the caller to fill.
func header(dt DType, ndim int, like *Array) *Array {
	if ndim <= inlineDims {
		h := new(inlineArray)
		h.a.setHeader(dt, ndim, like, h.dims[:])
		return &h.a
	}
	a := new(Array)
	a.setHeader(dt, ndim, like, make([]int, 2*ndim))
	return a
}

// setHeader makes a (a zero header) a header as header returns it, with
// its shape and strides in dims (at least 2·ndim ints).
func (a *Array) setHeader(dt DType, ndim int, like *Array, dims []int) {
	a.dt = dt
	if like != nil {
		a.ptr, a.n = like.ptr, like.n
	}
	a.shape = dims[:ndim:ndim]
	a.strides = dims[ndim : 2*ndim : 2*ndim]
}

// setContiguous fills C-order strides for a's shape and computes its size.
func (a *Array) setContiguous() {
	st := 1
	for i := len(a.shape) - 1; i >= 0; i-- {
		a.strides[i] = st
		st *= a.shape[i]
	}
	a.size = st
}

func (a *Array) computeSize() {
	n := 1
	for _, d := range a.shape {
		n *= d
	}
	a.size = n
}

// checkedSize returns the product of shape, panicking on a negative
// dimension or an overflowing product.
func checkedSize(shape []int) int {
	n := 1
	for _, d := range shape {
		if d < 0 {
			panic(errorf(ErrShape, "negative dimension in shape %s", shapeString(shape)))
		}
		if d != 0 && n > math.MaxInt/d {
			panic(errorf(ErrShape, "shape %s is too large", shapeString(shape)))
		}
		n *= d
	}
	return n
}

// allocBuffer allocates a zeroed backing buffer of n elements of dtype dt.
func allocBuffer(dt DType, n int) unsafe.Pointer {
	switch dt {
	case Bool:
		return unsafe.Pointer(unsafe.SliceData(make([]bool, n)))
	case Int8:
		return unsafe.Pointer(unsafe.SliceData(make([]int8, n)))
	case Int16:
		return unsafe.Pointer(unsafe.SliceData(make([]int16, n)))
	case Int32:
		return unsafe.Pointer(unsafe.SliceData(make([]int32, n)))
	case Int64:
		return unsafe.Pointer(unsafe.SliceData(make([]int64, n)))
	case Uint8:
		return unsafe.Pointer(unsafe.SliceData(make([]uint8, n)))
	case Uint16:
		return unsafe.Pointer(unsafe.SliceData(make([]uint16, n)))
	case Uint32:
		return unsafe.Pointer(unsafe.SliceData(make([]uint32, n)))
	case Uint64:
		return unsafe.Pointer(unsafe.SliceData(make([]uint64, n)))
	case Float32:
		return unsafe.Pointer(unsafe.SliceData(make([]float32, n)))
	case Float64:
		return unsafe.Pointer(unsafe.SliceData(make([]float64, n)))
	case Object:
		return unsafe.Pointer(unsafe.SliceData(make([]any, n)))
	}
	panic(errorf(ErrDType, "invalid dtype %v", dt))
}

// newArray allocates a zeroed C-contiguous array: one allocation for the
// header and one for the data (when ndim <= 4).
func newArray(dt DType, shape []int) *Array {
	a := newHeader(dt, shape)
	a.ptr, a.n = allocBuffer(dt, a.size), a.size
	return a
}

// newHeader returns the header of a C-contiguous array of the given dtype
// and shape, without a buffer. It panics as checkedSize does.
func newHeader(dt DType, shape []int) *Array {
	checkedSize(shape)
	a := header(dt, len(shape), nil)
	copy(a.shape, shape)
	a.setContiguous()
	return a
}

// Zeros returns a new C-contiguous array of the given dtype and shape filled
// with zeros (false for Bool, nil for Object). No shape gives a 0-d array.
// Zeros panics if dt is invalid or a dimension is negative.
func Zeros(dt DType, shape ...int) *Array { return newArray(dt, shape) }

// ZerosLike returns a new zero-filled C-contiguous array with a's dtype and
// shape.
func ZerosLike(a *Array) *Array { return newArray(a.dt, a.shape) }

// Full returns a new array of the given dtype and shape with every element
// set to v. v is a Go scalar converted under the assignment rule of
// SetIndex: an error is returned if v does not fit dt (a float into an int
// array, 300 into uint8, a string into a numeric array). Full panics if a
// dimension is negative.
func Full(dt DType, v any, shape ...int) (*Array, error) {
	a := newArray(dt, shape)
	if err := a.fill(v); err != nil {
		return nil, err
	}
	return a, nil
}

// FromSlice returns an array of the given shape whose elements are data, in
// C order. The array REFERENCES data: writes through either are seen by the
// other. T must be one of bool, int8…int64, uint8…uint64, float32, float64,
// or any (an Object array). Without a shape the array is 1-d of len(data).
// An error is returned if T is not an element type or len(data) differs
// from the shape's size.
func FromSlice[T any](data []T, shape ...int) (*Array, error) {
	dt := DTypeOf[T]()
	if dt == 0 {
		var z T
		return nil, errorf(ErrDType, "FromSlice: %T is not an element type", z)
	}
	if shape == nil {
		shape = []int{len(data)}
	}
	for _, d := range shape {
		if d < 0 {
			return nil, errorf(ErrShape, "FromSlice: negative dimension in shape %s", shapeString(shape))
		}
	}
	a := header(dt, len(shape), nil)
	copy(a.shape, shape)
	a.setContiguous()
	if a.size != len(data) {
		return nil, errorf(ErrShape, "FromSlice: %d elements cannot have shape %s", len(data), shapeString(shape))
	}
	a.ptr, a.n = unsafe.Pointer(unsafe.SliceData(data)), len(data)
	return a, nil
}

// DType returns the element type of a.
func (a *Array) DType() DType { return a.dt }

// Shape returns a copy of a's shape (nil for a 0-d array). Use Dim to read
// one dimension without allocating.
func (a *Array) Shape() []int {
	if len(a.shape) == 0 {
		return nil
	}
	return append([]int(nil), a.shape...)
}

// Dim returns the length of one axis; a negative axis counts from the end.
// Dim panics if the axis is out of range.
func (a *Array) Dim(axis int) int { return a.shape[a.axis(axis)] }

// Strides returns a copy of a's strides, in elements (not bytes, unlike
// numpy). A broadcast axis has stride 0.
func (a *Array) Strides() []int {
	if len(a.strides) == 0 {
		return nil
	}
	return append([]int(nil), a.strides...)
}

// Ndim returns the number of dimensions.
func (a *Array) Ndim() int { return len(a.shape) }

// Size returns the number of elements, the product of the shape (1 for a
// 0-d array).
func (a *Array) Size() int { return a.size }

// Len returns the length of the first axis. Len panics for a 0-d array,
// which has no length (numpy: "len() of unsized object").
func (a *Array) Len() int {
	if len(a.shape) == 0 {
		panic(errorf(ErrShape, "len() of a 0-d array"))
	}
	return a.shape[0]
}

// IsContiguous reports whether a's elements lie in C order without gaps, so
// Data can return them as one slice. Axes of length 1 may have any stride.
func (a *Array) IsContiguous() bool {
	if a.size == 0 {
		return true
	}
	st := 1
	for i := len(a.shape) - 1; i >= 0; i-- {
		if a.shape[i] != 1 && a.strides[i] != st {
			return false
		}
		st *= a.shape[i]
	}
	return true
}

// axis normalizes an axis number (negative counts from the end), panicking
// if it is out of range.
func (a *Array) axis(ax int) int {
	n := len(a.shape)
	if ax < 0 {
		ax += n
	}
	if uint(ax) >= uint(n) {
		panic(errorf(ErrIndex, "axis %d is out of bounds for array of dimension %d", ax, n))
	}
	return ax
}

// At returns the element at the given position as a Go value (bool,
// int8…uint64, float32, float64, or the stored value for Object). Each index
// may be negative, counting from the end. At panics if the number of
// indices differs from Ndim or an index is out of range.
func (a *Array) At(idx ...int) any {
	if len(idx) != len(a.shape) {
		panic(errorf(ErrIndex, "At: %d indices for array of dimension %d", len(idx), len(a.shape)))
	}
	off := a.off
	for k, i := range idx {
		d := a.shape[k]
		if i < 0 {
			i += d
		}
		if uint(i) >= uint(d) {
			panic(errorf(ErrIndex, "At: index %d is out of bounds for axis %d with size %d", idx[k], k, d))
		}
		off += i * a.strides[k]
	}
	return a.value(off)
}

// Item returns the single element of a size-1 array (of any shape) as a Go
// value. Item panics if a.Size() != 1.
func (a *Array) Item() any {
	if a.size != 1 {
		panic(errorf(ErrShape, "Item: array of size %d is not a single element", a.size))
	}
	return a.value(a.off)
}

// Int64Item returns the single element of a size-1 Int64 array (of any
// shape) and true, or 0 and false for another dtype or size. It is the
// read of a discrete action, without Item's boxing and type switch or
// Data's generic element-type check.
func (a *Array) Int64Item() (int64, bool) {
	if a.dt != Int64 || a.size != 1 {
		return 0, false
	}
	return *(*int64)(unsafe.Add(a.ptr, a.off*8)), true
}

// value returns the element at buffer position off as a Go value.
func (a *Array) value(off int) any {
	switch a.dt {
	case Bool:
		return elems[bool](a)[off]
	case Int8:
		return elems[int8](a)[off]
	case Int16:
		return elems[int16](a)[off]
	case Int32:
		return elems[int32](a)[off]
	case Int64:
		return elems[int64](a)[off]
	case Uint8:
		return elems[uint8](a)[off]
	case Uint16:
		return elems[uint16](a)[off]
	case Uint32:
		return elems[uint32](a)[off]
	case Uint64:
		return elems[uint64](a)[off]
	case Float32:
		return elems[float32](a)[off]
	case Float64:
		return elems[float64](a)[off]
	}
	return elems[any](a)[off]
}

// Data returns the elements of a C-contiguous array as a slice of its
// backing buffer, from its first element, of length Size(): writes through
// it change a (and every array sharing its memory). Data panics if T does
// not match a's dtype (any for Object) or a is not contiguous.
func Data[T any](a *Array) []T {
	checkElemType[T](a, "Data")
	if a.size == 0 {
		return []T{} // an empty view's offset may lie past its buffer
	}
	if !a.IsContiguous() {
		panic(errorf(ErrShape, "Data: array of shape %s with strides %v is not contiguous", shapeString(a.shape), a.strides))
	}
	return elems[T](a)[a.off : a.off+a.size : a.off+a.size]
}

func checkElemType[T any](a *Array, op string) {
	if DTypeOf[T]() != a.dt {
		var z T
		panic(errorf(ErrDType, "%s: element type %T does not match dtype %v", op, z, a.dt))
	}
}

// ToSlice returns a new slice holding a's elements in C order. ToSlice
// panics if T does not match a's dtype (any for Object).
func ToSlice[T any](a *Array) []T {
	checkElemType[T](a, "ToSlice")
	out := make([]T, a.size)
	src := elems[T](a)
	i := 0
	walk(a.shape, 1, [3][]int{a.strides}, [3]int{a.off}, func(o [3]int, n int, st [3]int) {
		s := o[0]
		for k := 0; k < n; k++ {
			out[i] = src[s]
			i++
			s += st[0]
		}
	})
	return out
}

// Arange returns the 1-d array [start, start+step, …] of the values below
// stop (above it for a negative step), numpy's arange: its length is
// ceil((stop-start)/step), or 0. Values are computed in float64 as
// start + i·step and converted to dt (truncated for integer dtypes). It
// returns an error wrapping ErrValue for a zero or non-finite step or
// bounds, and ErrDType for Bool and Object.
func Arange(dt DType, start, stop, step float64) (*Array, error) {
	if !dt.valid() || dt == Bool || dt == Object {
		return nil, errorf(ErrDType, "Arange: unsupported dtype %v", dt)
	}
	if step == 0 || math.IsNaN(step) || math.IsInf(step, 0) || math.IsNaN(start) || math.IsInf(start, 0) || math.IsNaN(stop) || math.IsInf(stop, 0) {
		return nil, errorf(ErrValue, "Arange: invalid range start=%v stop=%v step=%v", start, stop, step)
	}
	n := math.Ceil((stop - start) / step)
	if n < 0 {
		n = 0
	}
	if n > math.MaxInt32*16 {
		return nil, errorf(ErrValue, "Arange: %v elements is too many", n)
	}
	f := newArray(Float64, []int{int(n)})
	fv := elems[float64](f)
	for i := range fv {
		fv[i] = start + float64(i)*step
	}
	if dt == Float64 {
		return f, nil
	}
	return f.AsType(dt)
}
