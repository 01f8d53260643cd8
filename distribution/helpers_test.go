package distribution_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/gorl/gorl/tensor"
)

// leaf returns a leaf tensor of the given shape holding vals; an empty shape
// gives a scalar.
func leaf(shape []int, vals ...float32) *tensor.Tensor {
	if len(shape) == 0 {
		t := tensor.New()
		t.Data()[0] = vals[0]
		return t
	}
	return tensor.MustFromSlice(vals, shape...)
}

// checkValues compares a result with expected values (shape and elements)
// within an absolute-or-relative tolerance tol.
func checkValues(t *testing.T, name string, got *tensor.Tensor, shape []int, want []float64, tol float64) {
	t.Helper()
	if fmt.Sprint(got.Shape()) != fmt.Sprint(shape) {
		t.Errorf("%s: shape %v, want %v", name, got.Shape(), shape)
		return
	}
	for i, g := range got.Data() {
		w := want[i]
		if math.IsInf(w, 0) && float64(g) == w {
			continue
		}
		if d := math.Abs(float64(g) - w); !(d <= tol*max(1, math.Abs(w))) {
			t.Errorf("%s[%d] = %.9g, want %.9g", name, i, g, w)
		}
	}
}

// panicsWith reports whether f panics with a value wrapping target.
func panicsWith(f func(), target error) (ok bool, got any) {
	defer func() {
		got = recover()
		err, isErr := got.(error)
		ok = isErr && errors.Is(err, target)
	}()
	f()
	return false, nil
}

// mustOK fails the test at once on an unexpected error.
func mustOK(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
