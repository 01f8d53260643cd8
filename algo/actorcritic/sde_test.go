package actorcritic_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/tensor/tensortest"
)

// newSDE returns a head of 4 features and 2 action dimensions and the
// features of 3 observations.
func newSDE(freq int) (*actorcritic.SDEHead, *tensor.Tensor) {
	h := actorcritic.NewSDEHead(4, 2, -0.5, freq, rand.New(rand.NewPCG(1, 2)))
	z := tensor.MustFromSlice([]float32{0.5, -1, 0.25, 2, 0, 0.3, -0.7, 1, 1.5, 0.1, 0, -0.2}, 3, 4)
	return h, z
}

// TestSDEHeadGrad checks the gradients of the log-density and entropy with
// respect to the mean layer and the log standard deviations against finite
// differences, and the log-density against the closed form of a Normal of
// variance Σₗ zₗ²σₗⱼ² + 10⁻⁶ computed in float64.
func TestSDEHeadGrad(t *testing.T) {
	head, z := newSDE(1)
	value := tensor.MustFromSlice([]float32{0.3, -1.2, 2, 0.1, 0.5, -0.4}, 3, 2)
	f := func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
		h := *head // in[0] and in[1] are its mean layer's tensors
		h.LogStd = in[2]
		d := h.New()
		if err := h.Set(d, tp, z); err != nil {
			t.Fatal(err)
		}
		ent := d.(interface{ Entropy() *tensor.Tensor }).Entropy()
		return tp.Add(d.LogProb(value), ent)
	}
	logStd := tensor.MustFromSlice([]float32{-0.3, 0.4, 0, -1, 0.2, 0.1, -0.5, 0.3}, 4, 2)
	if err := tensortest.CheckGrad(f, []*tensor.Tensor{head.Mean.Weight, head.Mean.Bias, logStd}, tensortest.Config{}); err != nil {
		t.Error(err)
	}

	var tp tensor.Tape
	head.LogStd = logStd
	d := head.New()
	if err := head.Set(d, &tp, z); err != nil {
		t.Fatal(err)
	}
	got := d.LogProb(value).Data()
	W, b, zs, v, ls := head.Mean.Weight.Data(), head.Mean.Bias.Data(), z.Data(), value.Data(), logStd.Data()
	for i := range 3 {
		want := 0.0
		for j := range 2 {
			mu, variance := float64(b[j]), 1e-6
			for l := range 4 {
				mu += float64(W[j*4+l]) * float64(zs[i*4+l])
				s := math.Exp(float64(ls[l*2+j]))
				variance += float64(zs[i*4+l]) * float64(zs[i*4+l]) * s * s
			}
			x := float64(v[i*2+j]) - mu
			want += -x*x/(2*variance) - 0.5*math.Log(2*math.Pi*variance)
		}
		if math.Abs(float64(got[i])-want) > 1e-4*math.Max(1, math.Abs(want)) {
			t.Errorf("row %d: log-density %v, want %v", i, got[i], want)
		}
	}
}

// TestSDEHeadNoise checks that the exploration matrices are kept for
// SampleFreq samples (equal actions for equal features), redrawn after
// them and when the number of rows changes, restored by UnmarshalBinary,
// and that with a new matrix at every sample the noise has the variance
// Σₗ zₗ²σ² of the distribution (within 4 standard errors).
func TestSDEHeadNoise(t *testing.T) {
	head, z := newSDE(3)
	var tp tensor.Tape
	d := head.New()
	rng := rand.New(rand.NewPCG(3, 4))
	sample := func() []float32 {
		tp.Reset()
		if err := head.Set(d, &tp, z); err != nil {
			t.Fatal(err)
		}
		return slices.Clone(d.Sample(rng).Data())
	}
	var s [7][]float32
	for i := range s {
		s[i] = sample()
	}
	for i := 1; i < 7; i++ {
		if same := slices.Equal(s[i], s[i-1]); same != (i%3 != 0) {
			t.Errorf("samples %d and %d equal: %v, want %v (a new matrix every 3 samples)", i-1, i, same, i%3 != 0)
		}
	}
	// A state saved now gives the same next samples.
	st, err := head.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	saved := *rng
	next := sample()
	other, _ := newSDE(3)
	if err := other.UnmarshalBinary(st); err != nil {
		t.Fatal(err)
	}
	*rng = saved
	d2 := other.New()
	if err := other.Set(d2, &tp, z); err != nil {
		t.Fatal(err)
	}
	if got := d2.Sample(rng).Data(); !slices.Equal(got, next) {
		t.Errorf("restored head samples %v, want %v", got, next)
	}
	if err := other.UnmarshalBinary(st[:len(st)-1]); err == nil {
		t.Error("UnmarshalBinary of truncated data did not fail")
	}
	// Fewer rows redraw the matrices.
	before := sample()
	if err := head.Set(d, &tp, tensor.MustFromSlice([]float32{0.5, -1, 0.25, 2}, 1, 4)); err != nil {
		t.Fatal(err)
	}
	if got := d.Sample(rng).Data(); slices.Equal(got, before[:2]) {
		t.Error("one row reused the matrix of three")
	}

	// Variance of the noise with a matrix per sample: σ = e^−0.5 everywhere.
	head, z = newSDE(0)
	const n = 20000
	var sum, sumSq [6]float64
	var mean []float32
	for range n {
		tp.Reset()
		if err := head.Set(d, &tp, z); err != nil {
			t.Fatal(err)
		}
		mean = d.Mode().Data()
		for i, a := range d.Sample(rng).Data() {
			e := float64(a - mean[i])
			sum[i] += e
			sumSq[i] += e * e
		}
	}
	zs := z.Data()
	for i := range 6 {
		row := i / 2
		want := 0.0
		for l := range 4 {
			want += float64(zs[row*4+l]*zs[row*4+l]) * math.Exp(-1)
		}
		got := sumSq[i]/n - (sum[i]/n)*(sum[i]/n)
		if tol := 4 * want * math.Sqrt(2.0/n); math.Abs(got-want) > tol {
			t.Errorf("element %d: noise variance %v, want %v ± %v", i, got, want, tol)
		}
	}
}

// TestSDEHeadRedraw checks that Redraw makes the next sample draw a new
// matrix and restarts the count: with a new matrix every 3 samples,
// samples 0, 1 share one, Redraw, then samples 2, 3, 4 share a new one and
// sample 5 draws again.
func TestSDEHeadRedraw(t *testing.T) {
	head, z := newSDE(3)
	var tp tensor.Tape
	d := head.New()
	rng := rand.New(rand.NewPCG(5, 6))
	var prev []float32
	for i, c := range []struct {
		redraw, fresh bool
	}{{false, true}, {false, false}, {true, true}, {false, false}, {false, false}, {false, true}} {
		if c.redraw {
			head.Redraw()
		}
		tp.Reset()
		if err := head.Set(d, &tp, z); err != nil {
			t.Fatal(err)
		}
		s := slices.Clone(d.Sample(rng).Data())
		if fresh := !slices.Equal(s, prev); fresh != c.fresh {
			t.Errorf("sample %d: new noise %v, want %v", i, fresh, c.fresh)
		}
		prev = s
	}
}
