package optim

import (
	"fmt"
	"io"
	"math"

	"github.com/gorl/gorl/nn"
)

// AdamConfig holds the hyperparameters of Adam and AdamW. DefaultAdamConfig
// and DefaultAdamWConfig return PyTorch's defaults.
type AdamConfig struct {
	// LR is the learning rate η, ≥ 0. Default 1e-3.
	LR float64 `json:"lr"`
	// Beta1 and Beta2 are the decay rates β₁, β₂ of the moment estimates, in
	// [0, 1). Defaults 0.9 and 0.999.
	Beta1 float64 `json:"beta1"`
	Beta2 float64 `json:"beta2"`
	// Eps is ε, added to the denominator after the bias-corrected square
	// root, ≥ 0. Default 1e-8.
	Eps float64 `json:"eps"`
	// WeightDecay is λ, ≥ 0: an L2 penalty added to the gradient (Adam), or,
	// with Decoupled, a decay of the parameters by η·λ each step (AdamW).
	// Default 0 for Adam, 0.01 for AdamW.
	WeightDecay float64 `json:"weight_decay"`
	// AMSGrad uses the maximum of the second-moment estimates so far
	// (Reddi et al., 2018). Default false.
	AMSGrad bool `json:"amsgrad"`
	// Decoupled makes the weight decay AdamW's (Loshchilov and Hutter, 2019).
	// Default false for Adam, true for AdamW.
	Decoupled bool `json:"decoupled"`
}

// DefaultAdamConfig returns PyTorch's Adam defaults: η = 1e-3, β = (0.9,
// 0.999), ε = 1e-8, no weight decay.
func DefaultAdamConfig() AdamConfig {
	return AdamConfig{LR: 1e-3, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}
}

// DefaultAdamWConfig returns PyTorch's AdamW defaults: Adam's with decoupled
// weight decay λ = 0.01.
func DefaultAdamWConfig() AdamConfig {
	c := DefaultAdamConfig()
	c.WeightDecay, c.Decoupled = 0.01, true
	return c
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c AdamConfig) Validate() error {
	if err := checkLR(c.LR); err != nil {
		return err
	}
	for _, e := range []error{
		checkUnit("beta1", c.Beta1, false), checkUnit("beta2", c.Beta2, false),
		checkNonNeg("eps", c.Eps), checkNonNeg("weight_decay", c.WeightDecay),
	} {
		if e != nil {
			return e
		}
	}
	return nil
}

// Adam is the Adam optimizer (Kingma and Ba, 2015) with PyTorch's update
// rule, or AdamW with AdamConfig.Decoupled. For each tensor θ with gradient g
// at its step t:
//
//	g ← g + λθ                       (L2 weight decay, Adam)
//	θ ← θ·(1 − ηλ)                   (decoupled weight decay, AdamW)
//	m ← β₁m + (1 − β₁)g
//	v ← β₂v + (1 − β₂)g²
//	v̂ ← max(v̂, v) with AMSGrad, v̂ = v otherwise
//	θ ← θ − η/(1 − β₁ᵗ) · m / (√v̂ / √(1 − β₂ᵗ) + ε)
//
// computed in float32 (the bias corrections in float64). The last line is
// evaluated as θ + s·m / (√v̂ + ε′) with s = −η·√(1 − β₂ᵗ)/(1 − β₁ᵗ) and
// ε′ = ε·√(1 − β₂ᵗ), the same quantity with one division per element
// instead of two; results differ from PyTorch's by float32 rounding (a few
// units in the last place). Moments that fall below the smallest normal
// float32 are flushed to zero (see the package documentation).
type Adam struct {
	params
	cfg  AdamConfig
	task adamStep
}

// NewAdam returns an Adam optimizer over the trainable tensors of ps (buffers
// are skipped), with zeroed moments. It returns cfg.Validate's error.
func NewAdam(ps nn.Params, cfg AdamConfig) (*Adam, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	names := []string{"exp_avg", "exp_avg_sq"}
	if cfg.AMSGrad {
		names = append(names, "max_exp_avg_sq")
	}
	return &Adam{params: newParams(ps, cfg.LR, names...), cfg: cfg}, nil
}

// Config returns the hyperparameters, with LR the current learning rate.
func (a *Adam) Config() AdamConfig {
	c := a.cfg
	c.LR = a.lr
	return c
}

// Step updates every tensor that has a gradient and leaves the others (and
// their step counts) alone. It does not allocate.
func (a *Adam) Step() {
	k := adamCoef{
		b1: float32(a.cfg.Beta1), c1: float32(1 - a.cfg.Beta1),
		b2: float32(a.cfg.Beta2), c2: float32(1 - a.cfg.Beta2),
		decay: 1,
	}
	if a.cfg.WeightDecay != 0 {
		if a.cfg.Decoupled {
			k.decay = float32(1 - a.lr*a.cfg.WeightDecay)
		} else {
			k.l2 = float32(a.cfg.WeightDecay)
		}
	}
	for i := range a.slots {
		s := &a.slots[i]
		g := s.t.Grad()
		if g == nil {
			continue
		}
		s.step++
		t := float64(s.step)
		bc2s := math.Sqrt(1 - math.Pow(a.cfg.Beta2, t))
		k.step = float32(-a.lr / (1 - math.Pow(a.cfg.Beta1, t)) * bc2s)
		k.eps = float32(a.cfg.Eps * bc2s)
		var vmax []float32
		if a.cfg.AMSGrad {
			vmax = s.buf[2]
		}
		a.task.add(s.t.Data(), g, s.buf[0], s.buf[1], vmax, &k)
	}
	a.task.run()
}

// Save writes the optimizer's state (see the package documentation).
func (a *Adam) Save(w io.Writer) error { return a.save(w, "adam", a.Config()) }

// Load restores a state written by Save (see the package documentation).
func (a *Adam) Load(r io.Reader) error {
	var cfg AdamConfig
	return a.load(r, "adam", &cfg, func() (float64, error) {
		if err := cfg.Validate(); err != nil {
			return 0, err
		}
		if cfg.AMSGrad != a.cfg.AMSGrad {
			return 0, fmt.Errorf("%w: saved with AMSGrad %t, loaded into AMSGrad %t", ErrState, cfg.AMSGrad, a.cfg.AMSGrad)
		}
		a.cfg = cfg
		return cfg.LR, nil
	})
}
