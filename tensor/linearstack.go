package tensor

import "github.com/gorl/gorl/tensor/internal/blas"

// LinearStack evaluates N linear layers side by side, the same layer of the N
// members of an ensemble: member i computes xᵢ·wᵢᵀ + bᵢ with the weight wᵢ
// [out, in] and the bias bᵢ [out] (bs nil for no biases). The result is
// [B, N, out], member i's output at [:, i, :].
//
// The input x is either [B, in], read by every member, or [B, N, in], member
// i reading [:, i, :] (the result of an earlier LinearStack). A shared input
// is multiplied by the members' weights joined into one [N·out, in] matrix in
// a single GEMM; separate inputs take one GEMM per member.
//
// LinearStack panics with ErrShape if ws is empty, the weights differ in
// shape, a bias is not [out], or x does not fit.
func (tp *Tape) LinearStack(x *Tensor, ws, bs []*Tensor) *Tensor {
	if len(ws) == 0 || len(ws[0].shape) != 2 || bs != nil && len(bs) != len(ws) {
		panicf(ErrShape, "LinearStack of %d weights and %d biases", len(ws), len(bs))
	}
	nm, out, in := len(ws), ws[0].shape[0], ws[0].shape[1]
	for i, w := range ws {
		if !sameShape(w.shape, ws[0].shape) || bs != nil && (len(bs[i].shape) != 1 || bs[i].shape[0] != out) {
			panicf(ErrShape, "LinearStack member %d: weight %v, want [%d %d]", i, w.shape, out, in)
		}
	}
	shared := len(x.shape) == 2 && x.shape[1] == in
	if !shared && (len(x.shape) != 3 || x.shape[1] != nm || x.shape[2] != in) {
		panicf(ErrShape, "LinearStack of input %v and %d weights %v", x.shape, nm, ws[0].shape)
	}
	rows := x.shape[0]
	n := tp.newNode(nil, x, nil, nil)
	req := x.requiresGrad
	n.list = append(n.list[:0], ws...)
	if bs != nil {
		n.list = append(n.list, bs...)
	}
	for _, t := range n.list {
		tp.check(t)
		req = req || t.requiresGrad
	}
	n.setBack(linearStackBack, req && tp.GradEnabled())
	n.ints[0], n.ints[1], n.ints[2], n.ints[3] = nm, out, in, rows
	n.ints[4] = 0
	if bs != nil {
		n.ints[4] = 1
	}
	y := n.setShape(rows, nm, out)
	var bt float32
	if bs != nil {
		for r := range rows {
			for i, b := range bs {
				copy(y[(r*nm+i)*out:(r*nm+i+1)*out], b.data)
			}
		}
		bt = 1
	}
	if shared {
		wc := resize(n.aux[0], nm*out*in)
		n.aux[0] = wc
		for i, w := range ws {
			copy(wc[i*out*in:], w.data)
		}
		blas.Gemm(false, true, rows, nm*out, in, 1, x.data, in, wc, in, bt, y, nm*out)
		return &n.out
	}
	for i, w := range ws {
		blas.Gemm(false, true, rows, out, in, 1, x.data[i*in:], nm*in, w.data, in, bt, y[i*out:], nm*out)
	}
	return &n.out
}

func linearStackBack(n *node) {
	x, g := n.a, n.out.grad
	nm, out, in, rows := n.ints[0], n.ints[1], n.ints[2], n.ints[3]
	ws := n.list[:nm]
	shared := len(x.shape) == 2
	if x.requiresGrad {
		dx, acc := gradInto(x)
		if shared { // dx = g·W, W the joined weights
			blas.Gemm(false, false, rows, in, nm*out, 1, g, nm*out, n.aux[0], in, beta(acc), dx, in)
		} else { // dxᵢ = gᵢ·wᵢ
			for i, w := range ws {
				blas.Gemm(false, false, rows, in, out, 1, g[i*out:], nm*out, w.data, in, beta(acc), dx[i*in:], nm*in)
			}
		}
	}
	for i, w := range ws { // dwᵢ = gᵢᵀ·xᵢ
		if !w.requiresGrad {
			continue
		}
		dw, acc := gradInto(w)
		xi, ld := x.data, in
		if !shared {
			xi, ld = x.data[i*in:], nm*in
		}
		blas.Gemm(true, false, out, in, rows, 1, g[i*out:], nm*out, xi, ld, beta(acc), dw, in)
	}
	if n.ints[4] == 0 {
		return
	}
	for i, b := range n.list[nm:] { // dbᵢ = column sums of gᵢ
		if !b.requiresGrad {
			continue
		}
		db, acc := gradInto(b)
		if !acc {
			clear(db)
		}
		for r := range rows {
			gr := g[(r*nm+i)*out : (r*nm+i+1)*out]
			for j, v := range gr {
				db[j] += v
			}
		}
	}
}
