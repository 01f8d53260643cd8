package optim

import (
	"fmt"
	"io"

	"github.com/gorl/gorl/nn"
)

// SGDConfig holds the hyperparameters of SGD. DefaultSGDConfig returns
// PyTorch's defaults.
type SGDConfig struct {
	// LR is the learning rate η, ≥ 0. Default 1e-3.
	LR float64 `json:"lr"`
	// Momentum is μ, ≥ 0; 0 turns momentum off. Default 0.
	Momentum float64 `json:"momentum"`
	// Dampening is τ, in [0, 1]: the momentum buffer takes (1 − τ) of each
	// new gradient. Default 0.
	Dampening float64 `json:"dampening"`
	// WeightDecay is the L2 penalty λ added to the gradient, ≥ 0. Default 0.
	WeightDecay float64 `json:"weight_decay"`
	// Nesterov uses Nesterov momentum (Sutskever et al., 2013); it needs
	// Momentum > 0 and Dampening = 0. Default false.
	Nesterov bool `json:"nesterov"`
}

// DefaultSGDConfig returns PyTorch's SGD defaults: η = 1e-3, no momentum, no
// dampening, no weight decay.
func DefaultSGDConfig() SGDConfig { return SGDConfig{LR: 1e-3} }

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c SGDConfig) Validate() error {
	if err := checkLR(c.LR); err != nil {
		return err
	}
	for _, e := range []error{
		checkNonNeg("momentum", c.Momentum), checkUnit("dampening", c.Dampening, true),
		checkNonNeg("weight_decay", c.WeightDecay),
	} {
		if e != nil {
			return e
		}
	}
	if c.Nesterov && (c.Momentum <= 0 || c.Dampening != 0) {
		return fmt.Errorf("%w: Nesterov momentum needs momentum > 0 and zero dampening (momentum %v, dampening %v)", ErrConfig, c.Momentum, c.Dampening)
	}
	return nil
}

// SGD is stochastic gradient descent with PyTorch's update rule. For each
// tensor θ with gradient g:
//
//	g ← g + λθ
//	b ← g at the tensor's first step, b ← μb + (1 − τ)g after   (μ ≠ 0)
//	g ← g + μb with Nesterov, g ← b otherwise                 (μ ≠ 0)
//	θ ← θ − ηg
//
// computed in float32 in PyTorch's order of operations.
type SGD struct {
	params
	cfg SGDConfig
}

// NewSGD returns an SGD optimizer over the trainable tensors of ps (buffers
// are skipped). It returns cfg.Validate's error.
func NewSGD(ps nn.Params, cfg SGDConfig) (*SGD, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &SGD{params: newParams(ps, cfg.LR, sgdBuffers(cfg)...), cfg: cfg}, nil
}

func sgdBuffers(c SGDConfig) []string {
	if c.Momentum != 0 {
		return []string{"momentum_buffer"}
	}
	return nil
}

// Config returns the hyperparameters, with LR the current learning rate.
func (s *SGD) Config() SGDConfig {
	c := s.cfg
	c.LR = s.lr
	return c
}

// Step updates every tensor that has a gradient and leaves the others alone.
// It does not allocate.
func (s *SGD) Step() {
	negLR, wd := float32(-s.lr), float32(s.cfg.WeightDecay)
	mu, damp := float32(s.cfg.Momentum), float32(1-s.cfg.Dampening)
	for k := range s.slots {
		sl := &s.slots[k]
		g := sl.t.Grad()
		if g == nil {
			continue
		}
		sl.step++
		p := sl.t.Data()[:len(g)]
		var b []float32
		if mu != 0 {
			b = sl.buf[0][:len(g)]
		}
		first := sl.step == 1
		for i, gi := range g {
			if wd != 0 {
				gi += wd * p[i]
			}
			if b != nil {
				bi := gi
				if !first {
					bi = flushSubnormal(b[i]*mu + damp*gi)
				}
				b[i] = bi
				if s.cfg.Nesterov {
					gi += mu * bi
				} else {
					gi = bi
				}
			}
			p[i] += negLR * gi
		}
	}
}

// Save writes the optimizer's state (see the package documentation).
func (s *SGD) Save(w io.Writer) error { return s.save(w, "sgd", s.Config()) }

// Load restores a state written by Save (see the package documentation).
func (s *SGD) Load(r io.Reader) error {
	var cfg SGDConfig
	return s.load(r, "sgd", &cfg, func() (float64, error) {
		if err := cfg.Validate(); err != nil {
			return 0, err
		}
		if (cfg.Momentum != 0) != (s.cfg.Momentum != 0) {
			return 0, fmt.Errorf("%w: saved with momentum %v, loaded into momentum %v", ErrState, cfg.Momentum, s.cfg.Momentum)
		}
		s.cfg = cfg
		return cfg.LR, nil
	})
}
