package tensor

import "github.com/gorl/gorl/tensor/internal/blas"

// Conv2d returns the 2-D cross-correlation of x [N, C, H, W] with the filters
// w [OC, C, KH, KW] plus the bias b [OC] (or nil), PyTorch's conv2d with the
// same stride and zero padding on both spatial axes. The result is
// [N, OC, OH, OW] with OH = (H + 2·padding − KH)/stride + 1 (rounded down) and
// likewise OW.
//
// It is computed as one matrix product over the whole batch: the input
// patches are unrolled (im2col) into a [C·KH·KW, N·OH·OW] matrix kept for the
// backward pass, whose two products (filters and input) are GEMMs too.
//
// Conv2d panics with ErrArg if stride < 1 or padding < 0, and with ErrShape if
// the shapes do not fit or the output would be empty.
func (tp *Tape) Conv2d(x, w, b *Tensor, stride, padding int) *Tensor {
	if stride < 1 || padding < 0 {
		panicf(ErrArg, "Conv2d stride %d, padding %d", stride, padding)
	}
	if len(x.shape) != 4 || len(w.shape) != 4 || x.shape[1] != w.shape[1] ||
		b != nil && (len(b.shape) != 1 || b.shape[0] != w.shape[0]) {
		bs := []int(nil)
		if b != nil {
			bs = b.shape
		}
		panicf(ErrShape, "Conv2d of input %v, filters %v, bias %v", x.shape, w.shape, bs)
	}
	g := convGeom(x.shape, w.shape, stride, padding)
	if g.oh < 1 || g.ow < 1 {
		panicf(ErrShape, "Conv2d of input %v with filters %v, stride %d, padding %d: empty output", x.shape, w.shape, stride, padding)
	}
	n := tp.newNode(conv2dBack, x, w, b)
	n.ints = [6]int{stride, padding}
	y := n.setShape(g.n, g.oc, g.oh, g.ow)
	np := g.n * g.oh * g.ow
	n.aux[0] = resize(n.aux[0], g.k*np)  // the unrolled input, kept for backward
	n.aux[1] = resize(n.aux[1], g.oc*np) // the product, [OC, N·P]
	g.im2col(n.aux[0], x.data)
	blas.Gemm(false, false, g.oc, np, g.k, 1, w.data, g.k, n.aux[0], np, 0, n.aux[1], np)
	// Reorder [OC, N, P] to [N, OC, P], adding the bias.
	p := g.oh * g.ow
	for i := 0; i < g.n; i++ {
		for o := 0; o < g.oc; o++ {
			dst, src := y[(i*g.oc+o)*p:(i*g.oc+o+1)*p], n.aux[1][o*np+i*p:]
			src = src[:len(dst)]
			var bv float32
			if b != nil {
				bv = b.data[o]
			}
			for j, v := range src {
				dst[j] = v + bv
			}
		}
	}
	return &n.out
}

// geom holds the sizes of a convolution.
type geom struct {
	n, c, h, w      int // input
	oc, kh, kw      int // filters
	oh, ow          int // output
	k               int // C·KH·KW, the length of an unrolled patch
	stride, padding int
}

func convGeom(xs, ws []int, stride, padding int) geom {
	g := geom{n: xs[0], c: xs[1], h: xs[2], w: xs[3], oc: ws[0], kh: ws[2], kw: ws[3], stride: stride, padding: padding}
	g.oh = (g.h+2*padding-g.kh)/stride + 1
	g.ow = (g.w+2*padding-g.kw)/stride + 1
	if g.h+2*padding < g.kh || g.w+2*padding < g.kw {
		g.oh, g.ow = 0, 0
	}
	g.k = g.c * g.kh * g.kw
	return g
}

// span returns the range [lo, hi) of output positions along an axis of input
// size size whose input coordinate o·stride − padding + kk lies inside it.
func (g *geom) span(kk, size, out int) (lo, hi int) {
	off := kk - g.padding // input coordinate of output 0
	lo = 0
	if off < 0 {
		lo = (-off + g.stride - 1) / g.stride
	}
	hi = out
	if last := (size - 1 - off); last < 0 {
		hi = 0
	} else {
		hi = min(out, last/g.stride+1)
	}
	return min(lo, hi), hi
}

// im2col unrolls x into cols, [C·KH·KW, N·OH·OW]: row (c, i, j) holds, for
// every sample and output position, the input value under filter tap (i, j)
// of channel c, or 0 in the padding.
func (g *geom) im2col(cols, x []float32) {
	g.walk(cols, x, false)
}

// col2im adds the unrolled gradient cols back onto the input gradient dx,
// the adjoint of im2col.
func (g *geom) col2im(dx, cols []float32) {
	g.walk(cols, dx, true)
}

// walk moves values between the unrolled matrix and the image: from x into
// cols (im2col) or, when add, from cols added into x (col2im).
func (g *geom) walk(cols, x []float32, add bool) {
	p := g.oh * g.ow
	np := g.n * p
	s := g.stride
	for c := 0; c < g.c; c++ {
		for i := 0; i < g.kh; i++ {
			hlo, hhi := g.span(i, g.h, g.oh)
			for j := 0; j < g.kw; j++ {
				wlo, whi := g.span(j, g.w, g.ow)
				row := cols[((c*g.kh+i)*g.kw+j)*np:][:np]
				for smp := 0; smp < g.n; smp++ {
					img := x[(smp*g.c+c)*g.h*g.w:][:g.h*g.w]
					for oy := 0; oy < g.oh; oy++ {
						dst := row[smp*p+oy*g.ow:][:g.ow]
						if oy < hlo || oy >= hhi {
							if !add {
								clear(dst)
							}
							continue
						}
						iy := oy*s - g.padding + i
						src := img[iy*g.w:][:g.w]
						ix := wlo*s - g.padding + j
						if add {
							for ox := wlo; ox < whi; ox++ {
								src[ix] += dst[ox]
								ix += s
							}
							continue
						}
						clear(dst[:wlo])
						for ox := wlo; ox < whi; ox++ {
							dst[ox] = src[ix]
							ix += s
						}
						clear(dst[whi:])
					}
				}
			}
		}
	}
}

func conv2dBack(n *node) {
	x, w, b := n.a, n.b, n.c
	g := convGeom(x.shape, w.shape, n.ints[0], n.ints[1])
	p := g.oh * g.ow
	np := g.n * p
	// Reorder the result's gradient [N, OC, P] to [OC, N·P], reusing the
	// forward product's memory.
	gt := n.aux[1]
	for i := 0; i < g.n; i++ {
		for o := 0; o < g.oc; o++ {
			copy(gt[o*np+i*p:o*np+(i+1)*p], n.out.grad[(i*g.oc+o)*p:])
		}
	}
	if b != nil && b.requiresGrad {
		db, acc := gradInto(b)
		for o := 0; o < g.oc; o++ {
			var s float32
			for _, v := range gt[o*np : (o+1)*np] {
				s += v
			}
			if acc {
				s += db[o]
			}
			db[o] = s
		}
	}
	if w.requiresGrad { // dW = gt·colsᵀ
		dw, acc := gradInto(w)
		blas.Gemm(false, true, g.oc, g.k, np, 1, gt, np, n.aux[0], np, beta(acc), dw, g.k)
	}
	if x.requiresGrad { // dcols = Wᵀ·gt, then folded back onto the image
		n.aux[2] = resize(n.aux[2], g.k*np)
		blas.Gemm(true, false, g.k, np, g.oc, 1, w.data, g.k, gt, np, 0, n.aux[2], np)
		g.col2im(gradAdd(x), n.aux[2])
	}
}
