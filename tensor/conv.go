package tensor

import (
	"github.com/gorl/gorl/internal/par"
	"github.com/gorl/gorl/tensor/internal/blas"
)

// Conv2d returns the 2-D cross-correlation of x [N, C, H, W] with the filters
// w [OC, C, KH, KW] plus the bias b [OC] (or nil), PyTorch's conv2d with the
// same stride and zero padding on both spatial axes. The result is
// [N, OC, OH, OW] with OH = (H + 2·padding − KH)/stride + 1 (rounded down) and
// likewise OW.
//
// The input patches are unrolled (im2col) into a [N·OH·OW, C·KH·KW] matrix,
// kept for the backward pass, and multiplied by the filters; the backward
// pass's two products (filters and input) are GEMMs too. Without a backward
// pass and without padding, the patches are read in the input itself. On
// amd64 with AVX2 the products run in the package's tile kernels. The work
// is cut, by the shapes alone, into ranges of rows, samples and tiles that
// the worker pool (see Workers) computes; the filter gradients of sample
// groups are summed in group order.
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
	// Without a backward pass, a convolution without padding whose filters
	// fit the tile kernels reads its patches in the image itself.
	direct := n.back == nil && g.padding == 0 && g.oc%16 == 0 && haveTileKernel
	if !direct {
		n.aux[0] = resize(n.aux[0], np*g.k) // the unrolled input, kept for backward
	}
	n.aux[1] = resize(n.aux[1], np*g.oc) // the product, [N·P, OC]
	t := convTasks.Get()
	*t = convTask{g: g, x: x.data, w: w.data, y: y, cols: n.aux[0], prod: n.aux[1], runs: n.idx}
	if b != nil {
		t.b = b.data
	}
	if useTiles(g.oc) {
		// The filters transposed, [C·KH·KW, OC], for tileGemm; aux[2] is
		// the backward pass's scratch afterwards.
		n.aux[2] = resize(n.aux[2], g.k*g.oc)
		t.wt = n.aux[2]
		transpose(t.wt, g.oc, w.data, g.k, g.oc, g.k, nil)
	}
	t.direct = direct
	t.rows = rowsPerTask(np, np*g.k*g.oc)
	t.phase = convForward
	par.Run(ceilDiv(np, t.rows), par.Workers(), t)
	t.release()
	return &n.out
}

// The phases of a convTask.
const (
	convForward = iota // unroll, multiply and reorder a range of rows
	convBackX          // reorder the result gradient, or a group's input gradient
	convBackW          // a tile of a sample group's filter gradient
	convSum            // sum the groups' filter gradients over a range
)

// convTask is one phase of a convolution, split for the worker pool. Every
// task writes only its own rows, samples or tile, or its own part of a sum,
// and the split depends on the shapes alone: the result does not depend on
// the number of workers.
type convTask struct {
	g                   geom
	phase               int
	rows                int // forward: rows of the product per task
	xper, xTasks        int // backward: samples per input-gradient task, and tasks
	rper, rTasks        int // backward: samples per reorder task, and tasks
	per, groups         int // backward: samples per filter-gradient group, and groups
	kTile, kTiles       int // backward: rows of dWᵀ (columns of dW) per tile, and tiles
	x, w, b, y          []float32
	cols, prod          []float32
	runs                []int
	gy, gt, dx, scratch []float32
	dw, parts           []float32 // the filter gradient and the groups' partial sums
	wt                  []float32 // the filters transposed for tileGemm, or nil
	sums                []float32 // the result gradient's sums per sample and channel, or nil
	acc, wantW, wantX   bool
	accX                bool // dx holds a gradient to add to
	tilesW              bool // the groups' filter gradients come from tileGemm, transposed
	direct              bool // the forward product reads the image by convTiles
	sumSize, sumTasks   int  // the chunks of convSum
}

var convTasks par.Free[convTask]

// convGrain is the fewest multiply-adds a task of a convolution gets (but
// for a single task), and convMaxTasks the most tasks of one phase. Rows,
// samples and tiles are cut finely enough for 16 workers at the Nature
// CNN's sizes; the pieces are multiples of the tile kernels' 6 rows, and
// cutting costs one worker nothing but the hand-offs.
const (
	convGrain    = 1 << 21
	convMaxTasks = 64
)

// rowsPerTask returns the rows of the forward product per task: work
// multiply-adds over rows rows in at most convMaxTasks pieces of at least
// convGrain, a multiple of 6.
func rowsPerTask(rows, work int) int {
	tasks := max(1, min(convMaxTasks, work/convGrain))
	per := ceilDiv(ceilDiv(rows, tasks), 6) * 6
	return min(per, rows)
}

