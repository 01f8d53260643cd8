package blas

// smallWork is the largest m·n·k computed by smallGemm instead of the selected
// library: below it the libraries' per-call overhead (about 0.3 µs for OpenBLAS
// through purego, one assembly call per row or element for gonum) costs more
// than the arithmetic. See the package benchmarks.
const smallWork = 4096

// smallGemm is a straightforward row-major GEMM in Go for small problems.
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
		if !tB {
			// Row i of C accumulates alpha·op(A)[i,l] times row l of B.
			for l := 0; l < k; l++ {
				var s float32
				if tA {
					s = alpha * a[l*lda+i]
				} else {
					s = alpha * a[i*lda+l]
				}
				bl := b[l*ldb : l*ldb+n]
				ci := ci[:len(bl)]
				for j, v := range bl {
					ci[j] += s * v
				}
			}
			continue
		}
		// op(B)[l,j] = B[j,l]: element (i,j) is a dot product of op(A)'s row i
		// with row j of B.
		for j := range ci {
			bj := b[j*ldb : j*ldb+k]
			var s float32
			if tA {
				for l, v := range bj {
					s += a[l*lda+i] * v
				}
			} else {
				ai := a[i*lda : i*lda+k]
				ai = ai[:len(bj)]
				for l, v := range bj {
					s += ai[l] * v
				}
			}
			ci[j] += alpha * s
		}
	}
}
