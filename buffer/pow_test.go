package buffer

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns |got − want| in units in the last place of want.
func ulps(got, want float64) float64 {
	if got == want {
		return 0
	}
	return math.Abs(got-want) / (math.Nextafter(math.Abs(want), math.Inf(1)) - math.Abs(want))
}

// TestExpLog checks the table-driven exp and log against the math
// package (whose results are within one unit in the last place): exp
// within 2 units on [−708, 708], log within 2e-16 in absolute value (what
// exp(y·ln x) needs) or 2 units on normal numbers from 2⁻¹⁰²² to the
// largest, and the fallbacks outside those ranges.
func TestExpLog(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 3))
	for range 200_000 {
		x := (rng.Float64()*2 - 1) * 708
		if rng.IntN(4) == 0 {
			x = (rng.Float64()*2 - 1) * 1e-3 // near 0, where e^x ≈ 1
		}
		if d := ulps(exp(x), math.Exp(x)); d > 2 {
			t.Fatalf("exp(%v) = %v, math.Exp %v: %v ulps", x, exp(x), math.Exp(x), d)
		}
		y := math.Ldexp(1+rng.Float64(), rng.IntN(2046)-1022)
		if rng.IntN(4) == 0 {
			y = 1 + (rng.Float64()*2-1)*1e-3 // near 1, where ln y ≈ 0
		}
		if d := math.Abs(log(y) - math.Log(y)); d > 2e-16 && ulps(log(y), math.Log(y)) > 2 {
			t.Fatalf("log(%v) = %v, math.Log %v: off by %v", y, log(y), math.Log(y), d)
		}
	}
	for _, x := range []float64{0, -0.0, 1, -1, 708, -708, 709, -745, -800, 800, math.Inf(1), math.Inf(-1)} {
		if got, want := exp(x), math.Exp(x); got != want && ulps(got, want) > 2 {
			t.Errorf("exp(%v) = %v, want %v", x, got, want)
		}
	}
	if got := exp(math.NaN()); !math.IsNaN(got) {
		t.Errorf("exp(NaN) = %v", got)
	}
	for _, x := range []float64{1, 2, 0.5, math.MaxFloat64, 0x1p-1022, 0x1p-1074, 5e-324 * 3, 0, math.Inf(1)} {
		if got, want := log(x), math.Log(x); got != want && math.Abs(got-want) > 2e-16 && ulps(got, want) > 2 {
			t.Errorf("log(%v) = %v, want %v", x, got, want)
		}
	}
	for _, x := range []float64{-1, math.NaN()} {
		if got := log(x); !math.IsNaN(got) {
			t.Errorf("log(%v) = %v, want NaN", x, got)
		}
	}
}

// TestPow checks powLn against math.Pow for the exponents priorities and
// weights use (α in (0, 1], −β in [−1, 0)) over the range of priorities,
// and the exact cases.
func TestPow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 4))
	for range 100_000 {
		x := math.Exp((rng.Float64()*2 - 1) * 40) // 4e-18 … 2e17
		y := rng.Float64()*2 - 1
		got, want := powLn(x, log(x), y), math.Pow(x, y)
		if math.Abs(got-want) > 1e-14*want {
			t.Fatalf("powLn(%v, %v) = %v, math.Pow %v", x, y, got, want)
		}
	}
	for _, c := range []struct{ x, y, want float64 }{
		{3, 1, 3}, {4, -1, 0.25}, {9, 0.5, 3}, {16, -0.5, 0.25}, {1, 0.6, 1}, {2, 0, 1},
	} {
		if got := powLn(c.x, log(c.x), c.y); got != c.want && math.Abs(got-c.want) > 1e-15 {
			t.Errorf("powLn(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

// BenchmarkPow64 is the priority transform of one UpdateWeight of 64:
// log and powLn from this file against math.Pow.
func BenchmarkPow64(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 64)
	for k := range xs {
		xs[k] = rng.ExpFloat64() + 1e-7
	}
	var out [64]float64
	for _, c := range []struct {
		name string
		f    func(x, y float64) float64
	}{{"powLn", func(x, y float64) float64 { return powLn(x, log(x), y) }}, {"math.Pow", math.Pow}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for k, x := range xs {
					out[k] = c.f(x, 0.6)
				}
			}
		})
	}
}
