package tensor_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/tensor/tensortest"
)

// TestLogSumExp checks the values against log Σ exp computed in float64 on
// the rows, columns and middle axis of small tensors, large values included
// (where exp alone overflows float32), and the gradient against finite
// differences.
func TestLogSumExp(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 100, 101, 99}, 2, 3)
	naive := func(vs ...float64) float64 {
		mx := math.Inf(-1)
		for _, v := range vs {
			mx = math.Max(mx, v)
		}
		var s float64
		for _, v := range vs {
			s += math.Exp(v - mx)
		}
		return mx + math.Log(s)
	}
	for _, c := range []struct {
		axis    int
		keepDim bool
		shape   []int
		want    []float64
	}{
		{1, false, []int{2}, []float64{naive(1, 2, 3), naive(100, 101, 99)}},
		{-1, true, []int{2, 1}, []float64{naive(1, 2, 3), naive(100, 101, 99)}},
		{0, false, []int{3}, []float64{naive(1, 100), naive(2, 101), naive(3, 99)}},
	} {
		var tp tensor.Tape
		y := tp.LogSumExp(x, c.axis, c.keepDim)
		if got := y.Shape(); len(got) != len(c.shape) || got[0] != c.shape[0] {
			t.Errorf("axis %d keepDim %v: shape %v, want %v", c.axis, c.keepDim, got, c.shape)
			continue
		}
		for i, w := range c.want {
			if !scalar.EqualWithinAbsOrRel(float64(y.Data()[i]), w, 1e-5, 1e-6) {
				t.Errorf("axis %d: element %d = %v, want %v", c.axis, i, y.Data()[i], w)
			}
		}
	}
	for _, c := range []struct {
		name  string
		axis  int
		shape []int
	}{{"last", -1, []int{3, 4}}, {"middle", 1, []int{2, 3, 4}}, {"first", 0, []int{3, 4}}} {
		rng := rand.New(rand.NewPCG(1, 2))
		in := tensor.New(c.shape...)
		in.FillUniform(rng, -2, 2)
		f := func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.LogSumExp(in[0], c.axis, false) }
		if err := tensortest.CheckGrad(f, []*tensor.Tensor{in}, tensortest.Config{}); err != nil {
			t.Errorf("gradient, axis %s: %v", c.name, err)
		}
	}
}
