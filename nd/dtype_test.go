package nd_test

import (
	"testing"

	"github.com/gorl/gorl/nd"
)

func TestDTypeNamesAndSizes(t *testing.T) {
	// Names and item sizes as numpy reports them (np.dtype(x).name, .itemsize).
	cases := []struct {
		dt   nd.DType
		name string
		size int
	}{
		{nd.Bool, "bool", 1}, {nd.Int8, "int8", 1}, {nd.Int16, "int16", 2}, {nd.Int32, "int32", 4},
		{nd.Int64, "int64", 8}, {nd.Uint8, "uint8", 1}, {nd.Uint16, "uint16", 2}, {nd.Uint32, "uint32", 4},
		{nd.Uint64, "uint64", 8}, {nd.Float32, "float32", 4}, {nd.Float64, "float64", 8},
		{nd.Object, "object", 16}, {nd.DType(0), "DType(0)", 0},
	}
	for _, c := range cases {
		if got := c.dt.String(); got != c.name {
			t.Errorf("String() = %q, want %q", got, c.name)
		}
		if got := c.dt.Size(); got != c.size {
			t.Errorf("%v.Size() = %d, want %d", c.dt, got, c.size)
		}
	}
}

func TestResultType(t *testing.T) {
	// Expected values from numpy's documented np.result_type / promotion table.
	cases := []struct{ a, b, want nd.DType }{
		{nd.Int64, nd.Float32, nd.Float64},
		{nd.Int8, nd.Uint8, nd.Int16},
		{nd.Uint64, nd.Int64, nd.Float64},
		{nd.Bool, nd.Int32, nd.Int32},
		{nd.Bool, nd.Bool, nd.Bool},
		{nd.Int16, nd.Float32, nd.Float32},
		{nd.Uint16, nd.Float32, nd.Float32},
		{nd.Int32, nd.Float32, nd.Float64},
		{nd.Uint8, nd.Int16, nd.Int16},
		{nd.Uint16, nd.Int8, nd.Int32},
		{nd.Uint32, nd.Int32, nd.Int64},
		{nd.Uint8, nd.Uint32, nd.Uint32},
		{nd.Float32, nd.Float64, nd.Float64},
		{nd.Int8, nd.Int64, nd.Int64},
		{nd.Object, nd.Int8, nd.Object},
		{nd.Bool, nd.Float32, nd.Float32},
	}
	for _, c := range cases {
		if got := nd.ResultType(c.a, c.b); got != c.want {
			t.Errorf("ResultType(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := nd.ResultType(c.b, c.a); got != c.want {
			t.Errorf("ResultType(%v, %v) = %v, want %v", c.b, c.a, got, c.want)
		}
	}
}

func TestCanCast(t *testing.T) {
	// numpy: np.can_cast(from, to, casting="same_kind").
	cases := []struct {
		from, to nd.DType
		want     bool
	}{
		{nd.Float64, nd.Float32, true},
		{nd.Float32, nd.Int64, false},
		{nd.Int64, nd.Int8, true},
		{nd.Int64, nd.Uint8, false},
		{nd.Uint64, nd.Int8, true},
		{nd.Bool, nd.Float32, true},
		{nd.Int8, nd.Bool, false},
		{nd.Int64, nd.Float32, true},
		{nd.Int64, nd.Object, true},
		{nd.Object, nd.Int64, false},
		{nd.Object, nd.Object, true},
	}
	for _, c := range cases {
		if got := nd.CanCast(c.from, c.to); got != c.want {
			t.Errorf("CanCast(%v, %v) = %v, want %v", c.from, c.to, got, c.want)
		}
	}
}

func TestDTypeOf(t *testing.T) {
	type celsius float32 // a named type is not an element type
	cases := []struct {
		got, want nd.DType
	}{
		// The element types listed in the DType documentation.
		{nd.DTypeOf[bool](), nd.Bool}, {nd.DTypeOf[int8](), nd.Int8}, {nd.DTypeOf[int16](), nd.Int16},
		{nd.DTypeOf[int32](), nd.Int32}, {nd.DTypeOf[int64](), nd.Int64}, {nd.DTypeOf[uint8](), nd.Uint8},
		{nd.DTypeOf[uint16](), nd.Uint16}, {nd.DTypeOf[uint32](), nd.Uint32}, {nd.DTypeOf[uint64](), nd.Uint64},
		{nd.DTypeOf[float32](), nd.Float32}, {nd.DTypeOf[float64](), nd.Float64}, {nd.DTypeOf[any](), nd.Object},
		// Not element types.
		{nd.DTypeOf[int](), 0}, {nd.DTypeOf[uint](), 0}, {nd.DTypeOf[string](), 0},
		{nd.DTypeOf[error](), 0}, {nd.DTypeOf[celsius](), 0}, {nd.DTypeOf[[]float32](), 0},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: DTypeOf = %v, want %v", i, c.got, c.want)
		}
	}
}
