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

// TestRecurrentGradLastStepOnly checks the long path of backpropagation
// through time: only the last step's state reaches the loss (for the LSTM h
// and c side by side in one array, the layout of recurrent PPO's stored
// states), so the gradient of every earlier input and of the first state
// flows through all the later steps. Central differences
// (tensortest.CheckGrad) check it over 8 steps; the gradient of the first
// input must also be nonzero, or the check would pass on a cut graph.
func TestRecurrentGradLastStepOnly(t *testing.T) {
	const T, in, hidden, rows = 8, 2, 3, 2
	rng := rand.New(rand.NewPCG(5, 6))
	gru := NewGRUCell(in, hidden, rng)
	lstm := NewLSTMCell(in, hidden, rng)
	var xs []*tensor.Tensor
	for range T {
		xs = append(xs, randn(rng, rows, in))
	}
	s0gru, s0lstm := randn(rng, rows, hidden), randn(rng, rows, 2*hidden)
	cases := []struct {
		name   string
		f      tensortest.Func
		inputs []*tensor.Tensor
	}{
		{"gru", func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
			h := x[T]
			for t := range T {
				h = gru.Forward(tp, x[t], h)
			}
			return h
		}, append(append(append([]*tensor.Tensor{}, xs...), s0gru), gru.Params().tensors()...)},
		{"lstm", func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
			s := x[T]
			for t := range T {
				h, c := lstm.Forward(tp, x[t], tp.Slice(s, 1, 0, hidden), tp.Slice(s, 1, hidden, 2*hidden))
				s = tp.Concat(1, h, c)
			}
			return s
		}, append(append(append([]*tensor.Tensor{}, xs...), s0lstm), lstm.Params().tensors()...)},
	}
	for _, c := range cases {
		if err := tensortest.CheckGrad(c.f, c.inputs, tensortest.Config{}); err != nil {
			t.Errorf("%s, last of %d steps: %v", c.name, T, err)
		}
		var tp tensor.Tape
		x0 := c.inputs[0].SetRequiresGrad(true)
		x0.ZeroGrad()
		out := c.f(&tp, c.inputs)
		tp.Backward(tp.Sum(out))
		var norm float64
		for _, g := range x0.Grad() {
			norm += float64(g * g)
		}
		if !(norm > 1e-12) {
			t.Errorf("%s: gradient of the first input after %d steps has norm² %v; want > 0", c.name, T, norm)
		}
	}
}
