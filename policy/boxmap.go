package policy

import (
	"fmt"
	"math"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// Bound names how a continuous policy's raw actions are bounded before they
// reach the env, Tianshou's action_bound_method.
type Bound string

const (
	// NoBound passes raw actions on unchanged.
	NoBound Bound = ""
	// Clip clips raw actions to [−1, 1] when Scale is set, and to the
	// Box's bounds otherwise.
	Clip Bound = "clip"
	// Tanh squashes raw actions into (−1, 1) with tanh.
	Tanh Bound = "tanh"
)

// BoxMapConfig configures the mapping of a Box's actions. The zero value
// maps nothing.
type BoxMapConfig struct {
	// Bound bounds raw actions ("", "clip" or "tanh"). Default "": none.
	Bound Bound `json:"bound"`
	// Scale rescales bounded actions from [−1, 1] to the Box's bounds,
	// low + (high − low)·(a + 1)/2 (Tianshou's action_scaling). It needs
	// finite bounds. Default false.
	Scale bool `json:"scale"`
}

// Validate returns an error wrapping ErrConfig for an unknown Bound.
func (c BoxMapConfig) Validate() error {
	switch c.Bound {
	case NoBound, Clip, Tanh:
		return nil
	}
	return fmt.Errorf("%w: unknown action bound %q (want \"\", \"clip\" or \"tanh\")", ErrConfig, c.Bound)
}

// BoxMap maps the raw actions of a continuous policy to a Box's actions,
// Tianshou's map_action: a = bound(raw), then, with Scale, low + (high −
// low)·(a + 1)/2. Its inverse maps env actions back (map_action_inverse),
// which random collection uses to store actions in the policy's form. It is
// what Actor's MapActionTo does for a Box.
type BoxMap struct {
	cfg       BoxMapConfig
	low, high []float64
}

// NewBoxMap returns the mapping of cfg for the Box space. It returns
// Validate's error, and an error wrapping ErrConfig when Scale is set and a
// bound of the Box is infinite.
func NewBoxMap(space *env.Box, cfg BoxMapConfig) (*BoxMap, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	low, err := space.Low().AsType(nd.Float64)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	high, err := space.High().AsType(nd.Float64)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	m := &BoxMap{cfg: cfg, low: nd.ToSlice[float64](low), high: nd.ToSlice[float64](high)}
	if cfg.Scale {
		for i := range m.low {
			if math.IsInf(m.low[i], 0) || math.IsInf(m.high[i], 0) {
				return nil, fmt.Errorf("%w: scaling actions needs finite bounds, not %v", ErrConfig, space)
			}
		}
	}
	return m, nil
}

// check returns an error wrapping ErrAction unless a and b are contiguous
// float32 or float64 arrays of the same shape [k, m], m the Box's size.
func (m *BoxMap) check(a, b *nd.Array) error {
	for _, x := range []*nd.Array{a, b} {
		if x.Ndim() != 2 || x.Dim(1) != len(m.low) || !x.IsContiguous() ||
			(x.DType() != nd.Float32 && x.DType() != nd.Float64) {
			return fmt.Errorf("%w: actions of shape %v, dtype %v; want contiguous float [k, %d]", ErrAction, x.Shape(), x.DType(), len(m.low))
		}
	}
	if a.Dim(0) != b.Dim(0) {
		return fmt.Errorf("%w: %d env actions for %d actions", ErrAction, a.Dim(0), b.Dim(0))
	}
	return nil
}

// MapActionTo writes into env the mapped actions act. Both are contiguous
// float arrays [k, m]. It returns an error wrapping ErrAction otherwise.
func (m *BoxMap) MapActionTo(env, act *nd.Array) error {
	if err := m.check(env, act); err != nil {
		return err
	}
	d := len(m.low)
	n := act.Size()
	for i := 0; i < n; i++ {
		j := i % d
		a := get(act, i)
		switch m.cfg.Bound {
		case Clip:
			lo, hi := -1.0, 1.0
			if !m.cfg.Scale {
				lo, hi = m.low[j], m.high[j]
			}
			a = math.Min(math.Max(a, lo), hi)
		case Tanh:
			a = math.Tanh(a)
		}
		if m.cfg.Scale {
			a = m.low[j] + (m.high[j]-m.low[j])*(a+1)/2
		}
		set(env, i, a)
	}
	return nil
}

// UnmapActionTo writes into act the raw actions whose mapping is env:
// with Scale, 2·(e − low)/(high − low) − 1, then atanh for Tanh (clipping
// to ±(1 − 10⁻⁶) first, so that bounds stay finite). Clipping has no inverse
// and is left as it is. It returns an error wrapping ErrAction as
// MapActionTo does.
func (m *BoxMap) UnmapActionTo(act, env *nd.Array) error {
	if err := m.check(env, act); err != nil {
		return err
	}
	d := len(m.low)
	n := env.Size()
	for i := 0; i < n; i++ {
		j := i % d
		a := get(env, i)
		if m.cfg.Scale {
			a = (a-m.low[j])*2/(m.high[j]-m.low[j]) - 1
		}
		if m.cfg.Bound == Tanh {
			const lim = 1 - 1e-6
			a = math.Atanh(math.Min(math.Max(a, -lim), lim))
		}
		set(act, i, a)
	}
	return nil
}

func get(a *nd.Array, i int) float64 {
	if a.DType() == nd.Float32 {
		return float64(nd.Data[float32](a)[i])
	}
	return nd.Data[float64](a)[i]
}

func set(a *nd.Array, i int, v float64) {
	if a.DType() == nd.Float32 {
		nd.Data[float32](a)[i] = float32(v)
		return
	}
	nd.Data[float64](a)[i] = v
}
