package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// reluInputs returns n values of which about a quarter are special: zeros of
// both signs, ±Inf, NaNs of both signs, the extreme finite values and
// subnormals.
func reluInputs(rng *rand.Rand, n int) []float32 {
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), -float32(math.NaN()), math.MaxFloat32, -math.MaxFloat32,
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32}
	x := make([]float32, n)
	for i := range x {
		if rng.IntN(4) == 0 {
			x[i] = special[rng.IntN(len(special))]
		} else {
			x[i] = float32(rng.NormFloat64())
		}
	}
	return x
}

// sameFloat reports whether a and b have the same bits, or are both NaN (an
// x86 instruction's NaN payload depends on its operand order).
func sameFloat(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}

func TestReLUKernels(t *testing.T) {
	// PyTorch's relu: max(x, 0) with NaN kept and −0 turned into +0;
	// threshold_backward passes the gradient where the result is not 0.
	negNaN := math.Float32frombits(0xffc00000)
	for _, tc := range []struct{ x, y, grad float32 }{
		{2, 2, 1}, {-2, 0, 0}, {0, 0, 0}, {float32(math.Copysign(0, -1)), 0, 0},
		{float32(math.Inf(1)), float32(math.Inf(1)), 1}, {float32(math.Inf(-1)), 0, 0},
		{float32(math.NaN()), float32(math.NaN()), 1}, {negNaN, negNaN, 1},
		{math.SmallestNonzeroFloat32, math.SmallestNonzeroFloat32, 1}, {-math.SmallestNonzeroFloat32, 0, 0},
	} {
		// Repeated to length 7, so that both the kernel and the Go tail see it.
		x, y, dx := make([]float32, 7), make([]float32, 7), make([]float32, 7)
		g := []float32{1, 1, 1, 1, 1, 1, 1}
		for i := range x {
			x[i] = tc.x
		}
		relu(y, x)
		reluBack(dx, g, y, false)
		for i := range y {
			if !sameFloat(y[i], tc.y) || math.Float32bits(y[i]) == 0x80000000 {
				t.Errorf("relu(%g) = %g (%#x), want %g", tc.x, y[i], math.Float32bits(y[i]), tc.y)
			}
			if dx[i] != tc.grad {
				t.Errorf("relu'(%g) = %g, want %g", tc.x, dx[i], tc.grad)
			}
		}
	}
	// The kernels against the Go loops, every length to 35, put and add.
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n <= 35; n++ {
		x, g, d0 := reluInputs(rng, n), reluInputs(rng, n), reluInputs(rng, n)
		y, want := make([]float32, n), make([]float32, n)
		relu(y, x)
		reluGo(want, x)
		for i := range y {
			if !sameFloat(y[i], want[i]) {
				t.Fatalf("n=%d: relu(%g) = %g, reluGo %g", n, x[i], y[i], want[i])
			}
		}
		for _, acc := range []bool{false, true} {
			got, want := append([]float32(nil), d0...), append([]float32(nil), d0...)
			reluBack(got, g, y, acc)
			reluBackGo(want, g, y, acc)
			for i := range got {
				if !sameFloat(got[i], want[i]) {
					t.Fatalf("n=%d acc=%v: gradient %g at y=%g, g=%g: got %g, reluBackGo %g", n, acc, d0[i], y[i], g[i], got[i], want[i])
				}
			}
		}
	}
}
