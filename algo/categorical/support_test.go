package categorical_test

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/categorical"
)

// project64 is the reference projection, written as Tianshou writes it
// rather than as ProjectTo computes it: every target atom i receives
// Σⱼ pⱼ·max(0, 1 − |clamp(r + d·zⱼ) − zᵢ|/Δz), the triangular kernel of
// width Δz around it.
func project64(z, p []float64, r, d float64) []float64 {
	dz := z[1] - z[0]
	out := make([]float64, len(z))
	for i, zi := range z {
		for j, zj := range z {
			tz := math.Min(math.Max(r+d*zj, z[0]), z[len(z)-1])
			out[i] += p[j] * math.Max(0, 1-math.Abs(tz-zi)/dz)
		}
	}
	return out
}

func TestProjectTo(t *testing.T) {
	p := []float64{0.1, 0.2, 0.3, 0.25, 0.15}
	for _, tc := range []struct {
		name       string
		vmin, vmax float64
		r, d       float64
		want       []float64 // by hand where short; else nil for project64
	}{
		// d = 1, r = 0: every atom maps onto itself.
		{"identity", -2, 2, 0, 1, []float64{0.1, 0.2, 0.3, 0.25, 0.15}},
		// r = 1, d = 1: each atom moves one up; the top two land on 2
		// (3 clamped): (0, 0.1, 0.2, 0.3, 0.25 + 0.15).
		{"shift beyond v_max", -2, 2, 1, 1, []float64{0, 0.1, 0.2, 0.3, 0.4}},
		// r = −5: every atom below v_min, all mass on −2.
		{"all below v_min", -2, 2, -5, 0.9, []float64{1, 0, 0, 0, 0}},
		// A terminal step (d = 0) at r = −0.25: all mass at −0.25, split
		// 0.25 to −1 and 0.75 to 0.
		{"terminal between atoms", -2, 2, -0.25, 0, []float64{0, 0.25, 0.75, 0, 0}},
		// A terminal step on an atom.
		{"terminal on an atom", -2, 2, 1, 0, []float64{0, 0, 0, 1, 0}},
		// A terminal step above v_max.
		{"terminal above v_max", -2, 2, 7, 0, []float64{0, 0, 0, 0, 1}},
		// Fractional shifts and scales, some atoms outside: the reference.
		{"shift and scale", -2, 2, 0.55, 0.81, nil},
		{"scale and clamp", -2, 2, 1.1, 0.81, nil},
		{"negative shift", -1, 3, -0.7, 0.9, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := categorical.NewSupport(len(p), tc.vmin, tc.vmax)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if want == nil {
				want = project64(s.Atoms(), p, tc.r, tc.d)
			} else if ref := project64(s.Atoms(), p, tc.r, tc.d); !close64(ref, want, 1e-12) {
				t.Fatalf("the reference gives %v for the hand-computed %v", ref, want)
			}
			p32 := make([]float32, len(p))
			for i, v := range p {
				p32[i] = float32(v)
			}
			got := make([]float32, len(p))
			got[0] = 9 // ProjectTo overwrites
			s.ProjectTo(got, p32, tc.r, tc.d)
			g64 := make([]float64, len(got))
			sum := 0.0
			for i, v := range got {
				g64[i], sum = float64(v), sum+float64(v)
			}
			if !close64(g64, want, 1e-6) {
				t.Errorf("ProjectTo = %v, want %v", got, want)
			}
			if !scalar.EqualWithinAbs(sum, 1, 1e-6) {
				t.Errorf("projection sums to %v, want 1", sum)
			}
		})
	}
}

func close64(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !scalar.EqualWithinAbs(a[i], b[i], tol) {
			return false
		}
	}
	return true
}

func TestNewSupport(t *testing.T) {
	s, err := categorical.NewSupport(51, -10, 10)
	if err != nil {
		t.Fatal(err)
	}
	if z := s.Atoms(); z[0] != -10 || z[50] != 10 || !scalar.EqualWithinAbs(z[26]-z[25], 0.4, 1e-12) {
		t.Errorf("atoms %v… %v, want −10 … 10 by 0.4", z[:3], z[48:])
	}
	for _, tc := range []struct {
		n          int
		vmin, vmax float64
	}{{1, -1, 1}, {5, 1, 1}, {5, 2, 1}, {5, math.Inf(-1), 1}, {5, math.NaN(), 1}} {
		if _, err := categorical.NewSupport(tc.n, tc.vmin, tc.vmax); !errors.Is(err, categorical.ErrConfig) {
			t.Errorf("NewSupport(%d, %v, %v): %v, want ErrConfig", tc.n, tc.vmin, tc.vmax, err)
		}
	}
}
