package env_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

func mustArray(t testing.TB, v any) *nd.Array {
	t.Helper()
	a, err := nd.New(v)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func scalar(t testing.TB, dt nd.DType, v any) *nd.Array {
	t.Helper()
	a, err := nd.Full(dt, v)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The expected strings are Gymnasium 1.x reprs of the same spaces:
// Discrete.__repr__, Box.__repr__ with _short_repr, MultiDiscrete.__repr__,
// MultiBinary.__repr__ (Gymnasium's documentation shows
// "Box(-1.0, 1.0, (3,), float32)" and "Box(0, 255, (4, 96, 96, 3), uint8)").
func TestSpaceString(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		space env.Space
		want  string
	}{
		{must(env.NewDiscrete(2, 0)), "Discrete(2)"},
		{must(env.NewDiscrete(3, -1)), "Discrete(3, start=-1)"},
		{must(env.NewBox(-1.0, 1.0, []int{3}, nd.Float32)), "Box(-1.0, 1.0, (3,), float32)"},
		{must(env.NewBox(0, 255, []int{4, 96, 96, 3}, nd.Uint8)), "Box(0, 255, (4, 96, 96, 3), uint8)"},
		{must(env.NewBox(-inf, inf, []int{2}, nd.Float64)), "Box(-inf, inf, (2,), float64)"},
		{must(env.NewBox([]float64{-4.8, -inf, -0.41887903, -inf}, []float64{4.8, inf, 0.41887903, inf}, nil, nd.Float32)),
			"Box([-4.8               -inf -0.41887903        -inf], [4.8               inf 0.41887903        inf], (4,), float32)"},
		{must(env.NewBox(0.0, 1.0, nil, nd.Float32)), "Box(0.0, 1.0, (1,), float32)"},
		{must(env.NewBox(0.0, 1.0, []int{}, nd.Float32)), "Box(0.0, 1.0, (), float32)"},
		{must(env.NewBox(0, []int{3, 4}, nil, nd.Int64)), "Box(0, [3 4], (2,), int64)"},
		{must(env.NewMultiDiscrete([]int64{2, 3}, nil)), "MultiDiscrete([2 3])"},
		{must(env.NewMultiDiscrete([]int64{2, 3}, []int64{0, 1})), "MultiDiscrete([2 3], start=[0 1])"},
		{must(env.NewMultiBinary(4)), "MultiBinary(4)"},
		{must(env.NewMultiBinary(2, 3)), "MultiBinary((2, 3))"},
	}
	for _, c := range cases {
		if got := c.space.String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
	}
}

func TestSpaceConstructorErrors(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name string
		make func() error
	}{
		{"Discrete n=0", func() error { _, err := env.NewDiscrete(0, 0); return err }},
		{"Discrete overflow", func() error { _, err := env.NewDiscrete(2, math.MaxInt64); return err }},
		{"Box NaN", func() error { _, err := env.NewBox(math.NaN(), 1.0, []int{2}, nd.Float32); return err }},
		{"Box low > high", func() error { _, err := env.NewBox([]float64{0, 2}, 1.0, nil, nd.Float32); return err }},
		{"Box bounds of different shapes", func() error { _, err := env.NewBox([]float64{0, 0}, []float64{1, 1, 1}, nil, nd.Float32); return err }},
		{"Box bound does not broadcast", func() error { _, err := env.NewBox([]float64{0, 0}, 1.0, []int{3}, nd.Float32); return err }},
		{"Box negative shape", func() error { _, err := env.NewBox(0.0, 1.0, []int{-1}, nd.Float32); return err }},
		{"Box bool dtype", func() error { _, err := env.NewBox(0, 1, []int{2}, nd.Bool); return err }},
		{"Box infinite int bound", func() error { _, err := env.NewBox(0, inf, []int{2}, nd.Int64); return err }},
		{"Box uint8 above 255", func() error { _, err := env.NewBox(0, 256, []int{2}, nd.Uint8); return err }},
		{"Box string bound", func() error { _, err := env.NewBox("a", 1, []int{2}, nd.Float32); return err }},
		{"MultiDiscrete zero", func() error { _, err := env.NewMultiDiscrete([]int64{2, 0}, nil); return err }},
		{"MultiDiscrete float nvec", func() error { _, err := env.NewMultiDiscrete([]float64{2, 3}, nil); return err }},
		{"MultiDiscrete start shape", func() error { _, err := env.NewMultiDiscrete([]int64{2, 3}, []int64{1}); return err }},
		{"MultiBinary no shape", func() error { _, err := env.NewMultiBinary(); return err }},
		{"MultiBinary zero", func() error { _, err := env.NewMultiBinary(2, 0); return err }},
	}
	for _, c := range cases {
		if err := c.make(); !errors.Is(err, env.ErrSpace) {
			t.Errorf("%s: error %v, want one wrapping ErrSpace", c.name, err)
		}
	}
}

