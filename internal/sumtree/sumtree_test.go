package sumtree

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gorl/gorl/internal/testrand"
)

// newRand returns the generator of a randomized test (-testrand.seed).
func newRand(t testing.TB) *rand.Rand { return testrand.New(t, 0x5eed) }

// model is the linear-scan reference the tree is checked against.
type model struct {
	v   []float64
	set []bool
}

func newModel(size int) *model { return &model{v: make([]float64, size), set: make([]bool, size)} }

func (m *model) put(i int, v float64) { m.v[i], m.set[i] = v, true }

func (m *model) sum(start, end int) float64 {
	var s float64
	for _, x := range m.v[start:end] {
		s += x
	}
	return s
}

func (m *model) min() float64 {
	out := math.Inf(1)
	for i, x := range m.v {
		if m.set[i] {
			out = math.Min(out, x)
		}
	}
	return out
}

// find is FindPrefixSum by definition: the first positive leaf whose prefix
// sum exceeds x, else the last positive leaf.
func (m *model) find(x float64) int {
	var c float64
	last := -1
	for i, w := range m.v {
		if w == 0 {
			continue
		}
		c += w
		last = i
		if c > x {
			return i
		}
	}
	return last
}

// check compares every observable of t with m. The values used with it are
// small multiples of 1/4, so every sum is exact in both float types and the
// comparisons are exact.
func check[F Float](t *testing.T, tr *Tree[F], m *model) {
	t.Helper()
	n := len(m.v)
	if tr.Len() != n {
		t.Fatalf("Len = %d, want %d", tr.Len(), n)
	}
	for i := range m.v {
		if got := float64(tr.Get(i)); got != m.v[i] {
			t.Fatalf("Get(%d) = %v, want %v", i, got, m.v[i])
		}
	}
	if got, want := float64(tr.Sum()), m.sum(0, n); got != want {
		t.Fatalf("Sum = %v, want %v", got, want)
	}
	if got, want := float64(tr.Min()), m.min(); got != want {
		t.Fatalf("Min = %v, want %v", got, want)
	}
	for start := 0; start <= n; start++ {
		for end := start; end <= n; end++ {
			if got, want := float64(tr.SumRange(start, end)), m.sum(start, end); got != want {
				t.Fatalf("SumRange(%d, %d) = %v, want %v", start, end, got, want)
			}
		}
	}
	total := m.sum(0, n)
	if total == 0 {
		return
	}
	// Every boundary, the midpoints between boundaries, and out-of-range x.
	xs := []float64{-1, 0, total, total + 1}
	var c float64
	for _, w := range m.v {
		c += w
		xs = append(xs, c, c-0.125, c+0.125)
	}
	for _, x := range xs {
		if got, want := tr.FindPrefixSum(F(x)), m.find(x); got != want {
			t.Fatalf("FindPrefixSum(%v) = %d, want %d (leaves %v)", x, got, want, m.v)
		}
	}
}

func TestTable(t *testing.T) {
	// Leaves 1, 0, 2, 3, 0 (size 5, stored in 8 leaves). Expected values
	// are hand-computed: prefix sums 1, 1, 3, 6, 6.
	tr := New[float64](5)
	for i, v := range []float64{1, 0, 2, 3, 0} {
		if err := tr.Set(i, v); err != nil {
			t.Fatal(err)
		}
	}
	if got := tr.Sum(); got != 6 {
		t.Errorf("Sum = %v, want 6", got)
	}
	if got := tr.Min(); got != 0 {
		t.Errorf("Min = %v, want 0 (leaves 1 and 4 were set to 0)", got)
	}
	for _, c := range []struct {
		start, end int
		want       float64
	}{
		{0, 0, 0}, {0, 1, 1}, {0, 5, 6}, {1, 3, 2}, {2, 4, 5}, {3, 5, 3}, {4, 5, 0}, {5, 5, 0},
	} {
		if got := tr.SumRange(c.start, c.end); got != c.want {
			t.Errorf("SumRange(%d, %d) = %v, want %v", c.start, c.end, got, c.want)
		}
	}
	for _, c := range []struct {
		x    float64
		want int
	}{
		{-1, 0},    // below 0: first positive leaf
		{0, 0},     // prefix(0) = 1 > 0
		{0.5, 0},   // inside leaf 0
		{1, 2},     // boundary: prefix(0) = 1 is not > 1; leaf 1 is 0
		{2.999, 2}, // inside leaf 2
		{3, 3},     // boundary between leaves 2 and 3
		{5.999, 3}, // inside leaf 3
		{6, 3},     // x = Sum: last positive leaf
		{1e300, 3}, // far beyond Sum
		{math.Inf(1), 3},
	} {
		if got := tr.FindPrefixSum(c.x); got != c.want {
			t.Errorf("FindPrefixSum(%v) = %d, want %d", c.x, got, c.want)
		}
	}
}

