package tensor

// view returns a node whose result shares x's data; its shape is set by the
// caller in n.out.shape.
func (tp *Tape) view(x *Tensor) *node {
	n := tp.newNode(viewBack, x, nil, nil)
	n.out.data = x.data
	return n
}

func viewBack(n *node) {
	dx, acc := gradInto(n.a)
	addTo(dx, n.out.grad, acc)
}

// Reshape returns a view of x with the given shape (sharing x's data). One
// dimension may be −1: it is inferred from the others.
//
// Reshape panics with ErrShape if the shape does not hold exactly x's
// elements.
func (tp *Tape) Reshape(x *Tensor, shape ...int) *Tensor {
	n := tp.view(x)
	n.out.shape = append(n.out.shape[:0], shape...)
	infer, known := -1, 1
	for i, d := range shape {
		switch {
		case d == -1 && infer < 0:
			infer = i
		case d < 0:
			panicf(ErrShape, "Reshape of %v to %v", x.shape, n.out.shape)
		default:
			known *= d
		}
	}
	if infer >= 0 && known > 0 && len(x.data)%known == 0 {
		n.out.shape[infer] = len(x.data) / known
		known *= n.out.shape[infer]
	}
	if known != len(x.data) || infer >= 0 && known == 0 {
		// The node's copy of shape, so that shape does not escape.
		panicf(ErrShape, "Reshape of %v to %v", x.shape, n.out.shape)
	}
	return &n.out
}

// Flatten returns a view of x with dimensions start through end (inclusive;
// negative counts from the end) merged into one: Flatten(x, 1, -1) turns
// [N, C, H, W] into [N, C·H·W]. A scalar becomes [1].
//
// Flatten panics with ErrShape if start or end is out of range or start > end.
func (tp *Tape) Flatten(x *Tensor, start, end int) *Tensor {
	n := tp.view(x)
	if len(x.shape) == 0 {
		n.out.shape = append(n.out.shape[:0], 1)
		return &n.out
	}
	s, e := axisIndex("Flatten", start, len(x.shape)), axisIndex("Flatten", end, len(x.shape))
	if s > e {
		panicf(ErrShape, "Flatten of %v from axis %d to %d", x.shape, start, end)
	}
	n.out.shape = append(n.out.shape[:0], x.shape[:s]...)
	n.out.shape = append(n.out.shape, numel(x.shape[s:e+1]))
	n.out.shape = append(n.out.shape, x.shape[e+1:]...)
	return &n.out
}

// Squeeze returns a view of x without axis, which must have size 1.
//
// Squeeze panics with ErrShape if axis is out of range or its size is not 1.
func (tp *Tape) Squeeze(x *Tensor, axis int) *Tensor {
	ax := axisIndex("Squeeze", axis, len(x.shape))
	if x.shape[ax] != 1 {
		panicf(ErrShape, "Squeeze of axis %d of %v", axis, x.shape)
	}
	n := tp.view(x)
	n.out.shape = append(append(n.out.shape[:0], x.shape[:ax]...), x.shape[ax+1:]...)
	return &n.out
}

// Unsqueeze returns a view of x with a new axis of size 1 at position axis,
// between −(NDim+1) and NDim: Unsqueeze(x, -1) appends one.
//
// Unsqueeze panics with ErrShape if axis is out of range.
func (tp *Tape) Unsqueeze(x *Tensor, axis int) *Tensor {
	ax := axisIndex("Unsqueeze", axis, len(x.shape)+1)
	n := tp.view(x)
	n.out.shape = append(append(n.out.shape[:0], x.shape[:ax]...), 1)
	n.out.shape = append(n.out.shape, x.shape[ax:]...)
	return &n.out
}

// Detach returns a view of x (sharing its data) that does not require
// gradients: no gradient flows back through it (a stop-gradient, for example
// for bootstrapped targets).
func (tp *Tape) Detach(x *Tensor) *Tensor {
	tp.check(x)
	n := tp.newNode(nil, nil, nil, nil)
	n.out.shape = append(n.out.shape[:0], x.shape...)
	n.out.data = x.data
	return &n.out
}

