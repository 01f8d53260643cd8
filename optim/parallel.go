package optim

import "github.com/gorl/gorl/internal/par"

// parGrain is the fewest elements of a tensor whose update is split over the
// worker pool (package tensor's Workers), and the fewest each piece gets;
// smaller tensors are updated on the calling goroutine. The update is
// elementwise, so the pieces give the same bits as one pass.
const parGrain = 1 << 16

// adamTask is one tensor's Adam update cut into pieces.
type adamTask struct {
	p, g, m, v, vmax []float32
	k                adamCoef
	size             int
}

func (t *adamTask) Task(i, _ int) {
	lo := i * t.size
	hi := min(lo+t.size, len(t.g))
	var vmax []float32
	if t.vmax != nil {
		vmax = t.vmax[lo:hi]
	}
	adamUpdate(t.p[lo:hi], t.g[lo:hi], t.m[lo:hi], t.v[lo:hi], vmax, &t.k)
}

// run applies the update of p with gradient g, split when g is long enough.
func (t *adamTask) run(p, g, m, v, vmax []float32, k *adamCoef) {
	if len(g) < 2*parGrain {
		adamUpdate(p, g, m, v, vmax, k)
		return
	}
	count, size := par.Chunks(len(g), parGrain, 64)
	*t = adamTask{p: p, g: g, m: m, v: v, vmax: vmax, k: *k, size: size}
	par.Run(count, par.Workers(), t)
	*t = adamTask{}
}
