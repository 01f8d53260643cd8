package quantile_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/quantile"
	"github.com/gorl/gorl/tensor"
)

// quantileHuber64 is the quantile Huber loss of each row in float64, the
// reference of the tests: (1/N) Σᵢ Σⱼ |τᵢ − 1{uᵢⱼ ≤ 0}|·Lκ(uᵢⱼ)/κ with
// uᵢⱼ = target_j − pred_i (Dabney et al., 2018, reduced as Tianshou does).
func quantileHuber64(pred, target, tau [][]float64, kappa float64) []float64 {
	out := make([]float64, len(pred))
	for b := range pred {
		for i, p := range pred[b] {
			for _, t := range target[b] {
				u := t - p
				var h float64
				if math.Abs(u) <= kappa {
					h = 0.5 * u * u / kappa
				} else {
					h = math.Abs(u) - 0.5*kappa
				}
				ind := 0.0
				if u <= 0 {
					ind = 1
				}
				out[b] += math.Abs(tau[b][i]-ind) * h
			}
		}
		out[b] /= float64(len(pred[b]))
	}
	return out
}

func flat(rows [][]float64) []float32 {
	var out []float32
	for _, r := range rows {
		for _, v := range r {
			out = append(out, float32(v))
		}
	}
	return out
}

// TestQuantileHuber checks the fused loss on two rows of 3 quantiles
// against 4 target samples, with differences on both sides of κ and of 0,
// for fractions shared by the rows ([N], QR-DQN's) and per row ([B, N],
// IQN's), against quantileHuber64; and the gradient of the mean loss with
// respect to the predictions against the derivative worked out in float64:
// ∂ℓ_b/∂θᵢ = −(1/N) Σⱼ |τᵢ − 1{uᵢⱼ ≤ 0}|·clamp(uᵢⱼ, −κ, κ)/κ.
func TestQuantileHuber(t *testing.T) {
	pred := [][]float64{{-1, 0.2, 1.5}, {0.5, 0.5, 3}}
	target := [][]float64{{-2.5, 0, 0.3, 2}, {0.1, 0.5, 1.2, -0.4}}
	shared := []float64{1.0 / 6, 0.5, 5.0 / 6}
	perRow := [][]float64{{0.1, 0.4, 0.9}, {0.3, 0.6, 0.65}}
	for _, tc := range []struct {
		name  string
		tau   [][]float64 // per row
		rows  bool        // tau given as [B, N]
		kappa float64
	}{
		{"shared κ=1", [][]float64{shared, shared}, false, 1},
		{"per row κ=1", perRow, true, 1},
		{"shared κ=2", [][]float64{shared, shared}, false, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := tensor.FromSlice(flat(pred), 2, 3)
			p.SetRequiresGrad(true)
			tg, _ := tensor.FromSlice(flat(target), 2, 4)
			var tau *tensor.Tensor
			if tc.rows {
				tau, _ = tensor.FromSlice(flat(tc.tau), 2, 3)
			} else {
				tau, _ = tensor.FromSlice(flat(tc.tau[:1]), 3)
			}
			var tp tensor.Tape
			rows := tp.QuantileHuber(p, tg, tau, float32(tc.kappa))
			want := quantileHuber64(pred, target, tc.tau, tc.kappa)
			for b, w := range want {
				if !scalar.EqualWithinAbsOrRel(float64(rows.Data()[b]), w, 1e-6, 1e-6) {
					t.Errorf("row %d: loss %v, want %v", b, rows.Data()[b], w)
				}
			}
			tp.Backward(tp.Mean(rows))
			for b := range pred {
				for i, pi := range pred[b] {
					var g float64
					for _, tj := range target[b] {
						u := tj - pi
						ind := 0.0
						if u <= 0 {
							ind = 1
						}
						g -= math.Abs(tc.tau[b][i]-ind) * math.Max(-tc.kappa, math.Min(tc.kappa, u)) / tc.kappa
					}
					g /= float64(len(pred[b])) * float64(len(pred)) // the mean over rows
					if got := float64(p.Grad()[b*3+i]); !scalar.EqualWithinAbsOrRel(got, g, 1e-6, 1e-6) {
						t.Errorf("∂/∂pred[%d][%d] = %v, want %v", b, i, got, g)
					}
				}
			}
		})
	}
}

// TestImplicitNet checks IQN's network with 64 cosines against float64
// code: ψ(s) from the feature MLP (linear last layer), φ(τ) =
// ReLU(W·cos(π·i·τ) + b) for i = 1 … 64, and the head on ψ ⊙ φ, for two
// observations and three fractions each.
func TestImplicitNet(t *testing.T) {
	cfg := quantile.ImplicitConfig{In: 2, Actions: 3, Hidden: []int{5, 4}, Cosines: 64, HeadHidden: []int{6}}
	m, err := quantile.NewImplicitNet(cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	obs := [][]float64{{0.3, -1.2}, {2, 0.5}}
	taus := [][]float64{{0.05, 0.5, 0.93}, {0.2, 0.21, 0.7}}
	o, _ := tensor.FromSlice(flat(obs), 2, 2)
	tau, _ := tensor.FromSlice(flat(taus), 2, 3)
	var tp tensor.Tape
	z := m.Quantiles(&tp, m.Feature(&tp, o), tau)
	if got := z.Shape(); len(got) != 3 || got[0] != 2 || got[1] != 3 || got[2] != 3 {
		t.Fatalf("quantiles of shape %v, want [2 3 3]", got)
	}
	ps := m.Params()
	w, bias := ps.Lookup("embed.weight").Data(), ps.Lookup("embed.bias").Data()
	for b := range obs {
		psi := algotest.MLP64(ps, "features.", obs[b])
		for s, tv := range taus[b] {
			x := make([]float64, len(psi))
			for o := range x {
				v := float64(bias[o])
				for i := range 64 {
					v += float64(w[o*64+i]) * math.Cos(math.Pi*float64(i+1)*tv)
				}
				x[o] = psi[o] * math.Max(v, 0)
			}
			want := algotest.MLP64(ps, "head.", x)
			for a, wa := range want {
				if got := float64(z.Data()[(b*3+s)*3+a]); !scalar.EqualWithinAbsOrRel(got, wa, 1e-5, 1e-5) {
					t.Errorf("Z(s%d, τ=%v)[%d] = %v, want %v", b, tv, a, got, wa)
				}
			}
		}
	}
}
