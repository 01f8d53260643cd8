package nd_test

import (
	"errors"
	"testing"

	"github.com/gorl/gorl/nd"
)

func TestIndexBasic(t *testing.T) {
	// a = np.arange(24).reshape(2, 3, 4); expected values computed by hand
	// from numpy's documented semantics.
	a := arange(t, 2, 3, 4)
	cases := []struct {
		name   string
		idx    []nd.Index
		shape  []int
		values []int64
	}{
		{"a[1]", []nd.Index{nd.I(1)}, []int{3, 4}, []int64{12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}},
		{"a[-1, -1]", []nd.Index{nd.I(-1), nd.I(-1)}, []int{4}, []int64{20, 21, 22, 23}},
		{"a[0, 1, 2]", []nd.Index{nd.I(0), nd.I(1), nd.I(2)}, nil, []int64{6}},
		{"a[:, 1]", []nd.Index{nd.All(), nd.I(1)}, []int{2, 4}, []int64{4, 5, 6, 7, 16, 17, 18, 19}},
		{"a[..., 0]", []nd.Index{nd.Ellipsis(), nd.I(0)}, []int{2, 3}, []int64{0, 4, 8, 12, 16, 20}},
		{"a[0, ::-1, 1:3]", []nd.Index{nd.I(0), nd.Step(-1), nd.Range(1, 3)}, []int{3, 2}, []int64{9, 10, 5, 6, 1, 2}},
		{"a[0, 0, ::2]", []nd.Index{nd.I(0), nd.I(0), nd.Step(2)}, []int{2}, []int64{0, 2}},
		{"a[0, 0, -3:]", []nd.Index{nd.I(0), nd.I(0), nd.From(-3)}, []int{3}, []int64{1, 2, 3}},
		{"a[0, 0, :-3]", []nd.Index{nd.I(0), nd.I(0), nd.To(-3)}, []int{1}, []int64{0}},
		{"a[0, 0, 10:20] clamps", []nd.Index{nd.I(0), nd.I(0), nd.Range(10, 20)}, []int{0}, []int64{}},
		{"a[0, 0, -10:2] clamps", []nd.Index{nd.I(0), nd.I(0), nd.Range(-10, 2)}, []int{2}, []int64{0, 1}},
		{"a[0, 0, 3:0:-2]", []nd.Index{nd.I(0), nd.I(0), nd.RangeStep(3, 0, -2)}, []int{2}, []int64{3, 1}},
		{"a[0, 0, 10:-10:-1]", []nd.Index{nd.I(0), nd.I(0), nd.RangeStep(10, -10, -1)}, []int{4}, []int64{3, 2, 1, 0}},
		{"a[None, 1, :, 0]", []nd.Index{nd.NewAxis(), nd.I(1), nd.All(), nd.I(0)}, []int{1, 3}, []int64{12, 16, 20}},
		{"a[1, ..., None]", []nd.Index{nd.I(1), nd.Ellipsis(), nd.I(3), nd.NewAxis()}, []int{3, 1}, []int64{15, 19, 23}},
		{"a[...]", []nd.Index{nd.Ellipsis()}, []int{2, 3, 4}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := a.Index(c.idx...)
			if c.values == nil {
				c.values = nd.ToSlice[int64](a)
			}
			checkArray(t, v, nd.Int64, c.shape, c.values)
		})
	}
}

func TestIndexViewSharesMemory(t *testing.T) {
	a := arange(t, 2, 3)
	col := a.Index(nd.All(), nd.I(1))
	if err := col.SetIndex(100, nd.I(0)); err != nil {
		t.Fatal(err)
	}
	if a.At(0, 1) != int64(100) {
		t.Fatal("write into a view did not reach the original")
	}
	// A fancy index copies.
	f := a.Index(nd.Ints(0, 1))
	if err := f.SetIndex(-5, nd.I(0), nd.I(0)); err != nil {
		t.Fatal(err)
	}
	if a.At(0, 0) != int64(0) {
		t.Fatal("write into a fancy-index copy reached the original")
	}
}

