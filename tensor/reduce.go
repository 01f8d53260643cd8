package tensor

// reduceOp selects a reduction.
type reduceOp int

const (
	redSum reduceOp = iota
	redMean
	redMax
	redMin
)

var (
	reduceNames     = [...]string{"Sum", "Mean", "Max", "Min"}
	reduceAxisNames = [...]string{"SumAxis", "MeanAxis", "MaxAxis", "MinAxis"}
)

// Sum returns the sum of all elements as a scalar (shape []).
func (tp *Tape) Sum(x *Tensor) *Tensor { return tp.reduceAll(redSum, x) }

// Mean returns the mean of all elements as a scalar; NaN for an empty tensor.
func (tp *Tape) Mean(x *Tensor) *Tensor { return tp.reduceAll(redMean, x) }

// Max returns the largest element as a scalar; the gradient goes to its first
// occurrence. NaN propagates.
//
// Max and Min panic with ErrShape for an empty tensor.
func (tp *Tape) Max(x *Tensor) *Tensor { return tp.reduceAll(redMax, x) }

// Min returns the smallest element as a scalar (see Max).
func (tp *Tape) Min(x *Tensor) *Tensor { return tp.reduceAll(redMin, x) }

// SumAxis sums over one axis (negative counts from the end). With keepDim the
// axis stays with size 1, otherwise it is removed.
//
// SumAxis, MeanAxis, MaxAxis and MinAxis panic with ErrShape if axis is out of
// range.
func (tp *Tape) SumAxis(x *Tensor, axis int, keepDim bool) *Tensor {
	return tp.reduceAxis(redSum, x, axis, keepDim)
}

// MeanAxis averages over one axis (see SumAxis).
func (tp *Tape) MeanAxis(x *Tensor, axis int, keepDim bool) *Tensor {
	return tp.reduceAxis(redMean, x, axis, keepDim)
}

// MaxAxis takes the largest value along one axis (see SumAxis); the gradient
// goes to the first occurrence of each maximum, as PyTorch's max(dim) does.
// MaxAxis and MinAxis also panic with ErrShape if the axis is empty.
func (tp *Tape) MaxAxis(x *Tensor, axis int, keepDim bool) *Tensor {
	return tp.reduceAxis(redMax, x, axis, keepDim)
}

// MinAxis takes the smallest value along one axis (see MaxAxis).
func (tp *Tape) MinAxis(x *Tensor, axis int, keepDim bool) *Tensor {
	return tp.reduceAxis(redMin, x, axis, keepDim)
}

func (tp *Tape) reduceAll(op reduceOp, x *Tensor) *Tensor {
	n := tp.newNode(reduceBack, x, nil, nil)
	n.ints[0], n.ints[1], n.ints[2], n.ints[3] = int(op), 1, len(x.data), 1
	y := n.setShape()
	reduceForward(n, op, y, x.data, 1, len(x.data), 1)
	return &n.out
}

func (tp *Tape) reduceAxis(op reduceOp, x *Tensor, axis int, keepDim bool) *Tensor {
	ax := axisIndex(reduceAxisNames[op], axis, len(x.shape))
	outer, m, inner := split(x.shape, ax)
	n := tp.newNode(reduceBack, x, nil, nil)
	n.ints[0], n.ints[1], n.ints[2], n.ints[3] = int(op), outer, m, inner
	n.out.shape = append(n.out.shape[:0], x.shape[:ax]...)
	if keepDim {
		n.out.shape = append(n.out.shape, 1)
	}
	n.out.shape = append(n.out.shape, x.shape[ax+1:]...)
	y := n.setShape(n.out.shape...)
	reduceForward(n, op, y, x.data, outer, m, inner)
	return &n.out
}

