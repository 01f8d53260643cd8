package tensor

import "github.com/gorl/gorl/internal/par"

// Linear layers with few rows and a large weight (the Nature CNN's fc layer
// while acting or training) compute yᵀ = w·xᵀ with tileGemm: w's rows are
// read once, where they are, and xᵀ, copied into [in, R] with R the rows
// rounded up to 8 or a multiple of 16 (zeros beyond), stays in the cache.
// OpenBLAS packs the whole weight first, which took longer than the product.
const (
	linearTileRows   = 32      // the most rows
	linearTileWeight = 1 << 18 // the fewest weights
)

// useLinearTiles tells whether Linear with rows rows and a weight [out, in]
// goes through linearTiles.
func useLinearTiles(rows, out, in int) bool {
	return haveTileKernel && rows <= linearTileRows && out*in >= linearTileWeight
}

// linearTask computes y = x·wᵀ + b by linearTiles, in tasks of output
// columns fixed by the shapes.
type linearTask struct {
	x, w, b, y, xt, yt []float32
	rows, in, out, r   int
	per                int // output columns (rows of w) per task
}

var linearTasks par.Free[linearTask]

// linearTiles computes y [rows, out] = x [rows, in]·wᵀ + b with n's aux[0]
// and aux[1] as scratch.
func linearTiles(n *node, x, w, b, y []float32, rows, in, out int) {
	r := 8
	if rows > 8 {
		r = ceilDiv(rows, 16) * 16
	}
	n.aux[0] = resize(n.aux[0], in*r)
	n.aux[1] = resize(n.aux[1], out*r)
	xt, yt := n.aux[0], n.aux[1]
	for l := 0; l < in; l++ {
		d := xt[l*r : (l+1)*r]
		for i := 0; i < rows; i++ {
			d[i] = x[i*in+l]
		}
		clear(d[rows:])
	}
	t := linearTasks.Get()
	*t = linearTask{x: x, w: w, b: b, y: y, xt: xt, yt: yt, rows: rows, in: in, out: out, r: r}
	tasks := 1
	for tasks < 16 && 2*tasks*convGrain <= rows*in*out {
		tasks *= 2
	}
	t.per = ceilDiv(out, tasks)
	par.Run(ceilDiv(out, t.per), par.Workers(), t)
	*t = linearTask{}
	linearTasks.Put(t)
}

func (t *linearTask) Task(i, _ int) {
	o0, o1 := i*t.per, min((i+1)*t.per, t.out)
	tileGemm(o1-o0, t.r, t.in, t.w[o0*t.in:], t.in, 1, t.xt, t.r, t.yt[o0*t.r:], t.r)
	for j := o0; j < o1; j++ {
		var bv float32
		if t.b != nil {
			bv = t.b[j]
		}
		for i, v := range t.yt[j*t.r : j*t.r+t.rows] {
			t.y[i*t.out+j] = v + bv
		}
	}
}
