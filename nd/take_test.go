package nd_test

import (
	"errors"
	"testing"

	"github.com/gorl/gorl/nd"
)

func TestTake(t *testing.T) {
	a := arange(t, 4, 2)
	got := nd.Take(a, []int{3, -4, 1})
	checkArray(t, got, nd.Int64, []int{3, 2}, []int64{6, 7, 0, 1, 2, 3})
	// Non-contiguous source (a transposed view) takes the strided path.
	tr := a.Transpose()
	checkArray(t, nd.Take(tr, []int{1}), nd.Int64, []int{1, 4}, []int64{1, 3, 5, 7})
	// Object rows.
	o := nd.MustNew([]any{"a", nil, 3})
	checkArray(t, nd.Take(o, []int{2, 0}), nd.Object, []int{2}, []any{3, "a"})
	mustPanic(t, nd.ErrIndex, func() { nd.Take(a, []int{4}) })
	mustPanic(t, nd.ErrIndex, func() { nd.Take(nd.MustNew(1), []int{0}) })
	dst := nd.Zeros(nd.Int64, 2, 2)
	mustPanic(t, nd.ErrShape, func() { nd.TakeTo(dst, a, []int{0}) })
	mustPanic(t, nd.ErrShape, func() { nd.TakeTo(nd.Zeros(nd.Int32, 1, 2), a, []int{0}) })
	mustPanic(t, nd.ErrShape, func() { nd.TakeTo(a.Index(nd.To(2)), a, []int{0, 1}) })
	before := dst.Copy()
	mustPanic(t, nd.ErrIndex, func() { nd.TakeTo(dst, a, []int{0, 9}) })
	if !nd.Equal(dst, before) {
		t.Fatal("TakeTo wrote before failing its bounds check")
	}
}

func TestSetRowAndCopyTo(t *testing.T) {
	a := nd.Zeros(nd.Float32, 3, 2)
	if err := a.SetRow(-1, nd.MustNew([]float32{1, 2})); err != nil {
		t.Fatal(err)
	}
	if err := a.SetRow(0, nd.MustNew(int8(5))); err != nil { // broadcast and int → float
		t.Fatal(err)
	}
	checkArray(t, a, nd.Float32, []int{3, 2}, []float32{5, 5, 0, 0, 1, 2})
	if err := a.SetRow(1, nd.MustNew([]float32{1, 2, 3})); !errors.Is(err, nd.ErrShape) {
		t.Fatalf("SetRow shape mismatch: %v", err)
	}
	i := nd.Zeros(nd.Int64, 2)
	if err := i.SetRow(0, nd.MustNew(1.5)); !errors.Is(err, nd.ErrCast) {
		t.Fatalf("SetRow float into int: %v", err)
	}
	mustPanic(t, nd.ErrIndex, func() { a.SetRow(3, nd.MustNew(1.0)) })

	dst := nd.Zeros(nd.Float64, 2, 3)
	if err := nd.CopyTo(dst, nd.MustNew([]float64{1, 2, 3})); err != nil {
		t.Fatal(err)
	}
	checkArray(t, dst, nd.Float64, []int{2, 3}, []float64{1, 2, 3, 1, 2, 3})
	// numpy's assignment drops extra leading axes of length 1.
	if err := nd.CopyTo(dst, nd.MustNew([][][]float64{{{1, 1, 1}}})); err != nil {
		t.Fatal(err)
	}
	if err := nd.CopyTo(dst, nd.MustNew([][]float64{{1, 2}})); !errors.Is(err, nd.ErrShape) {
		t.Fatalf("CopyTo bad broadcast: %v", err)
	}
	if err := nd.CopyTo(nd.Zeros(nd.Uint8, 1), nd.MustNew([]int8{1})); !errors.Is(err, nd.ErrCast) {
		t.Fatalf("CopyTo int8 → uint8: %v", err)
	}
	// Copy into a transposed view writes through.
	b := nd.Zeros(nd.Int64, 2, 3)
	if err := nd.CopyTo(b.Transpose(), arange(t, 3, 2)); err != nil {
		t.Fatal(err)
	}
	checkArray(t, b, nd.Int64, []int{2, 3}, []int64{0, 2, 4, 1, 3, 5})
}

func TestZeroThroughView(t *testing.T) {
	a := arange(t, 2, 3)
	a.Index(nd.All(), nd.Step(2)).Zero()
	checkArray(t, a, nd.Int64, []int{2, 3}, []int64{0, 1, 0, 0, 4, 0})
	o := nd.MustNew([]any{"x", 1})
	o.Zero()
	checkArray(t, o, nd.Object, []int{2}, []any{nil, nil})
}

