package nn

import (
	"fmt"
	"math/rand/v2"
)

// MLPConfig describes a multi-layer perceptron.
type MLPConfig struct {
	// In is the input size; at least 1.
	In int `json:"in"`
	// Hidden lists the sizes of the hidden layers, each at least 1; it may be
	// empty (a single linear layer from In to Out).
	Hidden []int `json:"hidden"`
	// Out is the output size. 0 means no output layer: the last hidden layer,
	// with its activation, is the output (a feature extractor, as Tianshou's
	// MLP with output_dim 0); Hidden must not be empty then.
	Out int `json:"out"`
	// Activation follows every hidden layer. "" means ReLU; use Identity for
	// none.
	Activation Activation `json:"activation"`
	// OutputActivation follows the output layer. "" means none.
	OutputActivation Activation `json:"output_activation"`
}

// Validate returns an error wrapping ErrConfig describing the first invalid
// field, or nil.
func (c MLPConfig) Validate() error {
	if c.In < 1 {
		return fmt.Errorf("%w: MLP input size %d", ErrConfig, c.In)
	}
	for _, h := range c.Hidden {
		if h < 1 {
			return fmt.Errorf("%w: MLP hidden sizes %v", ErrConfig, c.Hidden)
		}
	}
	if c.Out < 0 || c.Out == 0 && len(c.Hidden) == 0 {
		return fmt.Errorf("%w: MLP output size %d with hidden sizes %v", ErrConfig, c.Out, c.Hidden)
	}
	for _, a := range []Activation{c.Activation, c.OutputActivation} {
		if a != "" {
			if err := a.Validate(); err != nil {
				return err
			}
		}
	}
	return nil
}

// MLP is a multi-layer perceptron: Linear layers with an activation after
// each hidden one. It is a Sequential laid out as PyTorch's
// nn.Sequential(Linear, ReLU, Linear, ReLU, Linear) would be, so the
// parameters of a 4→128→128→2 ReLU network are named 0.weight, 0.bias,
// 2.weight, 2.bias, 4.weight and 4.bias (activations take a position;
// Identity does not).
type MLP struct {
	Sequential
	cfg MLPConfig
}

// NewMLP returns an MLP with PyTorch's default initialization (see
// NewLinear), drawing the layers' parameters from rng in order. It returns
// Validate's error for an invalid configuration.
func NewMLP(cfg MLPConfig, rng *rand.Rand) (*MLP, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	act := cfg.Activation
	if act == "" {
		act = ReLU
	}
	cfg.Hidden = append([]int(nil), cfg.Hidden...)
	m := &MLP{cfg: cfg}
	in := cfg.In
	for _, h := range cfg.Hidden {
		m.Sequential = append(m.Sequential, NewLinear(in, h, rng))
		if act != Identity {
			m.Sequential = append(m.Sequential, act)
		}
		in = h
	}
	if cfg.Out > 0 {
		m.Sequential = append(m.Sequential, NewLinear(in, cfg.Out, rng))
		if a := cfg.OutputActivation; a != "" && a != Identity {
			m.Sequential = append(m.Sequential, a)
		}
	}
	return m, nil
}

// Config returns the configuration the MLP was built from.
func (m *MLP) Config() MLPConfig {
	c := m.cfg
	c.Hidden = append([]int(nil), c.Hidden...)
	return c
}

// OutSize returns the size of the output's last dimension.
func (m *MLP) OutSize() int {
	if m.cfg.Out > 0 {
		return m.cfg.Out
	}
	return m.cfg.Hidden[len(m.cfg.Hidden)-1]
}
