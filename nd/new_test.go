package nd_test

import (
	"errors"
	"testing"

	"github.com/gorl/gorl/nd"
)

func TestNew(t *testing.T) {
	// Expected dtypes follow numpy 2 (np.array of the equivalent Python value)
	// and the seeds: [1, "hello", None] → object, 5 → array(5) of int64.
	cases := []struct {
		name   string
		in     any
		dt     nd.DType
		shape  []int
		values any
	}{
		{"int scalar", 5, nd.Int64, nil, []int64{5}},
		{"float scalar", 3.66, nd.Float64, nil, []float64{3.66}},
		{"bool scalar", true, nd.Bool, nil, []bool{true}},
		{"float32 scalar keeps type", float32(1.5), nd.Float32, nil, []float32{1.5}},
		{"int32 scalar keeps type", int32(7), nd.Int32, nil, []int32{7}},
		{"int slice", []int{5, 5}, nd.Int64, []int{2}, []int64{5, 5}},
		{"nested float", [][]float64{{0, 2}, {1, 3}}, nd.Float64, []int{2, 2}, []float64{0, 2, 1, 3}},
		{"go array", [2][3]int32{{1, 2, 3}, {4, 5, 6}}, nd.Int32, []int{2, 3}, []int32{1, 2, 3, 4, 5, 6}},
		{"mixed numbers promote", []any{1, 2.5}, nd.Float64, []int{2}, []float64{1, 2.5}},
		{"int and bool", []any{1, true}, nd.Int64, []int{2}, []int64{1, 1}},
		{"int8 and uint8", []any{int8(-1), uint8(200)}, nd.Int16, []int{2}, []int16{-1, 200}},
		{"mixed object", []any{1, "hello", nil}, nd.Object, []int{3}, []any{1, "hello", nil}},
		{"strings", []string{"hello", "world"}, nd.Object, []int{2}, []any{"hello", "world"}},
		{"nil", nil, nd.Object, nil, []any{nil}},
		{"string scalar", "2312312", nd.Object, nil, []any{"2312312"}},
		{"nested any", []any{[]any{1, 2}, []int{3, 4}}, nd.Int64, []int{2, 2}, []int64{1, 2, 3, 4}},
		{"empty", []float64{}, nd.Float64, []int{0}, []float64{}},
		{"empty any", []any{}, nd.Float64, []int{0}, []float64{}},
		{"empty nested", [][]int{{}, {}}, nd.Int64, []int{2, 0}, []int64{}},
		{"object keeps go types", []any{int8(1), "a"}, nd.Object, []int{2}, []any{int8(1), "a"}},
		{"arrays in any", []any{nd.MustNew([]int{1, 2}), nd.MustNew([]int{3, 4})}, nd.Int64, []int{2, 2}, []int64{1, 2, 3, 4}},
		{"array slice", []*nd.Array{nd.MustNew([]float32{1}), nd.MustNew([]float32{2})}, nd.Float32, []int{2, 1}, []float32{1, 2}},
		{"uint8 bytes", []byte{1, 255}, nd.Uint8, []int{2}, []uint8{1, 255}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := nd.New(c.in)
			if err != nil {
				t.Fatal(err)
			}
			checkArray(t, a, c.dt, c.shape, c.values)
		})
	}
}

func TestNewRagged(t *testing.T) {
	for _, in := range []any{
		[][]int{{1, 2}, {3}},
		[]any{[]int{1, 2}, 3},
		[]any{1, []int{1, 2}},
		[]any{[]any{1}, []any{}},
		[][]float64{{}, {1}},
	} {
		_, err := nd.New(in)
		if !errors.Is(err, nd.ErrShape) {
			t.Errorf("New(%v): err %v, want ErrShape", in, err)
		}
	}
}

