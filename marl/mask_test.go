package marl

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// fixedQ returns the same Q-values for every observation.
type fixedQ struct{ q []float32 }

func (f fixedQ) Inputs() []string  { return []string{"obs.obs"} }
func (f fixedQ) Params() nn.Params { return nil }
func (f fixedQ) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	k := in[0].Dim(0)
	out := tensor.New(k, len(f.q))
	for i := range k {
		copy(out.Data()[i*len(f.q):], f.q)
	}
	return out
}

func maskedObs(rows ...[]int8) *batch.Batch {
	n := len(rows[0])
	m := nd.Zeros(nd.Int8, len(rows), n)
	d := nd.Data[int8](m)
	for i, r := range rows {
		copy(d[i*n:], r)
	}
	inner := batch.MustNew("obs", nd.Zeros(nd.Float32, len(rows), 2), "action_mask", m)
	return batch.MustNew("obs", inner)
}

// TestMaskedQGreedy: the greedy action is the valid one of largest
// Q-value, not the overall maximum (worked out by hand from q).
func TestMaskedQGreedy(t *testing.T) {
	q := []float32{5, 1, 3, 4}
	p := NewMaskedQ(fixedQ{q}, 4, rand.New(rand.NewPCG(1, 1)))
	obs := maskedObs([]int8{1, 1, 1, 1}, []int8{0, 1, 1, 0}, []int8{0, 1, 0, 0}, []int8{0, 0, 1, 1})
	var out batch.Batch
	if err := p.Act(&out, obs, nil, false); err != nil {
		t.Fatal(err)
	}
	acts, _ := batch.Values[int64](&out, "act")
	for i, want := range []int64{0, 2, 1, 3} {
		if acts[i] != want {
			t.Errorf("row %d: action %d; want %d", i, acts[i], want)
		}
	}
	if err := p.Act(&out, maskedObs([]int8{0, 0, 0, 0}), nil, false); err == nil {
		t.Error("a mask with no valid action: no error")
	}
}

// TestRandomValid draws 40,000 actions with mask 1 0 1 1 0 1 and checks
// with chi-squared that they are uniform over the four valid actions and
// never invalid. The 0.999 quantile of χ² with 3 degrees of freedom is
// 16.27 (tables).
func TestRandomValid(t *testing.T) {
	mask := []float32{1, 0, 1, 1, 0, 1}
	rng := rand.New(rand.NewPCG(7, 7))
	const n = 40_000
	var counts [6]int
	for range n {
		counts[randomValid(mask, 6, rng)]++
	}
	if counts[1] != 0 || counts[4] != 0 {
		t.Fatalf("invalid actions drawn: %v", counts)
	}
	chi := 0.0
	for _, j := range []int{0, 2, 3, 5} {
		d := float64(counts[j]) - n/4
		chi += d * d / (n / 4)
	}
	if chi > 16.27 {
		t.Errorf("χ² = %.2f > 16.27 for counts %v", chi, counts)
	}
	if a := randomValid([]float32{0, 0}, 2, rng); a != -1 {
		t.Errorf("no valid action: got %d, want -1", a)
	}
}

// TestMaskedMax: the bootstrap value is the largest valid value; with
// Double, the target value of the valid action the online values prefer;
// 0 for a row without valid actions.
func TestMaskedMax(t *testing.T) {
	values := []float32{1, 9, 3, 2, 8, 5, 0, 0, 0}
	online := []float32{0, 0, 1, 7, 6, 0, 4, 4, 4}
	mask := []float32{1, 0, 1, 1, 0, 1, 0, 0, 0}
	dst := make([]float32, 3)
	maskedMaxTo(dst, values, nil, mask, 3)
	for i, want := range []float32{3, 5, 0} {
		if dst[i] != want {
			t.Errorf("max: row %d = %v; want %v", i, dst[i], want)
		}
	}
	maskedMaxTo(dst, values, online, mask, 3)
	for i, want := range []float32{3, 2, 0} {
		if dst[i] != want {
			t.Errorf("double: row %d = %v; want %v", i, dst[i], want)
		}
	}
	maskedMaxTo(dst, values, nil, nil, 3)
	for i, want := range []float32{9, 8, 0} {
		if math.Abs(float64(dst[i]-want)) > 0 {
			t.Errorf("no mask: row %d = %v; want %v", i, dst[i], want)
		}
	}
}
