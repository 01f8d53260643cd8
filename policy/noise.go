package policy

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// NoiseKind names an exploration noise process for continuous actions.
type NoiseKind string

const (
	// NoNoise adds nothing.
	NoNoise NoiseKind = ""
	// GaussianNoise adds independent N(0, σ²) draws (Tianshou's
	// GaussianNoise, the exploration of TD3).
	GaussianNoise NoiseKind = "gaussian"
	// OUNoise adds an Ornstein–Uhlenbeck process per env and action
	// dimension (Tianshou's OUNoise, the exploration of the DDPG paper).
	OUNoise NoiseKind = "ou"
)

// NoiseConfig configures exploration noise. It is plain data with JSON tags;
// the zero value adds no noise. Noise is added to the policy's raw actions,
// before they are mapped to the action space's bounds (Tianshou's order), so
// σ is in the units of the raw actions ([−1, 1] maps to the bounds when
// actions are scaled).
type NoiseConfig struct {
	// Kind is "" (none), "gaussian" or "ou".
	Kind NoiseKind `json:"kind"`
	// Sigma is σ ≥ 0: the standard deviation of Gaussian noise, the
	// diffusion of OU noise.
	Sigma float64 `json:"sigma"`
	// SigmaFinal and DecaySteps decay a Gaussian σ linearly to SigmaFinal
	// over the first DecaySteps env steps of training (set by Schedule).
	// DecaySteps 0 keeps σ. Default 0.
	SigmaFinal float64 `json:"sigma_final"`
	DecaySteps int64   `json:"decay_steps"`
	// Theta is the OU process's rate of mean reversion θ ≥ 0. Tianshou's
	// default 0.15.
	Theta float64 `json:"theta"`
	// DT is the OU process's time step, > 0; 0 means Tianshou's 0.01.
	DT float64 `json:"dt"`
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c NoiseConfig) Validate() error {
	finite := func(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }
	switch {
	case c.Kind != NoNoise && c.Kind != GaussianNoise && c.Kind != OUNoise:
		return fmt.Errorf("%w: noise kind %q (want \"\", \"gaussian\" or \"ou\")", ErrConfig, c.Kind)
	case !finite(c.Sigma):
		return fmt.Errorf("%w: noise sigma %v; want finite ≥ 0", ErrConfig, c.Sigma)
	case !finite(c.SigmaFinal):
		return fmt.Errorf("%w: noise sigma_final %v; want finite ≥ 0", ErrConfig, c.SigmaFinal)
	case c.DecaySteps < 0:
		return fmt.Errorf("%w: noise decay_steps %d < 0", ErrConfig, c.DecaySteps)
	case !finite(c.Theta):
		return fmt.Errorf("%w: noise theta %v; want finite ≥ 0", ErrConfig, c.Theta)
	case !finite(c.DT):
		return fmt.Errorf("%w: noise dt %v; want finite ≥ 0", ErrConfig, c.DT)
	}
	return nil
}

// Noise is an exploration noise process over the raw actions of k envs.
// Noises with a state per env (Ornstein–Uhlenbeck) keep it in the
// collector's hidden state, which the collector zeroes for an env whose
// episode has just begun: that is the reset at episode ends, per env, and
// the state is saved with the collector's for an exact resume.
type Noise interface {
	// Stateful reports whether the noise keeps a state per env and action
	// dimension.
	Stateful() bool
	// AddTo adds noise to act, k rows of m raw actions, drawing from rng.
	// A stateful noise reads and updates x, its state (len(act) values, zero
	// at an episode's start); others ignore x.
	AddTo(act, x []float32, rng *rand.Rand)
	// Schedule sets the noise for envSteps env steps of training (a
	// decaying σ).
	Schedule(envSteps int64)
}

// NewNoise returns the noise cfg describes, nil for NoNoise. It returns
// Validate's error.
func NewNoise(cfg NoiseConfig) (Noise, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	switch cfg.Kind {
	case GaussianNoise:
		return &Gaussian{Sigma: cfg.Sigma, SigmaFinal: cfg.SigmaFinal, DecaySteps: cfg.DecaySteps, sigma: cfg.Sigma}, nil
	case OUNoise:
		dt := cfg.DT
		if dt == 0 {
			dt = 0.01
		}
		return &OU{Theta: cfg.Theta, Sigma: cfg.Sigma, DT: dt}, nil
	}
	return nil, nil
}

// Gaussian is independent Gaussian noise N(0, σ²) on every action, σ decayed
// linearly from Sigma to SigmaFinal over the first DecaySteps env steps
// (DecaySteps 0: constant).
type Gaussian struct {
	Sigma, SigmaFinal float64
	DecaySteps        int64
	sigma             float64 // current σ
}

// Stateful returns false.
func (*Gaussian) Stateful() bool { return false }

// SigmaNow returns the current σ.
func (g *Gaussian) SigmaNow() float64 { return g.sigma }

// AddTo adds σ·ε, ε ~ N(0, 1) from rng.NormFloat64, to every action.
func (g *Gaussian) AddTo(act, _ []float32, rng *rand.Rand) {
	if g.sigma == 0 {
		return
	}
	for i := range act {
		act[i] += float32(g.sigma * rng.NormFloat64())
	}
}

// Schedule sets σ for envSteps env steps of training.
func (g *Gaussian) Schedule(envSteps int64) {
	if g.DecaySteps <= 0 {
		g.sigma = g.Sigma
		return
	}
	f := math.Min(1, math.Max(0, float64(envSteps)/float64(g.DecaySteps)))
	g.sigma = g.Sigma + (g.SigmaFinal-g.Sigma)*f
}

// OU is an Ornstein–Uhlenbeck process per env and action dimension, in the
// discretization of Tianshou's OUNoise (Uhlenbeck and Ornstein 1930;
// Lillicrap et al. 2016 use it for DDPG):
//
//	xₜ₊₁ = xₜ + θ·(0 − xₜ)·dt + σ·√dt·ε,   ε ~ N(0, 1),   x₀ = 0,
//
// and the action receives xₜ₊₁. The process reverts to 0 at the rate
// (1 − θ·dt) per step; its stationary variance is
// σ²·dt / (1 − (1 − θ·dt)²).
type OU struct {
	Theta, Sigma, DT float64
}

// Stateful returns true.
func (*OU) Stateful() bool { return true }

// AddTo advances x one step and adds it to act. It panics if len(x) !=
// len(act), a programmer error.
func (o *OU) AddTo(act, x []float32, rng *rand.Rand) {
	if len(x) != len(act) {
		panic(fmt.Sprintf("policy: OU.AddTo with %d states for %d actions", len(x), len(act)))
	}
	keep, scale := 1-o.Theta*o.DT, o.Sigma*math.Sqrt(o.DT)
	for i := range act {
		v := keep*float64(x[i]) + scale*rng.NormFloat64()
		x[i] = float32(v)
		act[i] += x[i]
	}
}

// Schedule does nothing.
func (*OU) Schedule(int64) {}
