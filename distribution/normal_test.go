package distribution_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/tensor"
)

// normalLogPdf is the closed form log N(v; μ, σ²) = −(v − μ)²/(2σ²) − log σ −
// ½ log 2π in float64.
func normalLogPdf(v, mu, sigma float64) float64 {
	z := (v - mu) / sigma
	return -z*z/2 - math.Log(sigma) - 0.5*math.Log(2*math.Pi)
}

// normalEntropy is the closed form ½ + ½ log 2π + log σ.
func normalEntropy(sigma float64) float64 { return 0.5 + 0.5*math.Log(2*math.Pi) + math.Log(sigma) }

func TestNormalValues(t *testing.T) {
	cases := []struct {
		name         string
		loc, scale   *tensor.Tensor
		value        *tensor.Tensor
		batch        []int
		lpShape      []int
		mu, sigma, v []float64 // per result element of LogProb
		entSigma     []float64 // per batch element
	}{{
		name: "same shapes",
		loc:  leaf([]int{3}, 0, 1, 2), scale: leaf([]int{3}, 1, 2, 0.5),
		value: leaf([]int{3}, 0, 3, 1.5), batch: []int{3}, lpShape: []int{3},
		mu: []float64{0, 1, 2}, sigma: []float64{1, 2, 0.5}, v: []float64{0, 3, 1.5},
		entSigma: []float64{1, 2, 0.5},
	}, {
		// A state-independent scale [2] with locations [2, 2].
		name: "broadcast scale",
		loc:  leaf([]int{2, 2}, 0, 1, 2, 3), scale: leaf([]int{2}, 1, 2),
		value: leaf([]int{2, 2}, 1, 1, 1, 1), batch: []int{2, 2}, lpShape: []int{2, 2},
		mu: []float64{0, 1, 2, 3}, sigma: []float64{1, 2, 1, 2}, v: []float64{1, 1, 1, 1},
		entSigma: []float64{1, 2, 1, 2},
	}, {
		name: "broadcast both",
		loc:  leaf([]int{2, 1}, -1, 1), scale: leaf([]int{1, 2}, 0.5, 3),
		value: leaf(nil, 0.25), batch: []int{2, 2}, lpShape: []int{2, 2},
		mu: []float64{-1, -1, 1, 1}, sigma: []float64{0.5, 3, 0.5, 3}, v: []float64{0.25, 0.25, 0.25, 0.25},
		entSigma: []float64{0.5, 3, 0.5, 3},
	}, {
		// Three samples of shape [3, 2] against batch shape [2].
		name: "sample-shaped value",
		loc:  leaf([]int{2}, 0, 1), scale: leaf([]int{2}, 1, 2),
		value: leaf([]int{3, 2}, 0, 0, 1, 1, 2, 2), batch: []int{2}, lpShape: []int{3, 2},
		mu: []float64{0, 1, 0, 1, 0, 1}, sigma: []float64{1, 2, 1, 2, 1, 2}, v: []float64{0, 0, 1, 1, 2, 2},
		entSigma: []float64{1, 2},
	}}
	for _, c := range cases {
		for _, tp := range []*tensor.Tape{nil, new(tensor.Tape)} {
			var d distribution.Normal
			mustOK(t, d.Set(tp, c.loc, c.scale))
			want := make([]float64, len(c.v))
			for i := range want {
				want[i] = normalLogPdf(c.v[i], c.mu[i], c.sigma[i])
			}
			checkValues(t, c.name+" LogProb", d.LogProb(c.value), c.lpShape, want, 1e-6)
			ent := make([]float64, len(c.entSigma))
			for i, s := range c.entSigma {
				ent[i] = normalEntropy(s)
			}
			checkValues(t, c.name+" Entropy", d.Entropy(), c.batch, ent, 1e-6)
			checkValues(t, c.name+" Scale", d.Scale(), c.batch, c.entSigma, 0)
			mode := make([]float64, len(d.Loc().Data()))
			for i, v := range d.Loc().Data() {
				mode[i] = float64(v)
			}
			checkValues(t, c.name+" Mode", d.Mode(), c.batch, mode, 0)
		}
	}
}

