package collector

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// TestInfoTable: Infos become a Batch of rows, Tianshou's stacking of info
// dicts with missing keys as zeros. Expected values by hand.
func TestInfoTable(t *testing.T) {
	tab := newInfoTable(3)
	ids := []int{4, 5, 6}
	// No Info holds anything: only the env ids, which Tianshou's vector
	// envs add to every Info; an env's own env_id is replaced.
	b, err := tab.fill([]env.Info{nil, {}, {"gone": nil, "env_id": "mine"}}, ids)
	if err != nil || b.NumKeys() != 1 {
		t.Fatalf("empty Infos: %v, %v", b, err)
	}
	if a, err := b.Array("env_id"); err != nil || !reflect.DeepEqual(nd.ToSlice[int64](a), []int64{4, 5, 6}) {
		t.Fatalf("env_id = %v (%v), want [4 5 6]", a, err)
	}
	type stats struct{ R float64 }
	b, err = tab.fill([]env.Info{
		{"n": 3, "x": 1.5, "ok": true, "name": "a", "mask": nd.MustNew([]bool{true, false}), "ep": map[string]any{"r": 2.0}},
		{"n": int8(-1), "x": 2, "ep": env.Info{"r": 1.0, "l": uint16(7)}, "s": stats{4}},
		nil,
	}, ids)
	if err != nil {
		t.Fatal(err)
	}
	check := func(path string, want any) {
		t.Helper()
		a, err := b.Array(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return
		}
		var got any
		switch a.DType() {
		case nd.Int64:
			got = nd.ToSlice[int64](a)
		case nd.Float64:
			got = nd.ToSlice[float64](a)
		case nd.Bool:
			got = nd.ToSlice[bool](a)
		case nd.Object:
			got = nd.ToSlice[any](a)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v, want %v", path, got, want)
		}
	}
	check("n", []int64{3, -1, 0})
	check("x", []float64{1.5, 2, 0}) // an int into a float column
	check("ok", []bool{true, false, false})
	check("name", []any{"a", nil, nil})
	check("mask", []bool{true, false, false, false, false, false})
	check("ep.r", []float64{2, 1, 0})
	check("ep.l", []int64{0, 7, 0})
	check("s", []any{nil, stats{4}, nil})
	if a, _ := b.Array("mask"); !reflect.DeepEqual(a.Shape(), []int{3, 2}) {
		t.Errorf("mask shape %v, want [3 2]", a.Shape())
	}
	// Fewer rows: a view of the first rows; row 0's keys now missing are
	// zeroed.
	b, err = tab.fill([]env.Info{{"n": 9}}, ids)
	if err != nil {
		t.Fatal(err)
	}
	check("n", []int64{9})
	check("x", []float64{0})
	check("name", []any{nil})
	check("ep.r", []float64{0})

	for _, tc := range []struct {
		info env.Info
		msg  string
	}{
		{env.Info{"n": 2.5}, "key n"},                        // a float into an int column
		{env.Info{"ok": 1}, "key ok"},                        // a number into a bool column
		{env.Info{"ep": 3}, "key ep"},                        // a number where Infos nest
		{env.Info{"ep": env.Info{"r": "x"}}, "key r"},        // deeper
		{env.Info{"mask": nd.MustNew([]bool{true})}, "mask"}, // another shape
		{env.Info{"a.b": 1}, "a.b"},                          // not a Batch key
		{env.Info{"": 1}, "cannot be a Batch key"},
		{env.Info{"n": uint64(math.MaxUint64)}, "key n"}, // out of int64's range
	} {
		_, err := tab.fill([]env.Info{nil, tc.info}, ids)
		if err == nil || !strings.Contains(err.Error(), "env 5") || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("fill(%v): %v, want an error naming env 5 and %q", tc.info, err, tc.msg)
		}
	}
}

// TestMoveRows checks the row kernel against row-by-row copies, for arrays
// and Batches, with and without row indices, and a cast.
func TestMoveRows(t *testing.T) {
	src := nd.MustNew([][]float32{{1, 2}, {3, 4}, {5, 6}})
	dst := nd.Zeros(nd.Float32, 4, 2)
	if err := moveRows(dst, []int{3, 0}, src, []int{2, 1}, 2); err != nil {
		t.Fatal(err)
	}
	if got, want := nd.ToSlice[float32](dst), []float32{3, 4, 0, 0, 0, 0, 5, 6}; !reflect.DeepEqual(got, want) {
		t.Errorf("scatter-gather: %v, want %v", got, want)
	}
	dst64 := nd.Zeros(nd.Float64, 3, 2) // float32 → float64 through row views
	if err := moveRows(dst64, nil, src, nil, 3); err != nil {
		t.Fatal(err)
	}
	if got, want := nd.ToSlice[float64](dst64), []float64{1, 2, 3, 4, 5, 6}; !reflect.DeepEqual(got, want) {
		t.Errorf("cast: %v, want %v", got, want)
	}
	if err := moveRows(nd.Zeros(nd.Float32, 3, 3), nil, src, nil, 3); err == nil {
		t.Error("rows of another shape: no error")
	}
	if err := moveRows(nd.Zeros(nd.Float32, 3, 2), nil, src.Index(nd.To(1)), nil, 2); err == nil {
		t.Error("too few source rows: no error")
	}
	bs := batch.MustNew("a", nd.MustNew([]int64{1, 2, 3}), "b", batch.MustNew("c", nd.MustNew([]bool{true, false, true})))
	bd, err := batch.ZerosLike(bs, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := moveRows(bd, []int{2, 1, 0}, bs, nil, 3); err != nil {
		t.Fatal(err)
	}
	a, _ := bd.Array("a")
	c, _ := bd.Array("b.c")
	if !reflect.DeepEqual(nd.ToSlice[int64](a), []int64{3, 2, 1}) || !reflect.DeepEqual(nd.ToSlice[bool](c), []bool{true, false, true}) {
		t.Errorf("Batch rows: %v", bd)
	}
	zeroRows(bd, []int{0})
	if !reflect.DeepEqual(nd.ToSlice[int64](a), []int64{0, 2, 1}) || !reflect.DeepEqual(nd.ToSlice[bool](c), []bool{false, false, true}) {
		t.Errorf("zeroRows: %v", bd)
	}
	if err := moveRows(bd, nil, batch.MustNew("z", nd.MustNew([]int64{1})), nil, 1); err == nil {
		t.Error("a key the table lacks: no error")
	}
	if _, err := tableLike(batch.MustNew("s", "text"), 2); err == nil {
		t.Error("tableLike of a Batch holding a string: no error")
	}
	if _, err := tableLike(nd.MustNew(1.0), 2); err == nil {
		t.Error("tableLike of a 0-d array: no error")
	}
}

// TestSummarize: mean, population std, min and max by hand.
func TestSummarize(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want Summary
	}{
		{nil, Summary{}},
		{[]float64{3}, Summary{Mean: 3, Min: 3, Max: 3}},
		{[]float64{2, 4, 4, 4, 5, 5, 7, 9}, Summary{Mean: 5, Std: 2, Min: 2, Max: 9}}, // the textbook example
	} {
		if got := summarize(tc.xs); got != tc.want {
			t.Errorf("summarize(%v) = %+v, want %+v", tc.xs, got, tc.want)
		}
	}
}
