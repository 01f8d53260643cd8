package batch_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/nd"
)

// TestStackSeeds reproduces the stacks of seeds 000 and 001.
func TestStackSeeds(t *testing.T) {
	// Seed 000: stack of Batch(a=[0., 2.], b=5) and Batch(a=[1., 3.], b=-5).
	d1 := batch.MustNew("a", []float64{0, 2}, "b", 5)
	d2 := batch.MustNew("a", []float64{1, 3}, "b", -5)
	s, err := batch.Stack(0, d1, d2)
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, s, "a", arr(t, [][]float64{{0, 2}, {1, 3}}))
	wantArray(t, s, "b", arr(t, []int64{5, -5}))

	// Seed 001 §3.5: stack adds a dimension; shape [2, 2].
	b1 := batch.MustNew("a", []int{1, 2}, "b", []int{5, 6})
	b2 := batch.MustNew("a", []int{3, 4}, "b", []int{7, 8})
	st, err := batch.Stack(0, b1, b2)
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, st, "a", arr(t, [][]int{{1, 2}, {3, 4}}))
	if got := st.Shape(); !slices.Equal(got, []int{2, 2}) {
		t.Errorf("stacked shape = %v", got)
	}
	// Along axis 1.
	st1, err := batch.Stack(1, b1, b2)
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, st1, "a", arr(t, [][]int{{1, 3}, {2, 4}}))
	stm, err := batch.Stack(-1, b1, b2)
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, stm, "b", arr(t, [][]int{{5, 7}, {6, 8}}))

	// Seed 000, heterogeneous: a and b each padded, common stacked.
	a := batch.MustNew("a", nd.Zeros(nd.Float64, 4, 4), "common", batch.MustNew("c", nd.Zeros(nd.Float64, 4, 5)))
	b := batch.MustNew("b", nd.Zeros(nd.Float64, 4, 6), "common", batch.MustNew("c", nd.Zeros(nd.Float64, 4, 5)))
	c, err := batch.Stack(0, a, b)
	if err != nil {
		t.Fatal(err)
	}
	for key, shape := range map[string][]int{"a": {2, 4, 4}, "b": {2, 4, 6}, "common.c": {2, 4, 5}} {
		if got := mustArray(t, c, key).Shape(); !slices.Equal(got, shape) {
			t.Errorf("%s shape = %v, want %v", key, got, shape)
		}
	}
	// Keys in order of first appearance.
	if got := keysOf(c); !slices.Equal(got, []string{"a", "common", "b"}) {
		t.Errorf("keys = %v", got)
	}

	// Seed 000: None is added for object arrays, 0 otherwise.
	e1 := batch.MustNew("a", []float64{0, 2})
	e2 := batch.MustNew("a", []float64{1, 3}, "b", "done")
	e, err := batch.Stack(0, e1, e2)
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, e, "b", arr(t, []any{nil, "done"}))

	// Seed 001 §6.4 and §7: padded with zeros.
	h1 := batch.MustNew("a", nd.MustNew([][]float64{{1, 1, 1}, {1, 1, 1}}), "shared", []int{1, 2})
	h2 := batch.MustNew("b", nd.Zeros(nd.Float64, 2, 4), "shared", []int{3, 4})
	h, err := batch.Stack(0, h1, h2)
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, h, "a", arr(t, [][][]float64{{{1, 1, 1}, {1, 1, 1}}, {{0, 0, 0}, {0, 0, 0}}}))
	wantArray(t, h, "b", nd.Zeros(nd.Float64, 2, 2, 4))
	wantArray(t, h, "shared", arr(t, [][]int{{1, 2}, {3, 4}}))
	p, err := batch.Stack(0, batch.MustNew("a", []int{1, 2}), batch.MustNew("b", []int{3, 4}))
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, p, "a", arr(t, [][]int{{1, 2}, {0, 0}}))
	wantArray(t, p, "b", arr(t, [][]int{{0, 0}, {3, 4}}))
}

