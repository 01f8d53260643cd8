package nd

import (
	"reflect"
)

type indexKind uint8

const (
	idxSlice indexKind = iota // the zero Index is ':'
	idxInt
	idxInts
	idxIntArray
	idxMask
	idxMaskArray
	idxNewAxis
	idxEllipsis
)

const (
	hasStart = 1 << iota
	hasStop
	hasStep
)

// Index selects along one axis, like one entry of a numpy index tuple. Build
// one with I, All, Range, RangeStep, From, To, Step, Ints, IntArray, Mask,
// MaskArray, NewAxis or Ellipsis. The zero Index is All().
//
// I, the ranges, NewAxis and Ellipsis are basic indices: Array.Index returns
// a view. Ints, IntArray, Mask and MaskArray are fancy (advanced) indices:
// Array.Index returns a copy. An Index holds (does not copy) the slice or
// array given to Ints, Mask, IntArray or MaskArray.
type Index struct {
	kind              indexKind
	flags             uint8
	start, stop, step int // start is the position for I
	ints              []int
	mask              []bool
	arr               *Array
}

// I selects position i (a[i]) and removes the axis; a negative i counts from
// the end.
func I(i int) Index { return Index{kind: idxInt, start: i} }

// All selects the whole axis (a[:]).
func All() Index { return Index{} }

// Range selects a[start:stop] with numpy's rules: negative bounds count from
// the end and bounds beyond the axis are clamped.
func Range(start, stop int) Index {
	return Index{flags: hasStart | hasStop, start: start, stop: stop}
}

// RangeStep selects a[start:stop:step]. A zero step makes Index panic.
func RangeStep(start, stop, step int) Index {
	return Index{flags: hasStart | hasStop | hasStep, start: start, stop: stop, step: step}
}

// From selects a[start:].
func From(start int) Index { return Index{flags: hasStart, start: start} }

// To selects a[:stop].
func To(stop int) Index { return Index{flags: hasStop, stop: stop} }

// Step selects a[::step]; Step(-1) reverses the axis. A zero step makes
// Index panic.
func Step(step int) Index { return Index{flags: hasStep, step: step} }

// Ints selects the given positions (a[[i, j, …]]), a fancy index: the result
// is a copy. Negative positions count from the end.
func Ints(idx ...int) Index { return Index{kind: idxInts, ints: idx} }

// IntArray selects with an n-d integer array, a fancy index: the selected
// axis is replaced by the index array's shape (broadcast with the other
// fancy indices, as in numpy). A Bool array is taken as MaskArray.
func IntArray(idx *Array) Index {
	if idx != nil && idx.dt == Bool {
		return MaskArray(idx)
	}
	return Index{kind: idxIntArray, arr: idx}
}

// Mask selects the positions where m is true (a[m]), a fancy index; len(m)
// must equal the axis length.
func Mask(m ...bool) Index { return Index{kind: idxMask, mask: m} }

// MaskArray selects with an n-d bool array that covers as many axes as it
// has dimensions (numpy's a[m] with m.shape == a.shape[:m.ndim]); those axes
// are replaced by one axis of length (number of true elements).
func MaskArray(m *Array) Index { return Index{kind: idxMaskArray, arr: m} }

// NewAxis inserts an axis of length 1 (numpy's None / np.newaxis).
func NewAxis() Index { return Index{kind: idxNewAxis} }

// Ellipsis stands for as many All() as needed to index every axis (numpy's
// ...); at most one may appear.
func Ellipsis() Index { return Index{kind: idxEllipsis} }

func (x *Index) fancy() bool {
	return x.kind >= idxInts && x.kind <= idxMaskArray
}

// axesUsed returns how many axes of the array the index consumes.
func (x *Index) axesUsed() int {
	switch x.kind {
	case idxNewAxis, idxEllipsis:
		return 0
	case idxMaskArray:
		if x.arr == nil {
			return 1
		}
		return len(x.arr.shape)
	}
	return 1
}

