package nd

import "slices"

// Stack joins arrays of one shape along a new axis (numpy's stack): the
// result has shape shape[:axis] + [len(arrs)] + shape[axis:], with axis in
// [-ndim-1, ndim], and dtype the ResultType of all inputs. It returns an
// error wrapping ErrShape (naming the shapes) if the shapes differ or there
// is no array, and ErrIndex if the axis is out of range.
func Stack(axis int, arrs ...*Array) (*Array, error) {
	var buf [walkStack]int
	shape, dt, err := stackShape(axis, arrs, buf[:])
	if err != nil {
		return nil, err
	}
	dst := newHeader(dt, shape)
	if (axis == 0 || axis == -len(shape)) && joinArrays(dst, arrs) {
		return dst, nil
	}
	dst.ptr, dst.n = allocBuffer(dt, dst.size), dst.size
	return dst, stackInto(dst, axis, arrs)
}

// StackTo is Stack into a preallocated dst; inputs are cast to dst's dtype
// under the "same_kind" rule (an error wrapping ErrCast otherwise). StackTo
// does not allocate. It panics if dst's shape is not the stacked shape, and
// returns an error, leaving dst unchanged, if the inputs' shapes differ.
// The inputs must not share memory with dst.
func StackTo(dst *Array, axis int, arrs ...*Array) error {
	var buf [walkStack]int
	shape, _, err := stackShape(axis, arrs, buf[:])
	if err != nil {
		return err
	}
	if !slices.Equal(shape, dst.shape) {
		panic(errorf(ErrShape, "StackTo: destination shape %s, stacked shape %s", shapeString(dst.shape), shapeString(shape)))
	}
	if err := castableTo(dst.dt, arrs); err != nil {
		return err
	}
	return stackInto(dst, axis, arrs)
}

func castableTo(dt DType, arrs []*Array) error {
	for _, a := range arrs {
		if !CanCast(a.dt, dt) {
			return errorf(ErrCast, "cannot cast array data from dtype %v to %v according to the rule 'same_kind'", a.dt, dt)
		}
	}
	return nil
}

func stackShape(axis int, arrs []*Array, buf []int) ([]int, DType, error) {
	if len(arrs) == 0 {
		return nil, 0, errorf(ErrShape, "need at least one array to stack")
	}
	first := arrs[0]
	nd := len(first.shape)
	if axis < -nd-1 || axis > nd {
		return nil, 0, errorf(ErrIndex, "axis %d is out of bounds for array of dimension %d", axis, nd+1)
	}
	dt := first.dt
	for i, a := range arrs[1:] {
		if !slices.Equal(a.shape, first.shape) {
			return nil, 0, errorf(ErrShape, "all input arrays must have the same shape: array 0 has shape %s, array %d has shape %s", shapeString(first.shape), i+1, shapeString(a.shape))
		}
		dt = ResultType(dt, a.dt)
	}
	if axis < 0 {
		axis += nd + 1
	}
	shape := append(buf[:0], first.shape[:axis]...)
	shape = append(shape, len(arrs))
	shape = append(shape, first.shape[axis:]...)
	return shape, dt, nil
}

// stackInto writes each input as one slice of dst along axis.
func stackInto(dst *Array, axis int, arrs []*Array) error {
	if axis < 0 {
		axis += len(dst.shape)
	}
	var buf [2 * walkStack]int
	flat := axis == 0 && dst.IsContiguous()
	for k, a := range arrs {
		if flat && a.dt == dst.dt && a.IsContiguous() && a.ptr != dst.ptr {
			copyFlat(dst, dst.off+k*a.size, a, a.off, a.size)
			continue
		}
		slot := dst.slab(buf[:], axis, k, 1, true)
		if err := CopyTo(&slot, a); err != nil {
			return err
		}
	}
	return nil
}

// slab returns a view of positions [start, start+n) of a along axis; with
// drop the axis is removed (n must be 1). The view's shape and strides live
// in buf (the caller's stack memory when it has room for 2·ndim ints), so it
// costs no allocation.
func (a *Array) slab(buf []int, axis, start, n int, drop bool) Array {
	s := Array{ptr: a.ptr, n: a.n, off: a.off + start*a.strides[axis], dt: a.dt}
	nd := len(a.shape)
	if drop {
		nd--
	}
	if len(buf) < 2*nd {
		buf = make([]int, 2*nd)
	}
	s.shape, s.strides = buf[:nd:nd], buf[nd:2*nd:2*nd]
	j := 0
	for i := range a.shape {
		if i == axis {
			if drop {
				continue
			}
			s.shape[j], s.strides[j] = n, a.strides[i]
		} else {
			s.shape[j], s.strides[j] = a.shape[i], a.strides[i]
		}
		j++
	}
	s.computeSize()
	return s
}