// planBack cuts the backward pass: the filter gradient into a power of two
// of sample groups of at least convTile multiply-adds (two from twice
// blas.ParTile), each into tiles of dWᵀ's rows; the input gradient into
// groups of samples of at least convGrain; the reorder into at most 16
// tasks of at least elemGrain values of the result gradient.
func (t *convTask) planBack() {
	g := &t.g
	p := g.oh * g.ow
	work := g.n * p * g.k * g.oc // each product's multiply-adds
	groups := 1
	for groups*2 <= g.n && groups*2*convTile <= work && groups < 64 {
		groups *= 2
	}
	if groups == 1 && g.n >= 2 && work >= 2*blas.ParTile {
		groups = 2
	}
	t.per = ceilDiv(g.n, groups)
	t.groups = ceilDiv(g.n, t.per)
	t.kTile, t.kTiles = g.k, 1
	if t.tilesW {
		want := max(1, min(16, work/t.groups/convGrain))
		t.kTile = min(g.k, ceilDiv(ceilDiv(g.k, want), 24)*24)
		t.kTiles = ceilDiv(g.k, t.kTile)
	}
	t.xper = max(1, convGrain/max(1, p*g.k*g.oc))
	t.xTasks = ceilDiv(g.n, t.xper)
	t.rper = ceilDiv(g.n, max(1, min(16, g.n*p*g.oc/elemGrain)))
	t.rTasks = ceilDiv(g.n, t.rper)
}

// convTile is the work a filter-gradient group of samples gets at least,
// but for two groups.
const convTile = 1 << 24