// sliceOn resolves a range index on an axis of length n into the first
// position, the step and the number of selected positions, following
// Python's slice.indices.
func (x *Index) sliceOn(n int) (start, step, length int) {
	step = 1
	if x.flags&hasStep != 0 {
		step = x.step
		if step == 0 {
			panic(errorf(ErrIndex, "slice step cannot be zero"))
		}
	}
	var stop int
	if step > 0 {
		start, stop = 0, n
		if x.flags&hasStart != 0 {
			start = clampIndex(x.start, n, 0, n)
		}
		if x.flags&hasStop != 0 {
			stop = clampIndex(x.stop, n, 0, n)
		}
		if stop > start {
			length = (stop - start + step - 1) / step
		}
	} else {
		start, stop = n-1, -1
		if x.flags&hasStart != 0 {
			start = clampIndex(x.start, n, -1, n-1)
		}
		if x.flags&hasStop != 0 {
			stop = clampIndex(x.stop, n, -1, n-1)
		}
		if start > stop {
			length = (start - stop - step - 1) / -step
		}
	}
	if length == 0 {
		start = 0
	}
	return start, step, length
}

func clampIndex(i, n, lo, hi int) int {
	if i < 0 {
		i += n
	}
	if i < lo {
		return lo
	}
	if i > hi {
		return hi
	}
	return i
}

// position resolves an integer index on an axis of length n, panicking if
// it is out of range.
func position(i, n, axis int) int {
	j := i
	if j < 0 {
		j += n
	}
	if uint(j) >= uint(n) {
		panic(errorf(ErrIndex, "index %d is out of bounds for axis %d with size %d", i, axis, n))
	}
	return j
}

// Index returns a[idx...], numpy's indexing with one Index per axis (missing
// trailing indices select whole axes). When every index is basic (I, ranges,
// NewAxis, Ellipsis) the result is a VIEW sharing a's memory, costing one
// allocation for up to four dimensions; when any index is fancy (Ints,
// IntArray, Mask, MaskArray) the result is a new array, laid out as numpy
// lays out advanced indexing (fancy axes broadcast together; their result
// axes go first when fancy indices are separated by a basic one).
//
// Index panics (with an *Error wrapping ErrIndex) if an integer is out of
// range, there are more indices than axes, a step is zero, there is more
// than one Ellipsis, a mask's length differs from its axis, or fancy indices
// do not broadcast together.
func (a *Array) Index(idx ...Index) *Array {
	used, fancy := a.checkIndices(idx)
	if !fancy {
		v := header(a.dt, viewDims(a, idx, used), a)
		a.view(v, idx, used)
		return v
	}
	if rows, ok := takeForm(idx); ok {
		return Take(a, rows)
	}
	p := a.plan(idx)
	r := newArray(a.dt, p.shape)
	p.copy(a, r, r.strides, false)
	return r
}

// takeForm reports whether idx is a[rows] or a[rows, :, …] with a 1-d int
// list, the form Take serves directly.
func takeForm(idx []Index) ([]int, bool) {
	if idx[0].kind != idxInts {
		return nil, false
	}
	for k := 1; k < len(idx); k++ {
		if idx[k].kind != idxSlice || idx[k].flags != 0 {
			return nil, false
		}
	}
	return idx[0].ints, true
}

// viewDims returns the number of dimensions of a's view through the basic
// indices idx, which consume used axes.
func viewDims(a *Array, idx []Index, used int) int {
	ndim := len(a.shape) - used
	for k := range idx {
		if idx[k].kind == idxSlice || idx[k].kind == idxNewAxis {
			ndim++
		}
	}
	return ndim
}

