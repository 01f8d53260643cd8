package actorcritic

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/tensor"
)

// TestConjugateGradient solves known symmetric positive-definite systems.
// The expected solutions are exact: [[4 1] [1 3]]·(1/11, 7/11) = (1, 2) by
// Cramer's rule, and the second-difference matrix times (1, 1, 1) is (1, 0,
// 1); the conjugate gradient reaches them in n iterations for n unknowns.
func TestConjugateGradient(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    [][]float64
		b    []float64
		want []float64
	}{
		{"2x2", [][]float64{{4, 1}, {1, 3}}, []float64{1, 2}, []float64{1.0 / 11, 7.0 / 11}},
		{"second difference", [][]float64{{2, -1, 0}, {-1, 2, -1}, {0, -1, 2}}, []float64{1, 0, 1}, []float64{1, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.b)
			x, r, p, ap := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
			av := func(dst, v []float64) {
				for i, row := range tc.a {
					dst[i] = dot(row, v)
				}
			}
			ConjugateGradient(x, tc.b, r, p, ap, 10, av)
			for i := range x {
				if !scalar.EqualWithinAbs(x[i], tc.want[i], 1e-12) {
					t.Fatalf("x = %v, want %v", x, tc.want)
				}
			}
		})
	}
}

// natural returns a Natural over a tiny actor (4 observations, a tanh
// layer of 3, act's head; σ = exp(−0.3) for a Box) with the first 5
// transitions of a random collection prepared for a step, and the rows.
func natural(t *testing.T, act env.Space, st NaturalStep) (*Natural, *batch.Batch, []int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	cfg := NaturalConfig{
		OnPolicy: OnPolicy{Net: NetConfig{Hidden: []int{3}, Activation: nn.Tanh, LogStdInit: -0.3}, Policy: DefaultPolicy(),
			Gamma: 0.9, GAELambda: 0.9, Training: Training{Optim: optim.DefaultAdamConfig()}},
		CriticIters: 1, CGSteps: 10,
	}
	net, err := NewNet(cfg.Net, algotest.Box(t, -10, 10, 4), act, true, rng)
	if err != nil {
		t.Fatal(err)
	}
	n := new(Natural)
	if err := n.Init(cfg, st, net, act, rng); err != nil {
		t.Fatal(err)
	}
	b, _ := algotest.Take(t, algotest.Collection(t, 1, 5, act, rand.New(rand.NewPCG(7, 8))))
	if err := n.Roll.Load(b, act, false); err != nil {
		t.Fatal(err)
	}
	rows := []int{0, 1, 2, 3, 4}
	o, err := n.prepare(rows)
	if err != nil {
		t.Fatal(err)
	}
	return n, o, rows
}