func TestIndexFancy(t *testing.T) {
	a := arange(t, 3, 4, 5)
	idx2d := nd.MustNew([][]int{{0, 2}, {1, 1}})
	m := nd.MustNew([][]bool{{true, false, false, true}, {false, false, false, false}, {false, true, false, false}})
	cases := []struct {
		name   string
		idx    []nd.Index
		shape  []int
		values []int64
	}{
		// Hand-computed with numpy's advanced-indexing rules: element
		// (i, j, k) of a holds 20i + 5j + k.
		{"a[[2, 0]]", []nd.Index{nd.Ints(2, 0)}, []int{2, 4, 5}, nil},
		{"a[[-1], 0, 0]", []nd.Index{nd.Ints(-1), nd.I(0), nd.I(0)}, []int{1}, []int64{40}},
		{"a[0, :, [0, 1]] (separated → fancy first)", []nd.Index{nd.I(0), nd.All(), nd.Ints(0, 1)}, []int{2, 4}, []int64{0, 5, 10, 15, 1, 6, 11, 16}},
		{"a[:, [1, 3], 0]", []nd.Index{nd.All(), nd.Ints(1, 3), nd.I(0)}, []int{3, 2}, []int64{5, 15, 25, 35, 45, 55}},
		{"a[[0, 2], [1, 3]] pairs", []nd.Index{nd.Ints(0, 2), nd.Ints(1, 3)}, []int{2, 5}, []int64{5, 6, 7, 8, 9, 55, 56, 57, 58, 59}},
		{"a[[[0,2],[1,1]], 0, 4]", []nd.Index{nd.IntArray(idx2d), nd.I(0), nd.I(4)}, []int{2, 2}, []int64{4, 44, 24, 24}},
		{"a[1, 1:3, [[0],[4]]] broadcast", []nd.Index{nd.I(1), nd.Range(1, 3), nd.IntArray(nd.MustNew([][]int{{0}, {4}}))}, []int{2, 1, 2}, []int64{25, 30, 29, 34}},
		{"a[mask2d]", []nd.Index{nd.MaskArray(m)}, []int{3, 5}, []int64{0, 1, 2, 3, 4, 15, 16, 17, 18, 19, 45, 46, 47, 48, 49}},
		{"a[:, :, mask]", []nd.Index{nd.All(), nd.All(), nd.Mask(true, false, false, false, true)}, []int{3, 4, 2}, nil},
		{"a[[True, False, True], 3]", []nd.Index{nd.Mask(true, false, true), nd.I(3)}, []int{2, 5}, []int64{15, 16, 17, 18, 19, 55, 56, 57, 58, 59}},
		{"a[None, [0], 0, 0]", []nd.Index{nd.NewAxis(), nd.Ints(0), nd.I(0), nd.I(0)}, []int{1, 1}, []int64{0}},
		{"a[[0], None, 0] (separated by None)", []nd.Index{nd.Ints(0), nd.NewAxis(), nd.I(0)}, []int{1, 1, 5}, []int64{0, 1, 2, 3, 4}},
		{"a[..., [0, 0]]", []nd.Index{nd.Ellipsis(), nd.Ints(4, 0)}, []int{3, 4, 2}, nil},
		{"a[[]]", []nd.Index{nd.Ints()}, []int{0, 4, 5}, []int64{}},
		{"uint8 index array", []nd.Index{nd.IntArray(nd.MustNew([]uint8{2})), nd.I(1), nd.I(1)}, []int{1}, []int64{46}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := a.Index(c.idx...)
			if c.values == nil {
				c.values = naiveValues(a, c.idx)
			}
			checkArray(t, v, nd.Int64, c.shape, c.values)
		})
	}
}

// naiveValues lists the values of the few cases above that are easier to
// enumerate than to type.
func naiveValues(a *nd.Array, idx []nd.Index) []int64 {
	var out []int64
	at := func(i, j, k int) { out = append(out, a.At(i, j, k).(int64)) }
	switch len(idx) {
	case 1: // a[[2, 0]]
		for _, i := range []int{2, 0} {
			for j := 0; j < 4; j++ {
				for k := 0; k < 5; k++ {
					at(i, j, k)
				}
			}
		}
	case 3: // a[:, :, mask]
		for i := 0; i < 3; i++ {
			for j := 0; j < 4; j++ {
				at(i, j, 0)
				at(i, j, 4)
			}
		}
	case 2: // a[..., [4, 0]]
		for i := 0; i < 3; i++ {
			for j := 0; j < 4; j++ {
				at(i, j, 4)
				at(i, j, 0)
			}
		}
	}
	return out
}

func TestIndexPanics(t *testing.T) {
	a := arange(t, 3, 4)
	cases := map[string][]nd.Index{
		"int out of range":     {nd.I(3)},
		"negative too far":     {nd.I(-4)},
		"too many":             {nd.I(0), nd.I(0), nd.I(0)},
		"two ellipses":         {nd.Ellipsis(), nd.Ellipsis()},
		"zero step":            {nd.Step(0)},
		"ints out of range":    {nd.Ints(0, 3)},
		"mask length":          {nd.Mask(true, false)},
		"mask array shape":     {nd.MaskArray(nd.MustNew([][]bool{{true}}))},
		"float index array":    {nd.IntArray(nd.MustNew([]float64{1}))},
		"no broadcast":         {nd.Ints(0, 1), nd.Ints(0, 1, 2)},
		"second axis of range": {nd.All(), nd.I(4)},
	}
	for name, idx := range cases {
		t.Run(name, func(t *testing.T) {
			mustPanic(t, nd.ErrIndex, func() { a.Index(idx...) })
		})
	}
}