// view fills v, a header sharing a's buffer with viewDims dimensions, as
// the view of a through the basic indices idx, which consume used axes.
func (a *Array) view(v *Array, idx []Index, used int) {
	off, ax, j := a.off, 0, 0
	for k := range idx {
		x := &idx[k]
		switch x.kind {
		case idxSlice:
			start, step, n := x.sliceOn(a.shape[ax])
			off += start * a.strides[ax]
			v.shape[j], v.strides[j] = n, a.strides[ax]*step
			ax++
			j++
		case idxInt:
			off += position(x.start, a.shape[ax], ax) * a.strides[ax]
			ax++
		case idxNewAxis:
			v.shape[j], v.strides[j] = 1, 0
			j++
		case idxEllipsis:
			fill := len(a.shape) - used
			copy(v.shape[j:j+fill], a.shape[ax:ax+fill])
			copy(v.strides[j:j+fill], a.strides[ax:ax+fill])
			ax += fill
			j += fill
		}
	}
	copy(v.shape[j:], a.shape[ax:])
	copy(v.strides[j:], a.strides[ax:])
	v.off = off
	v.computeSize()
}

// fancyPlan describes advanced indexing of an array: the result has shape
// pre + bshape + post; an element at (p, b, q) comes from the array at
// base + Σ p·preStrides + table[b] + Σ q·postStrides.
type fancyPlan struct {
	shape       []int
	nPre, nB    int // number of result axes before and in the broadcast block
	base        int
	preStrides  []int
	postStrides []int
	table       []int // offsets of the fancy block, C order over bshape
}

type advIndex struct {
	axis   int
	stride int
	values []int // resolved positions, C order over shape
	shape  []int
}

type basicAxis struct {
	n, stride int
	adv       bool // marks where the fancy block goes
}

// plan builds the fancy indexing plan for idx (which has at least one fancy
// index and has been checked for count and ellipses).
func (a *Array) plan(idx []Index) *fancyPlan {
	used := 0
	for k := range idx {
		used += idx[k].axesUsed()
	}
	var advs []advIndex
	var axes []basicAxis
	base, ax := a.off, 0
	firstAdv, lastAdv, nItems := -1, -1, 0
	markAdv := func() {
		if firstAdv < 0 {
			firstAdv = nItems
			axes = append(axes, basicAxis{adv: true})
		}
		lastAdv = nItems
		nItems++
	}
	addAdv := func(values []int, shape []int) {
		markAdv()
		advs = append(advs, advIndex{axis: ax, stride: a.strides[ax], values: values, shape: shape})
		ax++
	}
	for k := range idx {
		x := &idx[k]
		switch x.kind {
		case idxSlice:
			start, step, n := x.sliceOn(a.shape[ax])
			base += start * a.strides[ax]
			axes = append(axes, basicAxis{n: n, stride: a.strides[ax] * step})
			ax++
			nItems++
		case idxNewAxis:
			axes = append(axes, basicAxis{n: 1})
			nItems++
		case idxEllipsis:
			for f := len(a.shape) - used; f > 0; f-- {
				axes = append(axes, basicAxis{n: a.shape[ax], stride: a.strides[ax]})
				ax++
				nItems++
			}
		case idxInt:
			addAdv([]int{position(x.start, a.shape[ax], ax)}, nil)
		case idxInts:
			vals := make([]int, len(x.ints))
			for i, v := range x.ints {
				vals[i] = position(v, a.shape[ax], ax)
			}
			addAdv(vals, []int{len(vals)})
		case idxIntArray:
			if x.arr == nil {
				panic(errorf(ErrIndex, "nil index array"))
			}
			addAdv(intPositions(x.arr, a.shape[ax], ax), x.arr.shape)
		case idxMask:
			if len(x.mask) != a.shape[ax] {
				panic(errorf(ErrIndex, "boolean index did not match indexed array along axis %d; size of axis is %d but size of corresponding boolean axis is %d", ax, a.shape[ax], len(x.mask)))
			}
			var vals []int
			for i, m := range x.mask {
				if m {
					vals = append(vals, i)
				}
			}
			addAdv(vals, []int{len(vals)})
		case idxMaskArray:
			for _, coords := range maskCoords(x.arr, a, ax) {
				addAdv(coords, []int{len(coords)})
			}
		}
	}
	for ; ax < len(a.shape); ax++ {
		axes = append(axes, basicAxis{n: a.shape[ax], stride: a.strides[ax]})
		nItems++
	}
	// Broadcast the fancy indices together.
	shapes := make([][]int, len(advs))
	for i := range advs {
		shapes[i] = advs[i].shape
	}
	bshape, err := BroadcastShapes(shapes...)
	if err != nil {
		msg := "shape mismatch: indexing arrays could not be broadcast together with shapes"
		for _, s := range shapes {
			msg += " " + shapeString(s)
		}
		panic(&Error{Kind: ErrIndex, Msg: "nd: " + msg})
	}
	adjacent := lastAdv-firstAdv+1 == len(advs)
	p := &fancyPlan{base: base, nB: len(bshape)}
	if !adjacent {
		p.shape = append(p.shape, bshape...)
	}
	afterBlock := !adjacent
	for _, b := range axes {
		switch {
		case b.adv:
			if adjacent {
				p.shape = append(p.shape, bshape...)
			}
			afterBlock = true
			continue
		case afterBlock:
			p.postStrides = append(p.postStrides, b.stride)
		default:
			p.preStrides = append(p.preStrides, b.stride)
		}
		p.shape = append(p.shape, b.n)
	}
	p.nPre = len(p.preStrides)
	// Offsets of the fancy block.
	bsize := checkedSize(bshape)
	p.table = make([]int, bsize)
	count := make([]int, len(bshape))
	for i := range p.table {
		off := 0
		for _, adv := range advs {
			// Position in adv's own (right-aligned, broadcast) shape.
			pos, st := 0, 1
			for d := len(adv.shape) - 1; d >= 0; d-- {
				c := count[len(bshape)-len(adv.shape)+d]
				if adv.shape[d] == 1 {
					c = 0
				}
				pos += c * st
				st *= adv.shape[d]
			}
			off += adv.values[pos] * adv.stride
		}
		p.table[i] = off
		for d := len(bshape) - 1; d >= 0; d-- {
			count[d]++
			if count[d] < bshape[d] {
				break
			}
			count[d] = 0
		}
	}
	return p
}

