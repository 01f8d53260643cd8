package tensor

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/tensor/internal/blas"
)

// TestTileGemm compares tileGemm with a float64 product computed here, on
// shapes with a partial last tile of rows, strided operands (A read by
// columns, as for a transposed matrix) and one-step inner dimensions.
func TestTileGemm(t *testing.T) {
	if !haveTileKernel {
		t.Skip("no AVX2 and FMA")
	}
	for _, tc := range []struct {
		name              string
		m, n, k           int
		lda, ka, ldb, ldc int
	}{
		{"one tile", 6, 16, 1, 1, 1, 16, 16},
		{"8 columns", 8, 8, 7, 7, 1, 8, 8},
		{"56 columns", 9, 56, 4, 4, 1, 56, 60},
		{"partial rows", 7, 32, 5, 5, 1, 32, 32},
		{"one row", 1, 16, 3, 3, 1, 16, 16},
		{"strided", 13, 48, 20, 24, 1, 50, 49},
		{"a by columns", 11, 16, 9, 1, 11, 16, 16},
		{"conv1 group", 400, 32, 256, 256, 1, 32, 32},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, uint64(tc.m)))
			a := make([]float32, (tc.m-1)*tc.lda+(tc.k-1)*tc.ka+1)
			b := make([]float32, (tc.k-1)*tc.ldb+tc.n)
			c := make([]float32, (tc.m-1)*tc.ldc+tc.n+1)
			for _, s := range [][]float32{a, b, c} {
				for i := range s {
					s[i] = float32(rng.NormFloat64())
				}
			}
			sentinel := c[len(c)-1]
			old := append([]float32(nil), c...)
			tileGemm(tc.m, tc.n, tc.k, a, tc.lda, tc.ka, b, tc.ldb, c, tc.ldc)
			for i := 0; i < tc.m; i++ {
				for j := 0; j < tc.ldc && i*tc.ldc+j < len(c)-1; j++ {
					got := c[i*tc.ldc+j]
					if j >= tc.n {
						if got != old[i*tc.ldc+j] {
							t.Fatalf("c[%d, %d] outside the product changed", i, j)
						}
						continue
					}
					var want, mag float64
					for l := 0; l < tc.k; l++ {
						p := float64(a[i*tc.lda+l*tc.ka]) * float64(b[l*tc.ldb+j])
						want += p
						mag += math.Abs(p)
					}
					// float32 rounding of k products and sums.
					if tol := 1e-6 * float64(tc.k+1) * (mag + 1); math.Abs(float64(got)-want) > tol {
						t.Fatalf("c[%d, %d] = %g, want %g ± %g", i, j, got, want, tol)
					}
				}
			}
			if c[len(c)-1] != sentinel {
				t.Fatal("tileGemm wrote past C")
			}
		})
	}
}

func TestTileGemmPanics(t *testing.T) {
	if !haveTileKernel {
		t.Skip("no AVX2 and FMA")
	}
	for _, tc := range []struct {
		name    string
		m, n, k int
		la, lb  int
	}{
		{"n not a multiple of 8", 2, 12, 2, 4, 24},
		{"short a", 2, 16, 2, 3, 32},
		{"short b", 2, 16, 2, 4, 31},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			tileGemm(tc.m, tc.n, tc.k, make([]float32, tc.la), tc.k, 1, make([]float32, tc.lb), tc.n, make([]float32, tc.m*tc.n), tc.n)
		})
	}
}

// TestLinearTiles compares Linear on weights large enough for linearTiles
// with a float64 product computed here, for row counts that round up to 8,
// 16 and 32 columns of xᵀ, and batches of rows with small weights, with and
// without a bias.
func TestLinearTiles(t *testing.T) {
	if !haveTileKernel {
		t.Skip("no tile kernel")
	}
	for _, tc := range []struct {
		rows    int
		bias    bool
		in, out int
	}{{1, true, 600, 448}, {8, false, 600, 448}, {9, true, 600, 448}, {32, true, 600, 448},
		// batches of rows: a DQN's update on CartPole
		{64, true, 128, 128}, {64, true, 128, 2}, {50, false, 128, 40},
		// acting on 8 to 31 envs with a smaller weight
		{8, true, 128, 128}, {10, true, 128, 128}, {24, false, 64, 128}} {
		in, out := tc.in, tc.out
		if !useLinearTiles(tc.rows, out, in) {
			t.Fatalf("%d × %d × %d does not go through linearTiles", tc.rows, in, out)
		}
		rng := rand.New(rand.NewPCG(5, uint64(tc.rows)))
		x, w := New(tc.rows, in), New(out, in)
		x.FillNormal(rng, 0, 1)
		w.FillNormal(rng, 0, 1)
		var b *Tensor
		if tc.bias {
			b = New(out)
			b.FillNormal(rng, 0, 1)
		}
		var tp Tape
		for range 2 { // the second step reuses the scratch memory
			tp.Reset()
			y := tp.Linear(x, w, b).Data()
			for i := 0; i < tc.rows; i++ {
				for j := 0; j < out; j++ {
					var want, mag float64
					if b != nil {
						want = float64(b.Data()[j])
					}
					for l := 0; l < in; l++ {
						p := float64(x.Data()[i*in+l]) * float64(w.Data()[j*in+l])
						want += p
						mag += math.Abs(p)
					}
					if got := float64(y[i*out+j]); math.Abs(got-want) > 1e-6*float64(in)*(mag+1) {
						t.Fatalf("rows %d: y[%d, %d] = %g, want %g", tc.rows, i, j, got, want)
					}
				}
			}
		}
	}
}