func TestMinOfSetLeaves(t *testing.T) {
	tr := New[float32](6)
	if got := tr.Min(); !math.IsInf(float64(got), 1) {
		t.Fatalf("Min of a new tree = %v, want +Inf", got)
	}
	steps := []struct {
		i       int
		v       float32
		wantMin float32 // hand-computed minimum over the leaves set so far
	}{
		{2, 5, 5},
		{4, 7, 5},
		{2, 9, 7}, // overwriting the minimum raises it
		{0, 0.5, 0.5},
		{5, 0, 0}, // a leaf set to 0 counts
		{5, 3, 0.5},
	}
	for _, s := range steps {
		if err := tr.Set(s.i, s.v); err != nil {
			t.Fatal(err)
		}
		if got := tr.Min(); got != s.wantMin {
			t.Fatalf("after Set(%d, %v): Min = %v, want %v", s.i, s.v, got, s.wantMin)
		}
	}
	tr.Reset()
	if got := tr.Min(); !math.IsInf(float64(got), 1) || tr.Sum() != 0 || tr.Get(2) != 0 {
		t.Fatalf("after Reset: Min = %v, Sum = %v, Get(2) = %v; want +Inf, 0, 0", got, tr.Sum(), tr.Get(2))
	}
}

func TestSizes(t *testing.T) {
	// Every size from 1 to 33 crosses the powers of two; leaves are set in
	// random order to random quarter-multiples, some to 0.
	rng := newRand(t)
	for size := 1; size <= 33; size++ {
		t32, t64, m := New[float32](size), New[float64](size), newModel(size)
		for _, i := range rng.Perm(size) {
			v := float64(rng.IntN(12)) / 4
			if err := t32.Set(i, float32(v)); err != nil {
				t.Fatal(err)
			}
			if err := t64.Set(i, v); err != nil {
				t.Fatal(err)
			}
			m.put(i, v)
			check(t, t32, m)
			check(t, t64, m)
		}
	}
}

func TestRandomAgainstModel(t *testing.T) {
	rng := newRand(t)
	const size = 100
	tr, m := New[float64](size), newModel(size)
	for step := 0; step < 2000; step++ {
		if rng.IntN(2) == 0 {
			i, v := rng.IntN(size), float64(rng.IntN(40))/4
			if err := tr.Set(i, v); err != nil {
				t.Fatal(err)
			}
			m.put(i, v)
		} else {
			k := rng.IntN(8)
			idx, vs := make([]int, k), make([]float64, k)
			for j := range idx {
				idx[j], vs[j] = rng.IntN(size), float64(rng.IntN(40))/4
				m.put(idx[j], vs[j])
			}
			if err := tr.SetMany(idx, vs); err != nil {
				t.Fatal(err)
			}
		}
		if step%100 == 0 {
			check(t, tr, m)
		}
		if tr.Sum() > 0 {
			x := rng.Float64() * tr.Sum()
			if got, want := tr.FindPrefixSum(x), m.find(x); got != want {
				t.Fatalf("step %d: FindPrefixSum(%v) = %d, want %d", step, x, got, want)
			}
		}
	}
	check(t, tr, m)
}

