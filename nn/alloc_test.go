package nn

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/tensor"
)

// TestForwardNoAlloc locks the steady state of every module: a training step
// (forward, loss, backward) on a reset tape, and acting (batch 1, no-grad),
// allocate nothing once the tape has seen the step, apart from what the
// tensor package itself allocates today: one allocation per broadcasting
// operation (Add, Sub, Mul, MeanAxis), whose variadic list of operand shapes
// escapes to the heap. tensorAllocs counts those operations per step; it must
// drop to 0 when the tensor package stops allocating there, and the test
// then fails until it is set to 0 here.
func TestForwardNoAlloc(t *testing.T) {
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
		name         string
		shape        []int
		tensorAllocs float64
		f            func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor
	}{
		{"mlp", []int{1, 4}, 0, mlp.Forward},
		{"gru", []int{1, 4}, 6, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor { return gru.Forward(tp, x, h) }},
		{"lstm", []int{1, 4}, 5, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor {
			h2, _ := lstm.Forward(tp, x, h, c)
			return h2
		}},
		{"noisy dueling", []int{1, 4}, 11, noisy.Forward},
		{"conv", []int{1, 2, 7, 7}, 0, conv.Forward},
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
			if n := testing.AllocsPerRun(10, step); n != tc.tensorAllocs {
				t.Errorf("%s (gradients %t): %v allocations per step, want %v", tc.name, grad, n, tc.tensorAllocs)
			}
		}
	}
}
