package nn

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/tensor/tensortest"
)

// TestRecurrentGradThroughTime checks backpropagation through time: the
// cells are unrolled over several steps, with the rows that stop early
// (the packed sequences of recurrent learners, rows sliced off the state)
// and every step's output reaching the loss, against central differences
// (tensortest.CheckGrad) for the inputs of every step, the first state and
// the weights.
func TestRecurrentGradThroughTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	gru := NewGRUCell(3, 4, rng)
	lstm := NewLSTMCell(3, 4, rng)
	// steps[t] rows run at step t: a packed batch of three sequences of
	// lengths 5, 3 and 2.
	steps := []int{3, 3, 2, 1, 1}
	var xs []*tensor.Tensor
	for _, n := range steps {
		xs = append(xs, randn(rng, n, 3))
	}
	h0, c0 := randn(rng, 3, 4), randn(rng, 3, 4)
	T := len(steps)
	unrollGRU := func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
		h := in[T]
		outs := make([]*tensor.Tensor, 0, T)
		for t, n := range steps {
			if h.Dim(0) > n {
				h = tp.Slice(h, 0, 0, n)
			}
			h = gru.Forward(tp, in[t], h)
			outs = append(outs, h)
		}
		return tp.Concat(0, outs...)
	}
	unrollLSTM := func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
		h, c := in[T], in[T+1]
		outs := make([]*tensor.Tensor, 0, 2*T)
		for t, n := range steps {
			if h.Dim(0) > n {
				h, c = tp.Slice(h, 0, 0, n), tp.Slice(c, 0, 0, n)
			}
			h, c = lstm.Forward(tp, in[t], h, c)
			outs = append(outs, h, c)
		}
		return tp.Concat(0, outs...)
	}
	for _, tc := range []struct {
		name   string
		f      tensortest.Func
		inputs []*tensor.Tensor
	}{
		{"gru", unrollGRU, append(append(append([]*tensor.Tensor{}, xs...), h0), gru.Params().tensors()...)},
		{"lstm", unrollLSTM, append(append(append([]*tensor.Tensor{}, xs...), h0, c0), lstm.Params().tensors()...)},
	} {
		if err := tensortest.CheckGrad(tc.f, tc.inputs, tensortest.Config{}); err != nil {
			t.Errorf("%s over %d steps: %v", tc.name, T, err)
		}
	}
}