func TestStackRules(t *testing.T) {
	cat := func(p ...float64) *batch.Batch { return batch.MustNew("d", mustCategorical(t, p)) }
	t.Run("reserved", func(t *testing.T) {
		// A key reserved in all stays reserved; reserved in some is padded.
		s, err := batch.Stack(0,
			batch.MustNew("r", batch.MustNew(), "x", batch.MustNew(), "o", batch.MustNew("v", []int{1})),
			batch.MustNew("r", batch.MustNew(), "x", []int{5}, "o", batch.MustNew()),
		)
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := s.Batch("r"); r == nil || !r.IsEmpty(false) {
			t.Errorf("r = %v, want reserved", r)
		}
		wantArray(t, s, "x", arr(t, [][]int64{{0}, {5}}))
		wantArray(t, s, "o.v", arr(t, [][]int64{{1}, {0}}))
	})
	t.Run("promotion", func(t *testing.T) {
		s, err := batch.Stack(0, batch.MustNew("a", int32(1)), batch.MustNew("b", 1), batch.MustNew("a", 2.5))
		if err != nil {
			t.Fatal(err)
		}
		wantArray(t, s, "a", arr(t, []float64{1, 0, 2.5}))
	})
	t.Run("scalars and nil", func(t *testing.T) {
		s, err := batch.Stack(0, batch.MustNew("s", "x", "n", nil, "m", 1), batch.MustNew("s", "y", "n", nil, "m", "z"))
		if err != nil {
			t.Fatal(err)
		}
		wantArray(t, s, "s", arr(t, []any{"x", "y"}))
		wantArray(t, s, "n", arr(t, []any{nil, nil}))
		wantArray(t, s, "m", arr(t, []any{int64(1), "z"}))
	})
	t.Run("empty inputs skipped", func(t *testing.T) {
		s, err := batch.Stack(0, batch.MustNew(), batch.MustNew("a", 1), &batch.Batch{})
		if err != nil {
			t.Fatal(err)
		}
		wantArray(t, s, "a", arr(t, []int64{1}))
		z, err := batch.Stack(0)
		if err != nil || z.NumKeys() != 0 {
			t.Errorf("Stack() = %v, %v", z, err)
		}
	})
	t.Run("leaves", func(t *testing.T) {
		s, err := batch.Stack(0, cat(0.3, 0.7), cat(0.5, 0.5))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Shape(); !slices.Equal(got, []int{2}) {
			t.Errorf("stacked leaf shape = %v", got)
		}
	})
	errs := []struct {
		name string
		axis int
		bs   []*batch.Batch
		key  string
	}{
		// Seed 000: a=zeros vs a=Batch(b=Batch()) cannot be aggregated.
		{"unaggregatable", 0, []*batch.Batch{batch.MustNew("a", nd.Zeros(nd.Float64, 4, 4)), batch.MustNew("a", batch.MustNew("b", batch.MustNew()))}, "a"},
		{"axis with partial keys", 1, []*batch.Batch{batch.MustNew("a", []int{1}), batch.MustNew("a", []int{1}, "b", []int{2})}, "b"},
		{"shapes", 0, []*batch.Batch{batch.MustNew("a", []int{1}), batch.MustNew("a", []int{1, 2})}, "a"},
		{"padded shapes", 0, []*batch.Batch{batch.MustNew("a", []int{1}), batch.MustNew("a", []int{1, 2}), batch.MustNew("b", 1)}, "a"},
		{"nested", 0, []*batch.Batch{batch.MustNew("o", batch.MustNew("x", []int{1})), batch.MustNew("o", batch.MustNew("x", []int{1, 2}))}, "o.x"},
		{"leaf missing", 0, []*batch.Batch{cat(0.5, 0.5), batch.MustNew("a", 1)}, "d"},
		{"leaf mixed", 0, []*batch.Batch{cat(0.5, 0.5), batch.MustNew("d", 1)}, "d"},
		{"leaf refuses", 0, []*batch.Batch{cat(0.5, 0.5), cat(0.2, 0.3, 0.5)}, "d"},
		{"axis range", 3, []*batch.Batch{batch.MustNew("a", []int{1}), batch.MustNew("a", []int{1})}, "a"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			_, err := batch.Stack(tt.axis, tt.bs...)
			wantErr(t, err, batch.ErrStructure, tt.key)
		})
	}
}

func TestStackInPlace(t *testing.T) {
	b := batch.MustNew("a", []int{1, 2})
	if err := b.Stack(0, batch.MustNew("a", []int{3, 4})); err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "a", arr(t, [][]int{{1, 2}, {3, 4}}))
	var z batch.Batch
	if err := z.Stack(0, batch.MustNew("a", 1), batch.MustNew("a", 2)); err != nil {
		t.Fatal(err)
	}
	wantArray(t, &z, "a", arr(t, []int64{1, 2}))
	before := b.Clone()
	if err := b.Stack(0, batch.MustNew("a", "x")); err == nil {
		t.Fatal("want an error")
	}
	if !batch.Equal(b, before) {
		t.Error("failed Stack changed the receiver")
	}
}

