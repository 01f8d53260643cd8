package batch_test

import (
	"math"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

func TestSetIndex(t *testing.T) {
	// Seed 003: data[0] = Batch.empty(data[1]) on a=[False, True],
	// b={'c': [2., 'st'], 'd': [1., 0.]} gives a=[False, True],
	// b.c=[None, 'st'], b.d=[0., 0.].
	data := batch.MustNew("a", []bool{false, true}, "b", map[string]any{"c": []any{2.0, "st"}, "d": []float64{1, 0}})
	e, err := batch.Empty(data.Index(nd.I(1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := data.SetIndex(e, nd.I(0)); err != nil {
		t.Fatal(err)
	}
	wantArray(t, data, "a", arr(t, []bool{false, true}))
	wantArray(t, data, "b.c", arr(t, []any{nil, "st"}))
	wantArray(t, data, "b.d", arr(t, []float64{0, 0}))

	// A Batch with a subset of the keys: the others are reset at the index.
	b := batch.MustNew("x", []int{1, 2, 3}, "y", []float64{4, 5, 6}, "o", batch.MustNew("z", []bool{true, true, true}), "r", batch.MustNew(), "n", nil)
	if err := b.SetIndex(batch.MustNew("x", 9), nd.Range(0, 2)); err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "x", arr(t, []int64{9, 9, 3}))
	wantArray(t, b, "y", arr(t, []float64{0, 0, 6}))
	wantArray(t, b, "o.z", arr(t, []bool{false, false, true}))
	// A scalar goes to every array (nd checks it by value: 7 does not fit a
	// bool array, true fits every one); a map works like a Batch.
	wantErr(t, b.SetIndex(7, nd.I(-1)), nd.ErrCast, "o.z")
	if err := b.SetIndex(true, nd.I(-1)); err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "y", arr(t, []float64{0, 0, 1}))
	if err := b.SetIndex(7, nd.I(-1)); err == nil {
		t.Fatal("want an error")
	}
	wantArray(t, b, "x", arr(t, []int64{9, 9, 7})) // written before o.z failed
	if err := b.SetIndex(map[string]any{"o": map[string]any{"z": true}}, nd.Ints(0, 1)); err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "o.z", arr(t, []bool{true, true, true}))
	wantArray(t, b, "x", arr(t, []int64{0, 0, 7}))
	// Through a view into the original.
	v := b.Index(nd.Range(1, 3))
	if err := v.SetIndex(batch.MustNew("x", 5, "y", 1.5, "o", batch.MustNew("z", false)), nd.I(0)); err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "x", arr(t, []int64{0, 5, 7}))
	// Without an index: the whole arrays.
	s := batch.MustNew("a", 1, "b", []float32{1, 2})
	if err := s.SetIndex(batch.MustNew("a", 3, "b", 4)); err != nil {
		t.Fatal(err)
	}
	wantArray(t, s, "a", arr(t, int64(3)))
	wantArray(t, s, "b", arr(t, []float32{4, 4}))

	errs := []struct {
		name string
		dst  *batch.Batch
		v    any
		kind error
		key  string
	}{
		{"new key", batch.MustNew("a", []int{1}), batch.MustNew("b", 1), batch.ErrKey, "b"},
		{"array value", batch.MustNew("a", []int{1}), arr(t, []int{1}), batch.ErrType, ""},
		{"batch into array", batch.MustNew("a", []int{1}), batch.MustNew("a", batch.MustNew("c", 1)), batch.ErrType, "a"},
		{"array into batch", batch.MustNew("o", batch.MustNew("c", []int{1})), batch.MustNew("o", []int{1}), batch.ErrType, "o"},
		{"string into ints", batch.MustNew("a", []int{1}), "x", batch.ErrType, "a"},
		{"string dst", batch.MustNew("a", []int{1}, "s", "x"), 1, batch.ErrType, "s"},
		{"leaf dst", batch.MustNew("d", mustCategorical(t, [][]float64{{1, 0}})), batch.MustNew(), batch.ErrType, "d"},
		{"into nil", batch.MustNew("n", nil), batch.MustNew("n", batch.MustNew("q", 1)), batch.ErrType, "n"},
		{"into reserved", batch.MustNew("r", batch.MustNew()), batch.MustNew("r", []int{1}), batch.ErrType, "r"},
		{"nested new key", batch.MustNew("o", batch.MustNew("c", []int{1})), batch.MustNew("o", batch.MustNew("d", 1)), batch.ErrKey, "o.d"},
		{"cast", batch.MustNew("a", []int{1}), batch.MustNew("a", 1.5), nd.ErrCast, "a"},
		{"broadcast", batch.MustNew("a", []int{1, 2}), batch.MustNew("a", []int{1, 2, 3}), nd.ErrShape, "a"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.dst.Clone()
			err := tt.dst.SetIndex(tt.v, nd.I(0))
			wantErr(t, err, tt.kind, tt.key)
			if !batch.Equal(before, tt.dst) {
				t.Errorf("failed SetIndex changed the batch: %v", tt.dst)
			}
		})
	}
}