func TestContains(t *testing.T) {
	inf := math.Inf(1)
	disc := must(env.NewDiscrete(3, -1))
	box := must(env.NewBox([]float64{-1, 0}, []float64{1, inf}, nil, nd.Float32))
	ibox := must(env.NewBox(0, 10, []int{2}, nd.Uint8))
	md := must(env.NewMultiDiscrete([][]int64{{2, 3}}, [][]int64{{0, 5}}))
	mb := must(env.NewMultiBinary(3))
	f32 := func(v ...float32) *nd.Array { return mustArray(t, v) }
	cases := []struct {
		name  string
		space env.Space
		x     any
		want  bool
	}{
		// Discrete: 0-d integer arrays of any integer dtype in [start, start+n).
		{"discrete int64 in", disc, scalar(t, nd.Int64, 1), true},
		{"discrete start", disc, scalar(t, nd.Int64, -1), true},
		{"discrete below", disc, scalar(t, nd.Int64, -2), false},
		{"discrete above", disc, scalar(t, nd.Int64, 2), false},
		{"discrete uint8", disc, scalar(t, nd.Uint8, 0), true},
		{"discrete float", disc, scalar(t, nd.Float64, 0.0), false},
		{"discrete 1-d", disc, mustArray(t, []int64{0}), false},
		{"discrete Go int", disc, 0, false},
		{"discrete nil", disc, nil, false},
		// Box: numpy's can_cast(x.dtype, dtype) ("safe"), shape, bounds.
		{"box in", box, f32(0.5, 100), true},
		{"box bounds inclusive", box, f32(-1, 0), true},
		{"box below", box, f32(-1.5, 1), false},
		{"box NaN", box, f32(float32(math.NaN()), 1), false},
		{"box +inf allowed above", box, f32(0, float32(inf)), true},
		{"box float64 does not cast safely to float32", box, mustArray(t, []float64{0, 1}), false},
		{"box int16 casts safely to float32", box, mustArray(t, []int16{0, 1}), true},
		{"box int32 does not cast safely to float32", box, mustArray(t, []int32{0, 1}), false},
		{"box wrong shape", box, f32(0, 1, 2), false},
		{"box non-contiguous view", box, mustArray(t, [][]float32{{0, 9}, {1, 9}}).Transpose().Index(nd.I(0)), true},
		{"uint8 box in", ibox, mustArray(t, []uint8{0, 10}), true},
		{"uint8 box above", ibox, mustArray(t, []uint8{0, 11}), false},
		{"uint8 box from int64", ibox, mustArray(t, []int64{0, 1}), false},
		// MultiDiscrete: integer arrays of nvec's shape within [start, start+nvec).
		{"multidiscrete in", md, mustArray(t, [][]int64{{1, 7}}), true},
		{"multidiscrete below start", md, mustArray(t, [][]int64{{1, 4}}), false},
		{"multidiscrete above", md, mustArray(t, [][]int64{{2, 5}}), false},
		{"multidiscrete float", md, mustArray(t, [][]float64{{1, 5}}), false},
		{"multidiscrete shape", md, mustArray(t, []int64{1, 5}), false},
		// MultiBinary: zeros and ones of any numeric or bool dtype.
		{"multibinary int8", mb, mustArray(t, []int8{0, 1, 1}), true},
		{"multibinary bool", mb, mustArray(t, []bool{true, false, true}), true},
		{"multibinary float", mb, mustArray(t, []float64{0, 1, 0}), true},
		{"multibinary 2", mb, mustArray(t, []int8{0, 2, 1}), false},
		{"multibinary shape", mb, mustArray(t, []int8{0, 1}), false},
	}
	for _, c := range cases {
		if got := c.space.Contains(c.x); got != c.want {
			t.Errorf("%s: %v.Contains(%v) = %v, want %v", c.name, c.space, c.x, got, c.want)
		}
	}
}

