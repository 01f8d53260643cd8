package distribution_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/tensor"
)

// tanhLogPdf is log p(a) of a = tanh(u), u ~ N(μ, σ²), by the change of
// variables log N(u) − log(1 − tanh²u), with log(1 − tanh²u) = −2·log cosh u
// evaluated in float64 as 2·(log 2 − |u| − log1p(e^(−2|u|))).
func tanhLogPdf(u, mu, sigma float64) float64 {
	au := math.Abs(u)
	return normalLogPdf(u, mu, sigma) - 2*(math.Ln2-au-math.Log1p(math.Exp(-2*au)))
}

func TestTanhNormalLogProb(t *testing.T) {
	cases := []struct {
		name      string
		mu, sigma float32
		value     float32 // a, for LogProb of a given value
	}{
		{"centre", 0, 1, 0},
		{"positive", 0.5, 0.8, 0.7},
		{"negative", -1, 2, -0.95},
	}
	for _, c := range cases {
		for _, tp := range []*tensor.Tape{nil, new(tensor.Tape)} {
			var d distribution.TanhNormal
			mustOK(t, d.Set(tp, leaf([]int{1}, c.mu), leaf([]int{1}, c.sigma)))
			u := math.Atanh(float64(c.value))
			checkValues(t, c.name+" LogProb", d.LogProb(leaf([]int{1}, c.value)), []int{1},
				[]float64{tanhLogPdf(u, float64(c.mu), float64(c.sigma))}, 2e-5)
			checkValues(t, c.name+" Mode", d.Mode(), []int{1}, []float64{math.Tanh(float64(c.mu))}, 1e-7)
		}
	}
}

func TestTanhNormalSampleCache(t *testing.T) {
	// LogProb of the last sample uses the remembered pre-image u, so it
	// stays exact where tanh(u) rounds to 1 in float32 (u > 9): there
	// log(1 − a²) would be log 0, and atanh(a) infinite.
	loc, scale := leaf([]int{4}, 0, 2, 12, -15), leaf([]int{4}, 1, 0.5, 0.1, 0.2)
	for _, reparam := range []bool{false, true} {
		var d distribution.TanhNormal
		mustOK(t, d.Set(new(tensor.Tape), loc, scale))
		var n distribution.Normal
		mustOK(t, n.Set(nil, loc, scale))
		var a *tensor.Tensor
		if reparam {
			a = d.RSample(rand.New(rand.NewPCG(9, 9)))
		} else {
			a = d.Sample(rand.New(rand.NewPCG(9, 9)))
		}
		u := n.Sample(rand.New(rand.NewPCG(9, 9))) // the same draws
		wantA, wantLP := make([]float64, 4), make([]float64, 4)
		for i, v := range u.Data() {
			wantA[i] = math.Tanh(float64(v))
			wantLP[i] = tanhLogPdf(float64(v), float64(loc.Data()[i]), float64(scale.Data()[i]))
		}
		checkValues(t, "sample", a, []int{4}, wantA, 1e-7)
		checkValues(t, "LogProb of the sample", d.LogProb(a), []int{4}, wantLP, 1e-5)
		if a.Data()[2] != 1 || a.Data()[3] != -1 {
			t.Errorf("the saturated samples are %v, want ±1 (the case under test)", a.Data()[2:])
		}
		// Another tensor with the same values goes through atanh, clamped:
		// finite, though no longer exact for the saturated ones.
		copied := tensor.MustFromSlice(append([]float32{}, a.Data()...))
		for i, v := range d.LogProb(copied).Data() {
			if math.IsInf(float64(v), 0) || math.IsNaN(float64(v)) {
				t.Errorf("LogProb of a copy, element %d: %g, want finite", i, v)
			}
		}
	}
}

func TestTanhNormalInvalid(t *testing.T) {
	var d distribution.TanhNormal
	if err := d.Set(nil, leaf([]int{1}, 0), leaf([]int{1}, 0)); !errors.Is(err, distribution.ErrParam) {
		t.Errorf("scale 0: error %v, want ErrParam", err)
	}
	if ok, got := panicsWith(func() { _ = d.Set(nil, tensor.New(2), tensor.New(3)) }, distribution.ErrShape); !ok {
		t.Errorf("shapes [2] and [3]: panic %v, want ErrShape", got)
	}
}