// TestCatSeeds reproduces the cats of seeds 000 and 001.
func TestCatSeeds(t *testing.T) {
	b1 := batch.MustNew("a", []int{1, 2}, "b", []int{5, 6})
	b2 := batch.MustNew("a", []int{3, 4}, "b", []int{7, 8})
	c, err := batch.Cat(b1, b2)
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, c, "a", arr(t, []int{1, 2, 3, 4}))
	wantArray(t, c, "b", arr(t, []int{5, 6, 7, 8}))
	if got := c.Shape(); !slices.Equal(got, []int{4}) {
		t.Errorf("shape = %v", got)
	}
	// Seed 001 §7: Cat with different keys is an error (seed 000's padded
	// Cat is superseded).
	_, err = batch.Cat(batch.MustNew("a", []int{1, 2}), batch.MustNew("b", []int{3, 4}))
	wantErr(t, err, batch.ErrStructure, "a")
	x := batch.MustNew("a", nd.Zeros(nd.Float64, 3, 4), "common", batch.MustNew("c", nd.Zeros(nd.Float64, 3, 5)))
	y := batch.MustNew("b", nd.Zeros(nd.Float64, 4, 3), "common", batch.MustNew("c", nd.Zeros(nd.Float64, 4, 5)))
	_, err = batch.Cat(x, y)
	wantErr(t, err, batch.ErrStructure, "a")
	// Seed 001 §8 pattern 3: cat_ extends a batch.
	ext := batch.MustNew("obs", [][]int{{1, 2}, {3, 4}}, "act", []int{0, 1})
	if err := ext.Cat(batch.MustNew("obs", [][]int{{5, 6}}, "act", []int{1})); err != nil {
		t.Fatal(err)
	}
	if n, _ := ext.Len(); n != 3 {
		t.Errorf("Len after Cat = %d", n)
	}
	wantArray(t, ext, "obs", arr(t, [][]int{{1, 2}, {3, 4}, {5, 6}}))
}

func TestCatRules(t *testing.T) {
	t.Run("reserved padded", func(t *testing.T) {
		// Seed 000's docstring: cat x and y where y.a.a is reserved pads it
		// with zeros over len(y) rows.
		x := batch.MustNew("a", batch.MustNew("a", nd.Zeros(nd.Float64, 3, 4)), "b", nd.Zeros(nd.Float64, 3, 4))
		y := batch.MustNew("a", batch.MustNew("a", batch.MustNew()), "b", nd.Zeros(nd.Float64, 4, 4))
		c, err := batch.Cat(x, y)
		if err != nil {
			t.Fatal(err)
		}
		wantArray(t, c, "a.a", nd.Zeros(nd.Float64, 7, 4))
		z := batch.MustNew("a", batch.MustNew(), "b", nd.Zeros(nd.Float64, 2, 4))
		c, err = batch.Cat(x, z)
		if err != nil {
			t.Fatal(err)
		}
		wantArray(t, c, "a.a", nd.Zeros(nd.Float64, 5, 4))
	})
	t.Run("reserved and nil in all", func(t *testing.T) {
		c, err := batch.Cat(batch.MustNew("a", []int{1}, "r", batch.MustNew(), "n", nil), batch.MustNew("a", []int{2}, "n", nil, "r", batch.MustNew()))
		if err != nil {
			t.Fatal(err)
		}
		wantArray(t, c, "a", arr(t, []int64{1, 2}))
		if r, _ := c.Batch("r"); r == nil || r.NumKeys() != 0 {
			t.Error("reserved key lost")
		}
		if v, ok := c.Get("n"); !ok || v != nil {
			t.Error("nil lost")
		}
	})
	t.Run("promotion and empties", func(t *testing.T) {
		c, err := batch.Cat(batch.MustNew(), batch.MustNew("a", []int32{1}), batch.MustNew("a", []float32{0.5}))
		if err != nil {
			t.Fatal(err)
		}
		wantArray(t, c, "a", arr(t, []float64{1, 0.5}))
	})
	t.Run("leaves", func(t *testing.T) {
		c, err := batch.Cat(batch.MustNew("d", mustCategorical(t, [][]float64{{1, 0}})), batch.MustNew("d", mustCategorical(t, [][]float64{{0, 1}, {1, 0}})))
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := c.Len(); n != 3 {
			t.Errorf("Len = %d", n)
		}
	})
	errs := []struct {
		name string
		bs   []*batch.Batch
		kind error
		key  string
	}{
		{"scalars", []*batch.Batch{batch.MustNew("a", 1), batch.MustNew("a", 2)}, batch.ErrStructure, "a"},
		{"strings", []*batch.Batch{batch.MustNew("a", "x"), batch.MustNew("a", "y")}, batch.ErrStructure, "a"},
		{"extra key", []*batch.Batch{batch.MustNew("a", []int{1}), batch.MustNew("a", []int{1}, "b", []int{2})}, batch.ErrStructure, "b"},
		{"nested key", []*batch.Batch{batch.MustNew("o", batch.MustNew("x", []int{1})), batch.MustNew("o", batch.MustNew("y", []int{1}))}, batch.ErrStructure, "o.x"},
		{"kinds", []*batch.Batch{batch.MustNew("a", nd.Zeros(nd.Float64, 3, 4)), batch.MustNew("a", batch.MustNew("b", batch.MustNew()))}, batch.ErrStructure, "a"},
		{"nil and array", []*batch.Batch{batch.MustNew("a", nil), batch.MustNew("a", []int{1})}, batch.ErrStructure, "a"},
		{"shapes", []*batch.Batch{batch.MustNew("a", nd.Zeros(nd.Float64, 1, 2)), batch.MustNew("a", nd.Zeros(nd.Float64, 1, 3))}, batch.ErrStructure, "a"},
		{"pad without length", []*batch.Batch{batch.MustNew("a", []int{1}, "s", "x"), batch.MustNew("a", batch.MustNew(), "s", "y")}, batch.ErrLen, "a"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			_, err := batch.Cat(tt.bs...)
			wantErr(t, err, tt.kind, tt.key)
		})
	}
}