func TestSingleLeaf(t *testing.T) {
	tr := New[float64](1)
	if err := tr.Set(0, 2.5); err != nil {
		t.Fatal(err)
	}
	if tr.Sum() != 2.5 || tr.Min() != 2.5 || tr.Get(0) != 2.5 || tr.SumRange(0, 1) != 2.5 {
		t.Fatalf("Sum, Min, Get, SumRange = %v, %v, %v, %v; want 2.5 each", tr.Sum(), tr.Min(), tr.Get(0), tr.SumRange(0, 1))
	}
	for _, x := range []float64{-1, 0, 1, 2.5, 100} {
		if got := tr.FindPrefixSum(x); got != 0 {
			t.Errorf("FindPrefixSum(%v) = %d, want 0", x, got)
		}
	}
}

func TestOnePositiveLeaf(t *testing.T) {
	// All leaves 0 except one, even a tiny one: every x must find it.
	for _, size := range []int{2, 3, 100, 1000} {
		for _, at := range []int{0, size / 2, size - 1} {
			for _, v := range []float64{1e-30, 1, 1e30} {
				t32, t64 := New[float32](size), New[float64](size)
				if err := t32.Set(at, float32(v)); err != nil {
					t.Fatal(err)
				}
				if err := t64.Set(at, v); err != nil {
					t.Fatal(err)
				}
				for _, x := range []float64{-1, 0, v / 2, v, 2 * v, math.Inf(1)} {
					if got := t32.FindPrefixSum(float32(x)); got != at {
						t.Errorf("float32 size %d leaf %d = %v: FindPrefixSum(%v) = %d", size, at, v, x, got)
					}
					if got := t64.FindPrefixSum(x); got != at {
						t.Errorf("float64 size %d leaf %d = %v: FindPrefixSum(%v) = %d", size, at, v, x, got)
					}
				}
			}
		}
	}
}

// TestRoundingCorner holds cases, found by a search over small float32
// trees and checked by hand, where rounding leads the plain descent onto a
// zero leaf although x < Sum; the answer is the last positive leaf before
// that leaf, which is also the exact answer.
func TestRoundingCorner(t *testing.T) {
	for _, c := range []struct {
		name    string
		leaves  []float32
		x       float32
		descend int // leaf the plain descent reaches
		want    int
	}{
		{
			// float32 spacing is 0.125 on [2²⁰, 2²¹). Sum = fl(0.9375 +
			// 1835008) = 1835009 (a tie, to even). x < Sum goes right with
			// fl(x − 0.9375) = fl(1835007.9375) = 1835008 (a tie, to
			// even), not below leaf 2, so it ends on leaf 3.
			name:    "zero leaf",
			leaves:  []float32{0.8125, 0.125, 1835008, 0},
			x:       1835008.875,
			descend: 3,
			want:    2,
		},
		{
			// 8 leaves, 5 used. Spacing is 32 on [2²⁸, 2²⁹); 301989888 =
			// 9·2²⁵. Sum = fl(560 + 301989888) = 301990464 (a tie, to
			// even). x = 301990432 < Sum goes right with fl(x − 560) =
			// fl(301989872) = 301989888 (a tie, to even), not below the
			// sum of leaves 4 and 5, so it enters the zero subtree of
			// leaves 6 and 7 (padding) and ends on leaf 7.
			name:    "zero subtree",
			leaves:  []float32{48, 0, 0, 512, 301989888},
			x:       301990432,
			descend: 7,
			want:    4,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := New[float32](len(c.leaves))
			for i, v := range c.leaves {
				if err := tr.Set(i, v); err != nil {
					t.Fatal(err)
				}
			}
			if got := tr.descend(c.x); c.x >= tr.Sum() || got != c.descend {
				t.Fatalf("Sum = %v, descend(x) = %d: not the corner case", tr.Sum(), got)
			}
			if got := tr.FindPrefixSum(c.x); got != c.want {
				t.Errorf("FindPrefixSum(%v) = %d, want %d", c.x, got, c.want)
			}
			dst := make([]int, 1)
			tr.FindPrefixSumTo(dst, []float32{c.x})
			if dst[0] != c.want {
				t.Errorf("FindPrefixSumTo(%v) = %d, want %d", c.x, dst[0], c.want)
			}
		})
	}
}

