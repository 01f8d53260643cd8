package nd

import "slices"

// Take returns a new array holding rows of a along axis 0 (numpy's a[rows]
// for a 1-d int list): shape [len(rows), a.shape[1:]...], a's dtype. A
// negative row counts from the end. Take panics if a is 0-d or a row is out
// of range. It allocates the result (two allocations up to four dimensions).
func Take(a *Array, rows []int) *Array {
	if len(a.shape) == 0 {
		panic(errorf(ErrIndex, "Take: too many indices for a 0-d array"))
	}
	neg := checkRows(rows, a.shape[0])
	dst := header(a.dt, len(a.shape), nil)
	dst.shape[0] = len(rows)
	copy(dst.shape[1:], a.shape[1:])
	checkedSize(dst.shape)
	dst.setContiguous()
	if !takeJoin(dst, a, rows) {
		dst.ptr, dst.n = allocBuffer(a.dt, dst.size), dst.size
		takeRowsOf(dst, a, rows, neg)
	}
	return dst
}

// TakeTo copies rows of a along axis 0 into dst: dst[k] = a[rows[k]].
// Negative rows count from the end. TakeTo does not allocate.
//
// TakeTo panics if dst's dtype differs from a's, dst's shape is not
// [len(rows), a.shape[1:]...], dst shares memory with a, or a row is out of
// range (checked before anything is written).
func TakeTo(dst, a *Array, rows []int) {
	if len(a.shape) == 0 || dst.dt != a.dt || len(dst.shape) != len(a.shape) || dst.shape[0] != len(rows) || !slices.Equal(dst.shape[1:], a.shape[1:]) {
		panic(takeShapeError(dst, a, len(rows)))
	}
	if dst.ptr == a.ptr && a.n > 0 {
		panic(errorf(ErrShape, "TakeTo: dst shares memory with the source"))
	}
	takeRowsOf(dst, a, rows, checkRows(rows, a.shape[0]))
}

// checkRows panics if a row is out of range for an axis of length n
// (negative rows count from the end). It reports whether some row is
// negative.
func checkRows(rows []int, n int) (neg bool) {
	// A negative row is a huge uint, so one maximum over uint(row) clears
	// the usual case (every row in [0, n)) without a branch per row.
	var m0, m1, m2, m3 uint
	k := 0
	for ; k+3 < len(rows); k += 4 {
		r := rows[k : k+4 : k+4]
		m0, m1, m2, m3 = max(m0, uint(r[0])), max(m1, uint(r[1])), max(m2, uint(r[2])), max(m3, uint(r[3]))
	}
	for ; k < len(rows); k++ {
		m0 = max(m0, uint(rows[k]))
	}
	if max(m0, m1, m2, m3) < uint(n) {
		return false
	}
	for k, r := range rows {
		if r < -n || r >= n {
			panic(errorf(ErrIndex, "Take: index %d (position %d) is out of bounds for axis 0 with size %d", r, k, n))
		}
	}
	return true
}

// takeRowsOf is TakeTo after its checks; neg tells whether some row is
// negative.
func takeRowsOf(dst, a *Array, rows []int, neg bool) {
	switch {
	case a.dt == Object:
		takeRows[any](dst, a, rows, neg)
	case a.dt.Size() == 1:
		takeRows[uint8](dst, a, rows, neg)
	case a.dt.Size() == 2:
		takeRows[uint16](dst, a, rows, neg)
	case a.dt.Size() == 4:
		takeRows[uint32](dst, a, rows, neg)
	default:
		takeRows[uint64](dst, a, rows, neg)
	}
}

func takeShapeError(dst, a *Array, nrows int) *Error {
	want := "a 0-d source has no rows"
	if len(a.shape) > 0 {
		want = "want " + shapeString(append([]int{nrows}, a.shape[1:]...)) + " " + a.dt.String()
	}
	return errorf(ErrShape, "TakeTo: destination %s %v does not match: %s", shapeString(dst.shape), dst.dt, want)
}