func TestStackToCatTo(t *testing.T) {
	rows := []*batch.Batch{
		batch.MustNew("obs", []float32{1, 2}, "act", 1, "info", batch.MustNew("id", 7), "r", batch.MustNew(), "n", nil),
		batch.MustNew("obs", []float32{3, 4}, "act", 2, "info", batch.MustNew("id", 8), "r", batch.MustNew(), "n", nil),
	}
	dst := batch.ZerosStacked(rows[0], 2)
	if err := batch.StackTo(dst, 0, rows...); err != nil {
		t.Fatal(err)
	}
	want, err := batch.Stack(0, rows...)
	if err != nil {
		t.Fatal(err)
	}
	if !batch.Equal(dst, want) {
		t.Errorf("StackTo:\n%v\nwant\n%v", dst, want)
	}
	dst.Set("n", nil) // nil into nil: no Object array to fill
	if n := testing.AllocsPerRun(50, func() {
		if err := batch.StackTo(dst, 0, rows...); err != nil {
			t.Fatal(err)
		}
	}); n != 0 && !race.Enabled {
		t.Errorf("StackTo allocates %v times", n)
	}
	cat := batch.MustNew("obs", nd.Zeros(nd.Float32, 4, 2), "act", nd.Zeros(nd.Int64, 4), "info", batch.MustNew("id", nd.Zeros(nd.Int64, 4)), "r", batch.MustNew(), "n", nd.Zeros(nd.Object, 4))
	if err := batch.CatTo(cat, want, want); err != nil {
		t.Fatal(err)
	}
	wantArray(t, cat, "obs", arr(t, [][]float32{{1, 2}, {3, 4}, {1, 2}, {3, 4}}))
	wantArray(t, cat, "info.id", arr(t, []int64{7, 8, 7, 8}))
	if n := testing.AllocsPerRun(50, func() { batch.CatTo(cat, want, want) }); n != 0 && !race.Enabled {
		t.Errorf("CatTo allocates %v times", n)
	}
	// Along axis 1.
	d1 := batch.MustNew("a", nd.Zeros(nd.Int64, 2, 2))
	if err := batch.StackTo(d1, 1, batch.MustNew("a", []int{1, 2}), batch.MustNew("a", []int{3, 4})); err != nil {
		t.Fatal(err)
	}
	wantArray(t, d1, "a", arr(t, [][]int{{1, 3}, {2, 4}}))

	errs := []struct {
		name string
		dst  *batch.Batch
		bs   []*batch.Batch
		kind error
		key  string
	}{
		{"none", d1, nil, batch.ErrValue, ""},
		{"missing key", batch.MustNew("a", nd.Zeros(nd.Int64, 2), "b", nd.Zeros(nd.Int64, 2)), []*batch.Batch{batch.MustNew("a", 1), batch.MustNew("a", 2)}, batch.ErrStructure, "b"},
		{"extra key", batch.MustNew("a", nd.Zeros(nd.Int64, 2)), []*batch.Batch{batch.MustNew("a", 1, "b", 1), batch.MustNew("a", 2)}, batch.ErrStructure, "b"},
		{"kind", batch.MustNew("a", nd.Zeros(nd.Int64, 2)), []*batch.Batch{batch.MustNew("a", "x"), batch.MustNew("a", 2)}, batch.ErrStructure, "a"},
		{"cast", batch.MustNew("a", nd.Zeros(nd.Int64, 2)), []*batch.Batch{batch.MustNew("a", 1.5), batch.MustNew("a", 2)}, batch.ErrStructure, "a"},
		{"nested", batch.MustNew("o", batch.MustNew("x", nd.Zeros(nd.Int64, 2))), []*batch.Batch{batch.MustNew("o", batch.MustNew("x", 1)), batch.MustNew("o", batch.MustNew("y", 2))}, batch.ErrStructure, "o.x"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			wantErr(t, batch.StackTo(tt.dst, 0, tt.bs...), tt.kind, tt.key)
		})
	}
	wantPanic(t, nd.ErrShape, "", func() {
		batch.StackTo(batch.MustNew("a", nd.Zeros(nd.Int64, 3)), 0, batch.MustNew("a", 1), batch.MustNew("a", 2))
	})
	wantErr(t, batch.CatTo(d1), batch.ErrValue, "")
}