// TestRoundingNeverLeavesPositiveLeaves draws leaves over 30 orders of
// magnitude, with many zeros, and searches for x at and just below every
// node sum and just below Sum, where rounding in the tree's sums can make x
// exceed the sum of the subtree the search has entered. The result must be
// a positive leaf, the last one for x ≥ Sum, and the same from
// FindPrefixSum and FindPrefixSumTo.
func TestRoundingNeverLeavesPositiveLeaves(t *testing.T) {
	rng := newRand(t)
	for trial := 0; trial < 200; trial++ {
		size := 1 + rng.IntN(300)
		t32, t64 := New[float32](size), New[float64](size)
		for i := 0; i < size; i++ {
			if rng.IntN(3) == 0 {
				continue
			}
			v := math.Pow(10, rng.Float64()*30-15)
			if err := t32.Set(i, float32(v)); err != nil {
				t.Fatal(err)
			}
			if err := t64.Set(i, v); err != nil {
				t.Fatal(err)
			}
		}
		if t64.Sum() == 0 {
			continue
		}
		checkQueries(t, t32, rng)
		checkQueries(t, t64, rng)
	}
}

func checkQueries[F Float](t *testing.T, tr *Tree[F], rng *rand.Rand) {
	t.Helper()
	s := tr.Sum()
	xs := []F{s, nextBelow(s), 0, F(math.Inf(1))}
	for n := 2; n < 2*tr.leaves; n++ {
		xs = append(xs, tr.node[n].sum, nextBelow(tr.node[n].sum))
	}
	for k := 0; k < 100; k++ {
		xs = append(xs, F(rng.Float64()*float64(s)))
	}
	last := tr.Len() - 1
	for tr.Get(last) == 0 {
		last--
	}
	dst := make([]int, len(xs))
	tr.FindPrefixSumTo(dst, xs)
	for k, x := range xs {
		i := tr.FindPrefixSum(x)
		if i < 0 || i >= tr.Len() || tr.Get(i) <= 0 {
			t.Fatalf("FindPrefixSum(%v) = %d with Sum %v: not a positive leaf", x, i, s)
		}
		if x >= s && i != last {
			t.Fatalf("FindPrefixSum(%v) = %d with Sum %v: want the last positive leaf %d (%v %v %v)", x, i, s, last, tr.Get(i), tr.Get(last), tr.leaves)
		}
		if dst[k] != i {
			t.Fatalf("FindPrefixSumTo gives %d for %v, FindPrefixSum %d", dst[k], x, i)
		}
	}
}

// nextBelow returns the largest F below x (x itself for 0).
func nextBelow[F Float](x F) F {
	if x == 0 {
		return 0
	}
	var f F
	if _, ok := any(f).(float32); ok {
		return F(math.Nextafter32(float32(x), 0))
	}
	return F(math.Nextafter(float64(x), 0))
}