// intPositions resolves the values of an integer index array on an axis of
// length n, in C order.
func intPositions(arr *Array, n, axis int) []int {
	if !arr.dt.IsInteger() {
		panic(errorf(ErrIndex, "arrays used as indices must be of integer (or boolean) type, not %v", arr.dt))
	}
	vals := make([]int, 0, arr.size)
	walk(arr.shape, 1, [3][]int{arr.strides}, [3]int{arr.off}, func(o [3]int, cnt int, st [3]int) {
		for k, i := 0, o[0]; k < cnt; k, i = k+1, i+st[0] {
			s, _ := scalarOf(arr.value(i))
			v := int(s.i)
			if s.dt.kind() == kindUint && s.u > uint64(n) {
				v = n // out of range either way
			}
			vals = append(vals, position(v, n, axis))
		}
	})
	return vals
}

// maskCoords returns, for each axis a bool mask covers (starting at axis ax
// of a), the coordinates of its true elements in C order (numpy's nonzero).
func maskCoords(m *Array, a *Array, ax int) [][]int {
	if m == nil {
		panic(errorf(ErrIndex, "nil mask array"))
	}
	if m.dt != Bool {
		panic(errorf(ErrIndex, "a mask must be a bool array, not %v", m.dt))
	}
	if len(m.shape) == 0 {
		panic(errorf(ErrIndex, "0-d boolean indices are not supported"))
	}
	for d, n := range m.shape {
		if a.shape[ax+d] != n {
			panic(errorf(ErrIndex, "boolean index did not match indexed array along axis %d; size of axis is %d but size of corresponding boolean axis is %d", ax+d, a.shape[ax+d], n))
		}
	}
	coords := make([][]int, len(m.shape))
	mv := elems[bool](m)
	pos := make([]int, len(m.shape))
	for i := 0; i < m.size; i++ {
		off := m.off
		for d, p := range pos {
			off += p * m.strides[d]
		}
		if mv[off] {
			for d, p := range pos {
				coords[d] = append(coords[d], p)
			}
		}
		for d := len(pos) - 1; d >= 0; d-- {
			pos[d]++
			if pos[d] < m.shape[d] {
				break
			}
			pos[d] = 0
		}
	}
	for d := range coords {
		if coords[d] == nil {
			coords[d] = []int{}
		}
	}
	return coords
}