// TestSplit reproduces seed 001 §3.5 and seed 000's split.
func TestSplit(t *testing.T) {
	b := batch.MustNew("a", arange(t, 0, 10), "b", arange(t, 10, 20))
	pieces, err := b.Split(3, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for p := range pieces {
		n, _ := p.Len()
		got = append(got, mustArray(t, p, "a").Str()+" "+string(rune('0'+n)))
	}
	if want := []string{"[0 1 2] 3", "[3 4 5] 3", "[6 7 8] 3", "[9] 1"}; !slices.Equal(got, want) {
		t.Errorf("split = %v, want %v", got, want)
	}
	// Shuffled: every row exactly once, reproducible with the seed.
	rng := rand.New(rand.NewPCG(1, 2))
	pieces, err = b.Split(4, true, rng)
	if err != nil {
		t.Fatal(err)
	}
	var seen []int64
	for p := range pieces {
		seen = append(seen, nd.ToSlice[int64](mustArray(t, p, "a"))...)
		bs := nd.ToSlice[int64](mustArray(t, p, "b"))
		for i, v := range nd.ToSlice[int64](mustArray(t, p, "a")) {
			if bs[i] != v+10 {
				t.Errorf("rows not shuffled together: a=%d b=%d", v, bs[i])
			}
		}
	}
	again := slices.Clone(seen)
	slices.Sort(again)
	if !slices.Equal(again, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) || slices.IsSorted(seen) {
		t.Errorf("shuffled rows = %v", seen)
	}
	// The order is rand.Rand.Perm's for the same seed (documented).
	perm := rand.New(rand.NewPCG(1, 2)).Perm(10)
	for i, v := range perm {
		if seen[i] != int64(v) {
			t.Fatalf("shuffled rows = %v, rand.Perm = %v", seen, perm)
		}
	}
	// Pieces are copies.
	for p := range pieces {
		mustArray(t, p, "a").SetIndex(-1, nd.I(0))
	}
	wantArray(t, b, "a", arange(t, 0, 10))
	_, err = b.Split(0, false, nil)
	wantErr(t, err, batch.ErrValue, "")
	_, err = b.Split(2, true, nil)
	wantErr(t, err, batch.ErrValue, "")
	_, err = batch.MustNew("a", 1).Split(1, false, nil)
	wantErr(t, err, batch.ErrLen, "a")
	big, _ := b.Split(100, false, nil)
	n := 0
	for range big {
		n++
	}
	if n != 1 {
		t.Errorf("size > Len gave %d pieces", n)
	}
}
