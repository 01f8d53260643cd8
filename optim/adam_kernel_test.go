package optim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAdamKernel checks adamUpdate (the assembly kernel where there is one)
// against adamGo bit for bit (any NaN matching any NaN: which operand's NaN
// an x86 instruction passes on depends on register allocation), for every length up to 35 (whole blocks of four
// and each remainder), with special values among the inputs: zeros of both
// signs, ±Inf, NaN, subnormal and tiny moments that the flush must zero, and
// gradients whose squares underflow.
func TestAdamKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), 1e-40, -3e-39, 1e-30, 1e-20, 0x1p-126, 3e38}
	pick := func() float32 {
		if rng.IntN(4) == 0 {
			return special[rng.IntN(len(special))]
		}
		return float32(rng.NormFloat64())
	}
	coefs := []adamCoef{
		{b1: 0.9, c1: 0.1, b2: 0.999, c2: 0.001, step: -1e-3 * 0.0316, eps: 1e-8 * 0.0316, decay: 1},
		{b1: 0.5, c1: 0.5, b2: 0.5, c2: 0.5, step: -0.1, eps: 0, decay: 0.99}, // AdamW, no ε
	}
	for n := 0; n <= 35; n++ {
		for ci, k := range coefs {
			p, g, m, v := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
			for i := range g {
				p[i], g[i], m[i], v[i] = pick(), pick(), pick(), float32(math.Abs(float64(pick())))
			}
			want := [4][]float32{clone(p), clone(g), clone(m), clone(v)}
			adamGo(want[0], want[1], want[2], want[3], nil, &k)
			for step := 0; step < 2; step++ { // the second step starts from flushed moments
				if step == 1 {
					adamGo(want[0], want[1], want[2], want[3], nil, &k)
				}
				adamUpdate(p, g, m, v, nil, &k)
				for j, got := range [4][]float32{p, g, m, v} {
					for i := range got {
						if !sameBits(got[i], want[j][i]) {
							t.Fatalf("n=%d coefficients %d step %d: %s[%d] = %g (%#x), want %g (%#x)",
								n, ci, step, "pgmv"[j:j+1], i, got[i], math.Float32bits(got[i]), want[j][i], math.Float32bits(want[j][i]))
						}
					}
				}
			}
		}
	}
}

// TestAdamGoFlushes checks the flush inside the update: a moment decaying
// below the smallest normal float32 (2⁻¹²⁶ ≈ 1.18e-38) becomes 0, one just
// above stays, and a zero gradient leaves the parameter alone.
func TestAdamGoFlushes(t *testing.T) {
	k := adamCoef{b1: 0.5, c1: 0.5, b2: 0.5, c2: 0.5, step: -1, eps: 1, decay: 1}
	for _, tc := range []struct{ m, wantM float32 }{
		{0x1p-126, 0},        // 2⁻¹²⁷ is subnormal
		{0x1p-125, 0x1p-126}, // 2⁻¹²⁶ is the smallest normal
		{-0x1p-126, 0},       // sign does not matter
		{3, 1.5},             // ordinary values decay exactly
	} {
		p, m, v := []float32{2}, []float32{tc.m}, []float32{tc.m * tc.m}
		adamUpdate(p, []float32{0}, m, v, nil, &k)
		if m[0] != tc.wantM {
			t.Errorf("m = %g: flushed to %g, want %g", tc.m, m[0], tc.wantM)
		}
	}
}

// sameBits reports whether a and b are the same float32, bit for bit, or
// both NaN.
func sameBits(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}

func clone(s []float32) []float32 { return append([]float32(nil), s...) }
