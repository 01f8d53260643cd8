package optim

import (
	"fmt"
	"io"
	"math"

	"github.com/gorl/gorl/nn"
)

// RMSpropConfig holds the hyperparameters of RMSprop. DefaultRMSpropConfig
// returns PyTorch's defaults.
type RMSpropConfig struct {
	// LR is the learning rate η, ≥ 0. Default 1e-2.
	LR float64 `json:"lr"`
	// Alpha is the decay rate α of the squared-gradient average, in [0, 1).
	// Default 0.99.
	Alpha float64 `json:"alpha"`
	// Eps is ε, added to the root of the average, ≥ 0. Default 1e-8.
	Eps float64 `json:"eps"`
	// WeightDecay is the L2 penalty λ added to the gradient, ≥ 0. Default 0.
	WeightDecay float64 `json:"weight_decay"`
	// Momentum is μ, ≥ 0; 0 turns momentum off. Default 0.
	Momentum float64 `json:"momentum"`
	// Centered divides by an estimate of the gradient's variance instead of
	// its second moment (Graves, 2013). Default false.
	Centered bool `json:"centered"`
}

// DefaultRMSpropConfig returns PyTorch's RMSprop defaults: η = 1e-2,
// α = 0.99, ε = 1e-8, no weight decay, no momentum, not centered.
func DefaultRMSpropConfig() RMSpropConfig {
	return RMSpropConfig{LR: 1e-2, Alpha: 0.99, Eps: 1e-8}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c RMSpropConfig) Validate() error {
	if err := checkLR(c.LR); err != nil {
		return err
	}
	for _, e := range []error{
		checkUnit("alpha", c.Alpha, false), checkNonNeg("eps", c.Eps),
		checkNonNeg("weight_decay", c.WeightDecay), checkNonNeg("momentum", c.Momentum),
	} {
		if e != nil {
			return e
		}
	}
	return nil
}

// RMSprop is the RMSprop optimizer (Hinton's lecture 6e) with PyTorch's update
// rule. For each tensor θ with gradient g:
//
//	g ← g + λθ
//	v ← αv + (1 − α)g²
//	ḡ ← αḡ + (1 − α)g,  ṽ = v − ḡ²      (centered; ṽ = v otherwise)
//	b ← μb + g/(√ṽ + ε),  θ ← θ − ηb    (μ > 0)
//	θ ← θ − η·g/(√ṽ + ε)                (μ = 0)
//
// computed in float32 in PyTorch's order of operations; state that falls
// below the smallest normal float32 is flushed to zero.
type RMSprop struct {
	params
	cfg RMSpropConfig
}

// NewRMSprop returns an RMSprop optimizer over the trainable tensors of ps
// (buffers are skipped). It returns cfg.Validate's error.
func NewRMSprop(ps nn.Params, cfg RMSpropConfig) (*RMSprop, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &RMSprop{params: newParams(ps, cfg.LR, rmspropBuffers(cfg)...), cfg: cfg}, nil
}

func rmspropBuffers(c RMSpropConfig) []string {
	names := []string{"square_avg"}
	if c.Centered {
		names = append(names, "grad_avg")
	}
	if c.Momentum > 0 {
		names = append(names, "momentum_buffer")
	}
	return names
}

// Config returns the hyperparameters, with LR the current learning rate.
func (o *RMSprop) Config() RMSpropConfig {
	c := o.cfg
	c.LR = o.lr
	return c
}

// Step updates every tensor that has a gradient and leaves the others alone.
// It does not allocate.
func (o *RMSprop) Step() {
	alpha, ca := float32(o.cfg.Alpha), float32(1-o.cfg.Alpha)
	eps, wd, mu := float32(o.cfg.Eps), float32(o.cfg.WeightDecay), float32(o.cfg.Momentum)
	negLR := float32(-o.lr)
	for k := range o.slots {
		s := &o.slots[k]
		g := s.t.Grad()
		if g == nil {
			continue
		}
		s.step++
		p, sq := s.t.Data()[:len(g)], s.buf[0][:len(g)]
		var ga, b []float32
		next := 1
		if o.cfg.Centered {
			ga = s.buf[next][:len(g)]
			next++
		}
		if o.cfg.Momentum > 0 {
			b = s.buf[next][:len(g)]
		}
		for i, gi := range g {
			if wd != 0 {
				gi += wd * p[i]
			}
			v := flushSubnormal(sq[i]*alpha + ca*gi*gi)
			sq[i] = v
			if ga != nil {
				a := flushSubnormal(ga[i]*alpha + ca*gi)
				ga[i] = a
				v += -a * a
			}
			avg := float32(math.Sqrt(float64(v))) + eps
			if b != nil {
				bi := flushSubnormal(b[i]*mu + gi/avg)
				b[i] = bi
				p[i] += negLR * bi
			} else {
				p[i] += negLR * gi / avg
			}
		}
	}
}

// Save writes the optimizer's state (see the package documentation).
func (o *RMSprop) Save(w io.Writer) error { return o.save(w, "rmsprop", o.Config()) }

// Load restores a state written by Save (see the package documentation).
func (o *RMSprop) Load(r io.Reader) error {
	var cfg RMSpropConfig
	return o.load(r, "rmsprop", &cfg, func() (float64, error) {
		if err := cfg.Validate(); err != nil {
			return 0, err
		}
		if cfg.Centered != o.cfg.Centered || (cfg.Momentum > 0) != (o.cfg.Momentum > 0) {
			return 0, fmt.Errorf("%w: saved with centered %t and momentum %v, loaded into centered %t and momentum %v",
				ErrState, cfg.Centered, cfg.Momentum, o.cfg.Centered, o.cfg.Momentum)
		}
		o.cfg = cfg
		return cfg.LR, nil
	})
}
