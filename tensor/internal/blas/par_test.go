package blas

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/internal/par"
)

// TestGemmTiles checks products large enough to be cut into tiles (along the
// rows and along the columns, every transposition, with padded strides and
// beta 0 and 1) against the float64 definition, and that 1, 2 and 5 workers
// give the same bits.
func TestGemmTiles(t *testing.T) {
	defer par.SetWorkers(0)
	rng := rand.New(rand.NewPCG(3, 3))
	for _, s := range []struct{ m, n, k int }{
		{1024, 48, 200}, // cut along the rows
		{40, 700, 400},  // cut along the columns
	} {
		if s.m*s.n*s.k < ParWork {
			t.Fatalf("%v is below ParWork and would not be cut", s)
		}
		for _, tA := range []bool{false, true} {
			for _, tB := range []bool{false, true} {
				for _, beta := range []float32{0, 1} {
					lda, ldb, ldc := s.k+3, s.n+1, s.n+2
					if tA {
						lda = s.m + 3
					}
					if tB {
						ldb = s.k + 1
					}
					ar, br := s.m, s.k
					if tA {
						ar = s.k
					}
					if tB {
						br = s.n
					}
					a, b := randSlice(rng, ar*lda), randSlice(rng, br*ldb)
					c0 := randSlice(rng, s.m*ldc)
					want := naiveGemm(tA, tB, s.m, s.n, s.k, 0.5, a, lda, b, ldb, beta, c0, ldc)
					var first []float32
					for _, w := range []int{1, 2, 5} {
						par.SetWorkers(w)
						c := append([]float32(nil), c0...)
						Gemm(tA, tB, s.m, s.n, s.k, 0.5, a, lda, b, ldb, beta, c, ldc)
						for i := 0; i < s.m; i++ {
							for j := 0; j < s.n; j++ {
								got, exp := float64(c[i*ldc+j]), want[i*s.n+j]
								if math.Abs(got-exp) > 1e-3*(1+math.Abs(exp)) {
									t.Fatalf("%v tA=%t tB=%t beta=%v workers=%d: C[%d,%d] = %v, want %v", s, tA, tB, beta, w, i, j, got, exp)
								}
							}
							for j := s.n; j < ldc; j++ { // the padding stays
								if c[i*ldc+j] != c0[i*ldc+j] {
									t.Fatalf("%v tA=%t tB=%t: padding C[%d,%d] written", s, tA, tB, i, j)
								}
							}
						}
						if first == nil {
							first = c
						} else if !bitsEqual(first, c) {
							t.Fatalf("%v tA=%t tB=%t beta=%v: %d workers differ from one", s, tA, tB, beta, w)
						}
					}
				}
			}
		}
	}
}

func bitsEqual(a, b []float32) bool {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}