func TestDiscreteInt(t *testing.T) {
	d := must(env.NewDiscrete(2, 0))
	if v, err := d.Int(scalar(t, nd.Int32, 1)); v != 1 || err != nil {
		t.Errorf("Int(int32 1) = %d, %v; want 1, nil", v, err)
	}
	for _, x := range []any{scalar(t, nd.Int64, 2), scalar(t, nd.Float32, 1), mustArray(t, []int64{1}), "1", scalar(t, nd.Uint64, uint64(math.MaxUint64))} {
		if _, err := d.Int(x); !errors.Is(err, env.ErrAction) {
			t.Errorf("Int(%v): error %v, want one wrapping ErrAction", x, err)
		}
	}
}

func TestBoxBoundsRoundedToDType(t *testing.T) {
	// Gymnasium stores the bounds in the Box's dtype: 0.1 becomes float32(0.1).
	b := must(env.NewBox(0.1, 0.2, []int{1}, nd.Float32))
	if got := nd.Data[float32](b.Low())[0]; got != float32(0.1) {
		t.Errorf("Low = %v, want float32(0.1)", got)
	}
	if !b.Contains(mustArray(t, []float32{0.1})) || !b.Contains(mustArray(t, []float32{0.2})) {
		t.Error("the float32 bounds themselves are not contained")
	}
	low := b.Low()
	nd.Data[float32](low)[0] = 5
	if nd.Data[float32](b.Low())[0] != float32(0.1) {
		t.Error("Low does not return a copy")
	}
}

// chiSquared returns Σ (observed − expected)² / expected.
func chiSquared(counts []int, expected float64) float64 {
	x := 0.0
	for _, c := range counts {
		d := float64(c) - expected
		x += d * d / expected
	}
	return x
}

func TestSampleDistributions(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 8000

	// Discrete(4, start=-2): uniform; χ² with 3 degrees of freedom stays
	// below 16.27 with probability 0.999.
	d := must(env.NewDiscrete(4, -2))
	counts := make([]int, 4)
	for i := 0; i < n; i++ {
		v := d.Sample(rng).(*nd.Array)
		counts[nd.Data[int64](v)[0]+2]++
	}
	if x := chiSquared(counts, n/4); x > 16.27 {
		t.Errorf("Discrete samples %v: χ² = %.1f > 16.27", counts, x)
	}

	// An integer Box [0, 2] draws 0, 1 and 2 uniformly (high is included).
	ib := must(env.NewBox(0, 2, []int{n}, nd.Int32))
	counts = make([]int, 3)
	for _, v := range nd.Data[int32](ib.Sample(rng).(*nd.Array)) {
		counts[v]++
	}
	if x := chiSquared(counts, n/3); x > 13.82 { // 2 degrees of freedom, p = 0.001
		t.Errorf("integer Box samples %v: χ² = %.1f > 13.82", counts, x)
	}

	// A float Box with bounds [-1, 3], low-bounded [5, inf), high-bounded
	// (-inf, -5] and unbounded elements: uniform mean 1 and variance 16/12,
	// 5 plus a unit exponential (mean 6), -5 minus one (mean -6), a
	// standard normal (mean 0, variance 1).
	inf := math.Inf(1)
	fb := must(env.NewBox([]float64{-1, 5, -inf, -inf}, []float64{3, inf, -5, inf}, nil, nd.Float64))
	batch := nd.Zeros(nd.Float64, n, 4)
	fb.SampleTo(batch, rng)
	data := nd.Data[float64](batch)
	var sum, sumSq [4]float64
	for i, v := range data {
		sum[i%4] += v
		sumSq[i%4] += v * v
	}
	wantMean := [4]float64{1, 6, -6, 0}
	wantVar := [4]float64{16.0 / 12, 1, 1, 1}
	for j := range wantMean {
		mean := sum[j] / n
		variance := sumSq[j]/n - mean*mean
		// 5 standard errors of the mean and a 10 % band on the variance.
		if math.Abs(mean-wantMean[j]) > 5*math.Sqrt(wantVar[j]/n) || math.Abs(variance-wantVar[j]) > 0.1*wantVar[j] {
			t.Errorf("element %d: mean %.3f variance %.3f, want %.3f and %.3f", j, mean, variance, wantMean[j], wantVar[j])
		}
	}
	for i := 0; i < n; i++ {
		if !fb.Contains(batch.Index(nd.I(i))) {
			t.Fatalf("row %d of SampleTo is not in the Box", i)
		}
	}

	// MultiDiscrete([2 3]) with start [0 10] and MultiBinary stay in their spaces.
	md := must(env.NewMultiDiscrete([]int64{2, 3}, []int64{0, 10}))
	mb := must(env.NewMultiBinary(5))
	for i := 0; i < 100; i++ {
		if x := md.Sample(rng); !md.Contains(x) {
			t.Fatalf("MultiDiscrete sample %v not contained", x)
		}
		if x := mb.Sample(rng); !mb.Contains(x) {
			t.Fatalf("MultiBinary sample %v not contained", x)
		}
	}
}

