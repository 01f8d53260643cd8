package distribution_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/tensor"
)

func TestIndependentNormal(t *testing.T) {
	// A diagonal Gaussian over 3-dimensional actions for 2 states: LogProb
	// and Entropy are the sums of the per-dimension closed forms.
	mu := []float64{0, 1, 2, -1, -2, 0.5}
	sigma := []float64{1, 0.5, 2, 1.5, 1, 0.25}
	v := []float64{0.5, 1, 1, -1, 0, 0.5}
	loc, scale, val := tensor.New(2, 3), tensor.New(2, 3), tensor.New(2, 3)
	for i := range mu {
		loc.Data()[i], scale.Data()[i], val.Data()[i] = float32(mu[i]), float32(sigma[i]), float32(v[i])
	}
	cases := []struct {
		k            int
		batch, event []int
	}{{0, []int{2, 3}, []int{}}, {1, []int{2}, []int{3}}, {2, []int{}, []int{2, 3}}}
	for _, c := range cases {
		tp := new(tensor.Tape)
		var n distribution.Normal
		mustOK(t, n.Set(tp, loc, scale))
		var d distribution.Independent
		d.Set(tp, &n, c.k)
		if fmt.Sprint(d.BatchShape()) != fmt.Sprint(c.batch) || fmt.Sprint(d.EventShape()) != fmt.Sprint(c.event) {
			t.Errorf("k=%d: batch %v event %v, want %v %v", c.k, d.BatchShape(), d.EventShape(), c.batch, c.event)
		}
		group := 1
		for _, e := range c.event {
			group *= e
		}
		lp, ent := make([]float64, 6/group), make([]float64, 6/group)
		for i := range mu {
			lp[i/group] += normalLogPdf(v[i], mu[i], sigma[i])
			ent[i/group] += normalEntropy(sigma[i])
		}
		checkValues(t, fmt.Sprintf("k=%d LogProb", c.k), d.LogProb(val), c.batch, lp, 1e-6)
		checkValues(t, fmt.Sprintf("k=%d Entropy", c.k), d.Entropy(), c.batch, ent, 1e-6)
		if d.Mode() != loc || d.Base() != &n || d.Reinterpreted() != c.k {
			t.Errorf("k=%d: Mode, Base or Reinterpreted do not return the base's", c.k)
		}
		s := d.Sample(rand.New(rand.NewPCG(1, 1)))
		r := d.RSample(rand.New(rand.NewPCG(1, 1)))
		if fmt.Sprint(s.Shape()) != "[2 3]" || fmt.Sprint(s.Data()) != fmt.Sprint(r.Data()) {
			t.Errorf("k=%d: sample %v, rsample %v", c.k, s, r)
		}
	}
}

func TestIndependentOthers(t *testing.T) {
	// Over a Categorical [2, 2 rows, 3 categories]: log-probabilities of
	// the two rows add up. Over a TanhNormal, LogProb of the last sample
	// sums the exact per-dimension values.
	var c distribution.Categorical
	mustOK(t, c.SetProbs(nil, leaf([]int{2, 2, 2}, 0.5, 0.5, 0.25, 0.75, 0.1, 0.9, 1, 0)))
	var ic distribution.Independent
	ic.Set(nil, &c, 1)
	checkValues(t, "Categorical LogProb", ic.LogProb(leaf([]int{2, 2}, 0, 1, 1, 0)), []int{2},
		[]float64{math.Log(0.5) + math.Log(0.75), math.Log(0.9) + math.Log1p(-0x1p-23)}, 1e-6)
	if ok, got := panicsWith(func() { ic.RSample(rand.New(rand.NewPCG(1, 1))) }, distribution.ErrKind); !ok {
		t.Errorf("RSample of a Categorical: panic %v, want ErrKind", got)
	}

	var th distribution.TanhNormal
	loc, scale := leaf([]int{1, 2}, 0.5, 12), leaf([]int{1, 2}, 1, 0.1)
	mustOK(t, th.Set(nil, loc, scale))
	var it distribution.Independent
	it.Set(nil, &th, 1)
	a := it.RSample(rand.New(rand.NewPCG(4, 4)))
	var n distribution.Normal
	mustOK(t, n.Set(nil, loc, scale))
	u := n.Sample(rand.New(rand.NewPCG(4, 4)))
	want := tanhLogPdf(float64(u.Data()[0]), 0.5, 1) + tanhLogPdf(float64(u.Data()[1]), 12, 0.1)
	checkValues(t, "TanhNormal LogProb", it.LogProb(a), []int{1}, []float64{want}, 1e-5)
	if ok, got := panicsWith(func() { it.Entropy() }, distribution.ErrKind); !ok {
		t.Errorf("Entropy of a TanhNormal: panic %v, want ErrKind", got)
	}

	var d distribution.Independent
	for _, k := range []int{-1, 3} {
		if ok, got := panicsWith(func() { d.Set(nil, &n, k) }, distribution.ErrShape); !ok {
			t.Errorf("k=%d of batch shape [1 2]: panic %v, want ErrShape", k, got)
		}
	}
}