// Transpose returns a copy of x with axes d0 and d1 swapped (negative counts
// from the end): Transpose(x, 0, 1) of a matrix is its transpose.
//
// Transpose panics with ErrShape if an axis is out of range.
func (tp *Tape) Transpose(x *Tensor, d0, d1 int) *Tensor {
	a0, a1 := axisIndex("Transpose", d0, len(x.shape)), axisIndex("Transpose", d1, len(x.shape))
	n := tp.newNode(transposeBack, x, nil, nil)
	n.ints[0], n.ints[1] = a0, a1
	n.out.shape = append(n.out.shape[:0], x.shape...)
	n.out.shape[a0], n.out.shape[a1] = x.shape[a1], x.shape[a0]
	y := n.setShape(n.out.shape...)
	swapAxes(y, x.data, x.shape, a0, a1, false)
	return &n.out
}

func transposeBack(n *node) {
	dx, acc := gradInto(n.a)
	swapAxes(dx, n.out.grad, n.out.shape, n.ints[0], n.ints[1], acc)
}

// swapAxes writes (or adds, when acc) src, of shape shape, with axes a0 and
// a1 swapped into dst.
func swapAxes(dst, src []float32, shape []int, a0, a1 int, acc bool) {
	if len(shape) > maxDims {
		panicf(ErrShape, "Transpose: more than %d dimensions in %v", maxDims, shape)
	}
	var out [maxDims]int
	var st [4][maxDims]int
	copy(out[:], shape)
	out[a0], out[a1] = shape[a1], shape[a0]
	// Operand 0 walks dst contiguously; operand 1 walks src with its axes
	// exchanged.
	s0, s1 := 1, 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[0][i] = s0
		s0 *= out[i]
		st[1][i] = s1
		s1 *= shape[i]
	}
	st[1][a0], st[1][a1] = st[1][a1], st[1][a0]
	p := mergedPlan(out[:len(shape)], 2, &st)
	l, ss := p.rowLen(), p.inner(1)
	p.each(func(off [4]int) {
		d, is := dst[off[0]:off[0]+l], off[1]
		for i := range d {
			v := src[is]
			if acc {
				v += d[i]
			}
			d[i] = v
			is += ss
		}
	})
}

// Slice returns the indices start ≤ i < end of axis (negative axis counts
// from the end). It is a view sharing x's data when the slice is one
// contiguous block (axis 0, or only size-1 axes before it) and a copy
// otherwise.
//
// Slice panics with ErrShape if axis is out of range and with ErrIndex unless
// 0 ≤ start ≤ end ≤ the axis size.
func (tp *Tape) Slice(x *Tensor, axis, start, end int) *Tensor {
	ax := axisIndex("Slice", axis, len(x.shape))
	outer, m, inner := split(x.shape, ax)
	if start < 0 || start > end || end > m {
		panicf(ErrIndex, "Slice [%d, %d) of axis %d of %v", start, end, axis, x.shape)
	}
	n := tp.newNode(sliceBack, x, nil, nil)
	n.ints[0], n.ints[1], n.ints[2], n.ints[3] = outer, m, inner, start
	n.out.shape = append(n.out.shape[:0], x.shape...)
	n.out.shape[ax] = end - start
	if outer == 1 {
		n.out.data = x.data[start*inner : end*inner]
		return &n.out
	}
	y := n.setShape(n.out.shape...)
	w := (end - start) * inner
	for o := 0; o < outer; o++ {
		copy(y[o*w:(o+1)*w], x.data[(o*m+start)*inner:])
	}
	return &n.out
}

func sliceBack(n *node) {
	outer, m, inner, start := n.ints[0], n.ints[1], n.ints[2], n.ints[3]
	g := n.out.grad
	dx := gradAdd(n.a)
	w := len(g) / max(outer, 1)
	for o := 0; o < outer; o++ {
		addTo(dx[(o*m+start)*inner:], g[o*w:(o+1)*w], true)
	}
}

// IndexSelect returns a copy of x holding, along axis, the entries listed in
// index, in that order and with repetitions: IndexSelect(x, 0, rows) gathers
// rows of a batch. The gradient of repeated entries is summed.
//
// IndexSelect panics with ErrShape if axis is out of range and with ErrIndex
// if an index is outside [0, size of axis).
func (tp *Tape) IndexSelect(x *Tensor, axis int, index []int) *Tensor {
	ax := axisIndex("IndexSelect", axis, len(x.shape))
	outer, m, inner := split(x.shape, ax)
	for _, i := range index {
		if uint(i) >= uint(m) {
			panicf(ErrIndex, "IndexSelect: index %d for axis %d of %v", i, axis, x.shape)
		}
	}
	n := tp.newNode(indexSelectBack, x, nil, nil)
	n.ints[0], n.ints[1], n.ints[2] = outer, m, inner
	n.idx = append(n.idx[:0], index...)
	n.out.shape = append(n.out.shape[:0], x.shape...)
	n.out.shape[ax] = len(index)
	y := n.setShape(n.out.shape...)
	for o := 0; o < outer; o++ {
		for j, i := range index {
			copy(y[(o*len(index)+j)*inner:(o*len(index)+j+1)*inner], x.data[(o*m+i)*inner:])
		}
	}
	return &n.out
}

