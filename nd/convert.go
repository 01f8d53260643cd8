package nd

import (
	"fmt"
	"reflect"
	"slices"
)

// number is the type set of the numeric element types.
type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// broadcastStrides returns strides that lay src over shape following numpy's
// broadcasting (a missing or length-1 axis repeats with stride 0). As in
// numpy's assignment, src may also have extra leading axes of length 1. buf
// is used as storage when large enough. It reports false if src does not
// broadcast to shape.
func broadcastStrides(src *Array, shape []int, buf []int) ([]int, bool) {
	out := buf[:0]
	if cap(out) < len(shape) {
		out = make([]int, 0, len(shape))
	}
	out = out[:len(shape)]
	ns, nd := len(src.shape), len(shape)
	for i := 0; i < ns-nd; i++ {
		if src.shape[i] != 1 {
			return nil, false
		}
	}
	for i := nd - 1; i >= 0; i-- {
		j := i - (nd - ns)
		switch {
		case j < 0 || src.shape[j] == 1 && shape[i] != 1:
			out[i] = 0
		case src.shape[j] == shape[i]:
			out[i] = src.strides[j]
		default:
			return nil, false
		}
	}
	return out, true
}

// CopyTo sets dst[...] = src: src is broadcast to dst's shape and cast to
// dst's dtype under the "same_kind" rule (CanCast). It returns an error
// wrapping ErrShape if src does not broadcast to dst's shape and ErrCast if
// the cast is not allowed; dst is unchanged then. When src shares memory
// with dst it is copied first, so the result is as if src were read before
// any write. CopyTo does not allocate when the arrays do not overlap and
// src has at most 16 dimensions.
func CopyTo(dst, src *Array) error {
	var buf [walkStack]int
	sst, ok := broadcastStrides(src, dst.shape, buf[:])
	if !ok {
		return errorf(ErrShape, "could not broadcast input array from shape %s into shape %s", shapeString(src.shape), shapeString(dst.shape))
	}
	if !CanCast(src.dt, dst.dt) {
		return errorf(ErrCast, "cannot cast array data from dtype %v to %v according to the rule 'same_kind'", src.dt, dst.dt)
	}
	if dst.ptr == src.ptr && src.n > 0 {
		if src.dt == dst.dt && src.off == dst.off && slices.Equal(sst, dst.strides) {
			return nil // the same elements
		}
		src = src.Copy()
		sst, _ = broadcastStrides(src, dst.shape, buf[:])
	}
	return convert(dst, src, sst)
}

// Copy returns a deep, C-contiguous copy of a (Object elements are copied as
// Go values: the copy shares whatever they point to).
func (a *Array) Copy() *Array {
	c := newHeader(a.dt, a.shape)
	if a.IsContiguous() && joinable(a.dt, a.size) && joinBuffer(c, [][]byte{rawBytes(a, a.off, a.size)}) {
		return c
	}
	c.ptr, c.n = allocBuffer(a.dt, c.size), c.size
	copySame(c, a, a.strides)
	return c
}

// AsType returns a copy of a converted to dtype dt with numpy's astype
// ("unsafe") rule: float → int truncates toward zero, int → narrower int
// wraps, any → bool is "!= 0", numbers → Object box their Go value. Object →
// numeric converts Go numbers and bools and returns an error wrapping
// ErrCast for any other element (a string, nil). Converting NaN or an
// out-of-range float to an integer gives an unspecified value, as in numpy.
func (a *Array) AsType(dt DType) (*Array, error) {
	if !dt.valid() {
		return nil, errorf(ErrDType, "AsType: invalid dtype %v", dt)
	}
	c := newArray(dt, a.shape)
	if err := convert(c, a, a.strides); err != nil {
		return nil, err
	}
	return c, nil
}

// convert copies src (laid over dst's shape with strides sst) into dst,
// converting each element with the unsafe rule of AsType.
func convert(dst, src *Array, sst []int) error {
	if dst.dt == src.dt {
		copySame(dst, src, sst)
		return nil
	}
	switch dst.dt {
	case Bool:
		return toBool(dst, src, sst)
	case Int8:
		return toNum[int8](dst, src, sst)
	case Int16:
		return toNum[int16](dst, src, sst)
	case Int32:
		return toNum[int32](dst, src, sst)
	case Int64:
		return toNum[int64](dst, src, sst)
	case Uint8:
		return toNum[uint8](dst, src, sst)
	case Uint16:
		return toNum[uint16](dst, src, sst)
	case Uint32:
		return toNum[uint32](dst, src, sst)
	case Uint64:
		return toNum[uint64](dst, src, sst)
	case Float32:
		return toNum[float32](dst, src, sst)
	case Float64:
		return toNum[float64](dst, src, sst)
	}
	toObject(dst, src, sst)
	return nil
}