// rowsContiguous reports whether each row (axis-0 slice) of a is one
// contiguous run.
func rowsContiguous(a *Array) bool {
	st := 1
	for i := len(a.shape) - 1; i >= 1; i-- {
		if a.shape[i] != 1 && a.strides[i] != st {
			return false
		}
		st *= a.shape[i]
	}
	return true
}

func takeRows[T any](dst, a *Array, rows []int, neg bool) {
	d, s := elems[T](dst), elems[T](a)
	n := a.shape[0]
	rowLen := 1
	for _, x := range a.shape[1:] {
		rowLen *= x
	}
	if rowLen == 0 {
		return
	}
	if !neg && rowsContiguous(a) && rowsContiguous(dst) {
		// The kernels take offsets and strides as arguments: read from the
		// headers inside the loop they would be reloaded after every store,
		// which might have changed them. Rows of 1, 2 or 4 elements
		// (scalars per step, small observation vectors) are moved as
		// fixed-size values; a call to memmove costs more.
		doff, ds, soff, ss := dst.off, dst.strides[0], a.off, a.strides[0]
		switch rowLen {
		case 1:
			take1(d, s, rows, doff, ds, soff, ss)
		case 2:
			take2(d, s, rows, doff, ds, soff, ss)
		case 4:
			take4(d, s, rows, doff, ds, soff, ss)
		default:
			takeN(d, s, rows, rowLen, doff, ds, soff, ss)
		}
		return
	}
	for k, r := range rows {
		if r < 0 {
			r += n
		}
		walk(a.shape[1:], 2, [3][]int{dst.strides[1:], a.strides[1:]}, [3]int{dst.off + k*dst.strides[0], a.off + r*a.strides[0]}, func(o [3]int, cnt int, st [3]int) {
			di, si := o[0], o[1]
			for j := 0; j < cnt; j++ {
				d[di] = s[si]
				di += st[0]
				si += st[1]
			}
		})
	}
}

// take1, take2, take4 and takeN copy rows of 1, 2, 4 and rowLen elements,
// all in range and non-negative, from s (row 0 at soff, stride ss) to d
// (row 0 at doff, stride ds).
func take1[T any](d, s []T, rows []int, doff, ds, soff, ss int) {
	for k, r := range rows {
		d[doff+k*ds] = s[soff+r*ss]
	}
}

func take2[T any](d, s []T, rows []int, doff, ds, soff, ss int) {
	for k, r := range rows {
		do, so := doff+k*ds, soff+r*ss
		*(*[2]T)(d[do : do+2]) = *(*[2]T)(s[so : so+2])
	}
}

func take4[T any](d, s []T, rows []int, doff, ds, soff, ss int) {
	for k, r := range rows {
		do, so := doff+k*ds, soff+r*ss
		*(*[4]T)(d[do : do+4]) = *(*[4]T)(s[so : so+4])
	}
}

func takeN[T any](d, s []T, rows []int, rowLen, doff, ds, soff, ss int) {
	for k, r := range rows {
		do, so := doff+k*ds, soff+r*ss
		copy(d[do:do+rowLen], s[so:so+rowLen])
	}
}

// SetRow sets a[i] = src along axis 0, writing into a's memory; a negative
// i counts from the end. src is broadcast to a.shape[1:] and cast under the
// "same_kind" rule, as in CopyTo, and an error is returned (a unchanged) if
// it does not broadcast or may not be cast. SetRow does not allocate when
// src does not share memory with a. SetRow panics if a is 0-d or i is out
// of range.
func (a *Array) SetRow(i int, src *Array) error {
	if len(a.shape) == 0 {
		panic(errorf(ErrIndex, "SetRow: a 0-d array has no rows"))
	}
	i = position(i, a.shape[0], 0)
	row := Array{ptr: a.ptr, n: a.n, off: a.off + i*a.strides[0], dt: a.dt, shape: a.shape[1:], strides: a.strides[1:]}
	row.computeSize()
	return CopyTo(&row, src)
}