// copy moves elements between the indexed array a and r, an operand laid
// over the result shape with strides rst: r → a when toA, else a → r.
func (p *fancyPlan) copy(a, r *Array, rst []int, toA bool) {
	switch {
	case a.dt == Object:
		fancyRuns[any](p, a, r, rst, toA)
	case a.dt.Size() == 1:
		fancyRuns[uint8](p, a, r, rst, toA)
	case a.dt.Size() == 2:
		fancyRuns[uint16](p, a, r, rst, toA)
	case a.dt.Size() == 4:
		fancyRuns[uint32](p, a, r, rst, toA)
	default:
		fancyRuns[uint64](p, a, r, rst, toA)
	}
}

func fancyRuns[T any](p *fancyPlan, a, r *Array, rst []int, toA bool) {
	ad, rd := elems[T](a), elems[T](r)
	nPre, nB := p.nPre, p.nB
	bShape, rB := p.shape[nPre:nPre+nB], rst[nPre:nPre+nB]
	postShape, rPost := p.shape[nPre+nB:], rst[nPre+nB:]
	// Offsets of the fancy block in r.
	rTable := make([]int, len(p.table))
	count := make([]int, nB)
	for i := range rTable {
		off := 0
		for d, c := range count {
			off += c * rB[d]
		}
		rTable[i] = off
		for d := nB - 1; d >= 0; d-- {
			count[d]++
			if count[d] < bShape[d] {
				break
			}
			count[d] = 0
		}
	}
	walk(p.shape[:nPre], 2, [3][]int{p.preStrides, rst[:nPre]}, [3]int{p.base, r.off}, func(o [3]int, n int, st [3]int) {
		ao, ro := o[0], o[1]
		for k := 0; k < n; k++ {
			for b, t := range p.table {
				walk(postShape, 2, [3][]int{p.postStrides, rPost}, [3]int{ao + t, ro + rTable[b]}, func(o [3]int, n int, st [3]int) {
					ai, ri := o[0], o[1]
					for k := 0; k < n; k++ {
						if toA {
							ad[ai] = rd[ri]
						} else {
							rd[ri] = ad[ai]
						}
						ai += st[0]
						ri += st[1]
					}
				})
			}
			ao += st[0]
			ro += st[1]
		}
	})
}

// checkIndices validates idx like Index does and returns the number of axes
// consumed and whether any index is fancy.
func (a *Array) checkIndices(idx []Index) (used int, fancy bool) {
	ellipses := 0
	for k := range idx {
		x := &idx[k]
		used += x.axesUsed()
		fancy = fancy || x.fancy()
		if x.kind == idxEllipsis {
			ellipses++
		}
	}
	if ellipses > 1 {
		panic(errorf(ErrIndex, "an index can only have a single ellipsis ('...')"))
	}
	if used > len(a.shape) {
		panic(errorf(ErrIndex, "too many indices for array: array is %d-dimensional, but %d were indexed", len(a.shape), used))
	}
	return used, fancy
}

