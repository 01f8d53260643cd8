package tensor

import "fmt"

// tileGemm computes c[i·ldc+j] = Σ_{l<k} a[i·lda+l·ka] · b[l·ldb+j] for
// i < m and j < n, with n a multiple of 8 and k ≥ 1, in tiles of 6 rows
// and 32, 16 or 8 columns. The operands are read where they are: A's
// rows are broadcast value by value (any strides), and B's rows need 8
// contiguous values per tile. The rows of the last tile beyond m repeat
// row m−1, which is then stored twice with the same values.
//
// It panics if a slice is too short for its dimensions.
func tileGemm(m, n, k int, a []float32, lda, ka int, b []float32, ldb int, c []float32, ldc int) {
	if m == 0 {
		return
	}
	if n%8 != 0 || k < 1 || len(a) < (m-1)*lda+(k-1)*ka+1 || len(b) < (k-1)*ldb+n || len(c) < (m-1)*ldc+n {
		panic(fmt.Sprintf("tensor: tileGemm %d×%d×%d with strides %d, %d, %d, %d on %d, %d, %d elements", m, n, k, lda, ka, ldb, ldc, len(a), len(b), len(c)))
	}
	var aoff, coff [6]int
	for i0 := 0; i0 < m; i0 += 6 {
		for r := range aoff {
			i := min(i0+r, m-1)
			aoff[r], coff[r] = i*lda, i*ldc
		}
		j0 := 0
		if haveWideTiles {
			for ; j0+32 <= n; j0 += 32 {
				tile6x32(&a[0], &b[j0], &c[j0], &aoff, &coff, k, ka, ldb)
			}
		}
		for ; j0+16 <= n; j0 += 16 {
			tile6x16(&a[0], &b[j0], &c[j0], &aoff, &coff, k, ka, ldb)
		}
		if j0 < n {
			tile6x8(&a[0], &b[j0], &c[j0], &aoff, &coff, k, ka, ldb)
		}
	}
}

// useTiles tells whether products with n columns go through tileGemm.
func useTiles(n int) bool { return haveTileKernel && n%8 == 0 }

// convTiles computes rows r0 to r1−1 of a convolution's product [N·P, OC]
// into prod (from its first element) without unrolling: each output
// position's row of the unrolled input is read from the image x as the
// runs of KW values at the offsets runs (see geom.runs), by tile6x16r and
// tile6x32r, with wt the filters transposed, [C·KH·KW, OC]. The patches
// must lie inside the image (no padding), and OC must be a multiple of 16.
func (g *geom) convTiles(prod, x, wt []float32, runs []int, r0, r1 int) {
	if r0 == r1 {
		return
	}
	p := g.oh * g.ow
	chw := g.c * g.h * g.w
	// The last position's patch ends at its offset plus the last run's.
	last := func(t int) int {
		s, q := t/p, t%p
		return s*chw + q/g.ow*g.stride*g.w + q%g.ow*g.stride
	}
	if g.padding != 0 || g.oc%16 != 0 || len(runs) != g.c*g.kh ||
		last(r1-1)+runs[len(runs)-1]+g.kw > len(x) || len(wt) < g.k*g.oc || len(prod) < (r1-r0)*g.oc {
		panic(fmt.Sprintf("tensor: convTiles of rows %d to %d with geometry %+v", r0, r1, *g))
	}
	var aoff, coff [6]int
	for i0 := r0; i0 < r1; i0 += 6 {
		for r := range aoff {
			t := min(i0+r, r1-1)
			aoff[r], coff[r] = last(t), (t-r0)*g.oc
		}
		j0 := 0
		if haveWideTiles {
			for ; j0+32 <= g.oc; j0 += 32 {
				tile6x32r(&x[0], &wt[j0], &prod[j0], &aoff, &coff, &runs[0], len(runs), g.kw, g.oc)
			}
		}
		for ; j0 < g.oc; j0 += 16 {
			tile6x16r(&x[0], &wt[j0], &prod[j0], &aoff, &coff, &runs[0], len(runs), g.kw, g.oc)
		}
	}
}
