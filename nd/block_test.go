package nd_test

import (
	"testing"

	"github.com/gorl/gorl/nd"
)

// blockCase is an array and an index that a Block should serve as
// Array.Index does.
type blockCase struct {
	name string
	a    *nd.Array
	idx  []nd.Index
}

func blockCases(t *testing.T) []blockCase {
	f32, err := arange(t, 6, 4).AsType(nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	bools, err := arange(t, 6).AsType(nd.Bool)
	if err != nil {
		t.Fatal(err)
	}
	return []blockCase{
		{"range", arange(t, 6, 4), []nd.Index{nd.To(3)}},
		{"row", arange(t, 6, 4), []nd.Index{nd.I(-1)}},
		{"column", f32, []nd.Index{nd.All(), nd.I(1)}},
		{"new axis and ellipsis", arange(t, 2, 3, 4), []nd.Index{nd.NewAxis(), nd.Ellipsis(), nd.Step(-2)}},
		{"five dims", arange(t, 2, 1, 2, 1, 2), []nd.Index{nd.From(1)}},
		{"take", f32, []nd.Index{nd.Ints(5, 0, -1, 2)}},
		{"take bools", bools, []nd.Index{nd.Ints(1, 1, 4)}},
		{"take all columns", arange(t, 6, 4), []nd.Index{nd.Ints(3, 1), nd.All()}},
		{"take objects", nd.MustNew([]any{"a", nil, 3, 2.5}), []nd.Index{nd.Ints(3, 0, 0)}},
		{"take strided", arange(t, 4, 6).Transpose(), []nd.Index{nd.Ints(5, 1)}},
		{"take large", arange(t, 5000, 2), []nd.Index{nd.Ints(4999, 0, 17, 18, 19, 20)}},
		{"take large strided", arange(t, 2, 5000).Transpose(), []nd.Index{nd.Ints(3, 4)}},
		{"take nothing", arange(t, 6, 4), []nd.Index{nd.Ints()}},
		{"mask", arange(t, 6), []nd.Index{nd.Mask(true, false, true, false, false, true)}},
		{"ints then int", arange(t, 6, 4), []nd.Index{nd.Ints(1, 2), nd.I(0)}},
	}
}

// TestBlock checks that arrays made from a Block equal those of
// Array.Index, keep its aliasing (views write through, copies do not), and
// do not overlap one another, whether the Block was reserved exactly, not at
// all, or too little.
func TestBlock(t *testing.T) {
	cases := blockCases(t)
	for _, reserve := range []string{"exact", "none", "half", "twice"} {
		t.Run(reserve, func(t *testing.T) {
			var k nd.Block
			n := map[string]int{"exact": len(cases), "none": 0, "half": len(cases) / 2, "twice": 2 * len(cases)}[reserve]
			for i := 0; i < n; i++ {
				c := cases[i%len(cases)]
				k.Reserve(c.a, c.idx...)
			}
			got := make([]*nd.Array, len(cases))
			for i, c := range cases {
				got[i] = k.Index(c.a, c.idx...)
				if want := c.a.Index(c.idx...); !nd.Equal(got[i], want) {
					t.Fatalf("%s: Block gives %v, Array.Index %v", c.name, got[i], want)
				}
			}
			// Write a distinct value into every result: views change their
			// source, copies do not, and no result changes another.
			for i, c := range cases {
				before := c.a.Copy()
				if got[i].Size() == 0 {
					continue
				}
				v := any(int64(-100 - i))
				switch got[i].DType() {
				case nd.Float32:
					v = float32(-100 - i)
				case nd.Bool:
					v = false
				}
				if err := got[i].SetIndex(v); err != nil {
					t.Fatal(err)
				}
				view := isView(c.name)
				if changed := !nd.Equal(before, c.a); changed != view {
					t.Errorf("%s: writing the result changed the source: %v, want %v", c.name, changed, view)
				}
				if err := nd.CopyTo(c.a, before); err != nil {
					t.Fatal(err)
				}
			}
			// The copies still hold what was written into them.
			for i, c := range cases {
				if got[i].Size() == 0 || c.name == "take bools" || isView(c.name) {
					continue
				}
				o, err := got[i].AsType(nd.Object)
				if err != nil {
					t.Fatal(err)
				}
				for _, x := range nd.ToSlice[any](o) {
					if x != any(int64(-100-i)) && x != any(float32(-100-i)) {
						t.Fatalf("%s: element %v, want the value written into it (another array overlaps it)", c.name, x)
					}
				}
			}
		})
	}
	// The rows are checked again against a shorter axis.
	var short nd.Block
	rows := nd.Ints(5, 0)
	short.Index(arange(t, 6), rows)
	mustPanic(t, nd.ErrIndex, func() { short.Index(arange(t, 3), rows) })
	checkArray(t, short.Index(arange(t, 8), rows), nd.Int64, []int{2}, []int64{5, 0})
	// The same panics as Array.Index.
	var k nd.Block
	mustPanic(t, nd.ErrIndex, func() { k.Index(arange(t, 3), nd.Ints(3)) })
	mustPanic(t, nd.ErrIndex, func() { k.Index(arange(t, 3), nd.I(0), nd.I(0)) })
	mustPanic(t, nd.ErrIndex, func() { k.Index(nd.MustNew(1), nd.Ints(0)) })
}

func isView(name string) bool {
	switch name {
	case "range", "row", "column", "new axis and ellipsis", "five dims":
		return true
	}
	return false
}

func TestBlockAllocs(t *testing.T) {
	arrs := []*nd.Array{nd.Zeros(nd.Float32, 64, 4), nd.Zeros(nd.Int64, 64), nd.Zeros(nd.Bool, 64), nd.Zeros(nd.Object, 64)}
	rows := []int{3, 1, 4, 1, 5}
	for _, c := range []struct {
		name string
		idx  []nd.Index
		want float64
	}{
		{"views", []nd.Index{nd.To(32)}, 2},        // headers, shapes and strides
		{"takes", []nd.Index{nd.Ints(rows...)}, 4}, // and numeric and Object elements
	} {
		n := testing.AllocsPerRun(100, func() {
			var k nd.Block
			for _, a := range arrs {
				k.Reserve(a, c.idx...)
			}
			for _, a := range arrs {
				sink = k.Index(a, c.idx...)
			}
		})
		if n != c.want {
			t.Errorf("%s of %d arrays: %v allocations, want %v", c.name, len(arrs), n, c.want)
		}
	}
}