// Concatenate joins arrays along an existing axis (numpy's concatenate):
// the inputs must agree on every other axis; the dtype is the ResultType of
// all inputs. It returns an error wrapping ErrShape (naming the shapes) if
// they disagree, there is no array or an input is 0-d, and ErrIndex if the
// axis is out of range.
func Concatenate(axis int, arrs ...*Array) (*Array, error) {
	var buf [walkStack]int
	shape, dt, err := concatShape(axis, arrs, buf[:])
	if err != nil {
		return nil, err
	}
	dst := newHeader(dt, shape)
	if (axis == 0 || axis == -len(shape)) && joinArrays(dst, arrs) {
		return dst, nil
	}
	dst.ptr, dst.n = allocBuffer(dt, dst.size), dst.size
	return dst, concatInto(dst, axis, arrs)
}

// ConcatenateTo is Concatenate into a preallocated dst; inputs are cast to
// dst's dtype under the "same_kind" rule (an error wrapping ErrCast
// otherwise). ConcatenateTo does not allocate. It panics if dst's shape is
// not the concatenated shape, and returns an error, leaving dst unchanged,
// if the inputs disagree. The inputs must not share memory with dst.
func ConcatenateTo(dst *Array, axis int, arrs ...*Array) error {
	var buf [walkStack]int
	shape, _, err := concatShape(axis, arrs, buf[:])
	if err != nil {
		return err
	}
	if !slices.Equal(shape, dst.shape) {
		panic(errorf(ErrShape, "ConcatenateTo: destination shape %s, concatenated shape %s", shapeString(dst.shape), shapeString(shape)))
	}
	if err := castableTo(dst.dt, arrs); err != nil {
		return err
	}
	return concatInto(dst, axis, arrs)
}

func concatShape(axis int, arrs []*Array, buf []int) ([]int, DType, error) {
	if len(arrs) == 0 {
		return nil, 0, errorf(ErrShape, "need at least one array to concatenate")
	}
	first := arrs[0]
	nd := len(first.shape)
	if nd == 0 {
		return nil, 0, errorf(ErrShape, "zero-dimensional arrays cannot be concatenated")
	}
	if axis < -nd || axis >= nd {
		return nil, 0, errorf(ErrIndex, "axis %d is out of bounds for array of dimension %d", axis, nd)
	}
	if axis < 0 {
		axis += nd
	}
	dt, total := first.dt, 0
	for i, a := range arrs {
		if len(a.shape) != nd {
			return nil, 0, errorf(ErrShape, "all the input arrays must have same number of dimensions, but the array at index 0 has %d dimension(s) and the array at index %d has %d dimension(s)", nd, i, len(a.shape))
		}
		for d := range a.shape {
			if d != axis && a.shape[d] != first.shape[d] {
				return nil, 0, errorf(ErrShape, "all the input array dimensions except for the concatenation axis must match exactly, but along dimension %d, the array at index 0 has size %d and the array at index %d has size %d (shapes %s and %s)", d, first.shape[d], i, a.shape[d], shapeString(first.shape), shapeString(a.shape))
			}
		}
		total += a.shape[axis]
		dt = ResultType(dt, a.dt)
	}
	shape := append(buf[:0], first.shape...)
	shape[axis] = total
	return shape, dt, nil
}

func concatInto(dst *Array, axis int, arrs []*Array) error {
	if axis < 0 {
		axis += len(dst.shape)
	}
	var buf [2 * walkStack]int
	flat := axis == 0 && dst.IsContiguous()
	rowSize := 0
	if dst.shape[0] > 0 {
		rowSize = dst.size / dst.shape[0]
	}
	pos := 0
	for _, a := range arrs {
		if flat && a.dt == dst.dt && a.IsContiguous() && a.ptr != dst.ptr {
			copyFlat(dst, dst.off+pos*rowSize, a, a.off, a.size)
			pos += a.shape[0]
			continue
		}
		slot := dst.slab(buf[:], axis, pos, a.shape[axis], false)
		if err := CopyTo(&slot, a); err != nil {
			return err
		}
		pos += a.shape[axis]
	}
	return nil
}
