package tensortest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/tensor/tensortest"
)

// TestCheckGradDetectsWrongGradients feeds the checker functions whose
// recorded gradient is wrong on purpose: x·detach(x) has derivative 2x but
// records x, and a detached result records none at all.
func TestCheckGradDetectsWrongGradients(t *testing.T) {
	x := tensor.MustFromSlice([]float32{0.5, -1, 2}, 3)
	wrong := func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
		return tp.Mul(in[0], tp.Detach(in[0]))
	}
	err := tensortest.CheckGrad(wrong, []*tensor.Tensor{x}, tensortest.Config{})
	if err == nil || !strings.Contains(err.Error(), "central difference") {
		t.Errorf("x·detach(x): error %v, want a gradient mismatch", err)
	}
	detached := func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Detach(in[0]) }
	if err := tensortest.CheckGrad(detached, []*tensor.Tensor{x}, tensortest.Config{}); err == nil {
		t.Error("a result without gradients passed the check")
	}
	right := func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Mul(in[0], in[0]) }
	if err := tensortest.CheckGrad(right, []*tensor.Tensor{x}, tensortest.Config{}); err != nil {
		t.Errorf("x·x: %v", err)
	}
}

func ExampleCheckGrad() {
	// d(tanh x)/dx = 1 − tanh² x, checked against central differences.
	x := tensor.MustFromSlice([]float32{-1, 0, 2}, 3)
	f := func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Tanh(in[0]) }
	fmt.Println(tensortest.CheckGrad(f, []*tensor.Tensor{x}, tensortest.Config{}))
	// Output: <nil>
}