func indexSelectBack(n *node) {
	outer, m, inner := n.ints[0], n.ints[1], n.ints[2]
	g, index := n.out.grad, n.idx
	dx := gradAdd(n.a)
	for o := 0; o < outer; o++ {
		for j, i := range index {
			addTo(dx[(o*m+i)*inner:], g[(o*len(index)+j)*inner:(o*len(index)+j+1)*inner], true)
		}
	}
}

// Concat joins tensors along an existing axis (negative counts from the end);
// all other dimensions must agree. The result is a copy.
//
// Concat panics with ErrShape if xs is empty, the axis is out of range or the
// shapes disagree.
func (tp *Tape) Concat(axis int, xs ...*Tensor) *Tensor {
	if len(xs) == 0 {
		panicf(ErrShape, "Concat of no tensors")
	}
	ref := xs[0].shape
	ax := axisIndex("Concat", axis, len(ref))
	total := 0
	for _, x := range xs {
		if len(x.shape) != len(ref) || !sameShape(x.shape[:ax], ref[:ax]) || !sameShape(x.shape[ax+1:], ref[ax+1:]) {
			panicf(ErrShape, "Concat along axis %d of %v and %v", axis, ref, x.shape)
		}
		total += x.shape[ax]
	}
	n := tp.newListNode(joinBack, xs)
	n.out.shape = append(n.out.shape[:0], ref...)
	n.out.shape[ax] = total
	n.setShape(n.out.shape...)
	n.ints[0], n.ints[1] = numel(ref[:ax]), numel(ref[ax+1:])
	n.join(false)
	return &n.out
}

// Stack joins tensors of identical shape along a new axis at position axis,
// between −(NDim+1) and NDim. The result is a copy.
//
// Stack panics with ErrShape if xs is empty, the axis is out of range or the
// shapes differ.
func (tp *Tape) Stack(axis int, xs ...*Tensor) *Tensor {
	if len(xs) == 0 {
		panicf(ErrShape, "Stack of no tensors")
	}
	ref := xs[0].shape
	ax := axisIndex("Stack", axis, len(ref)+1)
	for _, x := range xs {
		if !sameShape(x.shape, ref) {
			panicf(ErrShape, "Stack of %v and %v", ref, x.shape)
		}
	}
	n := tp.newListNode(joinBack, xs)
	n.out.shape = append(append(n.out.shape[:0], ref[:ax]...), len(xs))
	n.out.shape = append(n.out.shape, ref[ax:]...)
	n.setShape(n.out.shape...)
	// Stacking is concatenation with each input seen as [outer, 1, inner].
	n.ints[0], n.ints[1] = numel(ref[:ax]), numel(ref[ax:])
	n.join(false)
	return &n.out
}

// join copies the inputs, each viewed as [outer, len/(outer·inner), inner],
// into the result side by side along the middle axis (or, for the backward
// pass, the result's gradient back into theirs).
func (n *node) join(backward bool) {
	outer, inner := n.ints[0], n.ints[1]
	total := len(n.out.data) / max(outer*inner, 1)
	start := 0
	for _, x := range n.list {
		w := len(x.data) / max(outer, 1)
		if outer*inner == 0 {
			w = 0
		}
		if !backward {
			for o := 0; o < outer; o++ {
				copy(n.out.data[o*total*inner+start*inner:], x.data[o*w:(o+1)*w])
			}
		} else if x.requiresGrad {
			dx, acc := gradInto(x)
			for o := 0; o < outer; o++ {
				off := o*total*inner + start*inner
				addTo(dx[o*w:(o+1)*w], n.out.grad[off:off+w], acc)
			}
		}
		start += w / max(inner, 1)
	}
}

func joinBack(n *node) { n.join(true) }
