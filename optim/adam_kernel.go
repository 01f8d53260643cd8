package optim

import "math"

// adamCoef holds the constants of one tensor's Adam update at one step. The
// assembly kernel reads the first seven fields by offset: keep their order.
type adamCoef struct {
	b1, c1 float32 // β₁ and 1 − β₁
	b2, c2 float32 // β₂ and 1 − β₂
	// step is −η·√(1 − β₂ᵗ)/(1 − β₁ᵗ) and eps is ε·√(1 − β₂ᵗ): the bias
	// corrections moved out of the per-element denominator (see Adam).
	step, eps float32
	// decay multiplies the parameters first: 1 − ηλ with decoupled weight
	// decay (AdamW), else 1.
	decay float32
	// l2 is λ with L2 weight decay (added to the gradient), else 0.
	l2 float32
}

// adamGo applies one Adam update to p with gradient g, first moments m,
// second moments v and, with AMSGrad, the running maximum vmax (nil
// otherwise). All slices have g's length. Products are converted to float32
// before each addition so that the compiler cannot fuse them into FMA
// instructions: every operation rounds as in the assembly kernel, which
// computes bit-identical results.
func adamGo(p, g, m, v, vmax []float32, kp *adamCoef) {
	k := *kp // a copy stays in registers; stores through p, m, v could alias *kp
	p, m, v = p[:len(g)], m[:len(g)], v[:len(g)]
	if vmax != nil {
		vmax = vmax[:len(g)]
	}
	for i, gi := range g {
		if k.l2 != 0 {
			gi += float32(k.l2 * p[i])
		}
		mi := flushSubnormal(float32(m[i]*k.b1) + float32(k.c1*gi))
		vi := flushSubnormal(float32(v[i]*k.b2) + float32(float32(k.c2*gi)*gi))
		m[i], v[i] = mi, vi
		if vmax != nil {
			vi = max(vmax[i], vi)
			vmax[i] = vi
		}
		p[i] = float32(p[i]*k.decay) + float32(k.step*mi)/(float32(math.Sqrt(float64(vi)))+k.eps)
	}
}
