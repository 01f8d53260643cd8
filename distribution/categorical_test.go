package distribution_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/tensor"
)

func TestCategoricalValues(t *testing.T) {
	ln := math.Log
	// Expected values are the closed forms evaluated in float64:
	// log P(k) = log pₖ (probabilities normalized by their row sum, or
	// softmax of the logits), H = −Σ pₖ log pₖ, mode = argmax pₖ.
	lse := ln(math.Exp(1) + math.Exp(2) + math.Exp(3)) // logsumexp(1, 2, 3)
	sm := func(x float64) float64 { return math.Exp(x - lse) }
	cases := []struct {
		name      string
		probs     bool
		param     *tensor.Tensor
		value     *tensor.Tensor
		logProb   []float64
		lpShape   []int
		entropy   []float64
		batch     []int
		mode      []float64
		wantProbs []float64
	}{{
		name:  "probs rows (seed 001 §5)",
		probs: true,
		param: leaf([]int{3, 2}, 0.3, 0.7, 0.4, 0.6, 0.5, 0.5),
		value: leaf([]int{3}, 1, 0, 1), lpShape: []int{3},
		logProb:   []float64{ln(0.7), ln(0.4), ln(0.5)},
		entropy:   []float64{-0.3*ln(0.3) - 0.7*ln(0.7), -0.4*ln(0.4) - 0.6*ln(0.6), ln(2)},
		batch:     []int{3},
		mode:      []float64{1, 1, 0}, // a tie goes to the first category
		wantProbs: []float64{0.3, 0.7, 0.4, 0.6, 0.5, 0.5},
	}, {
		name:  "unnormalized probs (seed 001 §5's torch.ones(3))",
		probs: true,
		param: leaf([]int{3}, 1, 1, 1),
		value: leaf(nil, 2), lpShape: []int{},
		logProb: []float64{-ln(3)}, entropy: []float64{ln(3)},
		batch: []int{}, mode: []float64{0},
		wantProbs: []float64{1.0 / 3, 1.0 / 3, 1.0 / 3},
	}, {
		name:  "logits",
		param: leaf([]int{1, 3}, 1, 2, 3),
		value: leaf([]int{1}, 2), lpShape: []int{1},
		logProb: []float64{3 - lse},
		entropy: []float64{-(sm(1)*(1-lse) + sm(2)*(2-lse) + sm(3)*(3-lse))},
		batch:   []int{1}, mode: []float64{2},
		wantProbs: []float64{sm(1), sm(2), sm(3)},
	}, {
		name:  "masked logit",
		param: leaf([]int{3}, 0, float32(math.Inf(-1)), 0),
		value: leaf(nil, 1), lpShape: []int{},
		logProb: []float64{math.Inf(-1)}, entropy: []float64{ln(2)},
		batch: []int{}, mode: []float64{0},
		wantProbs: []float64{0.5, 0, 0.5},
	}, {
		// PyTorch turns probabilities into logits as log(clamp(p, ε, 1−ε))
		// with ε = 2⁻²³.
		name:  "probability 0 and 1",
		probs: true,
		param: leaf([]int{2}, 0, 1),
		value: leaf([]int{2}, 0, 1), lpShape: []int{2},
		logProb: []float64{-23 * ln(2), math.Log1p(-0x1p-23)},
		entropy: []float64{-math.Log1p(-0x1p-23)},
		batch:   []int{}, mode: []float64{1},
		wantProbs: []float64{0, 1},
	}, {
		// A value of shape [3, 1] broadcast with batch shape [2].
		name:  "broadcast value",
		probs: true,
		param: leaf([]int{2, 2}, 0.3, 0.7, 0.4, 0.6),
		value: leaf([]int{3, 1}, 0, 1, 1), lpShape: []int{3, 2},
		logProb: []float64{ln(0.3), ln(0.4), ln(0.7), ln(0.6), ln(0.7), ln(0.6)},
		entropy: []float64{-0.3*ln(0.3) - 0.7*ln(0.7), -0.4*ln(0.4) - 0.6*ln(0.6)},
		batch:   []int{2}, mode: []float64{1, 1},
		wantProbs: []float64{0.3, 0.7, 0.4, 0.6},
	}, {
		name:  "scalar value broadcast",
		probs: true,
		param: leaf([]int{2, 2}, 0.3, 0.7, 0.4, 0.6),
		value: leaf(nil, 1), lpShape: []int{2},
		logProb: []float64{ln(0.7), ln(0.6)},
		entropy: []float64{-0.3*ln(0.3) - 0.7*ln(0.7), -0.4*ln(0.4) - 0.6*ln(0.6)},
		batch:   []int{2}, mode: []float64{1, 1},
		wantProbs: []float64{0.3, 0.7, 0.4, 0.6},
	}}
	const tol = 2e-6
	for _, c := range cases {
		for _, tp := range []*tensor.Tape{nil, new(tensor.Tape)} {
			var d distribution.Categorical
			if c.probs {
				mustOK(t, d.SetProbs(tp, c.param))
			} else {
				mustOK(t, d.SetLogits(tp, c.param))
			}
			checkValues(t, c.name+" LogProb", d.LogProb(c.value), c.lpShape, c.logProb, tol)
			checkValues(t, c.name+" Entropy", d.Entropy(), c.batch, c.entropy, tol)
			checkValues(t, c.name+" Mode", d.Mode(), c.batch, c.mode, 0)
			pshape := append(append([]int{}, c.batch...), c.param.Dim(-1))
			checkValues(t, c.name+" Probs", d.Probs(), pshape, c.wantProbs, tol)
			if len(d.EventShape()) != 0 {
				t.Errorf("%s: event shape %v", c.name, d.EventShape())
			}
		}
	}
}

