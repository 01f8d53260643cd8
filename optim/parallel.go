package optim

import "github.com/gorl/gorl/internal/par"

// parGrain is the fewest elements of a tensor whose update is cut into
// pieces, and the fewest each piece gets; an Adam step whose tensors hold
// fewer than adamSplit elements in all runs on the calling goroutine, as
// does a clipping pass over fewer than 2·parGrain. The update is
// elementwise, so the pieces give the same bits as one pass. A small
// network's step takes about as long as waking a parked helper: below
// adamSplit, splitting it cost more than it saved (MinAtar's network,
// 132,000 parameters, in a DQN loop of one update per env step).
const (
	parGrain  = 1 << 16
	adamSplit = 4 * parGrain
)

// adamPiece is a range of one tensor's elements, updated by one task.
type adamPiece struct {
	p, g, m, v, vmax []float32
	k                int // the tensor's coefficients in adamStep.coefs
}

// adamStep is one Adam step over all tensors with a gradient: the large
// ones cut into pieces of at least parGrain elements, the others one piece
// each, all in one Run of the worker pool. Its slices keep their memory
// from step to step.
type adamStep struct {
	pieces []adamPiece
	coefs  []adamCoef
	n      int // elements in all
}

func (t *adamStep) Task(i, _ int) {
	q := &t.pieces[i]
	adamUpdate(q.p, q.g, q.m, q.v, q.vmax, &t.coefs[q.k])
}

// reset starts a step.
func (t *adamStep) reset() {
	clear(t.pieces)
	t.pieces, t.coefs, t.n = t.pieces[:0], t.coefs[:0], 0
}

// add queues the update of p with gradient g and coefficients k.
func (t *adamStep) add(p, g, m, v, vmax []float32, k *adamCoef) {
	t.coefs = append(t.coefs, *k)
	ki := len(t.coefs) - 1
	count, size := 1, len(g)
	if len(g) >= 2*parGrain {
		count, size = par.Chunks(len(g), parGrain, 64)
	}
	for c := range count {
		lo, hi := c*size, min((c+1)*size, len(g))
		q := adamPiece{p: p[lo:hi], g: g[lo:hi], m: m[lo:hi], v: v[lo:hi], k: ki}
		if vmax != nil {
			q.vmax = vmax[lo:hi]
		}
		t.pieces = append(t.pieces, q)
	}
	t.n += len(g)
}

// run applies the queued updates: in one Run of the pool when there are
// at least adamSplit elements, else in order on the calling goroutine.
func (t *adamStep) run() {
	w := par.Workers()
	if t.n < adamSplit {
		w = 1
	}
	par.Run(len(t.pieces), w, t)
	t.reset()
}
