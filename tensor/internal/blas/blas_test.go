package blas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/gorl/gorl/internal/cputime"
)

// naiveGemm is the float64 textbook definition the fast paths are checked
// against.
func naiveGemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) []float64 {
	out := make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for l := 0; l < k; l++ {
				ai, bi := i*lda+l, l*ldb+j
				if tA {
					ai = l*lda + i
				}
				if tB {
					bi = j*ldb + l
				}
				av, bv := a[ai], b[bi]
				s += float64(av) * float64(bv)
			}
			out[i*n+j] = float64(alpha)*s + float64(beta)*float64(c[i*ldc+j])
		}
	}
	return out
}

func randSlice(rng *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.NormFloat64())
	}
	return s
}

func TestGemm(t *testing.T) {
	t.Logf("implementation: %s (OpenBLAS: %v)", Name(), LoadError())
	rng := rand.New(rand.NewPCG(1, 2))
	// Sizes: tiny, narrow (n < narrowRows), short (k < shortDot), across
	// gonum's 64-row and 192-column tiles, and with k = 0. Each is computed
	// by Gemm (whatever path it dispatches to) and by smallGemm directly.
	// With OpenBLAS on SkylakeX, 16×128×128 (x·Wᵀ) and 40×30×1000 are
	// computed in blocks (see splitPlan); with gonum, 16×128×4 and 9×30×7
	// with B transposed go through gonumSmallK.
	sizes := [][3]int{{1, 1, 1}, {3, 5, 2}, {1, 128, 4}, {9, 3, 40}, {16, 16, 16}, {17, 17, 17}, {65, 200, 33}, {130, 70, 129}, {4, 5, 0},
		{16, 128, 128}, {40, 30, 1000}, {16, 128, 4}, {9, 30, 7}}
	for _, sz := range sizes {
		m, n, k := sz[0], sz[1], sz[2]
		for _, tt := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
			for _, ab := range [][2]float32{{1, 0}, {1, 1}, {-0.5, 2}} {
				tA, tB := tt[0], tt[1]
				// Row strides one larger than needed test the ld arguments.
				lda, ldb, ldc := k+1, n+1, n+2
				if tA {
					lda = m + 1
				}
				if tB {
					ldb = k + 1
				}
				ra, rb := m, k
				if tA {
					ra = k
				}
				if tB {
					rb = n
				}
				a := randSlice(rng, ra*lda)
				b := randSlice(rng, rb*ldb)
				c0 := randSlice(rng, m*ldc)
				if ab[1] == 0 {
					for i := range c0 {
						c0[i] = float32(math.NaN()) // beta = 0 must ignore C
					}
				}
				want := naiveGemm(tA, tB, m, n, k, ab[0], a, lda, b, ldb, ab[1], c0, ldc)
				for _, impl := range []struct {
					name string
					f    gemmFunc
				}{{"Gemm", Gemm}, {"smallGemm", smallGemm}} {
					c := append([]float32(nil), c0...)
					impl.f(tA, tB, m, n, k, ab[0], a, lda, b, ldb, ab[1], c, ldc)
					name := fmt.Sprintf("%s %v tA=%v tB=%v alpha=%v beta=%v", impl.name, sz, tA, tB, ab[0], ab[1])
					for i := 0; i < m; i++ {
						for j := 0; j < n; j++ {
							got, w := float64(c[i*ldc+j]), want[i*n+j]
							// float32 accumulation of k products of unit normals.
							if math.Abs(got-w) > 1e-5*float64(k+1)*(1+math.Abs(w)) {
								t.Fatalf("%s: C[%d,%d] = %v, want %v", name, i, j, got, w)
							}
						}
						// The padding between rows of C is not written.
						for j := n; j < ldc && i < m-1; j++ {
							if math.Float32bits(c[i*ldc+j]) != math.Float32bits(c0[i*ldc+j]) {
								t.Fatalf("%s: padding written", name)
							}
						}
					}
				}
			}
		}
	}
}

// TestSplitGemm checks splitPlan's blocks against OpenBLAS's limits for its
// small kernels, and splitGemm's result against the naive product, with
// smallGemm computing the blocks.
func TestSplitGemm(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		tA, tB  bool
		m, n, k int
		split   bool
	}{
		{false, true, 16, 128, 128, true},   // x·Wᵀ, 2048 elements of C
		{false, true, 8, 512, 3136, true},   // the Nature CNN's fc layer at batch 8
		{false, true, 1, 3000, 500, true},   // one row
		{false, true, 33, 128, 1000, false}, // too many rows
		{false, true, 16, 128, 16, false},   // K below 32
		{false, true, 8, 100, 100, false},   // accepted whole
		{false, false, 8, 512, 512, true},   // split along k
		{true, false, 32, 256, 2000, true},  // a filter gradient (the CNN's first has k = 12,800)
		{true, false, 64, 576, 1568, false}, // C too large for k blocks of 32
		{true, true, 8, 512, 512, false},    // TT has no small kernel
		{false, false, 10, 10, 10, false},   // small
	} {
		nb, kb, ok := splitPlan(tc.tA, tc.tB, tc.m, tc.n, tc.k)
		name := fmt.Sprintf("tA=%v tB=%v %dx%dx%d", tc.tA, tc.tB, tc.m, tc.n, tc.k)
		if ok != tc.split {
			t.Errorf("%s: split %v, want %v", name, ok, tc.split)
			continue
		}
		if !ok {
			continue
		}
		if tc.m*nb*kb > smallWork || tc.tB && (tc.m*nb > smallTNArea || kb < smallTNK) {
			t.Errorf("%s: blocks of %d columns and %d inner elements exceed the small kernels' limits", name, nb, kb)
		}
		lda, ldb, ldc := tc.k+1, tc.n+3, tc.n+2
		ra, rb := tc.m, tc.k
		if tc.tA {
			lda, ra = tc.m+1, tc.k
		}
		if tc.tB {
			ldb, rb = tc.k+3, tc.n
		}
		a, b, c0 := randSlice(rng, ra*lda), randSlice(rng, rb*ldb), randSlice(rng, tc.m*ldc)
		want := naiveGemm(tc.tA, tc.tB, tc.m, tc.n, tc.k, 0.5, a, lda, b, ldb, 2, c0, ldc)
		c := append([]float32(nil), c0...)
		splitGemm(smallGemm, nb, kb, tc.tA, tc.tB, tc.m, tc.n, tc.k, 0.5, a, lda, b, ldb, 2, c, ldc)
		for i := 0; i < tc.m; i++ {
			for j := 0; j < tc.n; j++ {
				if got, w := float64(c[i*ldc+j]), want[i*tc.n+j]; math.Abs(got-w) > 1e-5*float64(tc.k+1)*(1+math.Abs(w)) {
					t.Fatalf("%s: C[%d,%d] = %v, want %v", name, i, j, got, w)
				}
			}
		}
	}
}

func TestGemmShortPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for a short C")
		}
	}()
	Gemm(false, false, 2, 2, 2, 1, make([]float32, 4), 2, make([]float32, 4), 2, 0, make([]float32, 3), 2)
}

func TestGemmAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	a, b, c := make([]float32, 64*128), make([]float32, 128*128), make([]float32, 64*128)
	Gemm(false, true, 64, 128, 128, 1, a, 128, b, 128, 0, c, 128)
	allocs := testing.AllocsPerRun(20, func() {
		Gemm(false, true, 64, 128, 128, 1, a, 128, b, 128, 0, c, 128)
		Gemm(true, false, 128, 128, 64, 1, c, 128, a, 128, 1, b, 128)
		Gemm(false, true, 16, 128, 4, 1, a, 4, b, 4, 0, c, 128) // gonumSmallK with gonum
	})
	if allocs != 0 {
		t.Fatalf("%s: %v allocations per product, want 0", Name(), allocs)
	}
}

func TestEnvGonum(t *testing.T) {
	if os.Getenv(EnvVar) != "gonum" {
		t.Skipf("run with %s=gonum to check the switch", EnvVar)
	}
	if Name() != "gonum" || LoadError() == nil {
		t.Fatalf("%s=gonum: Name %q, LoadError %v", EnvVar, Name(), LoadError())
	}
}

var sizes = []struct {
	name    string
	m, n, k int
}{
	// Layers of the 4→128→128→2 MLP at batch 1, 16 and 64.
	{"1x128x4", 1, 128, 4},
	{"1x2x128", 1, 2, 128},
	{"16x128x4", 16, 128, 4},
	{"16x2x128", 16, 2, 128},
	{"1x128x128", 1, 128, 128},
	{"64x128x128", 64, 128, 128},
	{"16x128x128", 16, 128, 128},
	{"128x16x128", 128, 16, 128},
	{"8x128x128", 8, 128, 128},
	{"128x8x128", 128, 8, 128},
	{"32x128x128", 32, 128, 128},
	{"128x32x128", 128, 32, 128},
	// The first and last layers of DQN's 4→128×4→2 MLP: acting for 10 envs,
	// and the update at batch 64 (forward, input and weight gradients).
	{"10x128x4", 10, 128, 4},
	{"10x2x128", 10, 2, 128},
	{"64x128x4", 64, 128, 4},
	{"64x2x128", 64, 2, 128},
	{"64x128x2", 64, 128, 2},
	{"2x128x64", 2, 128, 64},
	{"128x4x64", 128, 4, 64},
	{"8x512x3136", 8, 512, 3136},
	{"512x8x3136", 512, 8, 3136},
	{"3200x32x256", 3200, 32, 256},
	{"648x64x512", 648, 64, 512},
	{"392x64x576", 392, 64, 576},
}

func BenchmarkGemm(b *testing.B) {
	b.Logf("implementation: %s", Name())
	for _, s := range sizes {
		for _, tt := range [][2]bool{{false, false}, {false, true}, {true, false}} {
			tA, tB := tt[0], tt[1]
			lda, ldb := s.k, s.n
			if tA {
				lda = s.m
			}
			if tB {
				ldb = s.k
			}
			rng := rand.New(rand.NewPCG(1, 2))
			x, y, z := randSlice(rng, s.m*s.k), randSlice(rng, s.k*s.n), make([]float32, s.m*s.n)
			once.Do(choose)
			for _, impl := range []struct {
				name string
				f    gemmFunc
			}{{"lib", gemm}, {"go", smallGemm}} {
				b.Run(fmt.Sprintf("%s/tA=%v/tB=%v/%s", s.name, tA, tB, impl.name), func(b *testing.B) {
					b.ReportAllocs()
					// CPU time is robust to other processes sharing the
					// machine; wall time is not.
					defer cputime.Start(b).Report()
					for i := 0; i < b.N; i++ {
						impl.f(tA, tB, s.m, s.n, s.k, 1, x, lda, y, ldb, 0, z, s.n)
					}
				})
			}
		}
	}
}
