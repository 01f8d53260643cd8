package tensor

import "math"

// LogSumExp returns log Σ exp(x) along axis (negative counts from the end),
// computed stably by subtracting each slice's maximum; with keepDim the axis
// stays with size 1, otherwise it is removed. Its gradient is the softmax of
// x along axis times the incoming gradient.
//
// LogSumExp panics with ErrShape if axis is out of range or empty.
func (tp *Tape) LogSumExp(x *Tensor, axis int, keepDim bool) *Tensor {
	ax := axisIndex("LogSumExp", axis, len(x.shape))
	outer, m, inner := split(x.shape, ax)
	if m == 0 {
		panicf(ErrShape, "LogSumExp over an empty axis")
	}
	n := tp.newNode(logSumExpBack, x, nil, nil)
	n.ints[0], n.ints[1], n.ints[2] = outer, m, inner
	n.out.shape = append(n.out.shape[:0], x.shape[:ax]...)
	if keepDim {
		n.out.shape = append(n.out.shape, 1)
	}
	n.out.shape = append(n.out.shape, x.shape[ax+1:]...)
	y := n.setShape(n.out.shape...)
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			xs := x.data[o*m*inner+i:]
			mx, _ := extreme(xs, m, inner, false)
			var s float64
			for j := 0; j < m; j++ {
				s += math.Exp(float64(xs[j*inner] - mx))
			}
			y[o*inner+i] = mx + float32(math.Log(s))
		}
	}
	return &n.out
}

// logSumExpBack: ∂/∂xⱼ log Σ exp(x) = exp(xⱼ − y).
func logSumExpBack(n *node) {
	outer, m, inner := n.ints[0], n.ints[1], n.ints[2]
	x, y, g := n.a.data, n.out.data, n.out.grad
	dx, acc := gradInto(n.a)
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			k := o*inner + i
			for j := 0; j < m; j++ {
				p := (o*m+j)*inner + i
				v := g[k] * float32(math.Exp(float64(x[p]-y[k])))
				if acc {
					v += dx[p]
				}
				dx[p] = v
			}
		}
	}
}
