package tensor

import "github.com/gorl/gorl/tensor/internal/blas"

// Conv2d returns the 2-D cross-correlation of x [N, C, H, W] with the filters
// w [OC, C, KH, KW] plus the bias b [OC] (or nil), PyTorch's conv2d with the
// same stride and zero padding on both spatial axes. The result is
// [N, OC, OH, OW] with OH = (H + 2·padding − KH)/stride + 1 (rounded down) and
// likewise OW.
//
// It is computed as one matrix product over the whole batch: the input
// patches are unrolled (im2col) into a [N·OH·OW, C·KH·KW] matrix, kept for the
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
	n.idx = g.runs(n.idx)
	n.aux[0] = resize(n.aux[0], np*g.k)  // the unrolled input, kept for backward
	n.aux[1] = resize(n.aux[1], np*g.oc) // the product, [N·P, OC]
	g.unroll(n.aux[0], x.data, n.idx, 0, np, false)
	blas.Gemm(false, true, np, g.oc, g.k, 1, n.aux[0], g.k, w.data, g.k, 0, n.aux[1], g.oc)
	// Reorder [N, P, OC] to [N, OC, P], adding the bias.
	p := g.oh * g.ow
	for i := 0; i < g.n; i++ {
		prod := n.aux[1][i*p*g.oc : (i+1)*p*g.oc]
		for o := 0; o < g.oc; o++ {
			dst := y[(i*g.oc+o)*p : (i*g.oc+o+1)*p]
			var bv float32
			if b != nil {
				bv = b.data[o]
			}
			for j := range dst {
				dst[j] = prod[j*g.oc+o] + bv
			}
		}
	}
	return &n.out
}

// colBlock is the number of elements of the unrolled input's gradient
// computed and folded back at a time (512 KB).
const colBlock = 1 << 17

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
	if g.h+2*padding >= g.kh && g.w+2*padding >= g.kw {
		g.oh = (g.h+2*padding-g.kh)/stride + 1
		g.ow = (g.w+2*padding-g.kw)/stride + 1
	}
	g.k = g.c * g.kh * g.kw
	return g
}

// runs returns, in dst's memory, the offset within one input sample of each
// run of KW contiguous patch elements (channel c, filter row i), relative to
// the patch's top-left corner: C·KH offsets, in the order of the unrolled
// row.
func (g *geom) runs(dst []int) []int {
	dst = resize(dst, g.c*g.kh)
	for c := 0; c < g.c; c++ {
		for i := 0; i < g.kh; i++ {
			dst[c*g.kh+i] = (c*g.h + i) * g.w
		}
	}
	return dst
}

// unroll moves values between the image x [N, C, H, W] and rows r0 to r1−1
// of the unrolled matrix [N·OH·OW, C·KH·KW], held in cols from its first
// element: the row for sample s and output position (oy, ox) is the patch
// under the filter there (0 in the padding). It copies from x into cols
// (im2col) or, when add, adds cols onto x (col2im, the adjoint). runs are the
// patch's runs from runs.
func (g *geom) unroll(cols, x []float32, runs []int, r0, r1 int, add bool) {
	chw := g.c * g.h * g.w
	p := g.oh * g.ow
	for t := r0; t < r1; t++ {
		s, q := t/p, t%p
		iy, ix := q/g.ow*g.stride-g.padding, q%g.ow*g.stride-g.padding
		img := x[s*chw : (s+1)*chw]
		row := cols[(t-r0)*g.k : (t-r0+1)*g.k]
		if iy >= 0 && ix >= 0 && iy+g.kh <= g.h && ix+g.kw <= g.w {
			// The patch lies inside the image.
			if add {
				addRuns(img[iy*g.w+ix:], row, runs, g.kw)
			} else {
				copyRuns(row, img[iy*g.w+ix:], runs, g.kw)
			}
			continue
		}
		g.unrollBorder(row, img, iy, ix, add)
	}
}

// copyRuns copies, for each offset o in runs, the kw values from src[o] into
// the next kw places of row. The widths of common kernels (3, 4 and 8) are
// written out element by element: a loop over a few elements, a copy call
// or a copy through an array pointer (a memmove call) per run cost more than
// the moves themselves (see the package documentation).
func copyRuns(row, src []float32, runs []int, kw int) {
	row = row[:len(runs)*kw]
	switch kw {
	case 8:
		for r, o := range runs {
			s, d := src[o:o+8:o+8], row[r*8:r*8+8:r*8+8]
			d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7] = s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
		}
	case 4:
		for r, o := range runs {
			s, d := src[o:o+4:o+4], row[r*4:r*4+4:r*4+4]
			d[0], d[1], d[2], d[3] = s[0], s[1], s[2], s[3]
		}
	case 3:
		for r, o := range runs {
			s, d := src[o:o+3:o+3], row[r*3:r*3+3:r*3+3]
			d[0], d[1], d[2] = s[0], s[1], s[2]
		}
	default:
		for r, o := range runs {
			s, d := src[o:o+kw], row[r*kw:r*kw+kw]
			for j, v := range s {
				d[j] = v
			}
		}
	}
}

