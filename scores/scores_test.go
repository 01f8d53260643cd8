package scores

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/internal/testrand"
)

// refTrimMean is the reference IQM: sort a copy of all scores, drop
// k = ⌊n/4⌋ at each end, and return Σ x₍ᵢ₎ / (n − 2k) over the rest.
func refTrimMean(scores [][]float64) float64 {
	var all []float64
	for _, t := range scores {
		all = append(all, t...)
	}
	slices.Sort(all)
	k := len(all) / 4
	var sum float64
	for i := k; i < len(all)-k; i++ {
		sum += all[i]
	}
	return sum / float64(len(all)-2*k)
}

// refMean is Σ x / n over all scores.
func refMean(scores [][]float64) float64 {
	var sum float64
	var n int
	for _, t := range scores {
		for _, x := range t {
			sum += x
			n++
		}
	}
	return sum / float64(n)
}

func TestAggregates(t *testing.T) {
	tests := []struct {
		name                  string
		scores                [][]float64
		iqm, mean, median, og float64 // hand-computed
	}{
		// 1..8: drop 1, 2 and 7, 8; (3+4+5+6)/4.
		{"1..8", [][]float64{{8, 1, 7, 2, 6, 3, 5, 4}}, 4.5, 4.5, 4.5, 0},
		// 1..10: ⌊10/4⌋ = 2 dropped at each end; (3+…+8)/6 = 33/6.
		{"1..10", [][]float64{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}, 5.5, 5.5, 5.5, 0},
		// Three scores: ⌊3/4⌋ = 0, the IQM is the mean. Gap: (1 + 0.5 + 0)/3.
		{"three", [][]float64{{0, 0.5, 4}}, 1.5, 1.5, 0.5, 0.5},
		// Two tasks pooled: 1,2,3,4,5,6,7,100 → (3+4+5+6)/4; mean 128/8;
		// median (4+5)/2.
		{"two tasks", [][]float64{{1, 100}, {2, 3, 4, 5, 6, 7}}, 4.5, 16, 4.5, 0},
		// Gap of normalized scores: (0.75 + 0.5 + 0 + 0)/4.
		{"gap", [][]float64{{0.25, 0.5}, {1, 2}}, 0.75, 0.9375, 0.75, 0.3125},
	}
	for _, tc := range tests {
		got := []float64{IQM(tc.scores), Mean(tc.scores), Median(tc.scores), OptimalityGap(tc.scores)}
		want := []float64{tc.iqm, tc.mean, tc.median, tc.og}
		ref := []float64{refTrimMean(tc.scores), refMean(tc.scores), tc.median, tc.og}
		for i, name := range []string{"IQM", "Mean", "Median", "OptimalityGap"} {
			if !scalar.EqualWithinAbsOrRel(got[i], want[i], 1e-12, 1e-12) || !scalar.EqualWithinAbsOrRel(got[i], ref[i], 1e-12, 1e-12) {
				t.Errorf("%s: %s = %v, want %v (reference %v)", tc.name, name, got[i], want[i], ref[i])
			}
		}
	}
	for _, agg := range []Aggregate{IQM, Mean, Median, OptimalityGap} {
		if v := agg(nil); !math.IsNaN(v) {
			t.Errorf("aggregate of no scores = %v, want NaN", v)
		}
	}
}

func TestQuantile(t *testing.T) {
	// Expected values: numpy.percentile(x, 100·p) with its default linear
	// interpolation at position p·(n−1).
	x := []float64{1, 2, 3, 4}
	for _, tc := range []struct{ p, want float64 }{
		{0, 1}, {0.25, 1.75}, {0.5, 2.5}, {0.975, 3.925}, {1, 4},
	} {
		if got := Quantile(x, tc.p); !scalar.EqualWithinAbs(got, tc.want, 1e-12) {
			t.Errorf("Quantile(%v, %v) = %v, want %v", x, tc.p, got, tc.want)
		}
	}
	if got := Quantile([]float64{7}, 0.3); got != 7 {
		t.Errorf("Quantile of one value = %v, want 7", got)
	}
}

