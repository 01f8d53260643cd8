package tensor

import (
	"math"
	"math/rand/v2"
)

// Softmax returns exp(x)/Σexp(x) along axis (negative counts from the end),
// computed stably by subtracting each slice's maximum.
//
// Softmax and LogSoftmax panic with ErrShape if axis is out of range.
func (tp *Tape) Softmax(x *Tensor, axis int) *Tensor { return tp.softmax(x, axis, false) }

// LogSoftmax returns x − log Σexp(x) along axis, without forming the
// softmax's small values (see Softmax).
func (tp *Tape) LogSoftmax(x *Tensor, axis int) *Tensor { return tp.softmax(x, axis, true) }

func (tp *Tape) softmax(x *Tensor, axis int, log bool) *Tensor {
	ax := axisIndex("Softmax", axis, len(x.shape))
	outer, m, inner := split(x.shape, ax)
	n := tp.newNode(softmaxBack, x, nil, nil)
	n.ints[0], n.ints[1], n.ints[2] = outer, m, inner
	n.ints[3] = 0
	if log {
		n.ints[3] = 1
	}
	y := n.setShape(x.shape...)
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			base := o*m*inner + i
			softmaxSlice(y[base:], x.data[base:], m, inner, log)
		}
	}
	return &n.out
}

// softmaxSlice writes the (log-)softmax of x[0], x[stride], … x[(m−1)·stride]
// into the same positions of y.
func softmaxSlice(y, x []float32, m, stride int, log bool) {
	if m == 0 {
		return
	}
	mx, _ := extreme(x, m, stride, false)
	var s float64
	for j := 0; j < m; j++ {
		e := math.Exp(float64(x[j*stride] - mx))
		s += e
		if !log {
			y[j*stride] = float32(e)
		}
	}
	if log {
		ls := float32(math.Log(s))
		for j := 0; j < m; j++ {
			y[j*stride] = x[j*stride] - mx - ls
		}
		return
	}
	r := float32(1 / s)
	for j := 0; j < m; j++ {
		y[j*stride] *= r
	}
}

func softmaxBack(n *node) {
	outer, m, inner, log := n.ints[0], n.ints[1], n.ints[2], n.ints[3] == 1
	y, g := n.out.data, n.out.grad
	dx, acc := gradInto(n.a)
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			base := o*m*inner + i
			var s float32 // Σ g (log-softmax) or Σ g·y (softmax)
			for j := 0; j < m; j++ {
				k := base + j*inner
				if log {
					s += g[k]
				} else {
					s += g[k] * y[k]
				}
			}
			for j := 0; j < m; j++ {
				k := base + j*inner
				var v float32
				if log {
					v = g[k] - float32(math.Exp(float64(y[k])))*s
				} else {
					v = y[k] * (g[k] - s)
				}
				if acc {
					v += dx[k]
				}
				dx[k] = v
			}
		}
	}
}

// Gather picks one entry along axis for every position of the other axes:
// for a matrix x [B, A] and axis 1 the result is [B] with element i equal to
// x[i, index[i]] (Q(s, a) from a table of action values). The result has x's
// shape without axis, and index lists one entry per result element in
// row-major order.
//
// Gather panics with ErrShape if axis is out of range or len(index) is not the
// result's size, and with ErrIndex if an index is outside the axis.
func (tp *Tape) Gather(x *Tensor, axis int, index []int) *Tensor {
	ax := axisIndex("Gather", axis, len(x.shape))
	outer, m, inner := split(x.shape, ax)
	if len(index) != outer*inner {
		panicf(ErrShape, "Gather: %d indices for axis %d of %v", len(index), axis, x.shape)
	}
	for _, i := range index {
		if uint(i) >= uint(m) {
			panicf(ErrIndex, "Gather: index %d for axis %d of %v", i, axis, x.shape)
		}
	}
	n := tp.newNode(gatherBack, x, nil, nil)
	n.ints[0], n.ints[1], n.ints[2] = outer, m, inner
	n.idx = append(n.idx[:0], index...)
	n.out.shape = append(append(n.out.shape[:0], x.shape[:ax]...), x.shape[ax+1:]...)
	y := n.setShape(n.out.shape...)
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			y[o*inner+i] = x.data[(o*m+index[o*inner+i])*inner+i]
		}
	}
	return &n.out
}

func gatherBack(n *node) {
	outer, m, inner := n.ints[0], n.ints[1], n.ints[2]
	g := n.out.grad
	dx := gradAdd(n.a)
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			dx[(o*m+n.idx[o*inner+i])*inner+i] += g[o*inner+i]
		}
	}
}

// OneHot returns a [len(index), classes] tensor with a 1 at (i, index[i]) and
// 0 elsewhere. It never requires gradients.
//
// OneHot panics with ErrIndex if an index is outside [0, classes).
func (tp *Tape) OneHot(index []int, classes int) *Tensor {
	n := tp.newNode(nil, nil, nil, nil)
	y := n.setShape(len(index), classes)
	clear(y)
	for i, c := range index {
		if uint(c) >= uint(classes) {
			panicf(ErrIndex, "OneHot: index %d for %d classes", c, classes)
		}
		y[i*classes+c] = 1
	}
	return &n.out
}

