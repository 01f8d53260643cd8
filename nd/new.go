package nd

import (
	"reflect"
)

var arrayPtrType = reflect.TypeOf((*Array)(nil))

// New returns a new array holding a COPY of the Go value v:
//
//   - a Go scalar gives a 0-d array: int → int64, uint → uint64, float64 →
//     float64, bool → bool; sized ints, uints and float32 keep their type;
//   - a slice or Go array, possibly nested ([]T, [][]T, [3][4]T, …), gives an
//     n-d array; nested lengths that disagree (ragged input) are an error
//     wrapping ErrShape;
//   - elements of interface type ([]any) are inspected: if all are bools and
//     numbers the dtype is their promotion by ResultType (numpy: [1, 2.5] →
//     float64, [1, true] → int64); if any is something else (a string, nil,
//     a struct…) the array is Object and keeps each element's Go value, so
//     []any{1, "hello", nil} prints as array([1, 'hello', None], dtype=object);
//   - strings and other non-numeric element types give Object arrays;
//   - *Array elements are nested arrays: []*Array (or []any of arrays) is
//     Stack(0, …);
//   - an *Array is copied;
//   - nil gives a 0-d Object array holding nil (numpy's np.array(None)).
func New(v any) (*Array, error) { return fromGo(v, false) }

// MustNew is like New but panics on error; for tests and initialization.
func MustNew(v any) *Array {
	a, err := New(v)
	if err != nil {
		panic(err)
	}
	return a
}

// goBuilder collects the shape and the leaves of a nested Go value.
type goBuilder struct {
	shape     []int
	leafDepth int   // depth of the leaves, -1 until the first leaf
	leaves    []any // dynamic mode
}

func fromGo(v any, object bool) (*Array, error) {
	switch x := v.(type) {
	case *Array:
		if object {
			return x.AsType(Object)
		}
		return x.Copy(), nil
	case []*Array:
		for _, e := range x {
			if e == nil {
				return nil, errorf(ErrValue, "New: nil *Array element")
			}
		}
		return Stack(0, x...)
	}
	if !isSequence(v) {
		if object {
			a := Zeros(Object)
			elems[any](a)[0] = v
			return a, nil
		}
		s, ok := scalarOf(v)
		a := Zeros(s.dt)
		if !ok {
			elems[any](a)[0] = v
			return a, nil
		}
		return a, a.fill(v)
	}
	rv := reflect.ValueOf(v)
	if dt, ok := staticDType(rv.Type()); ok && !object {
		return fromStatic(rv, dt)
	}
	if arrs, ok := allArrays(rv); ok && !object {
		return Stack(0, arrs...)
	}
	b := goBuilder{leafDepth: -1}
	if err := b.visit(rv, 0); err != nil {
		return nil, err
	}
	return b.build(object)
}

// staticDType returns the dtype of a nested slice or array type whose
// innermost element type is a bool or number type.
func staticDType(t reflect.Type) (DType, bool) {
	for t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return Bool, true
	case reflect.Int, reflect.Int64:
		return Int64, true
	case reflect.Int8:
		return Int8, true
	case reflect.Int16:
		return Int16, true
	case reflect.Int32:
		return Int32, true
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return Uint64, true
	case reflect.Uint8:
		return Uint8, true
	case reflect.Uint16:
		return Uint16, true
	case reflect.Uint32:
		return Uint32, true
	case reflect.Float32:
		return Float32, true
	case reflect.Float64:
		return Float64, true
	}
	return 0, false
}

