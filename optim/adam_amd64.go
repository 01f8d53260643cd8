//go:build !gorl_noasm

package optim

// adamSSE is adamGo for the first len(g)/4·4 elements, without L2 weight
// decay and AMSGrad, four elements per instruction (SSE2, which every amd64
// processor has). It is in adam_amd64.s.
//
//go:noescape
func adamSSE(p, g, m, v []float32, k *adamCoef)

// adamUpdate is adamGo, computed by adamSSE where it applies.
func adamUpdate(p, g, m, v, vmax []float32, k *adamCoef) {
	if vmax != nil || k.l2 != 0 {
		adamGo(p, g, m, v, vmax, k)
		return
	}
	n := len(g)
	p, m, v = p[:n], m[:n], v[:n]
	n4 := n &^ 3
	adamSSE(p[:n4], g[:n4], m[:n4], v[:n4], k)
	adamGo(p[n4:], g[n4:], m[n4:], v[n4:], nil, k)
}
