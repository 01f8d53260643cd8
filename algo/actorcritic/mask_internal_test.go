package actorcritic

import (
	"math"
	"testing"
)

// TestMaskedSoftmax checks the natural gradient's own softmax against the
// masked Categorical's probabilities: logits (1, 2, 3, 4) with actions 1
// and 3 forbidden give e¹/(e¹+e³) = 0.11920292 and e³/(e¹+e³) = 0.88079708
// (worked out by hand), and log Σ exp over the allowed ones is
// 3 + log(1 + e⁻²) = 3.12692801.
func TestMaskedSoftmax(t *testing.T) {
	cases := []struct {
		allowed []float32
		probs   []float64
		lse     float64
	}{
		{nil, []float64{0.0320586, 0.08714432, 0.23688282, 0.64391426}, 4.44018970},
		{[]float32{1, 0, 1, 0}, []float64{0.11920292, 0, 0.88079708, 0}, 3.12692801},
		{[]float32{0, 0, 0, 1}, []float64{0, 0, 0, 1}, 4},
	}
	const tol = 1e-7
	z := []float32{1, 2, 3, 4}
	for _, c := range cases {
		dst := make([]float64, 4)
		softmaxTo(dst, z, c.allowed, 4)
		for j, want := range c.probs {
			if math.Abs(dst[j]-want) > tol {
				t.Errorf("allowed %v: p[%d] = %v; want %v", c.allowed, j, dst[j], want)
			}
		}
		if got := logSumExp(z, c.allowed); math.Abs(got-c.lse) > tol {
			t.Errorf("allowed %v: logSumExp %v; want %v", c.allowed, got, c.lse)
		}
	}
}