// fromStatic copies a nested slice of a numeric or bool type.
func fromStatic(rv reflect.Value, dt DType) (*Array, error) {
	var shape []int
	t := rv.Type()
	for w := rv; t.Kind() == reflect.Slice || t.Kind() == reflect.Array; t = t.Elem() {
		shape = append(shape, w.Len())
		if w.Len() > 0 {
			w = w.Index(0)
		}
	}
	a := newArray(dt, shape)
	pos := 0
	var copyIn func(w reflect.Value, depth int) error
	copyIn = func(w reflect.Value, depth int) error {
		if w.Len() != shape[depth] {
			return errorf(ErrShape, "setting an array element with a sequence: the requested array has an inhomogeneous shape after %d dimensions (lengths %d and %d)", depth, shape[depth], w.Len())
		}
		if depth < len(shape)-1 {
			for i := 0; i < w.Len(); i++ {
				if err := copyIn(w.Index(i), depth+1); err != nil {
					return err
				}
			}
			return nil
		}
		n := w.Len()
		dst := reflect.ValueOf(bufferOf(a)).Slice(pos, pos+n)
		if w.Type().Elem() == dst.Type().Elem() {
			reflect.Copy(dst, w)
		} else {
			for i := 0; i < n; i++ {
				dst.Index(i).Set(w.Index(i).Convert(dst.Type().Elem()))
			}
		}
		pos += n
		return nil
	}
	if len(shape) > 0 && a.size > 0 {
		if err := copyIn(rv, 0); err != nil {
			return nil, err
		}
	} else if len(shape) > 0 {
		// Zero-size: still check that no branch is ragged.
		if err := checkEmpty(rv, shape, 0); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func checkEmpty(w reflect.Value, shape []int, depth int) error {
	if w.Len() != shape[depth] {
		return errorf(ErrShape, "setting an array element with a sequence: the requested array has an inhomogeneous shape after %d dimensions", depth)
	}
	if depth+1 < len(shape) {
		for i := 0; i < w.Len(); i++ {
			if err := checkEmpty(w.Index(i), shape, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// bufferOf returns a's whole backing buffer as a typed Go slice in an any.
func bufferOf(a *Array) any {
	switch a.dt {
	case Bool:
		return elems[bool](a)
	case Int8:
		return elems[int8](a)
	case Int16:
		return elems[int16](a)
	case Int32:
		return elems[int32](a)
	case Int64:
		return elems[int64](a)
	case Uint8:
		return elems[uint8](a)
	case Uint16:
		return elems[uint16](a)
	case Uint32:
		return elems[uint32](a)
	case Uint64:
		return elems[uint64](a)
	case Float32:
		return elems[float32](a)
	case Float64:
		return elems[float64](a)
	}
	return elems[any](a)
}

// allArrays reports whether rv is a non-empty sequence of *Array values.
func allArrays(rv reflect.Value) ([]*Array, bool) {
	if rv.Len() == 0 {
		return nil, false
	}
	arrs := make([]*Array, rv.Len())
	for i := range arrs {
		e := rv.Index(i)
		if e.Kind() == reflect.Interface {
			e = e.Elem()
		}
		if !e.IsValid() || e.Type() != arrayPtrType || e.IsNil() {
			return nil, false
		}
		arrs[i] = e.Interface().(*Array)
	}
	return arrs, true
}

func (b *goBuilder) ragged(depth int) error {
	return errorf(ErrShape, "setting an array element with a sequence: the requested array has an inhomogeneous shape after %d dimensions", depth)
}

func (b *goBuilder) visit(w reflect.Value, depth int) error {
	for w.Kind() == reflect.Interface && !w.IsNil() {
		w = w.Elem()
	}
	var seq bool
	var n int
	var arr *Array
	switch {
	case w.Kind() == reflect.Slice || w.Kind() == reflect.Array:
		seq, n = true, w.Len()
	case w.IsValid() && w.Type() == arrayPtrType && !w.IsNil():
		arr = w.Interface().(*Array)
	}
	if arr != nil {
		// A nested array contributes its axes and elements.
		for k, d := range arr.shape {
			if err := b.level(depth+k, d); err != nil {
				return err
			}
		}
		if err := b.leafAt(depth + len(arr.shape)); err != nil {
			return err
		}
		walk(arr.shape, 1, [3][]int{arr.strides}, [3]int{arr.off}, func(o [3]int, cnt int, st [3]int) {
			for k, i := 0, o[0]; k < cnt; k, i = k+1, i+st[0] {
				b.leaves = append(b.leaves, arr.value(i))
			}
		})
		return nil
	}
	if !seq {
		if err := b.leafAt(depth); err != nil {
			return err
		}
		if w.IsValid() {
			b.leaves = append(b.leaves, w.Interface())
		} else {
			b.leaves = append(b.leaves, nil)
		}
		return nil
	}
	if err := b.level(depth, n); err != nil {
		return err
	}
	if n == 0 {
		return b.leafAt(depth + 1)
	}
	for i := 0; i < n; i++ {
		if err := b.visit(w.Index(i), depth+1); err != nil {
			return err
		}
	}
	return nil
}

// level records a sequence of length n at depth.
func (b *goBuilder) level(depth, n int) error {
	if b.leafDepth >= 0 && depth >= b.leafDepth {
		return b.ragged(b.leafDepth)
	}
	if depth < len(b.shape) {
		if b.shape[depth] != n {
			return b.ragged(depth)
		}
		return nil
	}
	b.shape = append(b.shape, n)
	return nil
}

// leafAt records a leaf (or the end of an empty sequence) at depth.
func (b *goBuilder) leafAt(depth int) error {
	if b.leafDepth < 0 {
		if depth < len(b.shape) {
			return b.ragged(depth)
		}
		b.leafDepth = depth
		return nil
	}
	if depth != b.leafDepth {
		return b.ragged(min(depth, b.leafDepth))
	}
	return nil
}

func (b *goBuilder) build(object bool) (*Array, error) {
	dt := DType(0)
	for _, v := range b.leaves {
		s, ok := scalarOf(v)
		if !ok || object {
			dt = Object
			break
		}
		if dt == 0 {
			dt = s.dt
		} else {
			dt = ResultType(dt, s.dt)
		}
	}
	if dt == 0 {
		dt = Float64 // numpy: np.array([]) is float64
	}
	a := newArray(dt, b.shape)
	if dt == Object {
		copy(elems[any](a), b.leaves)
		return a, nil
	}
	for i, v := range b.leaves {
		s, _ := scalarOf(v)
		setScalar(a, i, s)
	}
	return a, nil
}

// setScalar stores a classified scalar at buffer position i (unchecked).
func setScalar(a *Array, i int, s scalar) {
	switch a.dt {
	case Bool:
		elems[bool](a)[i] = s.u != 0 || s.f != 0
	case Int8:
		elems[int8](a)[i] = scalarAs[int8](s)
	case Int16:
		elems[int16](a)[i] = scalarAs[int16](s)
	case Int32:
		elems[int32](a)[i] = scalarAs[int32](s)
	case Int64:
		elems[int64](a)[i] = scalarAs[int64](s)
	case Uint8:
		elems[uint8](a)[i] = scalarAs[uint8](s)
	case Uint16:
		elems[uint16](a)[i] = scalarAs[uint16](s)
	case Uint32:
		elems[uint32](a)[i] = scalarAs[uint32](s)
	case Uint64:
		elems[uint64](a)[i] = scalarAs[uint64](s)
	case Float32:
		elems[float32](a)[i] = scalarAs[float32](s)
	case Float64:
		elems[float64](a)[i] = scalarAs[float64](s)
	case Object:
		elems[any](a)[i] = s.v
	}
}