// TestUseLinearTiles: which Linear layers go through linearTiles. The
// expected routes are the measured choices of BenchmarkLinearProducts.
func TestUseLinearTiles(t *testing.T) {
	if !haveTileKernel {
		t.Skip("no tile kernel")
	}
	for _, tc := range []struct {
		rows, in, out int
		want          bool
	}{
		{1, 600, 448, true},     // a large weight, one row
		{1, 128, 128, false},    // one row, a small weight
		{4, 128, 128, false},    // fewer than 8 rows
		{8, 128, 128, true},     // acting on 8 envs
		{10, 128, 128, true},    // acting on 10 envs
		{31, 128, 64, true},     // 8,192 weights
		{10, 4, 128, false},     // 4 inputs
		{10, 128, 2, false},     // 256 weights
		{16, 64, 64, false},     // 4,096 weights
		{64, 4, 128, false},     // a batch with 4 inputs
		{64, 128, 128, true},    // a batch product
		{512, 512, 1024, false}, // beyond linearBatchWork
	} {
		if got := useLinearTiles(tc.rows, tc.out, tc.in); got != tc.want {
			t.Errorf("%d × %d × %d: useLinearTiles = %v, want %v", tc.rows, tc.in, tc.out, got, tc.want)
		}
	}
}

// TestLinearBackTilesSplit checks Linear's backward products on batches
// large enough to be cut into tasks (from blas.ParWork multiply-adds on:
// 128 × 256 × 256 cut by rows, 32 × 512 × 512 with dx cut by columns too)
// against float64 sums, once with fresh gradients and once accumulating
// onto the first (x used twice), and requires the same bits on 1, 3 and 8
// workers and, for fresh gradients, the bits of one unsplit tile product.
func TestLinearBackTilesSplit(t *testing.T) {
	if !haveTileKernel {
		t.Skip("no tile kernel")
	}
	defer SetWorkers(0)
	for _, sh := range []struct{ rows, in, out int }{{128, 256, 256}, {32, 512, 512}} {
		testLinearBackTilesSplit(t, sh.rows, sh.in, sh.out)
	}
}

func testLinearBackTilesSplit(t *testing.T, rows, in, out int) {
	if !useLinearBatchTiles(rows, out, in) || rows*in*out < blas.ParWork {
		t.Fatalf("%d × %d × %d is not a split batch product", rows, in, out)
	}
	var first [2][]float32
	for _, workers := range []int{1, 3, 8} {
		SetWorkers(workers)
		rng := rand.New(rand.NewPCG(9, 9))
		x, w := New(rows, in), New(out, in)
		x.FillNormal(rng, 0, 1)
		w.FillNormal(rng, 0, 1)
		x.SetRequiresGrad(true)
		w.SetRequiresGrad(true)
		g := make([]float32, rows*out) // the gradient of Sum(y ⊙ c)
		for i := range g {
			g[i] = float32(rng.NormFloat64())
		}
		c, err := FromSlice(g, rows, out)
		if err != nil {
			t.Fatal(err)
		}
		var tp Tape
		for _, twice := range []bool{false, true} {
			tp.Reset()
			x.ZeroGrad()
			w.ZeroGrad()
			loss := tp.Sum(tp.Mul(tp.Linear(x, w, nil), c))
			if twice {
				loss = tp.Add(loss, tp.Sum(tp.Mul(tp.Linear(x, w, nil), c)))
			}
			tp.Backward(loss)
			k := 1.0
			if twice {
				k = 2
			}
			for i := 0; i < rows; i += 37 {
				for l := 0; l < in; l += 5 {
					var want float64
					for j := 0; j < out; j++ {
						want += float64(g[i*out+j]) * float64(w.Data()[j*in+l])
					}
					if got := float64(x.Grad()[i*in+l]); math.Abs(got-k*want) > 1e-4*k*float64(out) {
						t.Fatalf("%d workers, twice %v: dx[%d, %d] = %g, want %g", workers, twice, i, l, got, k*want)
					}
				}
			}
			for j := 0; j < out; j += 29 {
				for l := 0; l < in; l += 7 {
					var want float64
					for i := 0; i < rows; i++ {
						want += float64(g[i*out+j]) * float64(x.Data()[i*in+l])
					}
					if got := float64(w.Grad()[j*in+l]); math.Abs(got-k*want) > 1e-4*k*float64(rows) {
						t.Fatalf("%d workers, twice %v: dw[%d, %d] = %g, want %g", workers, twice, j, l, got, k*want)
					}
				}
			}
		}
		got := [2][]float32{append([]float32(nil), x.Grad()...), append([]float32(nil), w.Grad()...)}
		if first[0] == nil {
			// The fresh products, unsplit: the split changes who computes
			// each value, not how.
			dx, dw := make([]float32, rows*in), make([]float32, out*in)
			tileGemm(rows, in, out, g, out, 1, w.Data(), in, dx, in)
			tileGemm(out, in, rows, g, 1, out, x.Data(), in, dw, in)
			for k, want := range [2][]float32{dx, dw} {
				for i := range want {
					if v := 2 * want[i]; math.Float32bits(got[k][i]) != math.Float32bits(v) {
						t.Fatalf("%d × %d × %d: gradient %d element %d is %v, unsplit twice %v", rows, in, out, k, i, got[k][i], v)
					}
				}
			}
			first = got
			continue
		}
		for k := range got {
			for i := range got[k] {
				if math.Float32bits(got[k][i]) != math.Float32bits(first[k][i]) {
					t.Fatalf("gradient %d element %d is %v on %d workers, %v on one", k, i, got[k][i], workers, first[k][i])
				}
			}
		}
	}
}