// LayerNorm normalizes x over its last axis to zero mean and unit variance
// (biased variance, eps added to it, as PyTorch's layer_norm), then scales by
// gamma and shifts by beta, both [size of the last axis] or nil (1 and 0).
//
// LayerNorm panics with ErrShape if x is a scalar or gamma or beta has the
// wrong shape.
func (tp *Tape) LayerNorm(x, gamma, beta *Tensor, eps float32) *Tensor {
	if len(x.shape) == 0 {
		panicf(ErrShape, "LayerNorm of a scalar")
	}
	d := x.shape[len(x.shape)-1]
	for _, p := range [2]*Tensor{gamma, beta} {
		if p != nil && (len(p.shape) != 1 || p.shape[0] != d) {
			panicf(ErrShape, "LayerNorm of %v with parameter %v", x.shape, p.shape)
		}
	}
	rows := numel(x.shape[:len(x.shape)-1])
	n := tp.newNode(layerNormBack, x, gamma, beta)
	y := n.setShape(x.shape...)
	n.aux[0] = resize(n.aux[0], len(y)) // x̂
	n.aux[1] = resize(n.aux[1], rows)   // 1/σ per row
	for r := 0; r < rows; r++ {
		xr, hr, yr := x.data[r*d:(r+1)*d], n.aux[0][r*d:(r+1)*d], y[r*d:(r+1)*d]
		var mean, vr float64
		for _, v := range xr {
			mean += float64(v)
		}
		mean /= float64(d)
		for _, v := range xr {
			vr += (float64(v) - mean) * (float64(v) - mean)
		}
		rstd := 1 / math.Sqrt(vr/float64(d)+float64(eps))
		n.aux[1][r] = float32(rstd)
		for i, v := range xr {
			h := float32((float64(v) - mean) * rstd)
			hr[i] = h
			if gamma != nil {
				h *= gamma.data[i]
			}
			if beta != nil {
				h += beta.data[i]
			}
			yr[i] = h
		}
	}
	return &n.out
}

func layerNormBack(n *node) {
	x, gamma, beta, g := n.a, n.b, n.c, n.out.grad
	d := x.shape[len(x.shape)-1]
	rows := len(n.aux[1])
	if beta != nil && beta.requiresGrad {
		db := gradAdd(beta)
		for r := 0; r < rows; r++ {
			for i, v := range g[r*d : (r+1)*d] {
				db[i] += v
			}
		}
	}
	if gamma != nil && gamma.requiresGrad {
		dg := gradAdd(gamma)
		for r := 0; r < rows; r++ {
			hr := n.aux[0][r*d : (r+1)*d]
			for i, v := range g[r*d : (r+1)*d] {
				dg[i] += v * hr[i]
			}
		}
	}
	if !x.requiresGrad {
		return
	}
	// dx = (1/σ)·(ĝ − mean(ĝ) − x̂·mean(ĝ·x̂)) with ĝ = g·gamma.
	dx, acc := gradInto(x)
	for r := 0; r < rows; r++ {
		gr, hr, dr := g[r*d:(r+1)*d], n.aux[0][r*d:(r+1)*d], dx[r*d:(r+1)*d]
		var sg, sgh float32
		for i, v := range gr {
			if gamma != nil {
				v *= gamma.data[i]
			}
			sg += v
			sgh += v * hr[i]
		}
		sg /= float32(d)
		sgh /= float32(d)
		rstd := n.aux[1][r]
		for i, v := range gr {
			if gamma != nil {
				v *= gamma.data[i]
			}
			v = rstd * (v - sg - hr[i]*sgh)
			if acc {
				v += dr[i]
			}
			dr[i] = v
		}
	}
}

// Dropout zeroes each element with probability p, drawn from rng, and scales
// the others by 1/(1−p), so the expected value is unchanged (inverted
// dropout, as PyTorch in training mode). With p = 0 it returns x itself; with
// p = 1 the result is all zeros. Whether a model is in training mode is the
// caller's business: Dropout always drops.
//
// Dropout panics with ErrArg unless 0 ≤ p ≤ 1.
func (tp *Tape) Dropout(x *Tensor, p float32, rng *rand.Rand) *Tensor {
	if !(p >= 0 && p <= 1) {
		panicf(ErrArg, "Dropout probability %v", p)
	}
	if p == 0 {
		return x
	}
	n := tp.newNode(dropoutBack, x, nil, nil)
	y := n.setShape(x.shape...)
	n.aux[0] = resize(n.aux[0], len(y)) // the mask: 0 or 1/(1−p)
	keep := 1 / (1 - p)
	if p == 1 {
		keep = 0
	}
	for i, v := range x.data {
		s := keep
		if rng.Float32() < p {
			s = 0
		}
		n.aux[0][i] = s
		y[i] = v * s
	}
	return &n.out
}

func dropoutBack(n *node) {
	dx, acc := gradInto(n.a)
	mask := n.aux[0][:len(n.out.grad)]
	for i, gv := range n.out.grad {
		v := gv * mask[i]
		if acc {
			v += dx[i]
		}
		dx[i] = v
	}
}
