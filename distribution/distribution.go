package distribution

import (
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/tensor"
)

// Distribution is what every distribution of this package provides, and what
// Independent wraps.
//
// Shapes follow PyTorch: a sample has shape BatchShape() + EventShape();
// LogProb of a value of that shape has shape BatchShape() (the event axes are
// summed). Results are recorded on the tape the distribution was set up with,
// so they live until that tape is Reset and gradients flow to the parameters
// where PyTorch's do.
//
// A Distribution is a batch.Leaf: a Batch indexes, stacks and concatenates
// it along its batch axes (BatchShape, the shape of independent draws and of
// LogProb's result), as Tianshou's Batch slices torch distributions.
type Distribution interface {
	batch.Leaf
	// EventShape returns the shape of one draw: [] for a scalar
	// distribution. The caller must not modify it.
	EventShape() []int
	// Sample draws one value of shape BatchShape() + EventShape() from rng.
	// The result carries no gradient.
	Sample(rng *rand.Rand) *tensor.Tensor
	// LogProb returns the log-density (log-mass for discrete distributions)
	// of value, with numpy broadcasting between value's leading axes and the
	// batch shape.
	LogProb(value *tensor.Tensor) *tensor.Tensor
	// Mode returns the most likely value, of shape BatchShape() +
	// EventShape().
	Mode() *tensor.Tensor
}

// halfLog2Pi is ½·ln(2π), the normalizing constant of a standard normal
// density.
var halfLog2Pi = float32(0.5 * math.Log(2*math.Pi))

// broadcast writes the numpy broadcast of shapes a and b into dst[:0] and
// reports whether they broadcast.
func broadcast(dst, a, b []int) ([]int, bool) {
	n := max(len(a), len(b))
	dst = dst[:0]
	for i := 0; i < n; i++ {
		da, db := 1, 1
		if j := i - (n - len(a)); j >= 0 {
			da = a[j]
		}
		if j := i - (n - len(b)); j >= 0 {
			db = b[j]
		}
		switch {
		case da == db, db == 1:
			dst = append(dst, da)
		case da == 1:
			dst = append(dst, db)
		default:
			return dst, false
		}
	}
	return dst, true
}

// broadcastOffsets writes into dst, for every position of shape out in
// row-major order, the row-major offset of the element of an operand of
// shape in that broadcasting maps there. in must broadcast to out.
func broadcastOffsets(dst []int, out, in []int) []int {
	dst = dst[:0]
	var walk func(axis, off int)
	walk = func(axis, off int) {
		if axis == len(out) {
			dst = append(dst, off)
			return
		}
		j := axis - (len(out) - len(in))
		stride, step := 0, 0
		if j >= 0 {
			stride = numel(in[j+1:])
			if in[j] != 1 {
				step = stride
			}
		}
		for i := 0; i < out[axis]; i++ {
			walk(axis+1, off+i*step)
		}
	}
	walk(0, 0)
	return dst
}

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}