func TestSetIndex(t *testing.T) {
	a := arange(t, 2, 3)
	// Broadcasting a row into a[:, 1:] (numpy: a[:, 1:] = [10, 20]).
	if err := a.SetIndex([]int{10, 20}, nd.All(), nd.From(1)); err != nil {
		t.Fatal(err)
	}
	checkArray(t, a, nd.Int64, []int{2, 3}, []int64{0, 10, 20, 3, 10, 20})
	// Fancy assignment with a scalar; repeated index writes once.
	if err := a.SetIndex(-1, nd.Ints(1, 1), nd.I(0)); err != nil {
		t.Fatal(err)
	}
	checkArray(t, a, nd.Int64, []int{2, 3}, []int64{0, 10, 20, -1, 10, 20})
	// Mask assignment from an array of matching length.
	if err := a.SetIndex(nd.MustNew([]int32{7, 8}), nd.Mask(true, false), nd.Ints(0, 2)); err != nil {
		t.Fatal(err)
	}
	checkArray(t, a, nd.Int64, []int{2, 3}, []int64{7, 10, 8, -1, 10, 20})
	// Errors leave a unchanged.
	before := a.Copy()
	for name, c := range map[string]struct {
		v    any
		idx  []nd.Index
		kind error
	}{
		"float array into int": {nd.MustNew([]float64{1.5}), []nd.Index{nd.I(0)}, nd.ErrCast},
		"go float into int":    {2.7, []nd.Index{nd.I(0), nd.I(0)}, nd.ErrCast},
		"string into int":      {"x", []nd.Index{nd.I(0)}, nd.ErrCast},
		"shape mismatch":       {[]int{1, 2}, []nd.Index{nd.I(0)}, nd.ErrShape},
		"fancy shape mismatch": {[]int{1, 2, 3}, []nd.Index{nd.Ints(0, 1), nd.I(0)}, nd.ErrShape},
		"go float fancy":       {1.5, []nd.Index{nd.Ints(0)}, nd.ErrCast},
		"go floats slice":      {[]float64{1, 2, 3}, []nd.Index{nd.I(1)}, nd.ErrCast},
	} {
		err := a.SetIndex(c.v, c.idx...)
		if !errors.Is(err, c.kind) {
			t.Errorf("%s: err %v, want %v", name, err, c.kind)
		}
		if !nd.Equal(a, before) {
			t.Fatalf("%s: array changed on error", name)
		}
	}
	// Go integers are checked by value: [1, 2] fits uint8, [1, 300] does not.
	u := nd.Zeros(nd.Uint8, 2)
	if err := u.SetIndex([]int{1, 2}); err != nil {
		t.Fatal(err)
	}
	if err := u.SetIndex([]int{1, 300}); !errors.Is(err, nd.ErrCast) {
		t.Fatalf("300 into uint8: %v", err)
	}
	checkArray(t, u, nd.Uint8, []int{2}, []uint8{1, 2})
	// Object arrays keep Go values.
	o := nd.Zeros(nd.Object, 3)
	if err := o.SetIndex([]any{1, "a"}, nd.From(1)); err != nil {
		t.Fatal(err)
	}
	checkArray(t, o, nd.Object, []int{3}, []any{nil, 1, "a"})
	// Float arrays take Go ints and float32 arrays take float64 arrays (same kind).
	f := nd.Zeros(nd.Float32, 2)
	if err := f.SetIndex(nd.MustNew([]float64{0.5, 1.5})); err != nil {
		t.Fatal(err)
	}
	if err := f.SetIndex(3, nd.I(0)); err != nil {
		t.Fatal(err)
	}
	checkArray(t, f, nd.Float32, []int{2}, []float32{3, 1.5})
}

func TestSetIndexOverlap(t *testing.T) {
	// numpy: a = np.arange(5); a[1:] = a[:-1] → [0, 0, 1, 2, 3].
	a := arange(t, 5)
	if err := a.SetIndex(a.Index(nd.To(-1)), nd.From(1)); err != nil {
		t.Fatal(err)
	}
	checkArray(t, a, nd.Int64, []int{5}, []int64{0, 0, 1, 2, 3})
	b := arange(t, 5)
	if err := b.SetIndex(b.Index(nd.Step(-1)), nd.Ints(0, 1, 2, 3, 4)); err != nil {
		t.Fatal(err)
	}
	checkArray(t, b, nd.Int64, []int{5}, []int64{4, 3, 2, 1, 0})
}
