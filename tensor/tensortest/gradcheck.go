// Package tensortest checks the gradients of tensor operations against
// finite differences.
package tensortest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/tensor"
)

// Func computes a tensor from inputs on tp. It must be deterministic: the same
// inputs give the same result on every call (draw any randomness from a
// generator seeded inside Func).
type Func func(tp *tensor.Tape, inputs []*tensor.Tensor) *tensor.Tensor

// Config tunes CheckGrad. A zero field takes the default given.
type Config struct {
	// Step is the finite-difference step h, relative to max(1, |x|) of each
	// input element. Default 1e-2: with float32 evaluations a smaller step
	// drowns the difference in rounding error.
	Step float64
	// AbsTol and RelTol bound |numeric − analytic| ≤ AbsTol +
	// RelTol·max(|numeric|, |analytic|) for every input element. Defaults 1e-3
	// and 1e-2.
	AbsTol, RelTol float64
	// Seed seeds the random weights that reduce a non-scalar result to a
	// scalar. Default 1.
	Seed uint64
}

// CheckGrad compares the gradient that Backward computes for f with central
// differences. The result of f is reduced to the scalar L = Σᵢ wᵢ·f(x)ᵢ with
// fixed random weights wᵢ ∈ [0.5, 1.5), so every output element matters. Each
// input element x is moved by ±h and
//
//	∂L/∂x ≈ (L(x + h) − L(x − h)) / (2h),
//
// with L summed in float64 from the float32 results and h the step actually
// represented in float32.
//
// CheckGrad marks the inputs as requiring gradients and drops their previous
// gradients. It also checks that a second Backward on a reset tape doubles
// the accumulated gradient, and that f gives the same result when recorded and
// when not. It returns an error describing the first mismatch, or nil.
func CheckGrad(f Func, inputs []*tensor.Tensor, cfg Config) error {
	if cfg.Step == 0 {
		cfg.Step = 1e-2
	}
	if cfg.AbsTol == 0 {
		cfg.AbsTol = 1e-3
	}
	if cfg.RelTol == 0 {
		cfg.RelTol = 1e-2
	}
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	for _, x := range inputs {
		x.SetRequiresGrad(true)
		x.ZeroGrad()
	}
	tp := new(tensor.Tape)
	out := f(tp, inputs)
	rng := rand.New(rand.NewPCG(cfg.Seed, 0))
	w := tensor.New(out.Shape()...)
	w.FillUniform(rng, 0.5, 1.5)
	loss := func(out *tensor.Tensor) float64 {
		var s float64
		for i, v := range out.Data() {
			s += float64(w.Data()[i]) * float64(v)
		}
		return s
	}
	recorded := loss(out)
	backward := func(out *tensor.Tensor) error {
		if !out.RequiresGrad() {
			return fmt.Errorf("result does not require gradients")
		}
		tp.Backward(tp.Sum(tp.Mul(out, w)))
		return nil
	}
	if err := backward(out); err != nil {
		return err
	}
	analytic := make([][]float32, len(inputs))
	for k, x := range inputs {
		analytic[k] = make([]float32, x.Len())
		copy(analytic[k], x.Grad()) // nil (no gradient) leaves zeros
	}

	// Gradients accumulate: a second step adds the same gradient again.
	tp.Reset()
	if err := backward(f(tp, inputs)); err != nil {
		return err
	}
	for k, x := range inputs {
		g := x.Grad()
		for i, a := range analytic[k] {
			var got float64
			if g != nil {
				got = float64(g[i])
			}
			if !near(got, 2*float64(a), cfg) {
				return fmt.Errorf("input %d element %d: accumulated gradient %g after two Backward calls, want 2×%g", k, i, got, a)
			}
		}
	}

	tp.Reset()
	tp.SetGradEnabled(false)
	if l := loss(f(tp, inputs)); l != recorded {
		return fmt.Errorf("result differs without recording: L = %g, recorded %g", l, recorded)
	}
	for k, x := range inputs {
		d := x.Data()
		for i := range d {
			orig := d[i]
			h := cfg.Step * max(1, math.Abs(float64(orig)))
			plus, minus := float32(float64(orig)+h), float32(float64(orig)-h)
			d[i] = plus
			tp.Reset()
			lp := loss(f(tp, inputs))
			d[i] = minus
			tp.Reset()
			lm := loss(f(tp, inputs))
			d[i] = orig
			num := (lp - lm) / (float64(plus) - float64(minus))
			if a := float64(analytic[k][i]); !near(num, a, cfg) {
				return fmt.Errorf("input %d element %d (value %g): analytic gradient %g, central difference %g", k, i, orig, a, num)
			}
		}
	}
	return nil
}

func near(a, b float64, cfg Config) bool {
	return math.Abs(a-b) <= cfg.AbsTol+cfg.RelTol*max(math.Abs(a), math.Abs(b))
}