func TestCategoricalInvalid(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	params := []struct {
		name  string
		probs bool
		x     *tensor.Tensor
	}{
		{"NaN logit", false, leaf([]int{2}, 0, nan)},
		{"+Inf logit", false, leaf([]int{2}, 0, inf)},
		{"all −Inf", false, leaf([]int{2, 2}, 0, 0, -inf, -inf)},
		{"negative probability", true, leaf([]int{2}, -0.1, 1.1)},
		{"NaN probability", true, leaf([]int{2}, nan, 1)},
		{"infinite probability", true, leaf([]int{2}, inf, 1)},
		{"zero row", true, leaf([]int{2, 2}, 0.5, 0.5, 0, 0)},
	}
	for _, c := range params {
		var d distribution.Categorical
		mustOK(t, d.SetProbs(nil, leaf([]int{2}, 0.5, 0.5)))
		var err error
		if c.probs {
			err = d.SetProbs(nil, c.x)
		} else {
			err = d.SetLogits(nil, c.x)
		}
		if !errors.Is(err, distribution.ErrParam) {
			t.Errorf("%s: error %v, want ErrParam", c.name, err)
		}
		// d is unchanged.
		checkValues(t, c.name+": Probs after the error", d.Probs(), []int{2}, []float64{0.5, 0.5}, 0)
	}

	var d distribution.Categorical
	if ok, got := panicsWith(func() { _ = d.SetLogits(nil, leaf(nil, 1)) }, distribution.ErrShape); !ok {
		t.Errorf("SetLogits of a scalar: panic %v, want ErrShape", got)
	}
	if ok, got := panicsWith(func() { _ = d.SetProbs(nil, tensor.New(2, 0)) }, distribution.ErrShape); !ok {
		t.Errorf("SetProbs with no categories: panic %v, want ErrShape", got)
	}
	mustOK(t, d.SetProbs(nil, leaf([]int{2, 2}, 0.3, 0.7, 0.4, 0.6)))
	for _, v := range []*tensor.Tensor{leaf([]int{2}, 0, 2), leaf([]int{2}, 0.5, 1), leaf([]int{2}, -1, 0), leaf([]int{2}, nan, 0)} {
		if ok, got := panicsWith(func() { d.LogProb(v) }, distribution.ErrValue); !ok {
			t.Errorf("LogProb(%v): panic %v, want ErrValue", v, got)
		}
	}
	if ok, got := panicsWith(func() { d.LogProb(leaf([]int{3}, 0, 1, 0)) }, distribution.ErrShape); !ok {
		t.Errorf("LogProb of shape [3] with batch [2]: panic %v, want ErrShape", got)
	}
}

// chiSquare returns Σ (observed − expected)² / expected over the categories
// with a positive expected count, and fails if a category of probability 0
// was drawn.
func chiSquare(t *testing.T, counts []int, probs []float64, n int) float64 {
	t.Helper()
	var x2 float64
	for k, p := range probs {
		if p == 0 {
			if counts[k] != 0 {
				t.Errorf("category %d of probability 0 drawn %d times", k, counts[k])
			}
			continue
		}
		e := p * float64(n)
		x2 += (float64(counts[k]) - e) * (float64(counts[k]) - e) / e
	}
	return x2
}

func TestCategoricalSampleFrequencies(t *testing.T) {
	// 1000 rows × 100 draws = 10⁵ samples per case. The critical values are
	// the chi-squared 0.999 quantiles (R: qchisq(0.999, df)), so a correct
	// sampler fails with probability 10⁻³ for an arbitrary seed and never
	// with the fixed one; a sampler off by one category, or ignoring the
	// probabilities, exceeds them by orders of magnitude.
	cases := []struct {
		name     string
		logits   bool
		row      []float32
		probs    []float64
		critical float64
	}{
		{"probs", false, []float32{0.1, 0.2, 0.3, 0.4}, []float64{0.1, 0.2, 0.3, 0.4}, 16.266},
		{"unnormalized probs", false, []float32{2, 0, 6, 2}, []float64{0.2, 0, 0.6, 0.2}, 13.816},
		{"logits", true, []float32{0, float32(math.Log(3)), float32(math.Inf(-1))}, []float64{0.25, 0.75, 0}, 10.828},
	}
	const rows, draws = 1000, 100
	for _, c := range cases {
		k := len(c.row)
		x := make([]float32, 0, rows*k)
		for i := 0; i < rows; i++ {
			x = append(x, c.row...)
		}
		var d distribution.Categorical
		if c.logits {
			mustOK(t, d.SetLogits(nil, leaf([]int{rows, k}, x...)))
		} else {
			mustOK(t, d.SetProbs(nil, leaf([]int{rows, k}, x...)))
		}
		rng := rand.New(rand.NewPCG(7, 11))
		counts := make([]int, k)
		for i := 0; i < draws; i++ {
			s := d.Sample(rng)
			if got := s.Shape(); len(got) != 1 || got[0] != rows || s.RequiresGrad() {
				t.Fatalf("%s: sample of shape %v (requires grad %v)", c.name, got, s.RequiresGrad())
			}
			for _, v := range s.Data() {
				counts[int(v)]++
			}
		}
		if x2 := chiSquare(t, counts, c.probs, rows*draws); x2 > c.critical {
			t.Errorf("%s: χ² = %.2f > %.3f, counts %v", c.name, x2, c.critical, counts)
		}
	}
}

func TestCategoricalSampleRows(t *testing.T) {
	// Each row is sampled from its own probabilities: one-hot rows always
	// give their category.
	var d distribution.Categorical
	mustOK(t, d.SetProbs(nil, leaf([]int{2, 2, 3}, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 2)))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 100; i++ {
		checkValues(t, "sample", d.Sample(rng), []int{2, 2}, []float64{0, 2, 1, 2}, 0)
	}
}