// TestNoDrift checks that a tree after many updates holds exactly the sums
// of a tree built once from the final leaves: nodes are recomputed from
// their children, never adjusted by deltas.
func TestNoDrift(t *testing.T) {
	rng := newRand(t)
	const size = 1000
	churned, fresh := New[float32](size), New[float32](size)
	final := make([]float32, size)
	for step := 0; step < 200000; step++ {
		i, v := rng.IntN(size), float32(rng.ExpFloat64()*1e3)
		if err := churned.Set(i, v); err != nil {
			t.Fatal(err)
		}
		final[i] = v
	}
	var exact float64
	for i, v := range final {
		if err := fresh.Set(i, v); err != nil {
			t.Fatal(err)
		}
		exact += float64(v)
	}
	if churned.Sum() != fresh.Sum() {
		t.Fatalf("Sum after churn = %v, rebuilt = %v: the tree drifted", churned.Sum(), fresh.Sum())
	}
	for n := range churned.node {
		if churned.node[n] != fresh.node[n] {
			t.Fatalf("node %d: churned %v, rebuilt %v", n, churned.node[n], fresh.node[n])
		}
	}
	// Pairwise summation of 1000 float32 values: relative error well below
	// 10 · 2⁻²⁴ ≈ 6e-7.
	if rel := math.Abs(float64(churned.Sum())-exact) / exact; rel > 6e-7 {
		t.Fatalf("Sum = %v, float64 sum = %v: relative error %g", churned.Sum(), exact, rel)
	}
}

// TestSetManyMatchesSet checks that SetMany, whose climbs stop below the
// top levels and which then recomputes the top once, leaves every node
// (sum and minimum) with the bits that Set, one leaf at a time, gives:
// batches of 1 to 300 random values, some 0, with repeated indices, into
// trees of several sizes.
func TestSetManyMatchesSet(t *testing.T) {
	rng := newRand(t)
	for _, size := range []int{1, 2, 7, 100, 4097, 100000} {
		one, many := New[float64](size), New[float64](size)
		for batch := 0; batch < 50; batch++ {
			k := 1 + rng.IntN(300)
			idx, vs := make([]int, k), make([]float64, k)
			for j := range idx {
				idx[j], vs[j] = rng.IntN(size), rng.ExpFloat64()
				if rng.IntN(10) == 0 {
					vs[j] = 0
				}
				if err := one.Set(idx[j], vs[j]); err != nil {
					t.Fatal(err)
				}
			}
			if err := many.SetMany(idx, vs); err != nil {
				t.Fatal(err)
			}
			for n := range one.node {
				if one.node[n] != many.node[n] {
					t.Fatalf("size %d, batch %d: node %d is %v after Set, %v after SetMany", size, batch, n, one.node[n], many.node[n])
				}
			}
		}
	}
}

// TestMinAfterOverwrites checks the minimum as leaves holding it are raised
// one by one (hand-computed: the next smallest remains) and as a raised
// leaf is lowered again, including to 0 and with −0, which counts as 0.
func TestMinAfterOverwrites(t *testing.T) {
	tr := New[float64](6)
	if err := tr.SetMany([]int{0, 1, 2, 3, 4, 5}, []float64{4, 2, 2, 3, 5, 1}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		i       int
		v, want float64
	}{
		{5, 6, 2}, // the minimum rises to the two 2s
		{1, 7, 2}, // one 2 is left
		{2, 7, 3},
		{3, 9, 4},
		{0, 8, 5},
		{4, 1.5, 1.5}, // lowered below everything
		{4, math.Copysign(0, -1), 0},
		{4, 10, 6},
	} {
		if err := tr.Set(s.i, s.v); err != nil {
			t.Fatal(err)
		}
		if got := tr.Min(); got != s.want || math.Signbit(got) {
			t.Fatalf("after Set(%d, %v): Min = %v, want %v", s.i, s.v, got, s.want)
		}
	}
}