func TestNoAllocs(t *testing.T) {
	src := nd.Zeros(nd.Float32, 100, 4)
	dst := nd.Zeros(nd.Float32, 3, 4)
	rows := []int{5, 1, 99}
	row := nd.Zeros(nd.Float32, 4)
	img := nd.Zeros(nd.Uint8, 10, 8, 8, 3)
	imgDst := nd.Zeros(nd.Uint8, 3, 8, 8, 3)
	strided := src.Transpose()
	stridedDst := nd.Zeros(nd.Float32, 3, 100)
	parts := []*nd.Array{nd.Zeros(nd.Float32, 4), nd.Zeros(nd.Float32, 4)}
	stacked := nd.Zeros(nd.Float32, 2, 4)
	catted := nd.Zeros(nd.Float32, 8)
	f64 := nd.Zeros(nd.Float64, 4)
	for name, f := range map[string]func(){
		"TakeTo":           func() { nd.TakeTo(dst, src, rows) },
		"TakeTo image":     func() { nd.TakeTo(imgDst, img, rows[:2:2][:1]) },
		"TakeTo strided":   func() { nd.TakeTo(stridedDst, strided, []int{0, 1, 2}) },
		"SetRow":           func() { _ = src.SetRow(7, row) },
		"SetRow cast":      func() { _ = src.SetRow(7, f64) },
		"CopyTo":           func() { _ = nd.CopyTo(dst, dst.Copy()) },
		"CopyTo broadcast": func() { _ = nd.CopyTo(dst, row) },
		"StackTo":          func() { _ = nd.StackTo(stacked, 0, parts...) },
		"ConcatenateTo":    func() { _ = nd.ConcatenateTo(catted, 0, parts...) },
		"HasNull":          func() { _ = src.HasNull() },
	} {
		if name == "CopyTo" {
			c := dst.Copy()
			f = func() { _ = nd.CopyTo(dst, c) }
		}
		if name == "TakeTo image" {
			imgDst = nd.Zeros(nd.Uint8, 1, 8, 8, 3)
		}
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocs, want 0", name, n)
		}
	}
}

func TestStackConcatenate(t *testing.T) {
	a := nd.MustNew([]float64{0, 2})
	b := nd.MustNew([]float64{1, 3})
	s, err := nd.Stack(0, a, b)
	if err != nil {
		t.Fatal(err)
	}
	// Seed 000: Batch.stack of a=[0., 2.] and [1., 3.] gives [[0., 2.], [1., 3.]].
	checkArray(t, s, nd.Float64, []int{2, 2}, []float64{0, 2, 1, 3})
	s, _ = nd.Stack(-1, a, b)
	checkArray(t, s, nd.Float64, []int{2, 2}, []float64{0, 1, 2, 3})
	// Promotion: int64 with float32 → float64 (numpy result_type).
	s, _ = nd.Stack(0, nd.MustNew([]int{1}), nd.MustNew([]float32{2.5}))
	checkArray(t, s, nd.Float64, []int{2, 1}, []float64{1, 2.5})
	// Stacking 0-d arrays (seed 000: b=5 and b=-5 → array([ 5, -5])).
	s, _ = nd.Stack(0, nd.MustNew(5), nd.MustNew(-5))
	checkArray(t, s, nd.Int64, []int{2}, []int64{5, -5})
	// Object with numbers.
	s, _ = nd.Stack(0, nd.MustNew(nil), nd.MustNew("done"))
	checkArray(t, s, nd.Object, []int{2}, []any{nil, "done"})
	_, err = nd.Stack(0, a, nd.MustNew([]float64{1, 2, 3}))
	if !errors.Is(err, nd.ErrShape) || err.Error() != "nd: all input arrays must have the same shape: array 0 has shape (2,), array 1 has shape (3,)" {
		t.Fatalf("Stack mismatch: %v", err)
	}
	if _, err := nd.Stack(2, a, b); !errors.Is(err, nd.ErrIndex) {
		t.Fatalf("Stack axis: %v", err)
	}
	if _, err := nd.Stack(0); !errors.Is(err, nd.ErrShape) {
		t.Fatalf("Stack of nothing: %v", err)
	}

	x := arange(t, 2, 2)
	y := arange(t, 1, 2)
	c, err := nd.Concatenate(0, x, y)
	if err != nil {
		t.Fatal(err)
	}
	checkArray(t, c, nd.Int64, []int{3, 2}, []int64{0, 1, 2, 3, 0, 1})
	c, _ = nd.Concatenate(1, x, x.Transpose())
	checkArray(t, c, nd.Int64, []int{2, 4}, []int64{0, 1, 0, 2, 2, 3, 1, 3})
	if _, err := nd.Concatenate(1, x, y); !errors.Is(err, nd.ErrShape) {
		t.Fatalf("Concatenate mismatch: %v", err)
	}
	if _, err := nd.Concatenate(0, nd.MustNew(1)); !errors.Is(err, nd.ErrShape) {
		t.Fatalf("Concatenate 0-d: %v", err)
	}
	dst := nd.Zeros(nd.Float32, 3, 2)
	if err := nd.ConcatenateTo(dst, 0, x, y); err != nil {
		t.Fatal(err)
	}
	checkArray(t, dst, nd.Float32, []int{3, 2}, []float32{0, 1, 2, 3, 0, 1})
	if err := nd.ConcatenateTo(nd.Zeros(nd.Int8, 3, 2), 0, x, nd.MustNew([][]float64{{1, 2}})); !errors.Is(err, nd.ErrCast) {
		t.Fatalf("ConcatenateTo cast: %v", err)
	}
	mustPanic(t, nd.ErrShape, func() { _ = nd.StackTo(nd.Zeros(nd.Float64, 3, 2), 0, a, b) })
}

