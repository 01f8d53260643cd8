package tensor_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

func TestFromND(t *testing.T) {
	data := []float32{1, 2, 3, 4, 5, 6}
	a, err := nd.FromSlice(data, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	x, err := tensor.FromND(a)
	if err != nil {
		t.Fatal(err)
	}
	checkTensor(t, "float32", x, []int{2, 3}, data, 0)
	data[0] = 9
	if x.Data()[0] != 9 {
		t.Error("FromND copied a contiguous float32 array")
	}

	// Conversions: the expected values are the inputs as float32.
	cases := []struct {
		name  string
		a     *nd.Array
		shape []int
		want  []float32
	}{
		{"uint8", nd.MustNew([][]uint8{{0, 255}, {7, 8}}), []int{2, 2}, []float32{0, 255, 7, 8}},
		{"bool", nd.MustNew([]bool{true, false}), []int{2}, []float32{1, 0}},
		{"int64", nd.MustNew([]int64{-3, 1 << 40}), []int{2}, []float32{-3, 1 << 40}},
		{"float64", nd.MustNew([]float64{0.1, -2}), []int{2}, []float32{0.1, -2}},
		{"0-d", nd.MustNew(float32(4)), []int{}, []float32{4}},
		// A transposed view: C order of [[1 2 3] [4 5 6]]ᵀ.
		{"transposed float32", nd.MustNew([][]float32{{1, 2, 3}, {4, 5, 6}}).Transpose(), []int{3, 2}, []float32{1, 4, 2, 5, 3, 6}},
		{"strided int32", nd.MustNew([]int32{0, 1, 2, 3, 4}).Index(nd.RangeStep(0, 5, 2)), []int{3}, []float32{0, 2, 4}},
	}
	var tp tensor.Tape
	for _, c := range cases {
		x, err := tensor.FromND(c.a)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkTensor(t, c.name, x, c.shape, c.want, 0)
		y, err := tp.FromND(c.a)
		if err != nil {
			t.Fatalf("%s on a tape: %v", c.name, err)
		}
		checkTensor(t, c.name+" on a tape", y, c.shape, c.want, 0)
	}

	obj := nd.MustNew([]any{"a", nil})
	if _, err := tensor.FromND(obj); !errors.Is(err, tensor.ErrDType) {
		t.Errorf("FromND of an object array: error %v, want ErrDType", err)
	}
	if _, err := tp.FromND(obj); !errors.Is(err, tensor.ErrDType) {
		t.Errorf("Tape.FromND of an object array: error %v, want ErrDType", err)
	}

	// Converting a uint8 frame stack each step allocates nothing.
	frames := nd.Zeros(nd.Uint8, 4, 84, 84)
	if a := testing.AllocsPerRun(10, func() {
		tp.Reset()
		if _, err := tp.FromND(frames); err != nil {
			t.Fatal(err)
		}
	}); a != 0 && !raceEnabled {
		t.Errorf("Tape.FromND of a uint8 array: %v allocations, want 0", a)
	}
}

func TestND(t *testing.T) {
	x := leaf([]float32{1, 2, 3, 4}, 2, 2)
	a := x.ND()
	if a.DType() != nd.Float32 || !slices.Equal(a.Shape(), []int{2, 2}) || a.At(1, 0) != float32(3) {
		t.Fatalf("ND: dtype %v shape %v, a[1,0] = %v", a.DType(), a.Shape(), a.At(1, 0))
	}
	nd.Data[float32](a)[0] = 7
	if x.Data()[0] != 7 {
		t.Error("ND copied the tensor's memory")
	}
	var tp tensor.Tape
	if s := tp.Sum(x).ND(); s.Ndim() != 0 || s.Item() != float32(16) {
		t.Errorf("ND of a scalar: %d dimensions, value %v; want 0-d 16", s.Ndim(), s.Item())
	}
}
