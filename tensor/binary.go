package tensor

// binaryOp selects an elementwise function of two broadcast tensors.
type binaryOp int

const (
	opAdd binaryOp = iota
	opSub
	opMul
	opDiv
	opMaximum
	opMinimum
)

var binaryNames = [...]string{"Add", "Sub", "Mul", "Div", "Maximum", "Minimum"}

// Add returns a + b elementwise, broadcasting a and b to a common shape by
// numpy's rules; the gradient of a broadcast operand is summed over the
// dimensions it was repeated along.
//
// Add, Sub, Mul, Div, Maximum and Minimum panic with ErrShape if the shapes do
// not broadcast.
func (tp *Tape) Add(a, b *Tensor) *Tensor { return tp.binary(opAdd, a, b) }

// Sub returns a − b elementwise with broadcasting (see Add).
func (tp *Tape) Sub(a, b *Tensor) *Tensor { return tp.binary(opSub, a, b) }

// Mul returns a·b elementwise with broadcasting (see Add).
func (tp *Tape) Mul(a, b *Tensor) *Tensor { return tp.binary(opMul, a, b) }

// Div returns a/b elementwise with broadcasting (see Add); division by zero
// gives ±Inf or NaN as in IEEE 754.
func (tp *Tape) Div(a, b *Tensor) *Tensor { return tp.binary(opDiv, a, b) }

// Maximum returns max(a, b) elementwise with broadcasting (see Add). Where a
// and b are equal the gradient is split evenly between them, as in PyTorch.
func (tp *Tape) Maximum(a, b *Tensor) *Tensor { return tp.binary(opMaximum, a, b) }

// Minimum returns min(a, b) elementwise with broadcasting (see Maximum).
func (tp *Tape) Minimum(a, b *Tensor) *Tensor { return tp.binary(opMinimum, a, b) }

func (tp *Tape) binary(op binaryOp, a, b *Tensor) *Tensor {
	n := tp.newNode(binaryBack, a, b, nil)
	n.ints[0] = int(op)
	n.out.shape = broadcastShape(n.out.shape[:0], binaryNames[op], a.shape, b.shape, nil)
	y := n.setShape(n.out.shape...)
	if sameShape(a.shape, b.shape) {
		binaryRow(op, y, a.data, 1, b.data, 1)
		return &n.out
	}
	p := newPlan(binaryNames[op], n.out.shape, a.shape, b.shape)
	l, sa, sb := p.rowLen(), p.inner(1), p.inner(2)
	p.each(func(off [4]int) {
		binaryRow(op, y[off[0]:off[0]+l], a.data[off[1]:], sa, b.data[off[2]:], sb)
	})
	return &n.out
}

// binaryRow computes y[i] = a[i·sa] op b[i·sb].
func binaryRow(op binaryOp, y, a []float32, sa int, b []float32, sb int) {
	if sa == 1 && sb == 1 {
		a, b = a[:len(y)], b[:len(y)]
		switch op {
		case opAdd:
			for i := range y {
				y[i] = a[i] + b[i]
			}
		case opSub:
			for i := range y {
				y[i] = a[i] - b[i]
			}
		case opMul:
			for i := range y {
				y[i] = a[i] * b[i]
			}
		case opDiv:
			for i := range y {
				y[i] = a[i] / b[i]
			}
		case opMaximum:
			for i := range y {
				y[i] = max(a[i], b[i])
			}
		case opMinimum:
			for i := range y {
				y[i] = min(a[i], b[i])
			}
		}
		return
	}
	ia, ib := 0, 0
	for i := range y {
		av, bv := a[ia], b[ib]
		ia += sa
		ib += sb
		switch op {
		case opAdd:
			y[i] = av + bv
		case opSub:
			y[i] = av - bv
		case opMul:
			y[i] = av * bv
		case opDiv:
			y[i] = av / bv
		case opMaximum:
			y[i] = max(av, bv)
		case opMinimum:
			y[i] = min(av, bv)
		}
	}
}

