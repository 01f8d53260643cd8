package batch_test

import (
	"slices"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/batch/batchtest"
	"github.com/gorl/gorl/nd"
)

// seedBatch is seed 001 §3.4's batch.
func seedBatch(t testing.TB) *batch.Batch {
	return batch.MustNew("a", arr(t, [][]float64{{0, 2}, {1, 3}}), "b", [][]float64{{5, -5}, {1, -2}})
}

// TestIndexSeed reproduces seed 001 §3.4 (indexing and slicing).
func TestIndexSeed(t *testing.T) {
	b := seedBatch(t)
	tests := []struct {
		name string
		idx  []nd.Index
		a, b any
	}{
		{"[0]", []nd.Index{nd.I(0)}, []float64{0, 2}, []float64{5, -5}},
		{"[:1]", []nd.Index{nd.To(1)}, [][]float64{{0, 2}}, [][]float64{{5, -5}}},
		{"[[0, 1]]", []nd.Index{nd.Ints(0, 1)}, [][]float64{{0, 2}, {1, 3}}, [][]float64{{5, -5}, {1, -2}}},
		{"[:, 0]", []nd.Index{nd.All(), nd.I(0)}, []float64{0, 1}, []float64{5, 1}},
		{"[-1]", []nd.Index{nd.I(-1)}, []float64{1, 3}, []float64{1, -2}},
		{"mask", []nd.Index{nd.Mask(false, true)}, [][]float64{{1, 3}}, [][]float64{{1, -2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := b.Index(tt.idx...)
			wantArray(t, r, "a", arr(t, tt.a))
			wantArray(t, r, "b", arr(t, tt.b))
		})
	}
	// Seed 001 §3.4: batch[:, 1] += 10 changes the original.
	if err := b.Index(nd.All(), nd.I(1)).Add(10); err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "a", arr(t, [][]float64{{0, 12}, {1, 13}}))
	wantArray(t, b, "b", arr(t, [][]float64{{5, 5}, {1, 8}}))
}

// TestIndexAliasing checks views for basic indices and copies for fancy ones.
func TestIndexAliasing(t *testing.T) {
	b := batch.MustNew("a", []int{1, 2, 3, 4}, "o", batch.MustNew("x", []int{5, 6, 7, 8}), "r", batch.MustNew(), "n", nil)
	v := b.Index(nd.Range(1, 3))
	mustArray(t, v, "o.x").SetIndex(60, nd.I(0))
	wantArray(t, b, "o.x", arr(t, []int64{5, 60, 7, 8}))
	if r, _ := v.Batch("r"); !r.IsEmpty(false) {
		t.Error("reserved key not kept")
	}
	if x, ok := v.Get("n"); !ok || x != nil {
		t.Error("nil not kept")
	}
	c := b.Index(nd.Ints(1, 2))
	mustArray(t, c, "a").SetIndex(0, nd.I(0))
	wantArray(t, b, "a", arr(t, []int64{1, 2, 3, 4}))
	if e := batch.MustNew().Index(nd.I(0)); e.NumKeys() != 0 {
		t.Error("indexing an empty Batch")
	}
}

func TestIndexPanics(t *testing.T) {
	cat := mustCategorical(t, []float64{0.3, 0.7})
	tests := []struct {
		name string
		b    *batch.Batch
		row  int
		kind error
		key  string
	}{
		{"0-d", batch.MustNew("a", []int{1}, "s", 5), 0, batch.ErrIndex, "s"},
		{"string", batch.MustNew("a", []int{1}, "o", batch.MustNew("s", "x")), 0, batch.ErrIndex, "o.s"},
		{"scalar leaf", batch.MustNew("a", []int{1}, "d", cat), 0, batch.ErrIndex, "d"},
		{"out of range", batch.MustNew("a", []int{1}), 3, nd.ErrIndex, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantPanic(t, tt.kind, tt.key, func() { tt.b.Index(nd.I(tt.row)) })
			wantPanic(t, tt.kind, tt.key, func() { batch.Take(tt.b, []int{tt.row}) })
		})
	}
}

// TestRows checks that iteration walks rows (seed 001 §3.3, §7).
func TestRows(t *testing.T) {
	b := batch.MustNew("a", []int{1, 2, 3}, "b", []int{4, 5, 6})
	rows, err := b.Rows()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for r := range rows {
		got = append(got, mustArray(t, r, "a").Str()+","+mustArray(t, r, "b").Str())
	}
	if want := []string{"1,4", "2,5", "3,6"}; !slices.Equal(got, want) {
		t.Errorf("rows = %v, want %v", got, want)
	}
	for r := range rows {
		_ = r
		break
	}
	_, err = batch.MustNew("a", 1).Rows()
	wantErr(t, err, batch.ErrLen, "a")
}