// reduceForward reduces x, viewed as [outer, m, inner], over its middle
// dimension into y, [outer, inner]. For Max and Min it records the winning
// position of each output in n.idx.
func reduceForward(n *node, op reduceOp, y, x []float32, outer, m, inner int) {
	if (op == redMax || op == redMin) && m == 0 {
		panicf(ErrShape, "%s over an empty axis", reduceNames[op])
	}
	switch op {
	case redSum, redMean:
		if inner == 1 {
			// Contiguous runs (all elements, or the last axis).
			for o := range y {
				y[o] = sum(x[o*m : (o+1)*m])
			}
		} else {
			clear(y)
			for o := 0; o < outer; o++ {
				yo := y[o*inner : (o+1)*inner]
				for j := 0; j < m; j++ {
					xr := x[(o*m+j)*inner:]
					xr = xr[:len(yo)]
					for i, v := range xr {
						yo[i] += v
					}
				}
			}
		}
		if op == redMean {
			s := 1 / float32(m)
			for i := range y {
				y[i] *= s
			}
		}
	case redMax, redMin:
		n.idx = resize(n.idx, len(y))
		for o := 0; o < outer; o++ {
			for i := 0; i < inner; i++ {
				y[o*inner+i], n.idx[o*inner+i] = extreme(x[o*m*inner+i:], m, inner, op == redMin)
			}
		}
	}
}

func reduceBack(n *node) {
	op, outer, m, inner := reduceOp(n.ints[0]), n.ints[1], n.ints[2], n.ints[3]
	g := n.out.grad
	switch op {
	case redSum, redMean:
		dx, acc := gradInto(n.a)
		s := float32(1)
		if op == redMean {
			s = 1 / float32(m)
		}
		for o := 0; o < outer; o++ {
			gr := g[o*inner : (o+1)*inner]
			for j := 0; j < m; j++ {
				d := dx[(o*m+j)*inner:]
				d = d[:len(gr)]
				for i, gv := range gr {
					v := gv * s
					if acc {
						v += d[i]
					}
					d[i] = v
				}
			}
		}
	case redMax, redMin:
		dx := gradAdd(n.a)
		for o := 0; o < outer; o++ {
			for i := 0; i < inner; i++ {
				dx[(o*m+n.idx[o*inner+i])*inner+i] += g[o*inner+i]
			}
		}
	}
}

// ArgMaxTo writes into dst the index of the largest value along axis of x
// for every position of the other axes (the greedy action of each row of a
// Q-value table [batch, actions] along axis 1), and returns dst. Ties go to
// the first index; NaN counts as largest.
//
// ArgMaxTo panics with ErrShape if axis is out of range or empty, or if
// len(dst) is not the number of positions.
func ArgMaxTo(dst []int, x *Tensor, axis int) []int {
	ax := axisIndex("ArgMaxTo", axis, len(x.shape))
	outer, m, inner := split(x.shape, ax)
	if m == 0 || len(dst) != outer*inner {
		panicf(ErrShape, "ArgMaxTo: %d destinations for axis %d of shape %v", len(dst), axis, x.shape)
	}
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			_, dst[o*inner+i] = extreme(x.data[o*m*inner+i:], m, inner, false)
		}
	}
	return dst
}

// extreme returns the largest (smallest if least) of x[0], x[stride], …,
// x[(m−1)·stride] and the index of its first occurrence; a NaN wins.
func extreme(x []float32, m, stride int, least bool) (float32, int) {
	best, arg := x[0], 0
	for j := 1; j < m; j++ {
		v := x[j*stride]
		better := v > best
		if least {
			better = v < best
		}
		if (better || v != v) && best == best {
			best, arg = v, j
		}
	}
	return best, arg
}

// sum adds x in four interleaved partial sums: a single running sum waits
// for each addition to finish (four cycles) before the next, and four sums
// also round less on long inputs.
func sum(x []float32) float32 {
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i]
		s1 += x[i+1]
		s2 += x[i+2]
		s3 += x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i]
	}
	return (s0 + s1) + (s2 + s3)
}