func TestShapeOps(t *testing.T) {
	a := arange(t, 2, 3)
	r, err := a.Reshape(3, -1)
	if err != nil {
		t.Fatal(err)
	}
	checkArray(t, r, nd.Int64, []int{3, 2}, []int64{0, 1, 2, 3, 4, 5})
	_ = r.SetIndex(9, nd.I(0), nd.I(0))
	if a.At(0, 0) != int64(9) {
		t.Fatal("Reshape of a contiguous array is not a view")
	}
	r, _ = a.Transpose().Reshape(6)
	checkArray(t, r, nd.Int64, []int{6}, []int64{9, 3, 1, 4, 2, 5})
	for _, bad := range [][]int{{4}, {-1, -1}, {-1, 4}, {-2, 3}} {
		if _, err := a.Reshape(bad...); !errors.Is(err, nd.ErrShape) {
			t.Errorf("Reshape%v: %v", bad, err)
		}
	}
	tr := arange(t, 2, 3, 4).Transpose(1, 0, -1)
	if got := tr.Shape(); got[0] != 3 || got[1] != 2 || tr.At(2, 1, 3) != int64(23) {
		t.Fatalf("Transpose(1, 0, -1): %v", got)
	}
	mustPanic(t, nd.ErrIndex, func() { a.Transpose(0, 0) })
	bc, err := nd.MustNew([]int{1, 2}).BroadcastTo(2, 2)
	if err != nil {
		t.Fatal(err)
	}
	checkArray(t, bc, nd.Int64, []int{2, 2}, []int64{1, 2, 1, 2})
	if _, err := a.BroadcastTo(3); !errors.Is(err, nd.ErrShape) {
		t.Fatal(err)
	}
	e := a.ExpandDims(-1)
	checkArray(t, e, nd.Int64, []int{2, 3, 1}, nd.ToSlice[int64](a))
	sq, err := e.ExpandDims(0).Squeeze()
	if err != nil || !nd.Equal(sq, a) {
		t.Fatalf("Squeeze: %v %v", sq, err)
	}
	if _, err := a.Squeeze(0); !errors.Is(err, nd.ErrShape) {
		t.Fatal(err)
	}
	if s, err := nd.BroadcastShapes([]int{2, 1}, []int{3}, nil); err != nil || len(s) != 2 || s[0] != 2 || s[1] != 3 {
		t.Fatalf("BroadcastShapes: %v %v", s, err)
	}
	if _, err := nd.BroadcastShapes([]int{2}, []int{3}); !errors.Is(err, nd.ErrShape) {
		t.Fatal(err)
	}
}

func TestEqualIsNull(t *testing.T) {
	nan := []float64{1, 0, 3}
	nan[1] = nan[1] / nan[1] * 0
	x := nd.MustNew([]float64{1, 2})
	if !nd.Equal(x, nd.MustNew([]float64{1, 2})) || nd.Equal(x, nd.MustNew([]float32{1, 2})) || nd.Equal(x, nd.MustNew([]float64{1, 3})) {
		t.Fatal("Equal on float64")
	}
	n := nd.MustNew([]any{1, nil, "a", float32(0)})
	n2 := nd.MustNew([]any{1, nil, "a", float32(0)})
	if !nd.Equal(n, n2) {
		t.Fatal("Equal object")
	}
	f := nd.Zeros(nd.Float64, 3)
	_ = f.SetIndex(nd.MustNew([]float64{1, 2, 3}))
	zero := 0.0
	_ = f.SetIndex(zero/zero, nd.I(1))
	g := f.Copy()
	if !nd.Equal(f, g) {
		t.Fatal("NaN at the same place must be equal")
	}
	checkArray(t, nd.IsNull(f), nd.Bool, []int{3}, []bool{false, true, false})
	checkArray(t, nd.IsNull(n), nd.Bool, []int{4}, []bool{false, true, false, false})
	checkArray(t, nd.IsNull(arange(t, 2)), nd.Bool, []int{2}, []bool{false, false})
	if !f.HasNull() || !n.HasNull() || x.HasNull() || f.Index(nd.I(0)).HasNull() {
		t.Fatal("HasNull")
	}
	// Seed 001: a=[1, 2, None, 4] → isnull [False False True False].
	checkArray(t, nd.IsNull(nd.MustNew([]any{1, 2, nil, 4})), nd.Bool, []int{4}, []bool{false, false, true, false})
}
