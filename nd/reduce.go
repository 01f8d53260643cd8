package nd

// Sum returns the sum of a's elements: over the whole array (no axis, a 0-d
// result) or along one axis (negative counts from the end; the axis is
// removed). Bool and signed integers sum as int64 (wrapping on overflow),
// unsigned as uint64, floats keep their dtype (float32 is accumulated in
// float64, then rounded). The sum of no elements is 0. It returns an error
// wrapping ErrIndex for a bad axis or more than one axis, and ErrDType for
// Object arrays.
func Sum(a *Array, axis ...int) (*Array, error) {
	ax, err := reduceAxis(a, "sum", axis)
	if err != nil {
		return nil, err
	}
	switch a.dt {
	case Bool:
		return sumAs[uint8, int64, int64](a, ax, Int64), nil
	case Uint8:
		return sumAs[uint8, uint64, uint64](a, ax, Uint64), nil
	case Int8:
		return sumAs[int8, int64, int64](a, ax, Int64), nil
	case Int16:
		return sumAs[int16, int64, int64](a, ax, Int64), nil
	case Int32:
		return sumAs[int32, int64, int64](a, ax, Int64), nil
	case Int64:
		return sumAs[int64, int64, int64](a, ax, Int64), nil
	case Uint16:
		return sumAs[uint16, uint64, uint64](a, ax, Uint64), nil
	case Uint32:
		return sumAs[uint32, uint64, uint64](a, ax, Uint64), nil
	case Uint64:
		return sumAs[uint64, uint64, uint64](a, ax, Uint64), nil
	case Float32:
		return sumAs[float32, float64, float32](a, ax, Float32), nil
	}
	return sumAs[float64, float64, float64](a, ax, Float64), nil
}

// Mean returns the arithmetic mean, over the whole array or along one axis
// as in Sum: integer and bool arrays give float64, floats keep their dtype
// (accumulated in float64). It returns an error wrapping ErrValue for an
// empty reduction (numpy would warn and give NaN), and the errors of Sum.
func Mean(a *Array, axis ...int) (*Array, error) {
	ax, err := reduceAxis(a, "mean", axis)
	if err != nil {
		return nil, err
	}
	n := a.size
	if ax >= 0 {
		n = a.shape[ax]
	}
	if n == 0 {
		return nil, errorf(ErrValue, "mean of an empty array")
	}
	var s *Array
	switch a.dt {
	case Bool, Uint8:
		s = sumAs[uint8, float64, float64](a, ax, Float64)
	case Int8:
		s = sumAs[int8, float64, float64](a, ax, Float64)
	case Int16:
		s = sumAs[int16, float64, float64](a, ax, Float64)
	case Int32:
		s = sumAs[int32, float64, float64](a, ax, Float64)
	case Int64:
		s = sumAs[int64, float64, float64](a, ax, Float64)
	case Uint16:
		s = sumAs[uint16, float64, float64](a, ax, Float64)
	case Uint32:
		s = sumAs[uint32, float64, float64](a, ax, Float64)
	case Uint64:
		s = sumAs[uint64, float64, float64](a, ax, Float64)
	case Float32:
		s = sumAs[float32, float64, float64](a, ax, Float64)
	default:
		s = sumAs[float64, float64, float64](a, ax, Float64)
	}
	v := elems[float64](s)
	for i := range v {
		v[i] /= float64(n)
	}
	if a.dt == Float32 {
		return s.AsType(Float32)
	}
	return s, nil
}

// Min returns the smallest element, over the whole array or along one axis
// as in Sum, with a's dtype; a NaN makes the result NaN, as in numpy. It
// returns an error wrapping ErrValue for an empty reduction, and the errors
// of Sum.
func Min(a *Array, axis ...int) (*Array, error) { return extreme(a, axis, false) }

// Max returns the largest element; see Min.
func Max(a *Array, axis ...int) (*Array, error) { return extreme(a, axis, true) }

func extreme(a *Array, axis []int, max bool) (*Array, error) {
	name := "minimum"
	if max {
		name = "maximum"
	}
	ax, err := reduceAxis(a, name, axis)
	if err != nil {
		return nil, err
	}
	if err := nonEmpty(a, ax, name); err != nil {
		return nil, err
	}
	switch a.dt {
	case Bool, Uint8:
		return extremeOf[uint8](a, ax, max), nil
	case Int8:
		return extremeOf[int8](a, ax, max), nil
	case Int16:
		return extremeOf[int16](a, ax, max), nil
	case Int32:
		return extremeOf[int32](a, ax, max), nil
	case Int64:
		return extremeOf[int64](a, ax, max), nil
	case Uint16:
		return extremeOf[uint16](a, ax, max), nil
	case Uint32:
		return extremeOf[uint32](a, ax, max), nil
	case Uint64:
		return extremeOf[uint64](a, ax, max), nil
	case Float32:
		return extremeOf[float32](a, ax, max), nil
	}
	return extremeOf[float64](a, ax, max), nil
}

