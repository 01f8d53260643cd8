package nd_test

import (
	"testing"

	"github.com/gorl/gorl/nd"
)

func TestInt64Item(t *testing.T) {
	// A 2×3 int64 array holding 0…5 in C order: views into it have an
	// offset into the shared buffer, which Int64Item must honour.
	m := nd.Zeros(nd.Int64, 2, 3)
	for i := range nd.Data[int64](m) {
		nd.Data[int64](m)[i] = int64(i)
	}
	for _, tc := range []struct {
		name   string
		a      *nd.Array
		want   int64
		wantOK bool
	}{
		{"0-d", nd.MustNew(int64(-7)), -7, true},
		{"0-d view at (1, 2)", m.Index(nd.I(1), nd.I(2)), 5, true},
		{"1×1 view at (1, 1)", m.Index(nd.Range(1, 2), nd.Range(1, 2)), 4, true},
		{"size 3", m.Index(nd.I(0)), 0, false},
		{"size 0", nd.Zeros(nd.Int64, 0), 0, false},
		{"int32", nd.Zeros(nd.Int32), 0, false},
		{"float64", nd.MustNew(2.0), 0, false},
	} {
		got, ok := tc.a.Int64Item()
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("%s: Int64Item() = %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.wantOK)
		}
	}
}

var sinkInt int64

// BenchmarkScalarRead compares the reads of a 0-d int64 array (an env's
// discrete action): Int64Item, Data and Item.
func BenchmarkScalarRead(b *testing.B) {
	a := nd.MustNew(int64(3))
	b.Run("Int64Item", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v, _ := a.Int64Item()
			sinkInt += v
		}
	})
	b.Run("Data", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkInt += nd.Data[int64](a)[0]
		}
	})
	b.Run("Item", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkInt += a.Item().(int64)
		}
	})
}
