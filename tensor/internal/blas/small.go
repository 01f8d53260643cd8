package blas

// tinyWork is the largest m·n·k that always goes to smallGemm: below it a
// library call through purego to OpenBLAS costs more than the arithmetic.
// See BenchmarkGemm.
const tinyWork = 256

// shortDot is the inner length below which smallGemm computes op(A)·Bᵀ as
// strided AXPYs rather than dot products, and narrowRows the row length below
// which it computes op(A)·B as strided dot products rather than AXPYs: a call
// over a few elements costs more in loop overhead than it computes. gonum
// makes one assembly call per dot product or row, so these shapes go to
// smallGemm when gonum is the library (see preferSmall).
const (
	shortDot   = 16
	narrowRows = 8
)

// preferSmall reports whether smallGemm beats gonum on a product whose
// innermost loops would be short.
func preferSmall(tB bool, n, k int) bool {
	if tB {
		return k < shortDot
	}
	return n < narrowRows
}

// smallGemm is a straightforward row-major GEMM in Go for small problems.
// The loops live in small leaf functions: inlined into one large function,
// their counters were spilled to the stack and each element cost four times
// as much.
func smallGemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		ci := c[i*ldc : i*ldc+n]
		switch beta {
		case 0:
			clear(ci)
		case 1:
		default:
			for j := range ci {
				ci[j] *= beta
			}
		}
		at := func(l int) float32 { // op(A)[i, l]
			if tA {
				return a[l*lda+i]
			}
			return a[i*lda+l]
		}
		switch {
		case !tB && n < narrowRows:
			// Element (i, j) is op(A)'s row i times column j of B.
			for j := range ci {
				var s float32
				for l := 0; l < k; l++ {
					s += at(l) * b[l*ldb+j]
				}
				ci[j] += alpha * s
			}
		case !tB:
			// Row i of C accumulates op(A)[i,l] times row l of B.
			for l := 0; l < k; l++ {
				axpy(alpha*at(l), b[l*ldb:l*ldb+n], ci)
			}
		case k < shortDot:
			// op(B)[l, j] = B[j, l]: column l of B, read with stride ldb.
			for l := 0; l < k; l++ {
				axpyStrided(alpha*at(l), b[l:], ldb, ci)
			}
		case tA:
			for j := range ci {
				var s float32
				for l, v := range b[j*ldb : j*ldb+k] {
					s += a[l*lda+i] * v
				}
				ci[j] += alpha * s
			}
		default:
			ai := a[i*lda : i*lda+k]
			for j := range ci {
				ci[j] += alpha * dot(ai, b[j*ldb:j*ldb+k])
			}
		}
	}
}

//go:noinline
func axpy(s float32, x, y []float32) {
	y = y[:len(x)]
	for j, v := range x {
		y[j] += s * v
	}
}

// axpyStrided adds s·x[j·inc] to y[j] for every j.
//
//go:noinline
func axpyStrided(s float32, x []float32, inc int, y []float32) {
	for j := range y {
		y[j] += s * x[j*inc]
	}
}

// dot sums in four independent accumulators so the additions overlap.
//
//go:noinline
func dot(x, y []float32) float32 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float32
	l := 0
	for ; l+4 <= len(x); l += 4 {
		s0 += x[l] * y[l]
		s1 += x[l+1] * y[l+1]
		s2 += x[l+2] * y[l+2]
		s3 += x[l+3] * y[l+3]
	}
	for ; l < len(x); l++ {
		s0 += x[l] * y[l]
	}
	return (s0 + s1) + (s2 + s3)
}
