package r2d2

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// Net is R2D2's recurrent Q network: an LSTM or GRU cell over the
// observations, and a head (an MLP, or a dueling pair of MLPs) from the
// cell's output h to one Q-value per action. Its state is one array per
// env: h for a GRU, h and c side by side for an LSTM.
type Net struct {
	GRU    *nn.GRUCell  // nil for an LSTM
	LSTM   *nn.LSTMCell // nil for a GRU
	Head   nn.Layer
	hidden int
	ps     nn.Params
}

// newNet returns a Net for observations of in values and n actions.
func newNet(cfg Config, in, n int, rng *rand.Rand) (*Net, error) {
	net := &Net{hidden: cfg.Hidden}
	var cell nn.Params
	if cfg.Cell == LSTM {
		net.LSTM = nn.NewLSTMCell(in, cfg.Hidden, rng)
		cell = net.LSTM.Params().Prefixed("lstm")
	} else {
		net.GRU = nn.NewGRUCell(in, cfg.Hidden, rng)
		cell = net.GRU.Params().Prefixed("gru")
	}
	mlp := func(out int) (*nn.MLP, error) {
		m, err := nn.NewMLP(nn.MLPConfig{In: cfg.Hidden, Hidden: cfg.HeadHidden, Out: out}, rng)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		return m, nil
	}
	if cfg.Dueling {
		v, err := mlp(1)
		if err != nil {
			return nil, err
		}
		a, err := mlp(n)
		if err != nil {
			return nil, err
		}
		net.Head = &nn.Dueling{Value: v, Advantage: a}
	} else {
		h, err := mlp(n)
		if err != nil {
			return nil, err
		}
		net.Head = h
	}
	net.ps = append(cell, net.Head.Params().Prefixed("head")...)
	return net, nil
}

// Params returns every parameter: the cell's ("lstm" or "gru" prefixed)
// and the head's ("head").
func (n *Net) Params() nn.Params { return n.ps }

// StateSize returns the width of the state: Hidden for a GRU, 2·Hidden
// for an LSTM.
func (n *Net) StateSize() int {
	if n.LSTM != nil {
		return 2 * n.hidden
	}
	return n.hidden
}

// InSize returns the number of values of an observation.
func (n *Net) InSize() int {
	if n.LSTM != nil {
		return n.LSTM.WeightIH.Dim(1)
	}
	return n.GRU.WeightIH.Dim(1)
}

// Step records on tp one step of the cell from the states s [k, StateSize]
// on the inputs x [k, in], and returns the next states and the Q-values of
// the k observations, [k, n].
func (n *Net) Step(tp *tensor.Tape, x, s *tensor.Tensor) (next, q *tensor.Tensor) {
	next, h := n.advance(tp, x, s)
	return next, n.Head.Forward(tp, h)
}

// advance records one step of the cell alone: the next states and the
// cell's output h, the head's input.
func (n *Net) advance(tp *tensor.Tape, x, s *tensor.Tensor) (next, h *tensor.Tensor) {
	if n.LSTM == nil {
		h = n.GRU.Forward(tp, x, s)
		return h, h
	}
	hs := n.hidden
	h, c := n.LSTM.Forward(tp, x, tp.Slice(s, 1, 0, hs), tp.Slice(s, 1, hs, 2*hs))
	return tp.Concat(1, h, c), h
}
