package tensor

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// FillUniform sets every element to an independent draw from U(lo, hi).
func (t *Tensor) FillUniform(rng *rand.Rand, lo, hi float32) {
	for i := range t.data {
		t.data[i] = lo + (hi-lo)*rng.Float32()
	}
}

// FillNormal sets every element to an independent draw from N(mean, std²).
func (t *Tensor) FillNormal(rng *rand.Rand, mean, std float32) {
	for i := range t.data {
		t.data[i] = mean + std*float32(rng.NormFloat64())
	}
}

// Fans returns the fan-in and fan-out of a weight of the given shape, as
// PyTorch computes them: dimension 1 and dimension 0, each times the product of
// the dimensions after the first two (the receptive field of a convolution).
//
// Fans panics with ErrShape for fewer than two dimensions.
func Fans(shape []int) (fanIn, fanOut int) {
	if len(shape) < 2 {
		panicf(ErrShape, "Fans of %v: need at least two dimensions", shape)
	}
	field := numel(shape[2:])
	return shape[1] * field, shape[0] * field
}

// FillKaimingUniform fills a weight from PyTorch's kaiming_uniform_ with
// negative slope a, fan-in mode and leaky-ReLU gain: U(−bound, bound) with
// bound = √(6/((1 + a²)·fanIn)). PyTorch's Linear and Conv2d use a = √5, which
// gives bound = 1/√fanIn; their biases are then drawn with FillUniform from
// U(−1/√fanIn, 1/√fanIn), fanIn being the weight's (see Fans).
//
// FillKaimingUniform panics with ErrShape for fewer than two dimensions.
func (t *Tensor) FillKaimingUniform(rng *rand.Rand, a float64) {
	fanIn, _ := Fans(t.shape)
	bound := float32(math.Sqrt(6 / ((1 + a*a) * float64(fanIn))))
	t.FillUniform(rng, -bound, bound)
}

// FillOrthogonal fills a weight with a (semi-)orthogonal matrix times gain, as
// PyTorch's orthogonal_ does: the tensor is seen as a matrix of Dim(0) rows,
// a matrix with standard normal entries is drawn, and the Q of its QR
// factorization, with signs fixed so that R has a positive diagonal, becomes
// the weight. Rows are orthonormal when there are fewer rows than columns,
// columns otherwise. PPO uses gain √2 for hidden layers and 0.01 for the
// policy head.
//
// FillOrthogonal panics with ErrShape for fewer than two dimensions.
func (t *Tensor) FillOrthogonal(rng *rand.Rand, gain float64) {
	if len(t.shape) < 2 {
		panicf(ErrShape, "FillOrthogonal of %v: need at least two dimensions", t.shape)
	}
	rows := t.shape[0]
	cols := len(t.data) / max(rows, 1)
	if rows == 0 || cols == 0 {
		return
	}
	// Factor the tall orientation (r ≥ c) and transpose back if needed.
	r, c := rows, cols
	if rows < cols {
		r, c = cols, rows
	}
	a := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			a.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(a)
	var q, rr mat.Dense
	qr.QTo(&q)
	qr.RTo(&rr)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			v := q.At(i, j) * gain
			if rr.At(j, j) < 0 {
				v = -v
			}
			if rows < cols {
				t.data[j*cols+i] = float32(v)
			} else {
				t.data[i*cols+j] = float32(v)
			}
		}
	}
}
