package qrdqn

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// Net is QR-DQN's quantile network: an MLP from the observation to N·A
// values, read as the quantile values [k, N, A] of k observations (output
// unit j·A + a is quantile j of action a). It is an nn.Model with the
// single input "obs" whose output is the quantile values.
type Net struct {
	MLP    *nn.MLP
	n      int
	a      int
	shape  [3]int   // Reshape's argument, kept here so that it does not escape per call
	inputs []string // nil: obsInputs
}

// NewNet returns the network of QR-DQN for observations of in numbers, n
// quantiles and a actions, with the hidden sizes hidden, initialized from
// rng. It returns an error wrapping nn.ErrConfig for sizes below 1.
func NewNet(in int, hidden []int, n, a int, rng *rand.Rand) (*Net, error) {
	if n < 1 || a < 1 {
		return nil, fmt.Errorf("%w: %d quantiles of %d actions", nn.ErrConfig, n, a)
	}
	mlp, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: hidden, Out: n * a}, rng)
	if err != nil {
		return nil, err
	}
	return &Net{MLP: mlp, n: n, a: a}, nil
}

// Params returns the MLP's parameters.
func (m *Net) Params() nn.Params { return m.MLP.Params() }

var obsInputs = []string{batch.KeyObs}

// Inputs returns ["obs"], or ["obs.obs"] in a QRDQN for a masked
// observation space.
func (m *Net) Inputs() []string {
	if m.inputs != nil {
		return m.inputs
	}
	return obsInputs
}

// Call returns the quantile values [k, N, A] of the observations in[0].
func (m *Net) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	return m.Quantiles(tp, in[0])
}

// Quantiles records the quantile values [k, N, A] of observations obs [k,
// in].
func (m *Net) Quantiles(tp *tensor.Tape, obs *tensor.Tensor) *tensor.Tensor {
	out := m.MLP.Forward(tp, obs)
	m.shape = [3]int{out.Dim(0), m.n, m.a}
	return tp.Reshape(out, m.shape[:]...)
}

// QValues is the network the policy acts with: the mean of the quantiles,
// Q(s, a) = (1/N) Σⱼ Z(s)ⱼₐ, [k, A].
type QValues struct{ *Net }

// Call returns the Q-values [k, A] of the observations in[0].
func (q QValues) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	return tp.MeanAxis(q.Quantiles(tp, in[0]), 1, false)
}
