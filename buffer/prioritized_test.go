package buffer_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/internal/testrand"
	"github.com/gorl/gorl/nd"
)

func mustPrioritized(t testing.TB, cfg buffer.Config, pc buffer.PriorityConfig) *buffer.Prioritized {
	t.Helper()
	b, err := buffer.NewPrioritized(cfg, pc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPrioritizedFrequencies checks with a chi-squared test (fixed seed)
// that transition i is drawn with probability (pᵢ+ε)^α / Σₖ (pₖ+ε)^α.
func TestPrioritizedFrequencies(t *testing.T) {
	const alpha = 0.6
	b := mustPrioritized(t, buffer.Config{Size: 8}, buffer.PriorityConfig{Alpha: alpha, Beta: 0.4})
	for i := range 8 {
		mustAdd(t, b, step(i, 0, false, false), nil)
	}
	prios := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	idx := []int{0, 1, 2, 3, 4, 5, 6, 7}
	if err := b.UpdateWeight(idx, []float64{-1, 2, -3, 4, 5, 6, 7, 8}); err != nil { // |p| is used
		t.Fatal(err)
	}
	want := make([]float64, 8)
	total := 0.0
	for i, p := range prios {
		want[i] = math.Pow(p+1.0/(1<<23), alpha)
		total += want[i]
	}
	const draws = 200_000
	rng := testrand.New(t, 17)
	counts := make([]float64, 8)
	for _, g := range b.SampleIndices(draws, rng) {
		counts[g]++
	}
	chi2 := 0.0
	for i := range counts {
		e := draws * want[i] / total
		chi2 += (counts[i] - e) * (counts[i] - e) / e
	}
	if crit := (distuv.ChiSquared{K: 7}).Quantile(0.999); chi2 > crit {
		t.Errorf("chi² = %.2f > %.2f (p = 0.001, 7 df): counts %v, expected ∝ %v", chi2, crit, counts, want)
	}
}

func TestPrioritizedWeights(t *testing.T) {
	const alpha, beta = 0.5, 0.4
	for _, norm := range []bool{false, true} {
		b := mustPrioritized(t, buffer.Config{Size: 4}, buffer.PriorityConfig{Alpha: alpha, Beta: beta, WeightNorm: norm})
		for i := range 4 {
			mustAdd(t, b, step(i, 0, false, false), nil)
		}
		if err := b.UpdateWeight([]int{0, 1, 2, 3}, []float64{1, 4, 9, 16}); err != nil {
			t.Fatal(err)
		}
		got, err := b.Take([]int{3, 0, 1})
		if err != nil {
			t.Fatal(err)
		}
		// Hand-computed: P(i) ∝ (pᵢ+ε)^α, w = (P(i)/P_min)^(−β) with P_min at
		// p = 1; with WeightNorm divided by the batch's largest weight (that
		// of index 0, weight 1).
		eps := 1.0 / (1 << 23)
		leaf := func(p float64) float64 { return math.Pow(p+eps, alpha) }
		w := func(p float64) float64 { return math.Pow(leaf(p)/leaf(1), -beta) }
		want := []float64{w(16), w(1), w(4)}
		gw, err := batch.Values[float64](got, "weight")
		if err != nil {
			t.Fatal(err)
		}
		for k := range want {
			if math.Abs(gw[k]-want[k]) > 1e-12 {
				t.Errorf("norm=%v: weight[%d] = %v, want %v", norm, k, gw[k], want[k])
			}
		}
		// New transitions enter with the largest priority given, 16.
		mustAdd(t, b, step(9, 0, false, false), nil) // overwrites index 0
		got, err = b.Take([]int{0})
		if err != nil {
			t.Fatal(err)
		}
		gw, _ = batch.Values[float64](got, "weight")
		// The smallest stored priority is now 4 (index 1).
		if want := math.Pow(leaf(16)/leaf(4), -beta); !norm && math.Abs(gw[0]-want) > 1e-12 || norm && gw[0] != 1 {
			t.Errorf("norm=%v: weight of a new transition = %v, want %v", norm, gw[0], want)
		}
	}
}

func TestPrioritizedErrors(t *testing.T) {
	b := mustPrioritized(t, buffer.Config{Size: 4}, buffer.DefaultPriorityConfig())
	for i := range 2 {
		mustAdd(t, b, step(i, 0, false, false), nil)
	}
	before, _ := b.Take([]int{0, 1})
	for _, p := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if err := b.UpdateWeight([]int{0, 1}, []float64{2, p}); !errors.Is(err, buffer.ErrValue) {
			t.Errorf("UpdateWeight(%v): %v, want ErrValue", p, err)
		}
	}
	after, _ := b.Take([]int{0, 1})
	if !batch.Equal(before, after) {
		t.Error("a refused UpdateWeight changed the priorities")
	}
	if err := b.SetBeta(-1); !errors.Is(err, buffer.ErrValue) {
		t.Errorf("SetBeta(-1): %v", err)
	}
	if err := b.SetBeta(1); err != nil || b.Beta() != 1 {
		t.Errorf("SetBeta(1): %v, Beta %v", err, b.Beta())
	}
	if _, err := buffer.NewPrioritized(buffer.Config{Size: 4}, buffer.PriorityConfig{Alpha: -1}); !errors.Is(err, buffer.ErrValue) {
		t.Errorf("negative α: %v", err)
	}
	var p buffer.Prioritizer = b
	_ = p
}

// TestPrioritizedVector: priorities span sub-buffers; an index with a
// zero-probability (never written) slot is never drawn.
func TestPrioritizedVector(t *testing.T) {
	b, err := buffer.NewPrioritizedVector(buffer.Config{Size: 8}, 2, buffer.PriorityConfig{Alpha: 1, Beta: 1})
	if err != nil {
		t.Fatal(err)
	}
	mustAdd(t, b, vecStep([]int64{1, 2}, []bool{false, false}), nil)
	mustAdd(t, b, vecStep([]int64{3}, []bool{false}), []int{0})
	// Indices 0, 1 (sub-buffer 0) and 4 (sub-buffer 1).
	if err := b.UpdateWeight([]int{0, 1, 4}, []float64{0, 0, 10}); err != nil {
		t.Fatal(err)
	}
	rng := testrand.New(t, 3)
	dst := &batch.Batch{}
	idx := make([]int, 1000)
	if err := b.SampleTo(dst, idx, rng); err != nil {
		t.Fatal(err)
	}
	n4 := 0
	for _, g := range idx {
		switch g {
		case 4:
			n4++
		case 0, 1:
		default:
			t.Fatalf("drew unwritten index %d", g)
		}
	}
	// P(4) = 10 / (10 + 2ε) ≈ 1.
	if n4 < 990 {
		t.Errorf("index 4 drawn %d times of 1000, want nearly all", n4)
	}
	if w := arrayOf(t, dst, "weight"); w.Dim(0) != 1000 || w.DType() != nd.Float64 {
		t.Errorf("weight = %v", w)
	}
}

func TestPrioritizedSampleToDoesNotAllocate(t *testing.T) {
	b := mustPrioritized(t, buffer.Config{Size: 1000}, buffer.DefaultPriorityConfig())
	for i := range 1000 {
		mustAdd(t, b, cartPoleStep(i, i%50 == 49), nil)
	}
	dst := &batch.Batch{}
	idx := make([]int, 64)
	prios := make([]float64, 64)
	rng := rand.New(rand.NewPCG(1, 1))
	run := func() {
		if err := b.SampleTo(dst, idx, rng); err != nil {
			t.Fatal(err)
		}
		for k := range prios {
			prios[k] = rng.Float64()
		}
		if err := b.UpdateWeight(idx, prios); err != nil {
			t.Fatal(err)
		}
	}
	run()
	if allocs := testing.AllocsPerRun(100, run); allocs != 0 {
		t.Errorf("prioritized SampleTo + UpdateWeight: %v allocations, want 0", allocs)
	}
}