// refBootstrap is the reference stratified percentile bootstrap, written
// out loop by loop: for each of R resamples, for each task t in order and
// each of its nₜ runs, draw index rng.IntN(nₜ); aggregate the resample;
// sort the R values v₍₀₎ ≤ … ≤ v₍R₋₁₎ and return v at positions
// h = q·(R−1), q = (1∓c)/2, as v₍⌊h⌋₎ + (h − ⌊h⌋)(v₍⌊h⌋₊₁₎ − v₍⌊h⌋₎).
func refBootstrap(scores [][]float64, agg func([][]float64) float64, reps int, c float64, rng *rand.Rand) (lo, hi float64) {
	vals := make([]float64, reps)
	for r := range vals {
		re := make([][]float64, len(scores))
		for ti, task := range scores {
			for range task {
				re[ti] = append(re[ti], task[rng.IntN(len(task))])
			}
		}
		vals[r] = agg(re)
	}
	slices.Sort(vals)
	at := func(q float64) float64 {
		h := q * float64(reps-1)
		f := math.Floor(h)
		i := int(f)
		if i+1 >= reps {
			return vals[reps-1]
		}
		return vals[i] + (h-f)*(vals[i+1]-vals[i])
	}
	return at((1 - c) / 2), at((1 + c) / 2)
}

func TestBootstrapGolden(t *testing.T) {
	// Fixed samples: five seeds of two tasks, uneven so the IQM trims.
	fixed := [][]float64{{12, 15, 9, 30, 14}, {0.5, 0.8, 0.7, 0.1, 0.9, 0.6}}
	tests := []struct {
		name string
		agg  Aggregate
		ref  func([][]float64) float64
		reps int
		c    float64
	}{
		{"IQM", IQM, refTrimMean, 1000, 0.95},
		{"Mean", Mean, refMean, 999, 0.9},
	}
	seed := testrand.Seed(t)
	for _, tc := range tests {
		got, err := Bootstrap(fixed, tc.agg, BootstrapConfig{Resamples: tc.reps, Confidence: tc.c}, rand.New(rand.NewPCG(seed, 7)))
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := refBootstrap(fixed, tc.ref, tc.reps, tc.c, rand.New(rand.NewPCG(seed, 7)))
		est := tc.ref(fixed)
		if !scalar.EqualWithinAbsOrRel(got.Estimate, est, 1e-12, 1e-12) ||
			!scalar.EqualWithinAbsOrRel(got.Lo, lo, 1e-12, 1e-12) || !scalar.EqualWithinAbsOrRel(got.Hi, hi, 1e-12, 1e-12) {
			t.Errorf("%s: Bootstrap = %+v, reference {%v %v %v}", tc.name, got, est, lo, hi)
		}
		if !(got.Lo <= got.Estimate && got.Estimate <= got.Hi) {
			t.Errorf("%s: estimate outside its interval: %+v", tc.name, got)
		}
	}
}

