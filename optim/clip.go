package optim

import (
	"fmt"
	"math"

	"github.com/gorl/gorl/nn"
)

// ClipGradNorm scales the gradients of ps so that their total L2 norm, taken
// over all of them as if they were one vector, is at most maxNorm, and returns
// the norm before scaling (PyTorch's clip_grad_norm_): with
// c = maxNorm/(norm + 1e-6), every gradient is multiplied by c when c < 1.
// Tensors without a gradient are skipped; buffers have none. The norm is
// accumulated in float64. A NaN or infinite norm scales the gradients by NaN
// or 0, as PyTorch does without error_if_nonfinite, so a diverged step shows.
// ClipGradNorm does not allocate.
//
// ClipGradNorm panics with an error wrapping ErrConfig unless maxNorm > 0.
func ClipGradNorm(ps nn.Params, maxNorm float64) float64 {
	if !(maxNorm > 0) {
		panic(fmt.Errorf("%w: gradient clipping to norm %v", ErrConfig, maxNorm))
	}
	var ss float64
	for _, p := range ps {
		for _, g := range p.Tensor.Grad() {
			ss += float64(g) * float64(g)
		}
	}
	norm := math.Sqrt(ss)
	c := maxNorm / (norm + 1e-6)
	if c >= 1 {
		return norm
	}
	f := float32(c)
	for _, p := range ps {
		g := p.Tensor.Grad()
		for i := range g {
			g[i] *= f
		}
	}
	return norm
}