// binaryDeriv is ∂(a op b)/∂a (wrtB false) or ∂(a op b)/∂b (wrtB true).
func binaryDeriv(op binaryOp, wrtB bool, av, bv float32) float32 {
	switch op {
	case opAdd:
		return 1
	case opSub:
		if wrtB {
			return -1
		}
		return 1
	case opMul:
		if wrtB {
			return av
		}
		return bv
	case opDiv:
		if wrtB {
			return -av / (bv * bv)
		}
		return 1 / bv
	case opMaximum, opMinimum:
		if av == bv {
			return 0.5
		}
		first := av > bv // a is the maximum
		if op == opMinimum {
			first = !first
		}
		if first != wrtB {
			return 1
		}
		return 0
	}
	panic("unreachable")
}

func binaryBack(n *node) {
	op := binaryOp(n.ints[0])
	a, b, g := n.a, n.b, n.out.grad
	p := newPlan(binaryNames[op], n.out.shape, a.shape, b.shape)
	l, sa, sb := p.rowLen(), p.inner(1), p.inner(2)
	for _, wrtB := range [2]bool{false, true} {
		x, sx, k := a, sa, 1
		if wrtB {
			x, sx, k = b, sb, 2
		}
		if !x.requiresGrad {
			continue
		}
		dx := gradAdd(x)
		p.each(func(off [4]int) {
			gr := g[off[0] : off[0]+l]
			ia, ib, ix := off[1], off[2], off[k]
			if op == opAdd || op == opSub && !wrtB {
				// The derivative is 1: add the gradient row (summed when x
				// is broadcast along the row).
				if sx == 1 {
					d := dx[ix : ix+l]
					for i, gv := range gr {
						d[i] += gv
					}
				} else {
					var s float32
					for _, gv := range gr {
						s += gv
					}
					dx[ix] += s
				}
				return
			}
			for _, gv := range gr {
				dx[ix] += gv * binaryDeriv(op, wrtB, a.data[ia], b.data[ib])
				ia += sa
				ib += sb
				ix += sx
			}
		})
	}
}

// Where returns, elementwise, a where cond is nonzero and b elsewhere, with
// cond, a and b broadcast together (see Add). No gradient flows to cond.
//
// Where panics with ErrShape if the shapes do not broadcast.
func (tp *Tape) Where(cond, a, b *Tensor) *Tensor {
	n := tp.newNode(whereBack, a, b, cond)
	n.out.shape = broadcastShape(n.out.shape[:0], "Where", cond.shape, a.shape, b.shape)
	y := n.setShape(n.out.shape...)
	if n.out.requiresGrad && cond.requiresGrad && !a.requiresGrad && !b.requiresGrad {
		n.setBack(nil, false) // only cond requires gradients: none flow
	}
	p := newPlan("Where", n.out.shape, cond.shape, a.shape, b.shape)
	l, sc, sa, sb := p.rowLen(), p.inner(1), p.inner(2), p.inner(3)
	p.each(func(off [4]int) {
		ic, ia, ib := off[1], off[2], off[3]
		for i := range y[off[0] : off[0]+l] {
			v := b.data[ib]
			if cond.data[ic] != 0 {
				v = a.data[ia]
			}
			y[off[0]+i] = v
			ic += sc
			ia += sa
			ib += sb
		}
	})
	return &n.out
}

func whereBack(n *node) {
	cond, g := n.c, n.out.grad
	p := newPlan("Where", n.out.shape, cond.shape, n.a.shape, n.b.shape)
	l, sc := p.rowLen(), p.inner(1)
	for k, x := range [2]*Tensor{n.a, n.b} {
		if !x.requiresGrad {
			continue
		}
		dx, sx, pick := gradAdd(x), p.inner(2+k), k == 0
		p.each(func(off [4]int) {
			ic, ix := off[1], off[2+k]
			for _, gv := range g[off[0] : off[0]+l] {
				if (cond.data[ic] != 0) == pick {
					dx[ix] += gv
				}
				ic += sc
				ix += sx
			}
		})
	}
}
