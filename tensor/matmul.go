package tensor

import "github.com/gorl/gorl/tensor/internal/blas"

// MatMul returns the matrix product a·b of a [m, k] and b [k, n], shape
// [m, n], computed by the selected BLAS (see BLASName).
//
// MatMul panics with ErrShape unless a and b are matrices with matching inner
// dimensions.
func (tp *Tape) MatMul(a, b *Tensor) *Tensor {
	if len(a.shape) != 2 || len(b.shape) != 2 || a.shape[1] != b.shape[0] {
		panicf(ErrShape, "MatMul of %v and %v", a.shape, b.shape)
	}
	m, k, nn := a.shape[0], a.shape[1], b.shape[1]
	n := tp.newNode(matMulBack, a, b, nil)
	y := n.setShape(m, nn)
	blas.Gemm(false, false, m, nn, k, 1, a.data, k, b.data, nn, 0, y, nn)
	return &n.out
}

func matMulBack(n *node) {
	a, b, g := n.a, n.b, n.out.grad
	m, k, nn := a.shape[0], a.shape[1], b.shape[1]
	if a.requiresGrad { // da = g·bᵀ
		da, acc := gradInto(a)
		blas.Gemm(false, true, m, k, nn, 1, g, nn, b.data, nn, beta(acc), da, k)
	}
	if b.requiresGrad { // db = aᵀ·g
		db, acc := gradInto(b)
		blas.Gemm(true, false, k, nn, m, 1, a.data, k, g, nn, beta(acc), db, nn)
	}
}

// beta is the GEMM factor on the destination: 1 adds to a gradient already
// there, 0 overwrites.
func beta(acc bool) float32 {
	if acc {
		return 1
	}
	return 0
}

// Linear returns x·wᵀ + b, PyTorch's linear layer: x is [..., in], the weight
// w is [out, in] and the bias b is [out] or nil; the result is [..., out].
// The bias is written first and the product added to it in the same GEMM.
//
// Linear panics with ErrShape if the shapes do not fit.
func (tp *Tape) Linear(x, w, b *Tensor) *Tensor {
	if len(x.shape) == 0 || len(w.shape) != 2 || x.shape[len(x.shape)-1] != w.shape[1] ||
		b != nil && (len(b.shape) != 1 || b.shape[0] != w.shape[0]) {
		bs := []int(nil)
		if b != nil {
			bs = b.shape
		}
		panicf(ErrShape, "Linear of input %v, weight %v, bias %v", x.shape, w.shape, bs)
	}
	in, out := w.shape[1], w.shape[0]
	rows := numel(x.shape[:len(x.shape)-1])
	n := tp.newNode(linearBack, x, w, b)
	n.out.shape = append(append(n.out.shape[:0], x.shape[:len(x.shape)-1]...), out)
	y := n.setShape(n.out.shape...)
	if useLinearTiles(rows, out, in) {
		var bd []float32
		if b != nil {
			bd = b.data
		}
		linearTiles(n, x.data, w.data, bd, y, rows, in, out)
		return &n.out
	}
	var bt float32
	if b != nil {
		for r := 0; r < rows; r++ {
			copy(y[r*out:(r+1)*out], b.data)
		}
		bt = 1
	}
	blas.Gemm(false, true, rows, out, in, 1, x.data, in, w.data, in, bt, y, out)
	return &n.out
}

func linearBack(n *node) {
	x, w, b, g := n.a, n.b, n.c, n.out.grad
	in, out := w.shape[1], w.shape[0]
	rows := numel(x.shape[:len(x.shape)-1])
	if useLinearBatchTiles(rows, out, in) {
		var dx, dw []float32
		var accX, accW bool
		if x.requiresGrad {
			dx, accX = gradInto(x)
		}
		if w.requiresGrad {
			dw, accW = gradInto(w)
		}
		linearBackTiles(n, x.data, w.data, g, dx, dw, accX, accW, rows, in, out)
	} else {
		if x.requiresGrad { // dx = g·w
			dx, acc := gradInto(x)
			blas.Gemm(false, false, rows, in, out, 1, g, out, w.data, in, beta(acc), dx, in)
		}
		if w.requiresGrad { // dw = gᵀ·x
			dw, acc := gradInto(w)
			blas.Gemm(true, false, out, in, rows, 1, g, out, x.data, in, beta(acc), dw, in)
		}
	}
	if b != nil && b.requiresGrad { // db = column sums of g
		db, acc := gradInto(b)
		if !acc {
			clear(db)
		}
		for r := 0; r < rows; r++ {
			gr := g[r*out : (r+1)*out]
			db := db[:len(gr)]
			for j, v := range gr {
				db[j] += v
			}
		}
	}
}