func TestTakeAndTakeTo(t *testing.T) {
	cat := mustCategorical(t, [][]float64{{1, 0}, {0, 1}, {0.5, 0.5}})
	src := batch.MustNew(
		"obs", arr(t, [][]float32{{0, 1}, {2, 3}, {4, 5}}),
		"info", batch.MustNew("id", []int{10, 11, 12}, "r", batch.MustNew()),
		"n", nil,
		"d", cat,
	)
	rows := []int{2, 0, -1, 2}
	got := batch.Take(src, rows)
	wantArray(t, got, "obs", arr(t, [][]float32{{4, 5}, {0, 1}, {4, 5}, {4, 5}}))
	wantArray(t, got, "info.id", arr(t, []int64{12, 10, 12, 12}))
	d, _ := got.Get("d")
	if want := arr(t, [][]float64{{0.5, 0.5}, {1, 0}, {0.5, 0.5}, {0.5, 0.5}}); !nd.Equal(d.(*batchtest.Categorical).Probs, want) {
		t.Errorf("d = %v", d)
	}
	dst, err := batch.ZerosLike(src, len(rows))
	if err != nil {
		t.Fatal(err)
	}
	if a := mustArray(t, dst, "d"); a.DType() != nd.Object || !slices.Equal(a.Shape(), []int{4}) {
		t.Errorf("ZerosLike of a custom leaf = %v", a)
	}
	if a := mustArray(t, dst, "obs"); a.DType() != nd.Float32 || !slices.Equal(a.Shape(), []int{4, 2}) {
		t.Errorf("ZerosLike obs = %v", a)
	}
	batch.TakeTo(dst, src, rows)
	if !batch.Equal(dst, got) {
		t.Errorf("TakeTo:\n%v\nwant\n%v", dst, got)
	}
	// Keys may be in another order in dst.
	flat := batch.MustNew("a", []int{1, 2, 3}, "b", []float64{4, 5, 6})
	other := batch.MustNew("b", make([]float64, 2), "a", make([]int, 2))
	batch.TakeTo(other, flat, []int{1, 2})
	wantArray(t, other, "a", arr(t, []int64{2, 3}))
	wantArray(t, other, "b", arr(t, []float64{5, 6}))
}

func TestTakeToPanics(t *testing.T) {
	src := batch.MustNew("a", []int{1, 2, 3}, "o", batch.MustNew("x", [][]float32{{1}, {2}, {3}}), "n", nil, "r", batch.MustNew())
	good := func() *batch.Batch { d, _ := batch.ZerosLike(src, 2); return d }
	tests := []struct {
		name   string
		mutate func(d *batch.Batch)
		rows   []int
		kind   error
		key    string
	}{
		{"extra key", func(d *batch.Batch) { d.Set("z", 1) }, []int{0, 1}, batch.ErrShape, ""},
		{"renamed", func(d *batch.Batch) { d.Delete("a"); d.Set("b", make([]int, 2)) }, []int{0, 1}, batch.ErrShape, "a"},
		{"dtype", func(d *batch.Batch) { d.Set("o.x", nd.Zeros(nd.Float64, 2, 1)) }, []int{0, 1}, batch.ErrShape, "o.x"},
		{"rows", func(d *batch.Batch) {}, []int{0, 1, 2}, batch.ErrShape, "a"},
		{"inner shape", func(d *batch.Batch) { d.Set("o.x", nd.Zeros(nd.Float32, 2, 2)) }, []int{0, 1}, batch.ErrShape, "o.x"},
		{"kind", func(d *batch.Batch) { d.Set("o", make([]int, 2)) }, []int{0, 1}, batch.ErrShape, "o"},
		{"nil", func(d *batch.Batch) { d.Set("n", make([]int, 2)) }, []int{0, 1}, batch.ErrShape, "n"},
		{"reserved", func(d *batch.Batch) { d.Set("r", batch.MustNew("q", 1)) }, []int{0, 1}, batch.ErrShape, "r"},
		{"row range", func(d *batch.Batch) {}, []int{0, 3}, nd.ErrIndex, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := good()
			tt.mutate(d)
			wantPanic(t, tt.kind, tt.key, func() { batch.TakeTo(d, src, tt.rows) })
		})
	}
	wantPanic(t, batch.ErrIndex, "s", func() {
		s := batch.MustNew("s", "x")
		batch.TakeTo(s, s, []int{0})
	})
}

func TestTakeToAllocs(t *testing.T) {
	src := batch.MustNew("obs", nd.Zeros(nd.Float32, 100, 4), "info", batch.MustNew("id", nd.Zeros(nd.Int64, 100)), "r", batch.MustNew(), "n", nil)
	rows := []int{5, 1, 99, 0}
	dst, err := batch.ZerosLike(src, len(rows))
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { batch.TakeTo(dst, src, rows) }); n != 0 {
		t.Errorf("TakeTo allocates %v times per call", n)
	}
}

func TestZeros(t *testing.T) {
	row := batch.MustNew("obs", []float32{1, 2}, "act", 3, "s", "x", "n", nil, "o", batch.MustNew("b", true), "r", batch.MustNew())
	z := batch.ZerosStacked(row, 5)
	wantArray(t, z, "obs", nd.Zeros(nd.Float32, 5, 2))
	wantArray(t, z, "act", nd.Zeros(nd.Int64, 5))
	wantArray(t, z, "s", nd.Zeros(nd.Object, 5))
	wantArray(t, z, "n", nd.Zeros(nd.Object, 5))
	wantArray(t, z, "o.b", nd.Zeros(nd.Bool, 5))
	if r, _ := z.Batch("r"); r == nil || !r.IsEmpty(false) {
		t.Error("reserved key not kept")
	}
	_, err := batch.ZerosLike(row, 5)
	wantErr(t, err, batch.ErrLen, "act")
	_, err = batch.ZerosLike(batch.MustNew("a", []int{1}, "s", "x"), 5)
	wantErr(t, err, batch.ErrLen, "s")
	zl, err := batch.ZerosLike(batch.MustNew("a", nd.Zeros(nd.Uint8, 3, 2, 2), "n", nil), 7)
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, zl, "a", nd.Zeros(nd.Uint8, 7, 2, 2))
	if v, _ := zl.Get("n"); v != nil {
		t.Errorf("ZerosLike nil = %v", v)
	}
}
