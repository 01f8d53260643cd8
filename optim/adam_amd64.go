//go:build !gorl_noasm

package optim

// adamSSE is adamGo for the first len(g)/4·4 elements, without L2 weight
// decay and AMSGrad, four elements per instruction (SSE2, which every amd64
// processor has). It is in adam_amd64.s.
//
//go:noescape
func adamSSE(p, g, m, v []float32, k *adamCoef)

// adamAVX2 is adamSSE for a len(g) that is a multiple of 8, eight elements
// per instruction (AVX2), with the same operations in the same order. It is
// in adam_amd64.s; it runs only where hasAVX2 reports true.
//
//go:noescape
func adamAVX2(p, g, m, v []float32, k *adamCoef)

// hasAVX2 reports whether the processor and the operating system support
// AVX2 instructions. It is in adam_amd64.s.
func hasAVX2() bool

// useAVX2 selects adamAVX2 for the bulk of the elements.
var useAVX2 = hasAVX2()

// adamUpdate is adamGo, computed by adamAVX2 or adamSSE where they apply.
func adamUpdate(p, g, m, v, vmax []float32, k *adamCoef) {
	if vmax != nil || k.l2 != 0 {
		adamGo(p, g, m, v, vmax, k)
		return
	}
	n := len(g)
	p, m, v = p[:n], m[:n], v[:n]
	n8 := 0
	if useAVX2 {
		n8 = n &^ 7
		adamAVX2(p[:n8], g[:n8], m[:n8], v[:n8], k)
	}
	n4 := n &^ 3
	adamSSE(p[n8:n4], g[n8:n4], m[n8:n4], v[n8:n4], k)
	adamGo(p[n4:], g[n4:], m[n4:], v[n4:], nil, k)
}