func TestRefusedValues(t *testing.T) {
	tr := New[float32](3) // 4 leaves: MaxValue = MaxFloat32 / (2·4)
	maxV := float32(math.MaxFloat32 / 8)
	if tr.MaxValue() != maxV {
		t.Fatalf("MaxValue = %v, want %v", tr.MaxValue(), maxV)
	}
	if err := tr.Set(1, 4); err != nil {
		t.Fatal(err)
	}
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, v := range []float32{nan, -1, -inf, inf, math.Nextafter32(maxV, inf), -math.SmallestNonzeroFloat32} {
		err := tr.Set(0, v)
		var ve *ValueError
		if !errors.As(err, &ve) || ve.Index != 0 || !same(ve.Value, float64(v)) || ve.Max != float64(maxV) {
			t.Errorf("Set(0, %v) = %v, want a *ValueError for leaf 0", v, err)
		}
	}
	// The largest allowed value in every leaf does not overflow the sum.
	for i := 0; i < 3; i++ {
		if err := tr.Set(i, maxV); err != nil {
			t.Fatalf("Set(%d, MaxValue) = %v", i, err)
		}
	}
	if s := tr.Sum(); math.IsInf(float64(s), 0) || s != 3*maxV {
		t.Fatalf("Sum of three MaxValue leaves = %v, want %v", s, 3*maxV)
	}
	for i := 0; i < 3; i++ {
		if got := tr.Get(i); got != maxV {
			t.Fatalf("refused values changed leaf %d to %v", i, got)
		}
	}
}

func same(a, b float64) bool { return a == b || (a != a && b != b) }

func TestSetManyIsAllOrNothing(t *testing.T) {
	tr := New[float64](4)
	if err := tr.SetMany([]int{0, 1, 2, 3}, []float64{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	before := append([]node[float64](nil), tr.node...)
	err := tr.SetMany([]int{0, 2, 3}, []float64{9, math.NaN(), 9})
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Index != 2 {
		t.Fatalf("SetMany with NaN for leaf 2 = %v, want a *ValueError for leaf 2", err)
	}
	for _, bad := range []func(){
		func() { _ = tr.SetMany([]int{0, 4}, []float64{9, 9}) },
		func() { _ = tr.SetMany([]int{0, -1}, []float64{9, 9}) },
		func() { _ = tr.SetMany([]int{0, 1}, []float64{9}) },
	} {
		func() {
			defer func() { _ = recover() }()
			bad()
		}()
	}
	for n := range before {
		if tr.node[n] != before[n] {
			t.Fatalf("a refused SetMany changed node %d from %v to %v", n, before[n], tr.node[n])
		}
	}
	// Repeated indices: the last value wins.
	if err := tr.SetMany([]int{1, 1, 1}, []float64{5, 6, 7}); err != nil {
		t.Fatal(err)
	}
	if tr.Get(1) != 7 || tr.Sum() != 15 {
		t.Fatalf("after SetMany with leaf 1 thrice: Get(1) = %v, Sum = %v; want 7, 15", tr.Get(1), tr.Sum())
	}
}

func TestFindPrefixSumTo(t *testing.T) {
	rng := newRand(t)
	tr := New[float32](1000)
	for i := 0; i < 1000; i += 3 {
		if err := tr.Set(i, float32(rng.IntN(10))); err != nil {
			t.Fatal(err)
		}
	}
	xs := make([]float32, 64)
	for k := range xs {
		xs[k] = float32(rng.Float64()) * tr.Sum()
	}
	xs[0], xs[1], xs[2] = -1, tr.Sum(), 0
	dst := make([]int, len(xs))
	tr.FindPrefixSumTo(dst, xs)
	for k, x := range xs {
		if want := tr.FindPrefixSum(x); dst[k] != want {
			t.Fatalf("dst[%d] = %d, FindPrefixSum(%v) = %d", k, dst[k], x, want)
		}
	}
	tr.FindPrefixSumTo(nil, nil) // nothing to do, no panic
}

func TestPanics(t *testing.T) {
	empty := New[float64](4)
	full := New[float64](4)
	if err := full.Set(1, 1); err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	for _, c := range []struct {
		name string
		f    func()
		want Error
	}{
		{"New(0)", func() { New[float64](0) }, ErrSize},
		{"New(-1)", func() { New[float32](-1) }, ErrSize},
		{"New(huge)", func() { New[float32](math.MaxInt) }, ErrSize},
		{"Set(-1)", func() { _ = full.Set(-1, 1) }, ErrIndex},
		{"Set(Len)", func() { _ = full.Set(4, 1) }, ErrIndex},
		{"Get(Len)", func() { full.Get(4) }, ErrIndex},
		{"Get(-1)", func() { full.Get(-1) }, ErrIndex},
		{"SumRange(-1, 2)", func() { full.SumRange(-1, 2) }, ErrIndex},
		{"SumRange(0, 5)", func() { full.SumRange(0, 5) }, ErrIndex},
		{"SumRange(3, 2)", func() { full.SumRange(3, 2) }, ErrIndex},
		{"SetMany lengths", func() { _ = full.SetMany([]int{0}, nil) }, ErrLength},
		{"SetMany index", func() { _ = full.SetMany([]int{7}, []float64{1}) }, ErrIndex},
		{"FindPrefixSum(NaN)", func() { full.FindPrefixSum(nan) }, ErrQuery},
		{"FindPrefixSum empty", func() { empty.FindPrefixSum(0) }, ErrEmpty},
		{"FindPrefixSumTo lengths", func() { full.FindPrefixSumTo(make([]int, 1), nil) }, ErrLength},
		{"FindPrefixSumTo NaN", func() { full.FindPrefixSumTo(make([]int, 2), []float64{1, nan}) }, ErrQuery},
		{"FindPrefixSumTo empty", func() { empty.FindPrefixSumTo(make([]int, 1), []float64{0}) }, ErrEmpty},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != c.want {
					t.Errorf("panic value %v, want %v", r, c.want)
				}
			}()
			c.f()
		})
	}
}