func (t *convTask) release() {
	*t = convTask{}
	convTasks.Put(t)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

func (t *convTask) Task(i, w int) {
	g := &t.g
	p := g.oh * g.ow
	switch t.phase {
	case convSum:
		t.sum(i)
	case convForward:
		r0 := i * t.rows
		r1 := min(r0+t.rows, g.n*p)
		if t.direct {
			g.convTiles(t.prod[r0*g.oc:], t.x, t.wt, t.runs, r0, r1)
			t.reorder(r0, r1)
			return
		}
		g.unroll(t.cols[r0*g.k:], t.x, t.runs, r0, r1, false)
		if t.wt != nil {
			tileGemm(r1-r0, g.oc, g.k, t.cols[r0*g.k:], g.k, 1, t.wt, g.oc, t.prod[r0*g.oc:], g.oc)
		} else {
			blas.Gemm1(false, true, r1-r0, g.oc, g.k, 1, t.cols[r0*g.k:], g.k, t.w, g.k, 0, t.prod[r0*g.oc:], g.oc)
		}
		t.reorder(r0, r1)
	case convBackX:
		if i < t.rTasks {
			s0, s1 := i*t.rper, min((i+1)*t.rper, g.n)
			if t.wantW {
				t.reorderGrad(s0, s1)
			}
			if t.sums != nil {
				for j := s0 * g.oc; j < s1*g.oc; j++ {
					t.sums[j] = sum(t.gy[j*p : (j+1)*p])
				}
			}
			return
		}
		i -= t.rTasks
		// dcols = gt·W for the group's samples, read from the result's
		// gradient [N, OC, P] in place and folded back onto each image
		// while it is in the cache.
		d := t.scratch[w*p*g.k : (w+1)*p*g.k]
		for s := i * t.xper; s < min((i+1)*t.xper, g.n); s++ {
			if !t.accX {
				clear(t.dx[s*g.c*g.h*g.w : (s+1)*g.c*g.h*g.w])
			}
			gy := t.gy[s*g.oc*p:]
			if useTiles(g.k) {
				tileGemm(p, g.k, g.oc, gy, 1, p, t.w, g.k, d, g.k)
			} else {
				blas.Gemm1(true, false, p, g.k, g.oc, 1, gy, p, t.w, g.k, 0, d, g.k)
			}
			g.unroll(d, t.dx, t.runs, s*p, (s+1)*p, true)
		}
	case convBackW:
		gi, ti := i/t.kTiles, i%t.kTiles
		r0, r1 := gi*t.per*p, min((gi+1)*t.per, g.n)*p
		gt := t.gt[r0*g.oc:]
		if t.tilesW { // rows l0 to l1−1 of the group's dWᵀ = colsᵀ·gt, [C·KH·KW, OC]
			l0 := ti * t.kTile
			l1 := min(l0+t.kTile, g.k)
			tileGemm(l1-l0, g.oc, r1-r0, t.cols[r0*g.k+l0:], 1, g.k, gt, g.oc, t.parts[gi*g.oc*g.k+l0*g.oc:], g.oc)
		} else if t.groups == 1 { // dW = gtᵀ·cols, into dW itself
			blas.Gemm1(true, false, g.oc, g.k, r1-r0, 1, gt, g.oc, t.cols[r0*g.k:], g.k, beta(t.acc), t.dw, g.k)
		} else {
			blas.Gemm1(true, false, g.oc, g.k, r1-r0, 1, gt, g.oc, t.cols[r0*g.k:], g.k, 0, t.parts[gi*g.oc*g.k:], g.k)
		}
	}
}

// sum adds chunk i of the groups' partial filter gradients into dW, group
// by group in order.
func (t *convTask) sum(i int) {
	lo := i * t.sumSize
	hi := min(lo+t.sumSize, len(t.dw))
	dw := t.dw[lo:hi]
	size := len(t.dw)
	if t.tilesW {
		t.sumT(dw, lo)
		return
	}
	for gi := 0; gi < t.groups; gi++ {
		part := t.parts[gi*size+lo : gi*size+hi]
		if gi == 0 && !t.acc {
			copy(dw, part)
			continue
		}
		for j, v := range part {
			dw[j] += v
		}
	}
}

// sumT is sum for partial gradients transposed, [C·KH·KW, OC]: dw holds
// the elements of dW from lo on.
func (t *convTask) sumT(dw []float32, lo int) {
	g := &t.g
	size := len(t.dw)
	for j := range dw {
		o, l := (lo+j)/g.k, (lo+j)%g.k
		v := t.parts[l*g.oc+o]
		for gi := 1; gi < t.groups; gi++ {
			v += t.parts[gi*size+l*g.oc+o]
		}
		if t.acc {
			dw[j] += v
		} else {
			dw[j] = v
		}
	}
}

// reorder moves rows r0 to r1−1 of the product [N·P, OC] into the result
// [N, OC, P], adding the bias.
func (t *convTask) reorder(r0, r1 int) {
	g := &t.g
	p := g.oh * g.ow
	for r := r0; r < r1; {
		i, q0 := r/p, r%p
		q1 := min(p, q0+r1-r)
		prod := t.prod[(i*p+q0)*g.oc : (i*p+q1)*g.oc]
		for o := 0; o < g.oc; o++ {
			dst := t.y[(i*g.oc+o)*p+q0 : (i*g.oc+o)*p+q1]
			var bv float32
			if t.b != nil {
				bv = t.b[o]
			}
			for j := range dst {
				dst[j] = prod[j*g.oc+o] + bv
			}
		}
		r += q1 - q0
	}
}

// reorderGrad moves samples s0 to s1−1 of the result's gradient [N, OC, P]
// into [N·P, OC], 32 positions at a time: the 32 rows written then stay in
// the L1 cache while every channel's values are stored into them.
func (t *convTask) reorderGrad(s0, s1 int) {
	g := &t.g
	p := g.oh * g.ow
	const tile = 32
	for i := s0; i < s1; i++ {
		src, dst := t.gy[i*p*g.oc:(i+1)*p*g.oc], t.gt[i*p*g.oc:(i+1)*p*g.oc]
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
	wantB := b != nil && b.requiresGrad
	if !w.requiresGrad && !x.requiresGrad && !wantB {
		return
	}
	// The result's gradient [N, OC, P] is reordered to [N·P, OC] (in the
	// forward product's memory), and its sums per sample and channel taken
	// for the bias, while the input gradient is computed sample group by
	// sample group; then each sample group's filter gradient is computed
	// tile by tile, and the groups' gradients are summed in group order.
	t := convTasks.Get()
	*t = convTask{g: g, w: w.data, cols: n.aux[0], gy: n.out.grad, gt: n.aux[1], runs: n.idx,
		wantW: w.requiresGrad, wantX: x.requiresGrad, tilesW: w.requiresGrad && useTiles(g.oc)}
	t.planBack()
	workers := par.Workers()
	// aux[2] holds the groups' partial filter gradients, the bias
	// gradient's sums per sample, then each worker's unrolled input
	// gradient of one sample.
	nParts, nSums, nScratch := 0, 0, 0
	if t.wantW {
		t.dw, t.acc = gradInto(w)
		if t.groups > 1 || t.tilesW {
			nParts = t.groups * len(t.dw)
		}
	}
	if wantB {
		nSums = g.n * g.oc
	}
	if !t.wantW && !wantB {
		t.rTasks = 0
	}
	if t.wantX {
		t.dx, t.accX = gradInto(x)
		nScratch = min(workers, t.rTasks+t.xTasks) * g.oh * g.ow * g.k
	} else {
		t.xTasks = 0
	}
	n.aux[2] = resize(n.aux[2], nParts+nSums+nScratch)
	t.parts, t.scratch = n.aux[2][:nParts], n.aux[2][nParts+nSums:]
	if wantB {
		t.sums = n.aux[2][nParts : nParts+nSums]
	}
	t.phase = convBackX
	par.Run(t.rTasks+t.xTasks, workers, t)
	if wantB { // db = the sums of the result gradient's rows, sample by sample
		db := gradAdd(b)
		for i := 0; i < g.n; i++ {
			for o, v := range t.sums[i*g.oc : (i+1)*g.oc] {
				db[o] += v
			}
		}
	}
	if t.wantW {
		t.phase = convBackW
		par.Run(t.groups*t.kTiles, workers, t)
		if t.groups > 1 || t.tilesW {
			t.sumTasks, t.sumSize = par.Chunks(len(t.dw), 1<<12, 64)
			t.phase = convSum
			par.Run(t.sumTasks, workers, t)
		}
	}
	t.release()
}
