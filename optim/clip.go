package optim

import (
	"fmt"
	"math"

	"github.com/gorl/gorl/internal/par"
	"github.com/gorl/gorl/nn"
)

// ClipGradNorm scales the gradients of ps so that their total L2 norm, taken
// over all of them as if they were one vector, is at most maxNorm, and returns
// the norm before scaling (PyTorch's clip_grad_norm_): with
// c = maxNorm/(norm + 1e-6), every gradient is multiplied by c when c < 1.
// Tensors without a gradient are skipped; buffers have none. The norm is
// accumulated in float64. A NaN or infinite norm scales the gradients by NaN
// or 0, as PyTorch does without error_if_nonfinite, so a diverged step shows.
// ClipGradNorm does not allocate. Long gradients are summed and scaled in
// pieces over the worker pool (package tensor's Workers), the pieces' sums
// added in order: the norm does not depend on the number of workers.
//
// ClipGradNorm panics with an error wrapping ErrConfig unless maxNorm > 0.
func ClipGradNorm(ps nn.Params, maxNorm float64) float64 {
	if !(maxNorm > 0) {
		panic(fmt.Errorf("%w: gradient clipping to norm %v", ErrConfig, maxNorm))
	}
	t := clipTasks.Get()
	defer clipTasks.Put(t)
	var ss float64
	for _, p := range ps {
		ss += t.sumSquares(p.Tensor.Grad())
	}
	norm := math.Sqrt(ss)
	c := maxNorm / (norm + 1e-6)
	if c >= 1 {
		return norm
	}
	f := float32(c)
	for _, p := range ps {
		t.scale(p.Tensor.Grad(), f)
	}
	return norm
}

// clipTask is ClipGradNorm's work on one long gradient, cut into pieces of
// parGrain elements and more for the worker pool. The pieces depend on the
// length alone and their sums are added in order, so the norm does not
// depend on the number of workers.
type clipTask struct {
	g     []float32
	f     float32 // the factor of scale
	scl   bool    // scale rather than sum the squares
	size  int
	parts [64]float64
}

var clipTasks par.Free[clipTask]

func (t *clipTask) Task(i, _ int) {
	lo := i * t.size
	g := t.g[lo:min(lo+t.size, len(t.g))]
	if t.scl {
		for j := range g {
			g[j] *= t.f
		}
		return
	}
	var s float64
	for _, v := range g {
		s += float64(v) * float64(v)
	}
	t.parts[i] = s
}

// sumSquares returns the sum of the squares of g in float64.
func (t *clipTask) sumSquares(g []float32) float64 {
	if len(g) < 2*parGrain {
		var s float64
		for _, v := range g {
			s += float64(v) * float64(v)
		}
		return s
	}
	count, size := par.Chunks(len(g), parGrain, len(t.parts))
	t.g, t.scl, t.size = g, false, size
	par.Run(count, par.Workers(), t)
	t.g = nil
	var s float64
	for _, v := range t.parts[:count] {
		s += v
	}
	return s
}

// scale multiplies g by f.
func (t *clipTask) scale(g []float32, f float32) {
	if len(g) < 2*parGrain {
		for i := range g {
			g[i] *= f
		}
		return
	}
	count, size := par.Chunks(len(g), parGrain, len(t.parts))
	t.g, t.f, t.scl, t.size = g, f, true, size
	par.Run(count, par.Workers(), t)
	t.g = nil
}