// TestSamplingChiSquared checks that x ~ U[0, Sum()) picks leaf i with
// frequency ∝ its value: the χ² statistic of 10⁶ draws over the positive
// leaves must stay below the 0.99 quantile of χ² with k−1 degrees of
// freedom, and zero leaves must never be drawn. The idea follows gonum's
// stat/sampleuv weighted-sampler tests.
func TestSamplingChiSquared(t *testing.T) {
	weights := []float64{0, 1, 2, 3, 0, 5, 8, 13, 0.5, 21, 0, 34, 0.25}
	t.Run("float64", func(t *testing.T) { chiSquared[float64](t, weights) })
	t.Run("float32", func(t *testing.T) { chiSquared[float32](t, weights) })
}

func chiSquared[F Float](t *testing.T, weights []float64) {
	rng := newRand(t)
	tr := New[F](len(weights))
	for i, w := range weights {
		if err := tr.Set(i, F(w)); err != nil {
			t.Fatal(err)
		}
	}
	const draws = 1000000
	counts := make([]float64, len(weights))
	for k := 0; k < draws; k++ {
		counts[tr.FindPrefixSum(F(rng.Float64())*tr.Sum())]++
	}
	var total float64
	for _, w := range weights {
		total += w
	}
	var x2 float64
	positive := 0
	for i, w := range weights {
		if w == 0 {
			if counts[i] != 0 {
				t.Errorf("leaf %d has value 0 but was drawn %v times", i, counts[i])
			}
			continue
		}
		positive++
		want := draws * w / total
		x2 += (counts[i] - want) * (counts[i] - want) / want
	}
	limit := distuv.ChiSquared{K: float64(positive - 1)}.Quantile(0.99)
	if x2 > limit {
		t.Errorf("χ² = %.2f over %d leaves, above the 0.99 quantile %.2f: draws %v", x2, positive, limit, counts)
	}
}

func TestNoAllocations(t *testing.T) {
	tr := New[float32](100000)
	for i := 0; i < tr.Len(); i++ {
		_ = tr.Set(i, 1)
	}
	idx, vs := []int{1, 50, 99999}, []float32{2, 3, 4}
	xs, dst := make([]float32, 64), make([]int, 64)
	for k := range xs {
		xs[k] = float32(k) * 1000
	}
	for name, f := range map[string]func(){
		"Set":             func() { _ = tr.Set(7, 3) },
		"SetMany":         func() { _ = tr.SetMany(idx, vs) },
		"Get":             func() { _ = tr.Get(7) },
		"SumRange":        func() { _ = tr.SumRange(3, 77777) },
		"FindPrefixSum":   func() { _ = tr.FindPrefixSum(5e4) },
		"FindPrefixSumTo": func() { tr.FindPrefixSumTo(dst, xs) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times per call", name, n)
		}
	}
}