// copySame copies src into dst, both of the same dtype. Data movement only
// depends on the element size, so numeric dtypes share four kernels.
func copySame(dst, src *Array, sst []int) {
	if dst.IsContiguous() && slices.Equal(sst, dst.strides) {
		// Same layout, no broadcast: src's elements are contiguous too.
		copyFlat(dst, dst.off, src, src.off, dst.size)
		return
	}
	switch {
	case dst.dt == Object:
		copyRuns[any](dst, src, sst)
	case dst.dt.Size() == 1:
		copyRuns[uint8](dst, src, sst)
	case dst.dt.Size() == 2:
		copyRuns[uint16](dst, src, sst)
	case dst.dt.Size() == 4:
		copyRuns[uint32](dst, src, sst)
	default:
		copyRuns[uint64](dst, src, sst)
	}
}

// copyFlat copies n elements from src's buffer at soff to dst's at doff
// (same dtype).
func copyFlat(dst *Array, doff int, src *Array, soff, n int) {
	if n == 0 {
		return
	}
	switch {
	case dst.dt == Object:
		copy(elems[any](dst)[doff:doff+n], elems[any](src)[soff:soff+n])
	case dst.dt.Size() == 1:
		copy(elems[uint8](dst)[doff:doff+n], elems[uint8](src)[soff:soff+n])
	case dst.dt.Size() == 2:
		copy(elems[uint16](dst)[doff:doff+n], elems[uint16](src)[soff:soff+n])
	case dst.dt.Size() == 4:
		copy(elems[uint32](dst)[doff:doff+n], elems[uint32](src)[soff:soff+n])
	default:
		copy(elems[uint64](dst)[doff:doff+n], elems[uint64](src)[soff:soff+n])
	}
}

func copyRuns[T any](dst, src *Array, sst []int) {
	d, s := elems[T](dst), elems[T](src)
	walk(dst.shape, 2, [3][]int{dst.strides, sst}, [3]int{dst.off, src.off}, func(o [3]int, n int, st [3]int) {
		if st[0] == 1 && st[1] == 1 {
			copy(d[o[0]:o[0]+n], s[o[1]:o[1]+n])
			return
		}
		di, si := o[0], o[1]
		for k := 0; k < n; k++ {
			d[di] = s[si]
			di += st[0]
			si += st[1]
		}
	})
}

func toNum[D number](dst, src *Array, sst []int) error {
	switch src.dt {
	case Bool:
		d, s := elems[D](dst), elems[bool](src)
		walk(dst.shape, 2, [3][]int{dst.strides, sst}, [3]int{dst.off, src.off}, func(o [3]int, n int, st [3]int) {
			di, si := o[0], o[1]
			for k := 0; k < n; k++ {
				var v D
				if s[si] {
					v = 1
				}
				d[di] = v
				di += st[0]
				si += st[1]
			}
		})
	case Int8:
		numToNum[int8, D](dst, src, sst)
	case Int16:
		numToNum[int16, D](dst, src, sst)
	case Int32:
		numToNum[int32, D](dst, src, sst)
	case Int64:
		numToNum[int64, D](dst, src, sst)
	case Uint8:
		numToNum[uint8, D](dst, src, sst)
	case Uint16:
		numToNum[uint16, D](dst, src, sst)
	case Uint32:
		numToNum[uint32, D](dst, src, sst)
	case Uint64:
		numToNum[uint64, D](dst, src, sst)
	case Float32:
		numToNum[float32, D](dst, src, sst)
	case Float64:
		numToNum[float64, D](dst, src, sst)
	case Object:
		d, s := elems[D](dst), elems[any](src)
		var err error
		walk(dst.shape, 2, [3][]int{dst.strides, sst}, [3]int{dst.off, src.off}, func(o [3]int, n int, st [3]int) {
			di, si := o[0], o[1]
			for k := 0; k < n && err == nil; k++ {
				sc, ok := scalarOf(s[si])
				if !ok {
					err = errorf(ErrCast, "object element %s cannot be converted to %v", describe(s[si]), dst.dt)
					return
				}
				d[di] = scalarAs[D](sc)
				di += st[0]
				si += st[1]
			}
		})
		return err
	}
	return nil
}

func numToNum[S, D number](dst, src *Array, sst []int) {
	d, s := elems[D](dst), elems[S](src)
	walk(dst.shape, 2, [3][]int{dst.strides, sst}, [3]int{dst.off, src.off}, func(o [3]int, n int, st [3]int) {
		di, si := o[0], o[1]
		for k := 0; k < n; k++ {
			d[di] = D(s[si])
			di += st[0]
			si += st[1]
		}
	})
}

// scalarAs converts a classified Go scalar to T (unchecked).
func scalarAs[T number](s scalar) T {
	switch s.dt.kind() {
	case kindFloat:
		return T(s.f)
	case kindUint:
		return T(s.u)
	}
	return T(s.i)
}

