package nd

// Reshape returns an array with the same elements in C order and the given
// shape; one dimension may be -1 and is then inferred. The result is a VIEW
// when a is contiguous and a copy otherwise (numpy returns a view whenever
// the strides allow; nd only for contiguous arrays). It returns an error
// wrapping ErrShape if the sizes differ or the shape is invalid.
func (a *Array) Reshape(shape ...int) (*Array, error) {
	infer, known := -1, 1
	for i, d := range shape {
		switch {
		case d == -1 && infer < 0:
			infer = i
		case d == -1:
			return nil, errorf(ErrShape, "can only specify one unknown dimension")
		case d < 0:
			return nil, errorf(ErrShape, "negative dimension in shape %s", shapeString(shape))
		default:
			known *= d
		}
	}
	src := a
	if !a.IsContiguous() {
		src = a.Copy()
	}
	v := header(a.dt, len(shape), src)
	copy(v.shape, shape)
	if infer >= 0 {
		if known == 0 || a.size%known != 0 {
			return nil, errorf(ErrShape, "cannot reshape array of size %d into shape %s", a.size, shapeString(shape))
		}
		v.shape[infer] = a.size / known
	}
	v.setContiguous()
	if v.size != a.size {
		return nil, errorf(ErrShape, "cannot reshape array of size %d into shape %s", a.size, shapeString(shape))
	}
	v.off = src.off
	return v, nil
}

// Transpose returns a VIEW with the axes permuted: axis i of the result is
// axis axes[i] of a (negative axes count from the end). With no axes the
// order is reversed. Transpose panics if axes is not a permutation of a's
// axes.
func (a *Array) Transpose(axes ...int) *Array {
	nd := len(a.shape)
	v := header(a.dt, nd, a)
	v.off, v.size = a.off, a.size
	if len(axes) == 0 {
		for i := range v.shape {
			v.shape[i], v.strides[i] = a.shape[nd-1-i], a.strides[nd-1-i]
		}
		return v
	}
	if len(axes) != nd {
		panic(errorf(ErrIndex, "Transpose: axes don't match array: %d axes for %d dimensions", len(axes), nd))
	}
	var seen uint64
	for i, ax := range axes {
		ax = a.axis(ax)
		if ax < 64 {
			if seen&(1<<ax) != 0 {
				panic(errorf(ErrIndex, "Transpose: repeated axis %d", axes[i]))
			}
			seen |= 1 << ax
		}
		v.shape[i], v.strides[i] = a.shape[ax], a.strides[ax]
	}
	return v
}

// BroadcastTo returns a VIEW of a broadcast to shape with numpy's rules:
// repeated axes have stride 0, so the view must not be written to (a write
// through one position changes all positions that share it). It returns an
// error wrapping ErrShape if a does not broadcast to shape.
func (a *Array) BroadcastTo(shape ...int) (*Array, error) {
	if len(shape) < len(a.shape) {
		return nil, errorf(ErrShape, "input operand has more dimensions than allowed by the axis remapping: cannot broadcast %s to %s", shapeString(a.shape), shapeString(shape))
	}
	for _, d := range shape {
		if d < 0 {
			return nil, errorf(ErrShape, "all elements of broadcast shape must be non-negative, got %s", shapeString(shape))
		}
	}
	v := header(a.dt, len(shape), a)
	st, ok := broadcastStrides(a, shape, v.strides)
	if !ok {
		return nil, errorf(ErrShape, "operands could not be broadcast together with remapped shapes [original->remapped]: %s and requested shape %s", shapeString(a.shape), shapeString(shape))
	}
	copy(v.strides, st)
	copy(v.shape, shape)
	v.off = a.off
	v.computeSize()
	return v, nil
}

// ExpandDims returns a VIEW with a new axis of length 1 inserted at
// position axis of the result (negative counts from the end of the result,
// so -1 appends). ExpandDims panics if axis is not in [-ndim-1, ndim].
func (a *Array) ExpandDims(axis int) *Array {
	nd := len(a.shape)
	if axis < 0 {
		axis += nd + 1
	}
	if axis < 0 || axis > nd {
		panic(errorf(ErrIndex, "ExpandDims: axis %d is out of bounds for array of dimension %d", axis, nd+1))
	}
	v := header(a.dt, nd+1, a)
	copy(v.shape, a.shape[:axis])
	copy(v.strides, a.strides[:axis])
	v.shape[axis], v.strides[axis] = 1, 0
	copy(v.shape[axis+1:], a.shape[axis:])
	copy(v.strides[axis+1:], a.strides[axis:])
	v.off, v.size = a.off, a.size
	return v
}

// Squeeze returns a VIEW without the given axes of length 1, or without
// every axis of length 1 when no axis is given. It returns an error wrapping
// ErrShape if a given axis does not have length 1, and ErrIndex if it is out
// of range.
func (a *Array) Squeeze(axes ...int) (*Array, error) {
	nd := len(a.shape)
	drop := make([]bool, nd)
	if len(axes) == 0 {
		for i, d := range a.shape {
			drop[i] = d == 1
		}
	}
	for _, ax := range axes {
		i := ax
		if i < 0 {
			i += nd
		}
		if i < 0 || i >= nd {
			return nil, errorf(ErrIndex, "axis %d is out of bounds for array of dimension %d", ax, nd)
		}
		if a.shape[i] != 1 {
			return nil, errorf(ErrShape, "cannot select an axis to squeeze out which has size not equal to one (axis %d of shape %s)", ax, shapeString(a.shape))
		}
		drop[i] = true
	}
	keep := 0
	for _, d := range drop {
		if !d {
			keep++
		}
	}
	v := header(a.dt, keep, a)
	j := 0
	for i := range a.shape {
		if !drop[i] {
			v.shape[j], v.strides[j] = a.shape[i], a.strides[i]
			j++
		}
	}
	v.off, v.size = a.off, a.size
	return v, nil
}
