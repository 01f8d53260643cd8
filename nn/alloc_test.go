package nn

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/tensor"
)

// TestForwardNoAlloc locks the steady state of every module: a training step
// (forward, loss, backward) on a reset tape, and acting (batch 1, no-grad),
// allocate nothing once the tape has seen the step. The race detector's
// instrumentation allocates on its own, so the counts are not checked
// under -race.
func TestForwardNoAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	rng := rand.New(rand.NewPCG(1, 1))
	mlp, err := NewMLP(MLPConfig{In: 4, Hidden: []int{32, 32}, Out: 2}, rng)
	if err != nil {
		t.Fatal(err)
	}
	gru, lstm := NewGRUCell(4, 8, rng), NewLSTMCell(4, 8, rng)
	noisy := Sequential{NewNoisyLinear(4, 8, 0.5, rng), ReLU, &Dueling{Value: NewLinear(8, 1, rng), Advantage: NewNoisyLinear(8, 3, 0.5, rng)}}
	conv := Sequential{NewConv2d(2, 4, 3, 2, 1, rng), ReLU, Flatten{}, NewLinear(4*4*4, 3, rng), NewDropout(0.1, rng)}
	h, c := tensor.New(1, 8), tensor.New(1, 8)
	for _, tc := range []struct {
		name  string
		shape []int
		f     func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor
	}{
		{"mlp", []int{1, 4}, mlp.Forward},
		{"gru", []int{1, 4}, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor { return gru.Forward(tp, x, h) }},
		{"lstm", []int{1, 4}, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor {
			h2, _ := lstm.Forward(tp, x, h, c)
			return h2
		}},
		{"noisy dueling", []int{1, 4}, noisy.Forward},
		{"conv", []int{1, 2, 7, 7}, conv.Forward},
	} {
		x := randn(rng, tc.shape...)
		for _, grad := range []bool{true, false} {
			var tp tensor.Tape
			tp.SetGradEnabled(grad)
			step := func() {
				tp.Reset()
				y := tc.f(&tp, x)
				if grad {
					tp.Backward(tp.Mean(y))
				}
			}
			step()
			if n := testing.AllocsPerRun(10, step); n != 0 {
				t.Errorf("%s (gradients %t): %v allocations per step", tc.name, grad, n)
			}
		}
	}
}
