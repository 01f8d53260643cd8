package nd_test

import (
	"testing"

	"github.com/gorl/gorl/nd"
)

// rowsOf returns the rows of a (negative rows counting from the end) as
// arrays, the naive form of Take.
func rowsOf(a *nd.Array, rows []int) []*nd.Array {
	out := make([]*nd.Array, len(rows))
	for k, r := range rows {
		out[k] = a.Index(nd.I(r)).Copy()
	}
	return out
}

// TestLargeGathers checks the gathers that fill buffers of 32 KiB and more
// without zeroing them first (Take, Stack, Concatenate and Copy) against
// element-by-element copies, on sources with offsets, strides and
// consecutive rows (which are copied as one run).
func TestLargeGathers(t *testing.T) {
	big := arange(t, 3000, 4)                 // int64, 96 000 bytes
	view := big.Index(nd.From(7))             // an offset
	strided := arange(t, 4, 3000).Transpose() // rows that are not contiguous
	f32, err := big.AsType(nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	rows := []int{5, 6, 7, -1, 0, 2999 - 7, 100, 100, 1, 2, 3}
	for _, c := range []struct {
		name string
		a    *nd.Array
	}{{"contiguous", big}, {"offset", view}, {"strided", strided}, {"float32", f32}} {
		all := make([]int, c.a.Len()) // consecutive rows, one run
		for i := range all {
			all[i] = i
		}
		for _, rs := range [][]int{rows, all} {
			got := nd.Take(c.a, rs)
			want, err := nd.Stack(0, rowsOf(c.a, rs)...)
			if err != nil {
				t.Fatal(err)
			}
			if !nd.Equal(got, want) {
				t.Fatalf("%s: Take of %d rows differs from row-by-row copies", c.name, len(rs))
			}
			if err := got.SetIndex(-1, nd.I(0)); err != nil {
				t.Fatal(err)
			}
			if c.a.Index(nd.I(rs[0])).At(0) == int64(-1) {
				t.Fatalf("%s: Take shares memory with its source", c.name)
			}
		}
	}

	parts := []*nd.Array{big.Index(nd.To(1000)), view.Index(nd.Range(0, 1000)), big.Index(nd.Range(2000, 3000))}
	s, err := nd.Stack(0, parts...)
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for _, p := range parts {
		want = append(want, nd.ToSlice[int64](p)...)
	}
	checkArray(t, s, nd.Int64, []int{3, 1000, 4}, want)
	c, err := nd.Concatenate(0, append(parts, big.Index(nd.To(0)))...) // and an empty part
	if err != nil {
		t.Fatal(err)
	}
	checkArray(t, c, nd.Int64, []int{3000, 4}, want)
	// Mixed dtypes and strided parts take the general path.
	c, err = nd.Concatenate(0, parts[0], f32)
	if err != nil {
		t.Fatal(err)
	}
	checkArray(t, c, nd.Float64, []int{4000, 4}, append(nd.ToSlice[float64](mustAsType(t, parts[0], nd.Float64)), nd.ToSlice[float64](mustAsType(t, f32, nd.Float64))...))
	s, err = nd.Stack(0, strided, strided)
	if err != nil {
		t.Fatal(err)
	}
	checkArray(t, s, nd.Int64, []int{2, 3000, 4}, append(nd.ToSlice[int64](strided), nd.ToSlice[int64](strided)...))

	cp := view.Copy()
	if !nd.Equal(cp, view) {
		t.Fatal("Copy of a large view differs")
	}
	if err := cp.SetIndex(-1, nd.I(0), nd.I(0)); err != nil || view.At(0, 0) == int64(-1) {
		t.Fatalf("Copy shares memory with its source (%v)", err)
	}
}

func mustAsType(t *testing.T, a *nd.Array, dt nd.DType) *nd.Array {
	t.Helper()
	c, err := a.AsType(dt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