// SetIndex sets a[idx...] = v, writing into a's memory, so through a view it
// writes into the original array. v is an *Array, a Go scalar, or a (nested)
// Go slice; it is broadcast to the shape a[idx...] has (numpy's rules, which
// also drop extra leading axes of length 1). With repeated fancy positions
// the last write wins.
//
// Casting: an *Array value follows the "same_kind" rule (CanCast), so
// writing float64 data into an int64 array is an error rather than numpy's
// silent truncation. Go values are checked by value, like numpy 2 checks
// Python scalars: a Go integer fits any integer array whose range holds it
// and any float array, a Go float fits only float arrays, a Go bool fits any
// numeric or bool array, and an Object array takes any Go value (a Go slice
// is assigned element by element).
//
// SetIndex returns an error wrapping ErrShape if v does not broadcast and
// ErrCast if it may not be cast; a is unchanged then. A bad index panics as
// in Index.
func (a *Array) SetIndex(v any, idx ...Index) error {
	used, fancy := a.checkIndices(idx)
	if !fancy {
		dst := header(a.dt, viewDims(a, idx, used), a)
		a.view(dst, idx, used)
		return assign(dst, v)
	}
	p := a.plan(idx)
	src, err := valueArray(v, a.dt)
	if err != nil {
		return err
	}
	var buf [walkStack]int
	sst, ok := broadcastStrides(src, p.shape, buf[:])
	if !ok {
		return errorf(ErrShape, "shape mismatch: value array of shape %s could not be broadcast to indexing result of shape %s", shapeString(src.shape), shapeString(p.shape))
	}
	if src.ptr == a.ptr && src.n > 0 {
		src = src.Copy()
		sst, _ = broadcastStrides(src, p.shape, buf[:])
	}
	p.copy(a, src, sst, true)
	return nil
}

// assign sets dst[...] = v under SetIndex's rules.
func assign(dst *Array, v any) error {
	if x, ok := v.(*Array); ok {
		return CopyTo(dst, x)
	}
	if !isSequence(v) {
		return dst.fill(v)
	}
	src, err := valueArray(v, dst.dt)
	if err != nil {
		return err
	}
	return CopyTo(dst, src)
}

func isSequence(v any) bool {
	if v == nil {
		return false
	}
	k := reflect.TypeOf(v).Kind()
	return k == reflect.Slice || k == reflect.Array
}

// valueArray converts an assigned value to an array of dtype dt under
// SetIndex's casting rules.
func valueArray(v any, dt DType) (*Array, error) {
	if x, ok := v.(*Array); ok {
		if x.dt == dt {
			return x, nil
		}
		if !CanCast(x.dt, dt) {
			return nil, errorf(ErrCast, "cannot cast array data from dtype %v to %v according to the rule 'same_kind'", x.dt, dt)
		}
		return x.AsType(dt)
	}
	if !isSequence(v) {
		return Full(dt, v)
	}
	src, err := fromGo(v, dt == Object)
	if err != nil {
		return nil, err
	}
	if src.dt == dt {
		return src, nil
	}
	if !CanCast(src.dt, dt) {
		// Go integers are checked by value (numpy's rule for Python ints).
		if src.dt.kind() == kindObject || src.dt.kind() > dt.kind() && !(src.dt.IsInteger() && dt.IsInteger()) {
			return nil, errorf(ErrCast, "cannot assign Go values of dtype %v to an array of dtype %v", src.dt, dt)
		}
		for i := 0; i < src.size; i++ {
			s, _ := scalarOf(src.value(i))
			if !s.fits(dt) {
				return nil, errorf(ErrCast, "cannot assign %v to an array of dtype %v: the value does not fit", s.v, dt)
			}
		}
	}
	return src.AsType(dt)
}

// BroadcastShapes returns the shape numpy broadcasting gives to arrays of
// the given shapes, or an error wrapping ErrShape naming them.
func BroadcastShapes(shapes ...[]int) ([]int, error) {
	n := 0
	for _, s := range shapes {
		n = max(n, len(s))
	}
	out := make([]int, n)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		for j, d := range s {
			k := n - len(s) + j
			switch {
			case d == out[k] || d == 1:
			case out[k] == 1:
				out[k] = d
			default:
				msg := "shape mismatch: objects cannot be broadcast to a single shape:"
				for _, t := range shapes {
					msg += " " + shapeString(t)
				}
				return nil, &Error{Kind: ErrShape, Msg: "nd: " + msg}
			}
		}
	}
	return out, nil
}
