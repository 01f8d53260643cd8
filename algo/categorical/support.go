package categorical

import (
	"fmt"
	"math"
)

// Support is the fixed set of atoms of a categorical return distribution:
// zⱼ = VMin + j·Δz, j = 0 … N−1, Δz = (VMax − VMin)/(N − 1) (Bellemare et al.,
// "A Distributional Perspective on Reinforcement Learning", 2017).
type Support struct {
	z          []float64
	vmin, vmax float64
	dz         float64
}

// NewSupport returns the support of n ≥ 2 atoms over [vmin, vmax]. It
// returns an error wrapping ErrConfig for fewer atoms or bounds that are not
// finite with vmin < vmax.
func NewSupport(n int, vmin, vmax float64) (Support, error) {
	if n < 2 || math.IsInf(vmin, 0) || math.IsInf(vmax, 0) || !(vmin < vmax) {
		return Support{}, fmt.Errorf("%w: support of %d atoms over [%v, %v]", ErrConfig, n, vmin, vmax)
	}
	s := Support{z: make([]float64, n), vmin: vmin, vmax: vmax, dz: (vmax - vmin) / float64(n-1)}
	for j := range s.z {
		s.z[j] = vmin + float64(j)*s.dz
	}
	s.z[n-1] = vmax
	return s, nil
}

// Atoms returns the atoms zⱼ; the slice is the support's own.
func (s Support) Atoms() []float64 { return s.z }

// Len returns the number of atoms.
func (s Support) Len() int { return len(s.z) }

// Mean returns Σⱼ pⱼ·zⱼ, the expected value of the distribution p over the
// atoms.
func (s Support) Mean(p []float32) float64 {
	var m float64
	for j, z := range s.z {
		m += float64(p[j]) * z
	}
	return m
}

// ProjectTo stores in dst the projection onto the support of the
// distribution that puts probability p[j] on r + d·zⱼ, the distributional
// Bellman target of an n-step return (r the discounted rewards, d = γᵐ, or 0
// after a terminal step so that all mass sits at r). Each shifted atom is
// first clamped to [VMin, VMax], then its probability is split between the
// two atoms around it in proportion to its closeness to each (all to one
// atom when it falls on it): the projection Φ of Bellemare et al.,
// Algorithm 1. dst sums to what p sums to.
//
// ProjectTo does not allocate. It panics with an error if dst or p does not
// have one element per atom.
func (s Support) ProjectTo(dst, p []float32, r, d float64) {
	n := len(s.z)
	if len(dst) != n || len(p) != n {
		panic(fmt.Sprintf("categorical: ProjectTo of %d probabilities into %d for %d atoms", len(p), len(dst), n))
	}
	clear(dst)
	for j, z := range s.z {
		tz := min(max(r+d*z, s.vmin), s.vmax)
		b := (tz - s.vmin) / s.dz
		l := int(math.Floor(b))
		if l >= n-1 {
			dst[n-1] += p[j]
			continue
		}
		f := b - float64(l) // distance above atom l, in [0, 1)
		dst[l] += float32(float64(p[j]) * (1 - f))
		dst[l+1] += float32(float64(p[j]) * f)
	}
}
