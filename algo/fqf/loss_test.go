package fqf_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/fqf"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// TestFractionGradTo checks ∂W₁/∂τ by hand on one monotone row, where it is
// 2F⁻¹(τᵢ) − F⁻¹(τ̂ᵢ) − F⁻¹(τ̂ᵢ₊₁), and one that is not. N = 3: hat =
// F⁻¹(τ̂₁ … τ̂₃), at = F⁻¹(τ₁, τ₂).
//
//	monotone hat (0, 2, 5), at (1, 3):  (2 − 0 − 2, 6 − 2 − 5)      = (0, −1)
//	hat (0, 2, 5), at (4, 3): i = 1: 4 > 0 (+), 4 < 3 fails (−):
//	(4 − 0) − (4 − 2) = 2; i = 2: 3 > 4 fails (−), 3 < 5 (+):
//	−(3 − 2) + (3 − 5) = −3
func TestFractionGradTo(t *testing.T) {
	hat := []float32{0, 2, 5, 0, 2, 5}
	at := []float32{1, 3, 4, 3}
	dst := make([]float32, 4)
	fqf.FractionGradTo(dst, hat, at, 3)
	for i, want := range []float32{0, -1, 2, -3} {
		if dst[i] != want {
			t.Errorf("∂W₁/∂τ = %v, want (0, −1, 2, −3)", dst)
			break
		}
	}
}

// TestLosses checks the statistics of one update on the five transitions of
// algotest.Five against float64 code: features ψ(s) (MLP 2→4→3),
// proposal p = softmax(W·ψ + b), τᵢ = p₁ + … + pᵢ, τ̂ᵢ = τᵢ − pᵢ/2, the
// quantile function F⁻¹(τ) = head(ψ ⊙ ReLU(W_φ·cos(π·i·τ) + b_φ))ₐ with 64
// cosines; the entropy is the batch mean of −Σ pᵢ log pᵢ, the fraction loss
// the batch mean of Σᵢ (∂W₁/∂τᵢ)·τᵢ (the gradient as TestFractionGradTo
// checks it), and the loss the batch mean of the quantile Huber loss (κ =
// 1) of F⁻¹(τ̂) of the taken actions at fractions τ̂ against the returns.
func TestLosses(t *testing.T) {
	const n = 4
	cfg := fqf.DefaultConfig()
	cfg.Hidden, cfg.HeadHidden, cfg.NumFractions, cfg.NStep = []int{4, 3}, []int{5}, n, 1
	f, err := fqf.New(cfg, algotest.Box(t, -10, 10, 2), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	// A proposal far from uniform, so that the fractions differ.
	for i, w := 0, f.Proposal().Weight.Data(); i < len(w); i++ {
		w[i] = float32(math.Sin(float64(3*i+1))) * 0.8
	}
	ps := f.Network().Params()
	wf, bf := f.Proposal().Weight.Data(), f.Proposal().Bias.Data()
	we, be := ps.Lookup("embed.weight").Data(), ps.Lookup("embed.bias").Data()
	quant := func(psi []float64, tau float64, a int) float64 {
		x := make([]float64, len(psi))
		for o := range x {
			v := float64(be[o])
			for i := range 64 {
				v += float64(we[o*64+i]) * math.Cos(math.Pi*float64(i+1)*tau)
			}
			x[o] = psi[o] * math.Max(v, 0)
		}
		return algotest.MLP64(ps, "head.", x)[a]
	}
	tr := algotest.Five()
	act := []int64{0, 1, 1, 0, 1}
	b := algotest.Preprocessed(t, f, tr, act)
	ra, err := b.Array(batch.KeyReturns)
	if err != nil {
		t.Fatal(err)
	}
	ret := nd.Data[float32](ra)
	var wantEnt, wantFrac, wantLoss float64
	for k, s := range tr.Obs {
		psi := algotest.MLP64(ps, "features.", []float64{float64(s[0]), float64(s[1])})
		logits := make([]float64, n)
		for i := range logits {
			logits[i] = float64(bf[i])
			for j, v := range psi {
				logits[i] += float64(wf[i*len(psi)+j]) * v
			}
		}
		var z float64
		for _, l := range logits {
			z += math.Exp(l)
		}
		p, tau, hat := make([]float64, n), make([]float64, n), make([]float64, n)
		var cum float64
		for i, l := range logits {
			p[i] = math.Exp(l) / z
			wantEnt -= p[i] * math.Log(p[i]) / 5
			cum += p[i]
			tau[i], hat[i] = cum, cum-p[i]/2
		}
		a := int(act[k])
		fh, fa := make([]float32, n), make([]float32, n-1)
		for i := range n {
			fh[i] = float32(quant(psi, hat[i], a))
			if i < n-1 {
				fa[i] = float32(quant(psi, tau[i], a))
			}
		}
		g := make([]float32, n-1)
		fqf.FractionGradTo(g, fh, fa, n)
		for i, gi := range g {
			wantFrac += float64(gi) * tau[i] / 5
		}
		for i := range n {
			for j := range n {
				u := float64(ret[k*n+j]) - float64(fh[i])
				h := math.Abs(u) - 0.5
				if math.Abs(u) <= 1 {
					h = 0.5 * u * u
				}
				ind := 0.0
				if u <= 0 {
					ind = 1
				}
				wantLoss += math.Abs(hat[i]-ind) * h / n / 5
			}
		}
	}
	stats, err := f.Update(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want float64
	}{{"entropy", wantEnt}, {"fraction_loss", wantFrac}, {"loss", wantLoss}} {
		if !scalar.EqualWithinAbsOrRel(stats[c.name], c.want, 1e-5, 1e-4) {
			t.Errorf("%s %v, want %v", c.name, stats[c.name], c.want)
		}
	}
	if wantEnt > math.Log(n)-1e-3 {
		t.Errorf("entropy %v: the proposal is uniform, the test checks little", wantEnt)
	}
}
