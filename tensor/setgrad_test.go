package tensor_test

import (
	"testing"

	"github.com/gorl/gorl/tensor"
)

// TestSetGrad: a gradient set from outside reads back as Backward's would,
// replaces an earlier one rather than adding to it, and a later Backward
// adds to it (gradients accumulate). Expected values by hand: the loss
// Σ 2·x has gradient (2, 2).
func TestSetGrad(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2}, 2).SetRequiresGrad(true)
	x.SetGrad([]float32{5, 6})
	x.SetGrad([]float32{3, -1})
	var tp tensor.Tape
	tp.Backward(tp.Sum(tp.MulScalar(x, 2)))
	for i, want := range []float32{5, 1} {
		if g := x.Grad(); g[i] != want {
			t.Fatalf("grad %v, want [5 1]", g)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("SetGrad of the wrong length did not panic")
		}
	}()
	x.SetGrad([]float32{1})
}