// Argmax returns the position of the first largest element as int64: over
// the whole array (a 0-d result holding the flat C-order position) or along
// one axis. A NaN counts as the largest (its first position is returned),
// as in numpy. It returns the errors of Min.
func Argmax(a *Array, axis ...int) (*Array, error) {
	ax, err := reduceAxis(a, "argmax", axis)
	if err != nil {
		return nil, err
	}
	if err := nonEmpty(a, ax, "argmax"); err != nil {
		return nil, err
	}
	switch a.dt {
	case Bool, Uint8:
		return argmaxOf[uint8](a, ax), nil
	case Int8:
		return argmaxOf[int8](a, ax), nil
	case Int16:
		return argmaxOf[int16](a, ax), nil
	case Int32:
		return argmaxOf[int32](a, ax), nil
	case Int64:
		return argmaxOf[int64](a, ax), nil
	case Uint16:
		return argmaxOf[uint16](a, ax), nil
	case Uint32:
		return argmaxOf[uint32](a, ax), nil
	case Uint64:
		return argmaxOf[uint64](a, ax), nil
	case Float32:
		return argmaxOf[float32](a, ax), nil
	}
	return argmaxOf[float64](a, ax), nil
}

// reduceAxis validates the axis argument of a reduction: -1 means the whole
// array.
func reduceAxis(a *Array, name string, axis []int) (int, error) {
	if a.dt == Object || !a.dt.valid() {
		return 0, errorf(ErrDType, "%s is not supported for %v arrays", name, a.dt)
	}
	switch len(axis) {
	case 0:
		return -1, nil
	case 1:
		ax := axis[0]
		if ax < 0 {
			ax += len(a.shape)
		}
		if ax < 0 || ax >= len(a.shape) {
			return 0, errorf(ErrIndex, "axis %d is out of bounds for array of dimension %d", axis[0], len(a.shape))
		}
		return ax, nil
	}
	return 0, errorf(ErrIndex, "%s over %d axes: give none (whole array) or one", name, len(axis))
}

func nonEmpty(a *Array, ax int, name string) error {
	if a.size == 0 {
		return errorf(ErrValue, "zero-size array to reduction operation %s which has no identity", name)
	}
	return nil
}

// lines calls fn for each line of a along axis (ax < 0: the whole array as
// one line), with the line's output position k (C order over the other
// axes), its first element's offset, length and step.
func lines(a *Array, ax int, fn func(k, off, n, step int)) {
	if ax < 0 {
		if !a.IsContiguous() {
			a = a.Copy()
		}
		fn(0, a.off, a.size, 1)
		return
	}
	var sb, tb [walkStack]int
	shape, strides := sb[:0], tb[:0]
	for i := range a.shape {
		if i != ax {
			shape = append(shape, a.shape[i])
			strides = append(strides, a.strides[i])
		}
	}
	n, step, k := a.shape[ax], a.strides[ax], 0
	walk(shape, 1, [3][]int{strides}, [3]int{a.off}, func(o [3]int, cnt int, st [3]int) {
		for j, off := 0, o[0]; j < cnt; j, off = j+1, off+st[0] {
			fn(k, off, n, step)
			k++
		}
	})
}

// reducedShape is a's shape without axis ax (nil for ax < 0).
func reducedShape(a *Array, ax int) []int {
	if ax < 0 {
		return nil
	}
	s := make([]int, 0, len(a.shape)-1)
	s = append(s, a.shape[:ax]...)
	return append(s, a.shape[ax+1:]...)
}

// sumAs sums lines of T in an accumulator of type A and stores them as O,
// the element type of dtype dt.
func sumAs[T number, A int64 | uint64 | float64, O number](a *Array, ax int, dt DType) *Array {
	out := newArray(dt, reducedShape(a, ax))
	o, x := elems[O](out), elems[T](a)
	lines(a, ax, func(k, off, n, step int) {
		var s A
		for j := 0; j < n; j++ {
			s += A(x[off])
			off += step
		}
		o[k] = O(s)
	})
	return out
}

func extremeOf[T number](a *Array, ax int, max bool) *Array {
	out := newArray(a.dt, reducedShape(a, ax))
	o, x := elems[T](out), elems[T](a)
	lines(a, ax, func(k, off, n, step int) {
		m := x[off]
		for j := 1; j < n && m == m; j++ {
			off += step
			v := x[off]
			if v != v || max && v > m || !max && v < m {
				m = v
			}
		}
		o[k] = m
	})
	return out
}

func argmaxOf[T number](a *Array, ax int) *Array {
	out := newArray(Int64, reducedShape(a, ax))
	o, x := elems[int64](out), elems[T](a)
	lines(a, ax, func(k, off, n, step int) {
		m, at := x[off], 0
		for j := 1; j < n && m == m; j++ {
			off += step
			if v := x[off]; v != v || v > m {
				m, at = v, j
			}
		}
		o[k] = int64(at)
	})
	return out
}