func TestNormalInvalid(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	cases := []struct {
		name       string
		loc, scale float32
	}{
		{"NaN location", nan, 1}, {"infinite location", -inf, 1},
		{"zero scale", 0, 0}, {"negative scale", 0, -1}, {"NaN scale", 0, nan}, {"infinite scale", 0, inf},
	}
	for _, c := range cases {
		var d distribution.Normal
		mustOK(t, d.Set(nil, leaf([]int{1}, 5), leaf([]int{1}, 2)))
		if err := d.Set(nil, leaf([]int{2}, 0, c.loc), leaf([]int{2}, 1, c.scale)); !errors.Is(err, distribution.ErrParam) {
			t.Errorf("%s: error %v, want ErrParam", c.name, err)
		}
		checkValues(t, c.name+": Loc after the error", d.Loc(), []int{1}, []float64{5}, 0)
	}
	var d distribution.Normal
	if ok, got := panicsWith(func() { _ = d.Set(nil, tensor.New(2), tensor.New(3)) }, distribution.ErrShape); !ok {
		t.Errorf("Set with shapes [2] and [3]: panic %v, want ErrShape", got)
	}
	mustOK(t, d.Set(nil, tensor.New(3), leaf([]int{3}, 1, 1, 1)))
	if ok, got := panicsWith(func() { d.LogProb(tensor.New(2)) }, distribution.ErrShape); !ok {
		t.Errorf("LogProb of shape [2] with batch [3]: panic %v, want ErrShape", got)
	}
}

func TestNormalSampleMoments(t *testing.T) {
	// 2·10⁴ draws at each of two positions with different parameters. The
	// sample mean of n draws has standard deviation σ/√n and the sample
	// variance σ²·√(2/(n−1)); both must lie within 4 of those of the true
	// values (a 6·10⁻⁵ chance to fail for an arbitrary seed, none with the
	// fixed one). Skewness (0) and excess kurtosis (0) of a normal have
	// standard deviations √(6/n) and √(24/n).
	mu, sigma := []float64{-1, 3}, []float64{0.5, 2}
	const n = 20000
	var d distribution.Normal
	mustOK(t, d.Set(new(tensor.Tape), leaf([]int{2}, -1, 3), leaf([]int{2}, 0.5, 2)))
	rng := rand.New(rand.NewPCG(3, 4))
	xs := [2][]float64{}
	for i := 0; i < n; i++ {
		s := d.Sample(rng)
		if s.RequiresGrad() {
			t.Fatal("a sample requires gradients")
		}
		for j, v := range s.Data() {
			xs[j] = append(xs[j], float64(v))
		}
	}
	for j := range xs {
		var m, m2, m3, m4 float64
		for _, x := range xs[j] {
			m += x
		}
		m /= n
		for _, x := range xs[j] {
			d := x - m
			m2 += d * d
			m3 += d * d * d
			m4 += d * d * d * d
		}
		variance := m2 / (n - 1)
		skew := (m3 / n) / math.Pow(m2/n, 1.5)
		kurt := (m4/n)/((m2/n)*(m2/n)) - 3
		if math.Abs(m-mu[j]) > 4*sigma[j]/math.Sqrt(n) {
			t.Errorf("position %d: mean %.4f, want %.4f", j, m, mu[j])
		}
		if math.Abs(variance-sigma[j]*sigma[j]) > 4*sigma[j]*sigma[j]*math.Sqrt(2.0/(n-1)) {
			t.Errorf("position %d: variance %.4f, want %.4f", j, variance, sigma[j]*sigma[j])
		}
		if math.Abs(skew) > 4*math.Sqrt(6.0/n) || math.Abs(kurt) > 4*math.Sqrt(24.0/n) {
			t.Errorf("position %d: skewness %.4f, excess kurtosis %.4f, want 0", j, skew, kurt)
		}
	}
}

func TestNormalRSampleMatchesSample(t *testing.T) {
	// RSample is Sample with the gradient kept: the same generator state
	// gives the same values, bit for bit.
	loc, scale := leaf([]int{2, 3}, 0, 1, 2, 3, 4, 5), leaf([]int{3}, 0.5, 1, 2)
	loc.SetRequiresGrad(true)
	tp := new(tensor.Tape)
	var d distribution.Normal
	mustOK(t, d.Set(tp, loc, scale))
	s := d.Sample(rand.New(rand.NewPCG(5, 6)))
	r := d.RSample(rand.New(rand.NewPCG(5, 6)))
	if !r.RequiresGrad() || s.RequiresGrad() {
		t.Errorf("RSample requires grad %v, Sample %v; want true, false", r.RequiresGrad(), s.RequiresGrad())
	}
	for i := range s.Data() {
		if s.Data()[i] != r.Data()[i] {
			t.Fatalf("element %d: Sample %g, RSample %g", i, s.Data()[i], r.Data()[i])
		}
	}
	// d(rsample)/d(loc) = 1 for every element.
	tp.Backward(tp.Sum(r))
	for i, g := range loc.Grad() {
		if g != 1 {
			t.Errorf("d rsample / d loc[%d] = %g, want 1", i, g)
		}
	}
}