func TestSetRow(t *testing.T) {
	store := batch.ZerosStacked(batch.MustNew("obs", []float32{0, 0}, "act", 0, "info", batch.MustNew("id", 0), "s", "x", "r", batch.MustNew()), 3)
	tr := batch.MustNew("obs", []float32{1, 2}, "act", 4, "info", batch.MustNew("id", 9), "s", "hello")
	if err := store.SetRow(1, tr); err != nil {
		t.Fatal(err)
	}
	wantArray(t, store, "obs", arr(t, [][]float32{{0, 0}, {1, 2}, {0, 0}}))
	wantArray(t, store, "act", arr(t, []int64{0, 4, 0}))
	wantArray(t, store, "info.id", arr(t, []int64{0, 9, 0}))
	wantArray(t, store, "s", arr(t, []any{nil, "hello", nil}))
	// Missing keys are reset; negative rows count from the end.
	if err := store.SetRow(-2, batch.MustNew("act", 5)); err != nil {
		t.Fatal(err)
	}
	wantArray(t, store, "obs", arr(t, [][]float32{{0, 0}, {0, 0}, {0, 0}}))
	wantArray(t, store, "act", arr(t, []int64{0, 5, 0}))
	wantArray(t, store, "s", arr(t, []any{nil, nil, nil}))
	row := batch.MustNew("obs", []float32{1, 2}, "act", 4, "info", batch.MustNew("id", 9))
	if n := testing.AllocsPerRun(100, func() {
		if err := store.SetRow(2, row); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("SetRow allocates %v times", n)
	}
	wantErr(t, store.SetRow(0, batch.MustNew("act", 1.5)), nd.ErrCast, "act")
	wantErr(t, store.SetRow(0, batch.MustNew("zzz", 1)), batch.ErrKey, "zzz")
	wantPanic(t, nd.ErrIndex, "", func() { store.SetRow(3, row) })
}

func TestEmpty(t *testing.T) {
	// Seed 003: data.empty_() zeroes a and sets b to None.
	data := batch.MustNew("a", [][]float64{{0, 2}, {1, 3}}, "b", []any{nil, "done"}, "s", "str", "n", nil, "r", batch.MustNew())
	c, err := batch.Empty(data)
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, c, "a", nd.Zeros(nd.Float64, 2, 2))
	wantArray(t, c, "b", arr(t, []any{nil, nil}))
	if v, _ := c.Get("s"); v != nil {
		t.Errorf("s = %v, want nil", v)
	}
	wantArray(t, data, "a", arr(t, [][]float64{{0, 2}, {1, 3}})) // copy
	if err := data.Empty(nd.I(1)); err != nil {
		t.Fatal(err)
	}
	wantArray(t, data, "a", arr(t, [][]float64{{0, 2}, {0, 0}}))
	wantArray(t, data, "b", arr(t, []any{nil, nil}))
	if err := data.Empty(); err != nil {
		t.Fatal(err)
	}
	wantArray(t, data, "a", nd.Zeros(nd.Float64, 2, 2))
	// Seed 001 §6.3: batch[0] = Batch.empty(batch[0]).
	b := batch.MustNew("a", []int{1, 2, 3}, "b", []string{"x", "y", "z"})
	e, err := batch.Empty(b.Index(nd.I(0)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.SetIndex(e, nd.I(0)); err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "a", arr(t, []int64{0, 2, 3}))
	wantArray(t, b, "b", arr(t, []any{nil, "y", "z"}))
	// A custom leaf cannot be reset.
	l := batch.MustNew("a", []int{1}, "o", batch.MustNew("d", mustCategorical(t, [][]float64{{1, 0}})))
	wantErr(t, l.Empty(), batch.ErrType, "o.d")
	wantArray(t, l, "a", arr(t, []int64{1}))
	_, err = batch.Empty(l)
	wantErr(t, err, batch.ErrType, "o.d")
}

// TestNull reproduces seed 001 §6.5.
func TestNull(t *testing.T) {
	b := batch.MustNew("a", []any{1, 2, nil, 4}, "b", []float64{5, math.NaN(), 7, 8}, "c", [][]int{{1, 2}, {3, 4}, {5, 6}, {7, 8}})
	if !b.HasNull() {
		t.Error("HasNull = false")
	}
	m := b.IsNull()
	wantArray(t, m, "a", arr(t, []bool{false, false, true, false}))
	wantArray(t, m, "b", arr(t, []bool{false, true, false, false}))
	wantArray(t, m, "c", nd.Zeros(nd.Bool, 4, 2))
	clean, err := b.DropNull()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := clean.Len(); n != 2 {
		t.Errorf("Len = %d, want 2", n)
	}
	// The object dtype is kept (Tianshou's dict round trip would give int64;
	// both print [1 4]).
	wantArray(t, clean, "a", objects(t, 1, 4))
	wantArray(t, clean, "b", arr(t, []float64{5, 8}))
	wantArray(t, clean, "c", arr(t, [][]int{{1, 2}, {7, 8}}))

	// A null anywhere in a row drops the row; nested batches count.
	g := batch.MustNew("x", [][]float32{{1, float32(math.NaN())}, {1, 2}, {3, 4}}, "o", batch.MustNew("y", []any{"a", "b", nil}), "d", mustCategorical(t, [][]float64{{1, 0}, {1, 0}, {1, 0}}))
	k, err := g.DropNull()
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, k, "x", arr(t, [][]float32{{1, 2}}))
	wantArray(t, k, "o.y", arr(t, []any{"b"}))
	gm := g.IsNull()
	wantArray(t, gm, "d", nd.Zeros(nd.Bool, 3))
	if !batch.MustNew("a", []int{1}, "n", nil).HasNull() || batch.MustNew("a", []int{1}, "s", "x", "r", batch.MustNew()).HasNull() {
		t.Error("HasNull with nil / strings")
	}
	sm := batch.MustNew("n", nil, "s", "x").IsNull()
	wantArray(t, sm, "n", arr(t, true))
	wantArray(t, sm, "s", arr(t, false))
	// nil is None in every row.
	all, err := batch.MustNew("a", []int{1, 2}, "n", nil).DropNull()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := all.Len(); n != 0 {
		t.Errorf("DropNull with a nil value kept %d rows", n)
	}
	_, err = batch.MustNew("a", 1).DropNull()
	wantErr(t, err, batch.ErrLen, "a")
	if n := testing.AllocsPerRun(50, func() { b.HasNull() }); n != 0 {
		t.Errorf("HasNull allocates %v times", n)
	}
}

