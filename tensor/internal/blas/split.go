package blas

// OpenBLAS (0.3.17 and later) built for SkylakeX and its successors computes
// a product with its "small matrix" kernels, which read the operands where
// they are, when its permit function accepts the shape; otherwise it packs
// the operands into blocks and runs its general kernels. In OpenBLAS's
// column-major terms (an M×N result, inner dimension K, "TN" for A transposed
// and B not) the permit asks for M·N·K ≤ 10⁶, and for TN also M·N ≤ 1200 and
// K ≥ 32; it never accepts TT. A row-major product of ours is the
// column-major Cᵀ = op(B)ᵀ·op(A)ᵀ: M = n, N = m, A transposed when tB.
const (
	smallWork   = 1_000_000
	smallTNArea = 1200
	smallTNK    = 32
	// splitRowsTN bounds the rows of C for which a TN product is split:
	// with more, the 1200-element blocks of C were no faster than one call
	// (64×128×128).
	splitRowsTN = 32
)

// splitPlan returns block sizes over n (columns of C) and k for which every
// block is a product the small kernels accept, when the whole is not but
// blocks are worth it: products with few rows (x·Wᵀ at batch ≤ 32) and
// products whose C has at most smallWork/32 elements (long inner
// dimensions). The measurements are in the package documentation. ok is
// false when the product should be one call.
func splitPlan(tA, tB bool, m, n, k int) (nb, kb int, ok bool) {
	switch {
	case tA && tB:
		return 0, 0, false
	case tB: // TN for OpenBLAS
		if m > splitRowsTN || k < smallTNK || m*n <= smallTNArea && m*n*k <= smallWork {
			return 0, 0, false
		}
		nbMax := smallTNArea / m
		if nbMax >= 16 {
			nbMax &^= 15 // whole 16-wide column blocks of the kernel
		}
		nb = ceilDiv(n, ceilDiv(n, nbMax))
	default:
		if m*n*k <= smallWork || m*n > smallWork/smallTNK {
			return 0, 0, false
		}
		nb = n
	}
	kbMax := smallWork / (m * nb)
	kb = ceilDiv(k, ceilDiv(k, kbMax))
	return nb, kb, true
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// splitGemm computes the product with f in blocks of nb columns of C and kb
// inner elements; the blocks after the first along k add to C.
func splitGemm(f gemmFunc, nb, kb int, tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	for j := 0; j < n; j += nb {
		nj := min(nb, n-j)
		bt := beta
		for l := 0; l < k; l += kb {
			kl := min(kb, k-l)
			ao, bo := l, l*ldb+j // op(A)[0, l] and op(B)[l, j]
			if tA {
				ao = l * lda
			}
			if tB {
				bo = j*ldb + l
			}
			f(tA, tB, m, nj, kl, alpha, a[ao:], lda, b[bo:], ldb, bt, c[j:], ldc)
			bt = 1
		}
	}
}