func TestNewCopiesFromSliceReferences(t *testing.T) {
	data := []float32{1, 2, 3, 4, 5, 6}
	c := nd.MustNew(data)
	r, err := nd.FromSlice(data, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	data[0] = 100
	if got := c.At(0); got != float32(1) {
		t.Errorf("New copy changed: %v", got)
	}
	if got := r.At(0, 0); got != float32(100) {
		t.Errorf("FromSlice does not reference data: %v", got)
	}
	if err := r.SetIndex(float32(7), nd.I(1), nd.I(2)); err != nil {
		t.Fatal(err)
	}
	if data[5] != 7 {
		t.Errorf("write through FromSlice array not seen in data: %v", data)
	}
	if _, err := nd.FromSlice(data, 4); !errors.Is(err, nd.ErrShape) {
		t.Errorf("FromSlice with wrong size: %v", err)
	}
	if _, err := nd.FromSlice([]int{1}); !errors.Is(err, nd.ErrDType) {
		t.Errorf("FromSlice([]int): %v, want ErrDType (int is not an element type)", err)
	}
	o, err := nd.FromSlice([]any{1, "x"})
	if err != nil || o.DType() != nd.Object {
		t.Fatalf("FromSlice([]any): %v %v", o, err)
	}
}

func TestConstructors(t *testing.T) {
	z := nd.Zeros(nd.Float32, 2, 3)
	checkArray(t, z, nd.Float32, []int{2, 3}, make([]float32, 6))
	checkArray(t, nd.ZerosLike(nd.MustNew([]bool{true})), nd.Bool, []int{1}, []bool{false})
	checkArray(t, nd.Zeros(nd.Object, 2), nd.Object, []int{2}, []any{nil, nil})
	f, err := nd.Full(nd.Float64, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	checkArray(t, f, nd.Float64, []int{2}, []float64{2, 2})
	if _, err := nd.Full(nd.Int64, 2.5, 2); !errors.Is(err, nd.ErrCast) {
		t.Errorf("Full(int64, 2.5): %v, want ErrCast", err)
	}
	if _, err := nd.Full(nd.Uint8, 300, 2); !errors.Is(err, nd.ErrCast) {
		t.Errorf("Full(uint8, 300): %v, want ErrCast", err)
	}
	if _, err := nd.Full(nd.Int8, "x", 2); !errors.Is(err, nd.ErrCast) {
		t.Errorf("Full(int8, \"x\"): %v, want ErrCast", err)
	}
	o, _ := nd.Full(nd.Object, "done", 2)
	checkArray(t, o, nd.Object, []int{2}, []any{"done", "done"})
	// numpy: np.arange(0, 1, 0.25) → [0, 0.25, 0.5, 0.75]; np.arange(5, 0, -2) → [5, 3, 1].
	a, _ := nd.Arange(nd.Float64, 0, 1, 0.25)
	checkArray(t, a, nd.Float64, []int{4}, []float64{0, 0.25, 0.5, 0.75})
	a, _ = nd.Arange(nd.Int64, 5, 0, -2)
	checkArray(t, a, nd.Int64, []int{3}, []int64{5, 3, 1})
	a, _ = nd.Arange(nd.Int64, 5, 0, 1)
	checkArray(t, a, nd.Int64, []int{0}, []int64{})
	if _, err := nd.Arange(nd.Int64, 0, 1, 0); !errors.Is(err, nd.ErrValue) {
		t.Errorf("Arange step 0: %v", err)
	}
	mustPanic(t, nd.ErrShape, func() { nd.Zeros(nd.Int8, -1) })
}

func TestProperties(t *testing.T) {
	a := arange(t, 2, 3, 4)
	if a.Ndim() != 3 || a.Size() != 24 || a.Len() != 2 || a.Dim(-1) != 4 {
		t.Fatalf("ndim %d size %d len %d", a.Ndim(), a.Size(), a.Len())
	}
	if got := a.Strides(); got[0] != 12 || got[1] != 4 || got[2] != 1 {
		t.Fatalf("strides %v", got)
	}
	s := a.Shape()
	s[0] = 99
	if a.Dim(0) != 2 {
		t.Fatal("Shape() exposes internal state")
	}
	if !a.IsContiguous() || a.Transpose().IsContiguous() {
		t.Fatal("IsContiguous")
	}
	if got := a.At(1, -1, 2); got != int64(22) {
		t.Fatalf("At = %v", got)
	}
	if got := nd.MustNew(3.5).Item(); got != 3.5 {
		t.Fatalf("Item = %v", got)
	}
	mustPanic(t, nd.ErrShape, func() { nd.MustNew(5).Len() })
	mustPanic(t, nd.ErrIndex, func() { a.At(2, 0, 0) })
	mustPanic(t, nd.ErrIndex, func() { a.At(0, 0) })
	mustPanic(t, nd.ErrShape, func() { a.Item() })
	d := nd.Data[int64](a)
	d[1] = -1
	if a.At(0, 0, 1) != int64(-1) {
		t.Fatal("Data does not share memory")
	}
	mustPanic(t, nd.ErrDType, func() { nd.Data[float64](a) })
	if got := nd.Data[int64](nd.Zeros(nd.Int64, 0, 3).Index(nd.All(), nd.I(2))); len(got) != 0 {
		t.Fatalf("Data of an empty view: %v", got)
	}
	mustPanic(t, nd.ErrShape, func() { nd.Data[int64](a.Transpose()) })
	v := a.Index(nd.I(1))
	if got := nd.Data[int64](v); len(got) != 12 || got[0] != 12 {
		t.Fatalf("Data of a row view: %v", got)
	}
	if got := nd.ToSlice[int64](a.Transpose())[:3]; got[0] != 0 || got[1] != 12 || got[2] != 4 {
		t.Fatalf("ToSlice of transpose: %v", got)
	}
}

func TestAsType(t *testing.T) {
	// numpy astype: float → int truncates toward zero; nonzero → True.
	f := nd.MustNew([]float64{-1.7, 0, 2.9})
	i, err := f.AsType(nd.Int32)
	if err != nil {
		t.Fatal(err)
	}
	checkArray(t, i, nd.Int32, []int{3}, []int32{-1, 0, 2})
	b, _ := f.AsType(nd.Bool)
	checkArray(t, b, nd.Bool, []int{3}, []bool{true, false, true})
	bi, _ := b.AsType(nd.Int64)
	checkArray(t, bi, nd.Int64, []int{3}, []int64{1, 0, 1})
	o, _ := nd.MustNew([]int{1, 2}).AsType(nd.Object)
	checkArray(t, o, nd.Object, []int{2}, []any{int64(1), int64(2)})
	back, err := nd.MustNew([]any{1, 2.5, true, "x"}).Index(nd.To(3)).AsType(nd.Float64)
	if err != nil {
		t.Fatal(err)
	}
	checkArray(t, back, nd.Float64, []int{3}, []float64{1, 2.5, 1})
	if _, err := nd.MustNew([]any{1, "x"}).AsType(nd.Float64); !errors.Is(err, nd.ErrCast) {
		t.Errorf("object 'x' → float64: %v", err)
	}
	if _, err := nd.MustNew([]any{1, nil}).AsType(nd.Int64); !errors.Is(err, nd.ErrCast) {
		t.Errorf("object None → int64: %v", err)
	}
	w, _ := nd.MustNew([]int{300, -1}).AsType(nd.Uint8)
	checkArray(t, w, nd.Uint8, []int{2}, []uint8{44, 255}) // wraps, as numpy's astype
}