// FuzzSumTree runs a sequence of operations decoded from the input on a
// float32 and a float64 tree of 1 to 256 leaves and on the linear-scan
// model, and compares them after each operation. Values are
// quarter-multiples below 64, so all sums are exact.
func FuzzSumTree(f *testing.F) {
	f.Add([]byte{5, 0, 1, 8, 0, 3, 12, 2, 7, 4})
	f.Add([]byte{1, 0, 0, 1, 2, 0, 0})
	f.Add([]byte{17, 1, 3, 0, 4, 2, 16, 9, 3, 0, 0, 255, 1, 2, 2, 5, 3})
	f.Add([]byte{64, 0, 63, 255, 0, 0, 1, 4, 0, 200, 1, 5, 3, 1, 1, 2, 30})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			t.Skip()
		}
		size := 1 + int(data[0])
		data = data[1:]
		t32, t64, m := New[float32](size), New[float64](size), newModel(size)
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return int(b)
		}
		for len(data) > 0 {
			switch op := next() % 5; op {
			case 0: // Set, sometimes with a refused value
				i, raw := next()%size, next()
				v := float64(raw) / 4
				if raw >= 252 {
					v = []float64{math.NaN(), -1, math.Inf(1), math.Inf(-1)}[raw-252]
				}
				e32, e64 := t32.Set(i, float32(v)), t64.Set(i, v)
				if valid := v >= 0 && v < 63; valid != (e32 == nil) || valid != (e64 == nil) {
					t.Fatalf("Set(%d, %v): errors %v, %v", i, v, e32, e64)
				}
				if e64 == nil {
					m.put(i, v)
				}
			case 1: // SetMany of up to 4 pairs
				k := next() % 5
				idx, v64, v32 := make([]int, k), make([]float64, k), make([]float32, k)
				for j := range idx {
					idx[j], v64[j] = next()%size, float64(next()%252)/4
					v32[j] = float32(v64[j])
					m.put(idx[j], v64[j])
				}
				if err := t32.SetMany(idx, v32); err != nil {
					t.Fatal(err)
				}
				if err := t64.SetMany(idx, v64); err != nil {
					t.Fatal(err)
				}
			case 2: // FindPrefixSum at an arbitrary x
				x := float64(next()*256+next())/64 - 8
				if m.sum(0, size) == 0 {
					continue
				}
				want := m.find(x)
				if got := t32.FindPrefixSum(float32(x)); got != want {
					t.Fatalf("float32 FindPrefixSum(%v) = %d, want %d", x, got, want)
				}
				if got := t64.FindPrefixSum(x); got != want {
					t.Fatalf("float64 FindPrefixSum(%v) = %d, want %d", x, got, want)
				}
				dst := []int{-1, -1}
				t64.FindPrefixSumTo(dst, []float64{x, x / 2})
				if dst[0] != want || dst[1] != m.find(x/2) {
					t.Fatalf("float64 FindPrefixSumTo(%v, %v) = %v, want [%d %d]", x, x/2, dst, want, m.find(x/2))
				}
			case 3: // SumRange
				a, b := next()%(size+1), next()%(size+1)
				a, b = min(a, b), max(a, b)
				want := m.sum(a, b)
				if got := float64(t32.SumRange(a, b)); got != want {
					t.Fatalf("float32 SumRange(%d, %d) = %v, want %v", a, b, got, want)
				}
				if got := t64.SumRange(a, b); got != want {
					t.Fatalf("float64 SumRange(%d, %d) = %v, want %v", a, b, got, want)
				}
			case 4: // Reset, rarely
				if next()%8 == 0 {
					t32.Reset()
					t64.Reset()
					m = newModel(size)
				}
			}
		}
		check(t, t32, m)
		check(t, t64, m)
	})
}