// addRuns is the adjoint of copyRuns: it adds the kw values of each run of
// row onto dst at the run's offset.
func addRuns(dst, row []float32, runs []int, kw int) {
	row = row[:len(runs)*kw]
	switch kw {
	case 8:
		for r, o := range runs {
			d, s := dst[o:o+8:o+8], row[r*8:r*8+8:r*8+8]
			d[0], d[1], d[2], d[3] = d[0]+s[0], d[1]+s[1], d[2]+s[2], d[3]+s[3]
			d[4], d[5], d[6], d[7] = d[4]+s[4], d[5]+s[5], d[6]+s[6], d[7]+s[7]
		}
	case 4:
		for r, o := range runs {
			d, s := dst[o:o+4:o+4], row[r*4:r*4+4:r*4+4]
			d[0], d[1], d[2], d[3] = d[0]+s[0], d[1]+s[1], d[2]+s[2], d[3]+s[3]
		}
	case 3:
		for r, o := range runs {
			d, s := dst[o:o+3:o+3], row[r*3:r*3+3:r*3+3]
			d[0], d[1], d[2] = d[0]+s[0], d[1]+s[1], d[2]+s[2]
		}
	default:
		for r, o := range runs {
			d, s := dst[o:o+kw], row[r*kw:r*kw+kw]
			for j, v := range s {
				d[j] += v
			}
		}
	}
}

// unrollBorder is unroll for one patch that overlaps the padding.
func (g *geom) unrollBorder(row, img []float32, iy, ix int, add bool) {
	e := 0
	for c := 0; c < g.c; c++ {
		for i := 0; i < g.kh; i++ {
			for j := 0; j < g.kw; j++ {
				y, x := iy+i, ix+j
				inside := y >= 0 && y < g.h && x >= 0 && x < g.w
				switch {
				case inside && add:
					img[(c*g.h+y)*g.w+x] += row[e]
				case inside:
					row[e] = img[(c*g.h+y)*g.w+x]
				case !add:
					row[e] = 0
				}
				e++
			}
		}
	}
}

func conv2dBack(n *node) {
	x, w, b := n.a, n.b, n.c
	g := convGeom(x.shape, w.shape, n.ints[0], n.ints[1])
	p := g.oh * g.ow
	np := g.n * p
	gy := n.out.grad
	if b != nil && b.requiresGrad { // db = sums of the result gradient's rows
		db := gradAdd(b)
		for i := 0; i < g.n; i++ {
			for o := 0; o < g.oc; o++ {
				db[o] += sum(gy[(i*g.oc+o)*p : (i*g.oc+o+1)*p])
			}
		}
	}
	// Reorder the result's gradient [N, OC, P] to [N·P, OC], in the forward
	// product's memory, 32 positions at a time: the 32 rows written then
	// stay in the L1 cache while every channel's values are stored into
	// them.
	gt := n.aux[1]
	if w.requiresGrad || x.requiresGrad {
		const tile = 32
		for i := 0; i < g.n; i++ {
			src, dst := gy[i*p*g.oc:(i+1)*p*g.oc], gt[i*p*g.oc:(i+1)*p*g.oc]
			for j0 := 0; j0 < p; j0 += tile {
				j1 := min(j0+tile, p)
				for o := 0; o < g.oc; o++ {
					d := dst[j0*g.oc+o:]
					for j, v := range src[o*p+j0 : o*p+j1] {
						d[j*g.oc] = v
					}
				}
			}
		}
	}
	if w.requiresGrad { // dW = gtᵀ·cols
		dw, acc := gradInto(w)
		blas.Gemm(true, false, g.oc, g.k, np, 1, gt, g.oc, n.aux[0], g.k, beta(acc), dw, g.k)
	}
	if x.requiresGrad {
		// dcols = gt·W, folded back onto the image block by block: a block
		// of rows stays in the cache between the product and the fold.
		dx := gradAdd(x)
		rows := max(1, colBlock/g.k)
		n.aux[2] = resize(n.aux[2], min(rows, np)*g.k)
		for r := 0; r < np; r += rows {
			r1 := min(r+rows, np)
			blas.Gemm(false, false, r1-r, g.k, g.oc, 1, gt[r*g.oc:], g.oc, w.data, g.k, 0, n.aux[2], g.k)
			g.unroll(n.aux[2], dx, n.idx, r, r1, true)
		}
	}
}