// TestFisherVector checks the analytic Fisher-vector product against the
// Fisher built explicitly in float64, F = (1/k) Σᵢ Jᵢᵀ Mᵢ Jᵢ (+ 2 on the
// diagonal of each log σ), with the Jacobian's rows taken one output at a
// time by the tape's backward pass, Mᵢ = diag(pᵢ) − pᵢpᵢᵀ for a
// Categorical and 1/σ² for a Gaussian's mean; and its quadratic form vᵀFv
// against the second-order finite difference 2·KL(θ₀ ‖ θ₀ + εv)/ε² of the
// exact KL divergence (ε = 10⁻², an O(ε) difference).
func TestFisherVector(t *testing.T) {
	for _, act := range []env.Space{algotest.Discrete(t, 3, 0), algotest.Box(t, -1, 1, 2)} {
		t.Run(act.String(), func(t *testing.T) {
			n, obs, rows := natural(t, act, NaturalStep{StepSize: 1})
			k, a, size := n.out0.Dim(0), n.out0.Dim(1), n.size
			// The Jacobian of the actor's output, one row per output.
			jac := make([][]float64, k*a)
			for o := range jac {
				var tp tensor.Tape
				out, err := n.caller.Call(&tp, n.actNet, obs)
				if err != nil {
					t.Fatal(err)
				}
				e := tensor.New(k, a)
				e.Data()[o] = 1
				n.zeroGrad()
				tp.Backward(tp.Sum(tp.Mul(out, e)))
				jac[o] = make([]float64, size)
				n.readGrad(jac[o], 1)
			}
			fisher := make([][]float64, size)
			for p := range fisher {
				fisher[p] = make([]float64, size)
			}
			for i := range k {
				for j1 := range a {
					for j2 := range a {
						var m float64
						if n.logStd == nil {
							p := n.probs[i*a : (i+1)*a]
							m = -p[j1] * p[j2]
							if j1 == j2 {
								m += p[j1]
							}
						} else if j1 == j2 {
							m = 1 / (n.sigma0[j1] * n.sigma0[j1])
						}
						if m == 0 {
							continue
						}
						r1, r2 := jac[i*a+j1], jac[i*a+j2]
						for p := range size {
							for q := range size {
								fisher[p][q] += r1[p] * m * r2[q] / float64(k)
							}
						}
					}
				}
			}
			if n.logStd != nil {
				o := n.offs[len(n.offs)-1]
				for j := range a {
					fisher[o+j][o+j] += 2
				}
			}
			rng := rand.New(rand.NewPCG(9, 10))
			v := make([]float64, size)
			for i := range v {
				v[i] = rng.NormFloat64()
			}
			got := make([]float64, size)
			n.fisherVector(got, v)
			for p := range size {
				want := dot(fisher[p], v)
				if !scalar.EqualWithinAbsOrRel(got[p], want, 1e-5, 1e-4) {
					t.Fatalf("(Fv)[%d] = %v, explicit %v", p, got[p], want)
				}
			}
			const eps = 1e-2
			copy(n.x, v)
			n.setParams(eps)
			kl, _, err := n.evaluate(obs, rows)
			if err != nil {
				t.Fatal(err)
			}
			n.setParams(0)
			if quad, fd := dot(v, got), 2*kl/(eps*eps); !scalar.EqualWithinRel(quad, fd, 0.03) {
				t.Errorf("vᵀFv = %v, 2·KL/ε² = %v", quad, fd)
			}
		})
	}
}

// TestLineSearch checks TRPO's backtracking along a fixed direction v from
// a first step 10 times the quadratic model's s* = √(2·MaxKL / vᵀFv): one
// try is rejected for its KL and restores θ₀; twenty tries halving the
// step accept the first below the bound (the one before it is above); a
// surrogate that cannot decrease rejects every try.
func TestLineSearch(t *testing.T) {
	const maxKL = 0.01
	for _, tc := range []struct {
		name    string
		tries   int
		loss    float64 // the surrogate loss before the step
		accepts bool
	}{
		{"one try too long", 1, math.Inf(1), false},
		{"backtracks to the bound", 20, math.Inf(1), true},
		{"surrogate does not decrease", 20, math.Inf(-1), false},
	} {
		for _, act := range []env.Space{algotest.Discrete(t, 3, 0), algotest.Box(t, -1, 1, 2)} {
			t.Run(tc.name+"/"+act.String(), func(t *testing.T) {
				n, obs, rows := natural(t, act, NaturalStep{MaxKL: maxKL, BacktrackCoeff: 0.5, MaxBacktracks: tc.tries})
				rng := rand.New(rand.NewPCG(11, 12))
				for i := range n.x {
					n.x[i] = rng.NormFloat64()
				}
				n.fisherVector(n.fp, n.x)
				s := 10 * math.Sqrt(2*maxKL/dot(n.x, n.fp))
				before := slices.Clone(n.theta0)
				kl, step, err := n.lineSearch(obs, rows, tc.loss, s)
				if err != nil {
					t.Fatal(err)
				}
				after := make([]float64, n.size)
				for j, p := range n.actorPs {
					for i, v := range p.Tensor.Data() {
						after[n.offs[j]+i] = float64(v)
					}
				}
				if !tc.accepts {
					if step != 0 || kl != 0 || !slices.Equal(after, before) {
						t.Fatalf("step %v, KL %v, parameters changed %v; want the step rejected", step, kl, !slices.Equal(after, before))
					}
					return
				}
				if !(step > 0 && step < s && kl < maxKL) || slices.Equal(after, before) {
					t.Fatalf("step %v of %v, KL %v; want a shorter accepted step under %v", step, s, kl, maxKL)
				}
				n.setParams(2 * step)
				longer, _, _ := n.evaluate(obs, rows)
				if longer < maxKL {
					t.Errorf("the step twice as long has KL %v < %v: the search stopped late", longer, maxKL)
				}
			})
		}
	}
}
