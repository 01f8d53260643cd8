package tensor

import "math"

// reluGo writes max(x, 0) into y (len(x) ≥ len(y)): NaN stays NaN and −0
// becomes +0, as PyTorch's relu. Go's float max compiles to a branch-free
// sequence.
func reluGo(y, x []float32) {
	x = x[:len(y)]
	for i, v := range x {
		y[i] = max(v, 0)
	}
}

// reluBackGo writes (or, with acc, adds) into dst the gradient g where the
// ReLU result y is not zero (positive or NaN, PyTorch's threshold_backward)
// and 0 where it is. It selects with a bit mask: ReLU masks are random, and a
// mispredicted branch per element cost three times the rest of the pass.
func reluBackGo(dst, g, y []float32, acc bool) {
	dst, y = dst[:len(g)], y[:len(g)]
	for i, gv := range g {
		b := math.Float32bits(y[i])
		m := -((b | -b) >> 31) // all ones unless y is +0
		v := math.Float32frombits(math.Float32bits(gv) & m)
		if acc {
			v += dst[i]
		}
		dst[i] = v
	}
}