// TestApply reproduces seed 001 §6.6.
func TestApply(t *testing.T) {
	b := batch.MustNew("a", []int{1, 2, 3}, "nested", batch.MustNew("b", []float64{4, 5}, "c", []int{6, 7, 8}), "r", batch.MustNew())
	double := func(v any) (any, error) { return nd.Mul(v, 2) }
	d, err := batch.Apply(b, double)
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "a", arr(t, []int{1, 2, 3}))
	wantArray(t, d, "a", arr(t, []int{2, 4, 6}))
	wantArray(t, d, "nested.b", arr(t, []float64{8, 10}))
	nested, _ := b.Batch("nested")
	if err := b.Apply(func(v any) (any, error) { return nd.Add(v, 10) }); err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "a", arr(t, []int{11, 12, 13}))
	wantArray(t, nested, "b", arr(t, []float64{14, 15})) // same nested Batch
	// Values other than arrays reach fn; results are converted.
	s := batch.MustNew("s", "x", "n", nil)
	r, err := batch.Apply(s, func(v any) (any, error) {
		if v == nil {
			return []int{1}, nil
		}
		return v.(string) + "!", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, r, "n", arr(t, []int64{1}))
	if v, _ := r.Get("s"); v != "x!" {
		t.Errorf("s = %v", v)
	}
	// On error the batch is unchanged.
	before := b.Clone()
	err = b.Apply(func(v any) (any, error) { return nd.Div(v, "x") })
	wantErr(t, err, batch.ErrValue, "a")
	if !batch.Equal(b, before) {
		t.Error("failed Apply changed the batch")
	}
	_, err = batch.Apply(b, func(v any) (any, error) { return map[int]int{1: 1}, nil })
	wantErr(t, err, batch.ErrKey, "a")
}