func TestBootstrapNormalMean(t *testing.T) {
	// For the mean of n draws, the percentile interval approaches the
	// normal one, x̄ ± z·s/√n with s² = Σ(x − x̄)²/n (the bootstrap's
	// plug-in variance) and z = 1.959964 for 95 %. With n = 400 and 4000
	// resamples the ends agree within a tenth of the half-width.
	rng := testrand.New(t, 1)
	x := make([]float64, 400)
	for i := range x {
		x[i] = 3 + 2*rng.NormFloat64()
	}
	got, err := Bootstrap([][]float64{x}, Mean, BootstrapConfig{Resamples: 4000}, testrand.New(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	m := refMean([][]float64{x})
	var ss float64
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	half := 1.959964 * math.Sqrt(ss/400) / math.Sqrt(400)
	if math.Abs(got.Lo-(m-half)) > 0.1*half || math.Abs(got.Hi-(m+half)) > 0.1*half {
		t.Errorf("interval [%v, %v], normal approximation [%v, %v]", got.Lo, got.Hi, m-half, m+half)
	}
}

func TestBootstrapConstant(t *testing.T) {
	// Every resample of equal scores is the same matrix: the interval is
	// the point.
	for _, agg := range []Aggregate{IQM, Mean, Median, OptimalityGap} {
		got, err := Bootstrap([][]float64{{0.25, 0.25, 0.25}}, agg, BootstrapConfig{}, testrand.New(t, 3))
		if err != nil {
			t.Fatal(err)
		}
		if got.Lo != got.Estimate || got.Hi != got.Estimate {
			t.Errorf("interval of equal scores %+v, want a point", got)
		}
	}
}

func TestBootstrapErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name   string
		scores [][]float64
		cfg    BootstrapConfig
	}{
		{"no tasks", nil, BootstrapConfig{}},
		{"task without runs", [][]float64{{1}, {}}, BootstrapConfig{}},
		{"NaN", [][]float64{{1, math.NaN()}}, BootstrapConfig{}},
		{"Inf", [][]float64{{math.Inf(-1)}}, BootstrapConfig{}},
		{"negative resamples", [][]float64{{1}}, BootstrapConfig{Resamples: -1}},
		{"confidence 1", [][]float64{{1}}, BootstrapConfig{Confidence: 1}},
		{"confidence NaN", [][]float64{{1}}, BootstrapConfig{Confidence: math.NaN()}},
	}
	for _, tc := range tests {
		if _, err := Bootstrap(tc.scores, Mean, tc.cfg, rng); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if _, err := Bootstrap(nil, Mean, BootstrapConfig{}, rng); !errors.Is(err, ErrNoScores) {
		t.Errorf("no scores: %v, want ErrNoScores", err)
	}
}

func TestProbabilityOfImprovement(t *testing.T) {
	tests := []struct {
		name string
		x, y [][]float64
		want float64 // counted by hand: (wins + ties/2) / (n·m), mean over tasks
	}{
		{"tied", [][]float64{{1, 1, 1}}, [][]float64{{1, 1}}, 0.5},
		{"identical spread", [][]float64{{1, 2, 3}}, [][]float64{{1, 2, 3}}, 0.5},
		{"separated", [][]float64{{10, 11, 12}}, [][]float64{{1, 2, 3}}, 1},
		{"separated reversed", [][]float64{{1, 2, 3}}, [][]float64{{10, 11, 12}}, 0},
		// 3>1, 3>2, 3=3 (½), 4>1, 4>2, 4>3: 5.5 of 6.
		{"overlapping", [][]float64{{3, 4}}, [][]float64{{1, 2, 3}}, 5.5 / 6},
		// Task 1: 1; task 2: 0; mean ½.
		{"two tasks", [][]float64{{5}, {0}}, [][]float64{{1}, {1}}, 0.5},
	}
	for _, tc := range tests {
		got, err := ProbabilityOfImprovement(tc.x, tc.y)
		if err != nil {
			t.Fatal(err)
		}
		if !scalar.EqualWithinAbs(got, tc.want, 1e-12) {
			t.Errorf("%s: P(X > Y) = %v, want %v", tc.name, got, tc.want)
		}
		iv, err := ImprovementInterval(tc.x, tc.y, BootstrapConfig{Resamples: 500}, testrand.New(t, 4))
		if err != nil {
			t.Fatal(err)
		}
		if iv.Estimate != got || iv.Lo > got || iv.Hi < got {
			t.Errorf("%s: interval %+v does not hold the estimate %v", tc.name, iv, got)
		}
		// Tied and separated samples stay so in every resample.
		if tc.want == 1 || tc.want == 0 || tc.name == "tied" {
			if iv.Lo != tc.want || iv.Hi != tc.want {
				t.Errorf("%s: interval %+v, want the point %v", tc.name, iv, tc.want)
			}
		}
	}
	if _, err := ProbabilityOfImprovement([][]float64{{1}}, [][]float64{{1}, {2}}); err == nil {
		t.Error("different task counts: no error")
	}
	if _, err := ProbabilityOfImprovement([][]float64{{1}}, [][]float64{{}}); err == nil {
		t.Error("a task without runs: no error")
	}
}

func TestRange(t *testing.T) {
	// CartPole-like range: random 22, target 475.
	r := Range{Random: 22, Target: 475}
	for _, tc := range []struct{ x, want float64 }{{22, 0}, {475, 1}, {248.5, 0.5}, {500, 478.0 / 453}} {
		if got := r.Normalize(tc.x); !scalar.EqualWithinAbs(got, tc.want, 1e-12) {
			t.Errorf("Normalize(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
	// A negative range (MountainCar: random −200, target −110).
	if got := (Range{Random: -200, Target: -110}).Normalize(-155); got != 0.5 {
		t.Errorf("Normalize(-155) = %v, want 0.5", got)
	}
	if err := r.Validate(); err != nil {
		t.Error(err)
	}
	for _, bad := range []Range{{1, 1}, {math.NaN(), 1}, {0, math.Inf(1)}} {
		if bad.Validate() == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
