package tensor

import (
	"github.com/gorl/gorl/internal/par"
	"github.com/gorl/gorl/tensor/internal/blas"
)

// Linear layers with few rows and a large weight (the Nature CNN's fc layer
// while acting or training) compute yᵀ = w·xᵀ with tileGemm: w's rows are
// read once, where they are, and xᵀ, copied into [in, R] with R the rows
// rounded up to 8 or a multiple of 16 (zeros beyond), stays in the cache.
// OpenBLAS packs the whole weight first, which took longer than the product.
//
// Layers with a batch of rows and a product below linearBatchWork (an MLP's
// training step, from 64 × 128 × 128 to 256 × 256 × 256 and beyond) take
// the same way, and their backward products, dx = g·w and dw = gᵀ·x, go
// to tileGemm as they are stored: OpenBLAS's kernels pack the operands of
// such small products first, and its Haswell kernels on a CPU with AVX-512
// took about three times as long (tensor package Decisions).
//
// Acting on a few envs at once (8 to 31 rows) takes the first way from a
// smaller weight, when the inputs are a multiple of 8: from 128 × 64 on,
// the tiles took less time than OpenBLAS (whose call through purego and
// packing of the weight cost more than such products); below 8 rows, or
// with 4 inputs, they took as long or longer (BENCHMARKS.md).
const (
	linearTileRows   = 32      // the most rows
	linearTileWeight = 1 << 18 // the fewest weights
	linearActRows    = 8       // the fewest rows for linearActWeight
	linearActWeight  = 1 << 13 // the fewest weights with 8 rows or more, inputs a multiple of 8
	linearBatchRows  = 32      // the fewest rows of a batch product
)

// useLinearTiles tells whether Linear with rows rows and a weight [out, in]
// goes through linearTiles.
func useLinearTiles(rows, out, in int) bool {
	return haveTileKernel && rows <= linearTileRows &&
		(out*in >= linearTileWeight || rows >= linearActRows && in%8 == 0 && out*in >= linearActWeight) ||
		useLinearBatchTiles(rows, out, in)
}

// useLinearBatchTiles tells whether Linear with rows rows and a weight
// [out, in] is a batch product whose forward goes through linearTiles and
// whose backward products go through linearBackTiles. Those are stored
// with in contiguous values per row, which tileGemm needs a multiple of 8
// of; with fewer inputs the products are too short for the tiles to pay.
func useLinearBatchTiles(rows, out, in int) bool {
	return haveTileKernel && in%8 == 0 && rows >= linearBatchRows && rows*out*in < linearBatchWork
}

// linearBatchWork bounds the multiply-adds of the batch products that go
// to the tile kernels; products from blas.ParWork on are cut into tasks
// for the worker pool (linearTiles, linearBackTiles).
const linearBatchWork = 1 << 27

// linearTask computes y = x·wᵀ + b by linearTiles, in tasks of output
// columns fixed by the shapes.
type linearTask struct {
	w, xt, yt  []float32
	in, out, r int
	per        int // output columns (rows of w) per task
}

var linearTasks par.Free[linearTask]

// linearTiles computes y [rows, out] = x [rows, in]·wᵀ + b with n's aux[0]
// and aux[1] as scratch. The tasks compute yᵀ; its transposition adds the
// bias.
func linearTiles(n *node, x, w, b, y []float32, rows, in, out int) {
	r := 8
	if rows > 8 {
		r = ceilDiv(rows, 16) * 16
	}
	n.aux[0] = resize(n.aux[0], in*r)
	n.aux[1] = resize(n.aux[1], out*r)
	xt, yt := n.aux[0], n.aux[1]
	transpose(xt, r, x, in, rows, in, nil)
	if r > rows {
		for l := 0; l < in; l++ {
			clear(xt[l*r+rows : (l+1)*r])
		}
	}
	t := linearTasks.Get()
	*t = linearTask{w: w, xt: xt, yt: yt, in: in, out: out, r: r}
	tasks := 1
	if rows*in*out >= blas.ParWork {
		for tasks < 16 && 2*tasks*convGrain <= rows*in*out {
			tasks *= 2
		}
	}
	t.per = ceilDiv(out, tasks)
	par.Run(ceilDiv(out, t.per), par.Workers(), t)
	*t = linearTask{}
	linearTasks.Put(t)
	transpose(y, out, yt, r, out, rows, b)
}