// TestAsType checks dtype conversion (seed 001 §3.6 and §8's to_torch_).
func TestAsType(t *testing.T) {
	b := batch.MustNew("a", nd.Zeros(nd.Float64, 3, 4), "b", []float64{1, 1, 1, 1, 1}, "i", []int{1, 2}, "o", batch.MustNew("f", []float32{1.5}), "n", nil, "r", batch.MustNew())
	c, err := batch.AsType(b, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, c, "a", nd.Zeros(nd.Float32, 3, 4))
	wantArray(t, c, "i", arr(t, []float32{1, 2}))
	if mustArray(t, c, "o.f") == mustArray(t, b, "o.f") {
		t.Error("AsType copy shares an array")
	}
	wantArray(t, b, "a", nd.Zeros(nd.Float64, 3, 4)) // unchanged
	keep := mustArray(t, b, "o.f")
	if err := b.AsType(nd.Float32); err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "b", arr(t, []float32{1, 1, 1, 1, 1}))
	if mustArray(t, b, "o.f") != keep {
		t.Error("in-place AsType replaced an array already of the dtype")
	}
	if err := b.AsType(nd.Int64); err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "o.f", arr(t, []int64{1}))
	before := b.Clone()
	s := batch.MustNew("a", []int{1}, "s", "x")
	wantErr(t, s.AsType(nd.Float32), batch.ErrType, "s")
	o := batch.MustNew("a", []int{1}, "o", []any{"x"})
	wantErr(t, o.AsType(nd.Float32), batch.ErrType, "o")
	_, err = batch.AsType(batch.MustNew("d", mustCategorical(t, []float64{1})), nd.Float32)
	wantErr(t, err, batch.ErrType, "d")
	if !batch.Equal(b, before) {
		t.Error("b changed")
	}
}

// TestToAtLeast2D checks seed 001 §5's to_at_least_2d.
func TestToAtLeast2D(t *testing.T) {
	b := batch.MustNew("a", 1, "b", []int{1, 2}, "c", nd.Zeros(nd.Int8, 2, 3), "s", "x", "n", nil,
		"dist", mustCategorical(t, []float64{1, 1, 1}), "d2", mustCategorical(t, [][]float64{{1, 0}}), "o", batch.MustNew("z", 2.5))
	r, err := batch.ToAtLeast2D(b)
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, r, "a", arr(t, [][]int64{{1}}))
	wantArray(t, r, "b", arr(t, [][]int64{{1, 2}}))
	if mustArray(t, r, "c") != mustArray(t, b, "c") {
		t.Error("2-d array not kept")
	}
	wantArray(t, r, "s", arr(t, [][]any{{"x"}}))
	wantArray(t, r, "o.z", arr(t, [][]float64{{2.5}}))
	if v, _ := r.Get("n"); v != nil {
		t.Error("nil not kept")
	}
	if d, _ := r.Get("dist"); len(d.(batch.Leaf).BatchShape()) != 1 || d.(batch.Leaf).BatchShape()[0] != 1 {
		t.Errorf("dist batch shape = %v, want [1]", d.(batch.Leaf).BatchShape())
	}
	// Views: writing the result writes b.
	mustArray(t, r, "b").SetIndex(9, nd.I(0), nd.I(0))
	wantArray(t, b, "b", arr(t, []int64{9, 2}))
}

// TestStoreLeaf stores custom leaves row by row into the Object array that
// ZerosStacked makes for them, as a replay buffer does.
func TestStoreLeaf(t *testing.T) {
	rows := batch.MustNew("dist", mustCategorical(t, [][]float64{{1, 0}, {0, 1}}), "act", []int{0, 1})
	store := batch.ZerosStacked(rows.Index(nd.I(0)), 4)
	for i := 0; i < 2; i++ {
		if err := store.SetRow(i+1, rows.Index(nd.I(i))); err != nil {
			t.Fatal(err)
		}
	}
	d := mustArray(t, store, "dist")
	if d.At(0) != nil || !d.At(2).(batch.Leaf).(interface{ Equal(batch.Leaf) bool }).Equal(mustCategorical(t, []float64{0, 1})) {
		t.Errorf("stored leaves = %v", d)
	}
	if err := store.SetIndex(batch.MustNew("dist", mustCategorical(t, []float64{0.5, 0.5})), nd.I(0)); err != nil {
		t.Fatal(err)
	}
	if d.At(0) == nil {
		t.Error("SetIndex did not store the leaf")
	}
	wantErr(t, batch.MustNew("a", []int{1}).SetRow(0, batch.MustNew("a", mustCategorical(t, []float64{1}))), batch.ErrType, "a")
}