func toBool(dst, src *Array, sst []int) error {
	switch src.dt {
	case Int8:
		numToBool[int8](dst, src, sst)
	case Int16:
		numToBool[int16](dst, src, sst)
	case Int32:
		numToBool[int32](dst, src, sst)
	case Int64:
		numToBool[int64](dst, src, sst)
	case Uint8:
		numToBool[uint8](dst, src, sst)
	case Uint16:
		numToBool[uint16](dst, src, sst)
	case Uint32:
		numToBool[uint32](dst, src, sst)
	case Uint64:
		numToBool[uint64](dst, src, sst)
	case Float32:
		numToBool[float32](dst, src, sst)
	case Float64:
		numToBool[float64](dst, src, sst)
	case Object:
		d, s := elems[bool](dst), elems[any](src)
		var err error
		walk(dst.shape, 2, [3][]int{dst.strides, sst}, [3]int{dst.off, src.off}, func(o [3]int, n int, st [3]int) {
			di, si := o[0], o[1]
			for k := 0; k < n && err == nil; k++ {
				sc, ok := scalarOf(s[si])
				if !ok {
					err = errorf(ErrCast, "object element %s cannot be converted to bool", describe(s[si]))
					return
				}
				d[di] = sc.f != 0
				di += st[0]
				si += st[1]
			}
		})
		return err
	}
	return nil
}

func numToBool[S number](dst, src *Array, sst []int) {
	d, s := elems[bool](dst), elems[S](src)
	walk(dst.shape, 2, [3][]int{dst.strides, sst}, [3]int{dst.off, src.off}, func(o [3]int, n int, st [3]int) {
		di, si := o[0], o[1]
		for k := 0; k < n; k++ {
			d[di] = s[si] != 0
			di += st[0]
			si += st[1]
		}
	})
}

// toObject boxes each element of src as its Go value.
func toObject(dst, src *Array, sst []int) {
	d := elems[any](dst)
	walk(dst.shape, 2, [3][]int{dst.strides, sst}, [3]int{dst.off, src.off}, func(o [3]int, n int, st [3]int) {
		di, si := o[0], o[1]
		for k := 0; k < n; k++ {
			d[di] = src.value(si)
			di += st[0]
			si += st[1]
		}
	})
}

// describe names a Go value for an error message: 'hello' (string), None.
func describe(v any) string {
	if v == nil {
		return "None"
	}
	return fmt.Sprintf("%v (%s)", v, reflect.TypeOf(v))
}

// fill sets every element of a to the Go value v under the assignment rule
// for Go values: Object arrays take any value; numeric and bool arrays take
// a Go bool or number whose value fits (see scalar.fits). A value that does
// not fit returns an error wrapping ErrCast and leaves a unchanged.
func (a *Array) fill(v any) error {
	if a.dt == Object {
		fillWith(a, v)
		return nil
	}
	s, ok := scalarOf(v)
	if !ok {
		return errorf(ErrCast, "cannot assign %s to an array of dtype %v", describe(v), a.dt)
	}
	if !s.fits(a.dt) {
		return errorf(ErrCast, "cannot assign %v (%v) to an array of dtype %v: the value does not fit", v, s.dt, a.dt)
	}
	switch a.dt {
	case Bool:
		fillWith(a, s.u != 0)
	case Int8:
		fillWith(a, scalarAs[int8](s))
	case Int16:
		fillWith(a, scalarAs[int16](s))
	case Int32:
		fillWith(a, scalarAs[int32](s))
	case Int64:
		fillWith(a, scalarAs[int64](s))
	case Uint8:
		fillWith(a, scalarAs[uint8](s))
	case Uint16:
		fillWith(a, scalarAs[uint16](s))
	case Uint32:
		fillWith(a, scalarAs[uint32](s))
	case Uint64:
		fillWith(a, scalarAs[uint64](s))
	case Float32:
		fillWith(a, scalarAs[float32](s))
	case Float64:
		fillWith(a, scalarAs[float64](s))
	}
	return nil
}

func fillWith[T any](a *Array, v T) {
	d := elems[T](a)
	walk(a.shape, 1, [3][]int{a.strides}, [3]int{a.off}, func(o [3]int, n int, st [3]int) {
		i := o[0]
		for k := 0; k < n; k++ {
			d[i] = v
			i += st[0]
		}
	})
}

// Zero sets every element of a to zero (false for Bool, nil for Object), in
// place; through a view it zeroes the viewed elements of the original.
func (a *Array) Zero() {
	switch {
	case a.dt == Object:
		fillWith[any](a, nil)
	case a.dt.Size() == 1:
		fillWith[uint8](a, 0)
	case a.dt.Size() == 2:
		fillWith[uint16](a, 0)
	case a.dt.Size() == 4:
		fillWith[uint32](a, 0)
	default:
		fillWith[uint64](a, 0)
	}
}
