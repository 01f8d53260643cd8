package policy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// HoldConfig configures temporally extended ε-greedy exploration (εz-greedy,
// Dabney, Ostrovski and Barreto, "Temporally-Extended ε-Greedy
// Exploration", ICLR 2021): an env that explores draws a random action and
// a duration n, and takes that action for n steps before the next ε-greedy
// choice. The durations follow a zeta distribution truncated to
// 1…MaxDuration, P(n) ∝ n^−μ. The zero value is off: plain ε-greedy, one
// step per random action.
type HoldConfig struct {
	// Mu is the exponent μ ≥ 0 of the durations' distribution; the paper's
	// is 2. μ 0 makes every duration in 1…MaxDuration equally likely.
	Mu float64 `json:"mu"`
	// MaxDuration is the longest duration, in env steps, at most 65536; 0
	// turns the option off.
	MaxDuration int `json:"max_duration"`
}

// maxHold bounds MaxDuration, and with it the table of the distribution.
const maxHold = 1 << 16

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c HoldConfig) Validate() error {
	switch {
	case !(c.Mu >= 0) || math.IsInf(c.Mu, 0):
		return fmt.Errorf("%w: hold mu %v; want finite ≥ 0", ErrConfig, c.Mu)
	case c.MaxDuration < 0 || c.MaxDuration > maxHold:
		return fmt.Errorf("%w: hold max_duration %d outside [0, %d]", ErrConfig, c.MaxDuration, maxHold)
	}
	return nil
}

// Hold is the state machine of temporally extended ε-greedy exploration
// over k envs of m discrete actions each. Its state per env, one int64 row
// [remaining steps, held action…] of 1+m values, lives in the collector's
// hidden state: the collector zeroes the row of an env whose episode has
// just begun (a new episode starts without a held action) and saves it
// with its own state for an exact resume.
type Hold struct {
	cdf []float64 // cdf[n-1] = P(duration ≤ n)

	// ApplyDiscrete's space, masks and source during a call
	n      int
	start  int64
	mask   []float32
	rng    *rand.Rand
	drawFn func(row int, a []int64)
}

// NewHold returns the Hold cfg describes, nil when cfg is off. It returns
// Validate's error.
func NewHold(cfg HoldConfig) (*Hold, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.MaxDuration == 0 {
		return nil, nil
	}
	cdf := make([]float64, cfg.MaxDuration)
	sum := 0.0
	for n := range cdf {
		sum += math.Pow(float64(n+1), -cfg.Mu)
		cdf[n] = sum
	}
	for n := range cdf {
		cdf[n] /= sum
	}
	cdf[len(cdf)-1] = 1
	h := &Hold{cdf: cdf}
	h.drawFn = h.drawDiscrete
	return h, nil
}

// Duration draws a duration in 1…MaxDuration with one uniform number from
// rng (the inverse of the distribution function).
func (h *Hold) Duration(rng *rand.Rand) int64 {
	u := rng.Float64()
	return int64(sort.SearchFloat64s(h.cdf, u)) + 1
}

// Apply makes the ε-greedy choice of k envs with m actions each: act holds
// their k·m greedy actions (row-major) on entry and the actions to take on
// return. An env still holding a random action takes it and counts one
// step down; an env holding none explores with probability eps (one
// uniform number from rng): it draws a duration and, through draw(i, a),
// the random action a (m values) of row i, and takes it for that many
// steps, this one included. Otherwise it keeps its greedy action.
//
// state is the rows Apply wrote before for these envs (nil, or an int64
// *nd.Array [k, 1+m]; nil and zero rows hold nothing); Apply writes the new
// rows under "state" in dst, reusing the array there. It does not allocate
// when dst is the previous call's. It returns an error wrapping ErrConfig
// for a state of another shape or dtype.
func (h *Hold) Apply(dst *batch.Batch, act []int64, state any, k, m int, eps float64,
	rng *rand.Rand, draw func(row int, a []int64)) error {
	st := holdState(dst, k, 1+m)
	s := nd.Data[int64](st)
	if prev, ok := state.(*nd.Array); ok && prev != nil {
		if prev.DType() != nd.Int64 || prev.Ndim() != 2 || prev.Dim(0) != k || prev.Dim(1) != 1+m {
			return fmt.Errorf("%w: hold state %v of shape %v; want int64 [%d, %d]", ErrConfig, prev.DType(), prev.Shape(), k, 1+m)
		}
		if prev != st {
			if err := nd.CopyTo(st, prev); err != nil {
				return fmt.Errorf("%w: hold state: %w", ErrConfig, err)
			}
		}
	} else {
		clear(s)
	}
	for i := range k {
		row := s[i*(1+m) : (i+1)*(1+m)]
		if row[0] <= 0 {
			row[0] = 0
			if eps > 0 && rng.Float64() < eps {
				row[0] = h.Duration(rng)
				draw(i, row[1:])
			}
		}
		if row[0] > 0 {
			copy(act[i*m:(i+1)*m], row[1:])
			row[0]--
		}
	}
	return nil
}

// ApplyDiscrete is Apply for k envs of one action each in a Discrete space
// of n actions from start: the random action is uniform over the n actions,
// or over those the env's row of mask allows (mask: k·n values, 0 for a
// forbidden action; nil for none). A held action the mask no longer allows
// is replaced, for that step, by a random allowed one.
func (h *Hold) ApplyDiscrete(dst *batch.Batch, act []int64, state any, k, n int, start int64, mask []float32,
	eps float64, rng *rand.Rand) error {
	h.n, h.start, h.mask, h.rng = n, start, mask, rng
	err := h.Apply(dst, act, state, k, 1, eps, rng, h.drawFn)
	h.mask, h.rng = nil, nil
	if err != nil || mask == nil {
		return err
	}
	for i, a := range act[:k] {
		if mask[i*n+int(a-start)] == 0 {
			act[i] = start + int64(env.SampleValid(mask[i*n:(i+1)*n], rng))
		}
	}
	return nil
}

// drawDiscrete draws ApplyDiscrete's random action of row i into a.
func (h *Hold) drawDiscrete(i int, a []int64) {
	if h.mask != nil {
		a[0] = h.start + int64(env.SampleValid(h.mask[i*h.n:(i+1)*h.n], h.rng))
		return
	}
	a[0] = h.start + h.rng.Int64N(int64(h.n))
}

// holdState returns the int64 array [k, w] under "state" in dst, made when
// missing or of another shape.
func holdState(dst *batch.Batch, k, w int) *nd.Array {
	if v, ok := dst.Get(batch.KeyState); ok {
		if a, ok := v.(*nd.Array); ok && a.DType() == nd.Int64 && a.IsContiguous() && a.Ndim() == 2 && a.Dim(0) == k && a.Dim(1) == w {
			return a
		}
	}
	a := nd.Zeros(nd.Int64, k, w)
	if err := dst.Set(batch.KeyState, a); err != nil {
		panic(err) // a valid key and an array
	}
	return a
}