// linearBackTiles computes Linear's backward products by tileGemm: dx
// (when not nil) = g·w and dw (when not nil) = gᵀ·x, adding to what they
// hold when accX or accW, through n's aux[2] (dx) and aux[1] (dw) as
// scratch. Products from blas.ParWork multiply-adds on are cut into tasks
// of rows of dx (and of its columns when it has few rows) and of rows of
// dw, fixed by the shapes, for the worker pool: each value is one tile
// product's, so the results do not depend on the workers.
func linearBackTiles(n *node, x, w, g, dx, dw []float32, accX, accW bool, rows, in, out int) {
	t := linearBackTasks.Get()
	*t = linearBackTask{x: x, w: w, g: g, rows: rows, in: in, out: out}
	tasks := 1
	if rows*in*out >= blas.ParWork {
		for tasks < 16 && 2*tasks*convGrain <= rows*in*out {
			tasks *= 2
		}
	}
	if dx != nil {
		t.dx = dx
		if accX {
			n.aux[2] = resize(n.aux[2], rows*in)
			t.dx = n.aux[2]
		}
		t.dxPer = ceilDiv(ceilDiv(rows, tasks), 6) * 6
		rowTasks := ceilDiv(rows, t.dxPer)
		// Few rows (the fc layer at batch 32): the columns are cut too, at
		// multiples of 32, so that each task runs the tiles the whole
		// product would run there.
		t.dxCols = in
		if rowTasks < tasks {
			t.dxCols = min(in, ceilDiv(ceilDiv(in, ceilDiv(tasks, rowTasks)), 32)*32)
		}
		t.dxColTasks = ceilDiv(in, t.dxCols)
		t.dxTasks = rowTasks * t.dxColTasks
	}
	dwTasks := 0
	if dw != nil {
		t.dw = dw
		if accW {
			n.aux[1] = resize(n.aux[1], out*in)
			t.dw = n.aux[1]
		}
		t.dwPer = ceilDiv(ceilDiv(out, tasks), 6) * 6
		dwTasks = ceilDiv(out, t.dwPer)
	}
	workers := par.Workers()
	if tasks == 1 { // dx and dw of a small product: a hand-off costs more than the product
		workers = 1
	}
	par.Run(t.dxTasks+dwTasks, workers, t)
	if accX {
		addTo(dx, t.dx, true)
	}
	if accW {
		addTo(dw, t.dw, true)
	}
	*t = linearBackTask{}
	linearBackTasks.Put(t)
}

// linearBackTask is linearBackTiles's products: tasks 0 to dxTasks−1 each
// compute dxPer rows and dxCols columns of dx, the others dwPer rows of dw.
type linearBackTask struct {
	x, w, g, dx, dw       []float32
	rows, in, out         int
	dxTasks, dxPer, dwPer int
	dxCols, dxColTasks    int
}

var linearBackTasks par.Free[linearBackTask]

func (t *linearBackTask) Task(i, _ int) {
	if i < t.dxTasks {
		ri, ci := i/t.dxColTasks, i%t.dxColTasks
		r0, r1 := ri*t.dxPer, min((ri+1)*t.dxPer, t.rows)
		c0, c1 := ci*t.dxCols, min((ci+1)*t.dxCols, t.in)
		tileGemm(r1-r0, c1-c0, t.out, t.g[r0*t.out:], t.out, 1, t.w[c0:], t.in, t.dx[r0*t.in+c0:], t.in)
		return
	}
	i -= t.dxTasks
	o0, o1 := i*t.dwPer, min((i+1)*t.dwPer, t.out)
	tileGemm(o1-o0, t.in, t.rows, t.g[o0:], 1, t.out, t.x, t.in, t.dw[o0*t.in:], t.in)
}

func (t *linearTask) Task(i, _ int) {
	o0, o1 := i*t.per, min((i+1)*t.per, t.out)
	tileGemm(o1-o0, t.r, t.in, t.w[o0*t.in:], t.in, 1, t.xt, t.r, t.yt[o0*t.r:], t.r)
}

// transpose writes the transpose of src [rows, cols] (row stride lds) into
// dst [cols, rows] (row stride ldd), adding bias[i] to the values of src's
// row i when bias is not nil: 8 × 8 blocks by transpose8x8 where the CPU
// has the tile kernels, the edges and other CPUs value by value, in blocks
// of 16 × 16 so that both sides stay in the cache.
//
// It panics if a slice is too short for its dimensions.
func transpose(dst []float32, ldd int, src []float32, lds int, rows, cols int, bias []float32) {
	if rows == 0 || cols == 0 {
		return
	}
	_, _ = dst[(cols-1)*ldd+rows-1], src[(rows-1)*lds+cols-1]
	if bias != nil {
		bias = bias[:rows]
	}
	r8, c8 := 0, 0
	if haveTileKernel {
		r8, c8 = rows&^7, cols&^7
		for i := 0; i < r8; i += 8 {
			var b *float32
			if bias != nil {
				b = &bias[i]
			}
			for j := 0; j < c8; j += 8 {
				transpose8x8(&dst[j*ldd+i], &src[i*lds+j], b, ldd, lds)
			}
		}
	}
	transposeGo(dst, ldd, src, lds, 0, r8, c8, cols, bias)
	transposeGo(dst, ldd, src, lds, r8, rows, 0, cols, bias)
}

// transposeGo is transpose for the rows i0 to i1−1 and columns j0 to
// j1−1 of src.
func transposeGo(dst []float32, ldd int, src []float32, lds int, i0, i1, j0, j1 int, bias []float32) {
	const bs = 16
	for ib := i0; ib < i1; ib += bs {
		ie := min(ib+bs, i1)
		for jb := j0; jb < j1; jb += bs {
			je := min(jb+bs, j1)
			for i := ib; i < ie; i++ {
				var bv float32
				if bias != nil {
					bv = bias[i]
				}
				for j, v := range src[i*lds+jb : i*lds+je] {
					if bias != nil {
						v += bv
					}
					dst[(jb+j)*ldd+i] = v
				}
			}
		}
	}
}