func TestSampleToPanicsOnBadDestination(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	box := must(env.NewBox(0.0, 1.0, []int{3}, nd.Float32))
	cases := []struct {
		name  string
		space env.Space
		dst   any
	}{
		{"wrong dtype", box, nd.Zeros(nd.Float64, 3)},
		{"wrong trailing shape", box, nd.Zeros(nd.Float32, 2, 4)},
		{"too few dimensions", must(env.NewMultiBinary(2, 2)), nd.Zeros(nd.Int8, 2)},
		{"not an array", box, []float32{0, 0, 0}},
		{"non-contiguous", box, nd.Zeros(nd.Float32, 3, 2).Transpose()},
		{"discrete into int32", must(env.NewDiscrete(2, 0)), nd.Zeros(nd.Int32, 4)},
	}
	for _, c := range cases {
		func() {
			defer func() {
				r := recover()
				if err, ok := r.(error); !ok || !errors.Is(err, nd.ErrShape) {
					t.Errorf("%s: panic %v, want an *nd.Error wrapping nd.ErrShape", c.name, r)
				}
			}()
			c.space.SampleTo(c.dst, rng)
		}()
	}
}

func TestSpaceEqual(t *testing.T) {
	a := []env.Space{
		must(env.NewDiscrete(2, 0)),
		must(env.NewDiscrete(2, 1)),
		must(env.NewBox(0.0, 1.0, []int{2}, nd.Float32)),
		must(env.NewBox(0.0, 1.0, []int{2}, nd.Float64)),
		must(env.NewBox(0.0, 2.0, []int{2}, nd.Float32)),
		must(env.NewMultiDiscrete([]int64{2, 2}, nil)),
		must(env.NewMultiBinary(2)),
	}
	b := []env.Space{
		must(env.NewDiscrete(2, 0)),
		must(env.NewDiscrete(2, 1)),
		must(env.NewBox([]float32{0, 0}, []float32{1, 1}, nil, nd.Float32)),
		must(env.NewBox(0.0, 1.0, []int{2}, nd.Float64)),
		must(env.NewBox(0.0, 2.0, []int{2}, nd.Float32)),
		must(env.NewMultiDiscrete([]int64{2, 2}, []int64{0, 0})),
		must(env.NewMultiBinary(2)),
	}
	for i := range a {
		for j := range b {
			if got := a[i].Equal(b[j]); got != (i == j) {
				t.Errorf("%v.Equal(%v) = %v", a[i], b[j], got)
			}
		}
	}
}

func TestSampleToDoesNotAllocate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	box := must(env.NewBox(-1.0, 1.0, []int{4}, nd.Float32))
	dst := nd.Zeros(nd.Float32, 8, 4)
	disc := must(env.NewDiscrete(2, 0))
	act := nd.Zeros(nd.Int64, 8)
	x := scalar(t, nd.Int64, 1)
	if n := testing.AllocsPerRun(100, func() {
		box.SampleTo(dst, rng)
		disc.SampleTo(act, rng)
		if !box.Contains(dst.Index(nd.I(0))) && disc.Contains(x) {
			t.Fatal("unreachable")
		}
	}); n > 1 { // the row view made by Index is the one allocation
		t.Errorf("SampleTo and Contains: %v allocations, want at most 1 (the view)", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		box.SampleTo(dst, rng)
		disc.SampleTo(act, rng)
		if _, err := disc.Int(x); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("SampleTo and Int: %v allocations, want 0", n)
	}
}
