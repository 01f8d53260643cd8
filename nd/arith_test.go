package nd_test

import (
	"errors"
	"math"
	"testing"

	"github.com/gorl/gorl/nd"
)

func TestArithmetic(t *testing.T) {
	f32 := nd.MustNew([][]float32{{0, 2}, {1, 3}})
	i64 := nd.MustNew([]int{5, -5})
	cases := []struct {
		name   string
		f      func(x, y any) (*nd.Array, error)
		x, y   any
		dt     nd.DType
		shape  []int
		values any
	}{
		// Expected values hand-computed; dtypes from numpy 2 promotion (NEP 50).
		{"f32 + f32", nd.Add, f32, f32, nd.Float32, []int{2, 2}, []float32{0, 4, 2, 6}},
		{"f32 + row broadcast", nd.Add, f32, nd.MustNew([]float32{10, 20}), nd.Float32, []int{2, 2}, []float32{10, 22, 11, 23}},
		{"f32 + column broadcast", nd.Add, f32, nd.MustNew([][]float32{{10}, {20}}), nd.Float32, []int{2, 2}, []float32{10, 12, 21, 23}},
		{"f32 * weak float stays f32", nd.Mul, f32, 0.5, nd.Float32, []int{2, 2}, []float32{0, 1, 0.5, 1.5}},
		{"int + weak int keeps int64", nd.Add, i64, 1, nd.Int64, []int{2}, []int64{6, -4}},
		{"int + weak float → float64", nd.Add, i64, 0.5, nd.Float64, []int{2}, []float64{5.5, -4.5}},
		{"int8 + weak int stays int8", nd.Add, nd.MustNew([]int8{100}), 27, nd.Int8, []int{1}, []int8{127}},
		{"int8 overflow wraps", nd.Add, nd.MustNew([]int8{100}), nd.MustNew([]int8{100}), nd.Int8, []int{1}, []int8{-56}},
		{"int32 + strong float32 → float64", nd.Add, nd.MustNew([]int32{1}), float32(0.5), nd.Float64, []int{1}, []float64{1.5}},
		{"int64 + float32 array → float64", nd.Add, i64, nd.MustNew([]float32{0.5, 0.5}), nd.Float64, []int{2}, []float64{5.5, -4.5}},
		{"int / int → float64", nd.Div, i64, 2, nd.Float64, []int{2}, []float64{2.5, -2.5}},
		{"scalar - array", nd.Sub, 1, i64, nd.Int64, []int{2}, []int64{-4, 6}},
		{"scalars", nd.Add, 1, 2.5, nd.Float64, nil, []float64{3.5}},
		{"bool + bool is or", nd.Add, nd.MustNew([]bool{true, false}), nd.MustNew([]bool{false, false}), nd.Bool, []int{2}, []bool{true, false}},
		{"bool * bool is and", nd.Mul, nd.MustNew([]bool{true, true}), nd.MustNew([]bool{true, false}), nd.Bool, []int{2}, []bool{true, false}},
		{"bool + weak int → int64", nd.Add, nd.MustNew([]bool{true}), 1, nd.Int64, []int{1}, []int64{2}},
		{"uint8 - uint8 wraps", nd.Sub, nd.MustNew([]uint8{1}), nd.MustNew([]uint8{2}), nd.Uint8, []int{1}, []uint8{255}},
		{"go slice operand", nd.Mul, nd.MustNew([]float64{1, 2}), []float64{3, 4}, nd.Float64, []int{2}, []float64{3, 8}},
		{"transposed operand", nd.Sub, f32, f32.Transpose(), nd.Float32, []int{2, 2}, []float32{0, 1, -1, 0}},
		{"eq", nd.Eq, i64, 5, nd.Bool, []int{2}, []bool{true, false}},
		{"ne", nd.Ne, i64, 5, nd.Bool, []int{2}, []bool{false, true}},
		{"lt broadcast", nd.Lt, f32, nd.MustNew([]float64{1, 2.5}), nd.Bool, []int{2, 2}, []bool{true, true, false, false}},
		{"le", nd.Le, f32, 2, nd.Bool, []int{2, 2}, []bool{true, true, true, false}},
		{"gt", nd.Gt, f32, 2, nd.Bool, []int{2, 2}, []bool{false, false, false, true}},
		{"ge", nd.Ge, f32, 2, nd.Bool, []int{2, 2}, []bool{false, true, false, true}},
		{"uint8 < 300 compares exactly", nd.Lt, nd.MustNew([]uint8{255}), 300, nd.Bool, []int{1}, []bool{true}},
		{"object eq", nd.Eq, nd.MustNew([]any{1, "a", nil}), nd.MustNew([]any{1, "b", nil}), nd.Bool, []int{3}, []bool{true, false, true}},
		{"object eq numbers by value", nd.Eq, nd.MustNew([]any{1, "a", 2.0}), nd.MustNew([]int{1, 1, 2}), nd.Bool, []int{3}, []bool{true, false, true}},
		{"object ne scalar", nd.Ne, nd.MustNew([]any{int8(3), nil}), 3, nd.Bool, []int{2}, []bool{false, true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.f(c.x, c.y)
			if err != nil {
				t.Fatal(err)
			}
			checkArray(t, r, c.dt, c.shape, c.values)
		})
	}
}

func TestArithmeticErrors(t *testing.T) {
	for name, c := range map[string]struct {
		f    func(x, y any) (*nd.Array, error)
		x, y any
		kind error
	}{
		"no broadcast":        {nd.Add, nd.MustNew([]int{1, 2}), nd.MustNew([]int{1, 2, 3}), nd.ErrShape},
		"weak int overflow":   {nd.Add, nd.MustNew([]uint8{1}), 300, nd.ErrCast},
		"negative into uint":  {nd.Add, nd.MustNew([]uint8{1}), -1, nd.ErrCast},
		"bool subtract":       {nd.Sub, nd.MustNew([]bool{true}), nd.MustNew([]bool{true}), nd.ErrDType},
		"object add":          {nd.Add, nd.MustNew([]any{"a"}), nd.MustNew([]any{"b"}), nd.ErrDType},
		"object lt":           {nd.Lt, nd.MustNew([]any{"a"}), nd.MustNew([]any{"b"}), nd.ErrDType},
		"string operand":      {nd.Add, nd.MustNew([]int{1}), "x", nd.ErrDType},
		"nil operand":         {nd.Mul, nil, 1, nd.ErrDType},
		"object with numbers": {nd.Add, nd.MustNew([]any{1, nil}), 1, nd.ErrDType},
	} {
		if _, err := c.f(c.x, c.y); !errors.Is(err, c.kind) {
			t.Errorf("%s: err %v, want %v", name, err, c.kind)
		}
	}
	if _, err := nd.Neg(nd.MustNew([]bool{true})); !errors.Is(err, nd.ErrDType) {
		t.Errorf("Neg(bool): %v", err)
	}
	r, err := nd.Neg(nd.MustNew([]float32{1, -2}))
	if err != nil {
		t.Fatal(err)
	}
	checkArray(t, r, nd.Float32, []int{2}, []float32{-1, 2})
	d, _ := nd.Div(nd.MustNew([]float64{1, -1, 0}), 0)
	v := nd.ToSlice[float64](d)
	if !math.IsInf(v[0], 1) || !math.IsInf(v[1], -1) || !math.IsNaN(v[2]) {
		t.Errorf("division by zero: %v", v)
	}
}

func TestInPlace(t *testing.T) {
	// Seed 001: batch[:, 1] += 10 on a=[[0., 2.], [1., 3.]] gives [[0., 12.], [1., 13.]].
	a := nd.MustNew([][]float64{{0, 2}, {1, 3}})
	if err := a.Index(nd.All(), nd.I(1)).Add(10); err != nil {
		t.Fatal(err)
	}
	checkArray(t, a, nd.Float64, []int{2, 2}, []float64{0, 12, 1, 13})
	// Seed 000: b=[[5, -5], [1, -2]]; b[:, 1] += 1 gives [[5, -4], [1, -1]].
	b := nd.MustNew([][]int{{5, -5}, {1, -2}})
	if err := b.Index(nd.All(), nd.I(1)).Add(1); err != nil {
		t.Fatal(err)
	}
	checkArray(t, b, nd.Int64, []int{2, 2}, []int64{5, -4, 1, -1})
	// int += float is an error, not a truncation; the array is unchanged.
	before := b.Copy()
	for name, err := range map[string]error{
		"int += go float":       b.Add(0.5),
		"int += float array":    b.Add(nd.MustNew([]float64{1, 2})),
		"int /= int":            b.Div(2),
		"shape grows":           b.Index(nd.I(0)).Add(nd.Zeros(nd.Int64, 2, 2)),
		"int8 += 300":           nd.Zeros(nd.Int8, 1).Add(300),
		"bool -= bool":          nd.Zeros(nd.Bool, 1).Sub(nd.Zeros(nd.Bool, 1)),
		"object += 1":           nd.Zeros(nd.Object, 1).Add(1),
		"uint8 += int8 (kinds)": nd.Zeros(nd.Uint8, 1).Add(nd.MustNew([]int8{1})),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if !nd.Equal(b, before) {
		t.Fatal("failed in-place operations changed the array")
	}
	// float32 += float64 array is same-kind: computed in float64, stored as float32.
	f := nd.MustNew([]float32{1, 2})
	if err := f.Add(nd.MustNew([]float64{0.25, 0.5})); err != nil {
		t.Fatal(err)
	}
	checkArray(t, f, nd.Float32, []int{2}, []float32{1.25, 2.5})
	if err := f.Mul(f); err != nil {
		t.Fatal(err)
	}
	checkArray(t, f, nd.Float32, []int{2}, []float32{1.5625, 6.25})
	if err := f.Div(nd.MustNew([]int8{2})); err != nil {
		t.Fatal(err)
	}
	checkArray(t, f, nd.Float32, []int{2}, []float32{0.78125, 3.125})
	// int64 += int8 array and += bool array are safe.
	i := nd.MustNew([]int{1, 2})
	if err := i.Sub(nd.MustNew([]bool{true, false})); err != nil {
		t.Fatal(err)
	}
	checkArray(t, i, nd.Int64, []int{2}, []int64{0, 2})
	// Overlapping operand: a[1:] += a[:-1] reads a[:-1] before writing (numpy
	// buffers overlapping operands): [1, 2, 3] → [1, 3, 5].
	o := nd.MustNew([]int{1, 2, 3})
	if err := o.Index(nd.From(1)).Add(o.Index(nd.To(-1))); err != nil {
		t.Fatal(err)
	}
	checkArray(t, o, nd.Int64, []int{3}, []int64{1, 3, 5})
	x := nd.Zeros(nd.Float32, 64, 4)
	y := nd.Zeros(nd.Float32, 64, 4)
	if n := testing.AllocsPerRun(100, func() { _ = x.Add(y) }); n != 0 {
		t.Errorf("in-place Add of equal shapes and dtypes: %v allocs", n)
	}
}

func TestReductions(t *testing.T) {
	a := arange(t, 2, 3) // [[0 1 2] [3 4 5]]
	f := nd.MustNew([][]float32{{1, 2}, {3, 6}})
	nan := math.NaN()
	withNaN := nd.MustNew([]float64{1, nan, 3})
	cases := []struct {
		name   string
		f      func(*nd.Array, ...int) (*nd.Array, error)
		a      *nd.Array
		axis   []int
		dt     nd.DType
		shape  []int
		values any
	}{
		// Hand-computed; dtypes as numpy documents for sum/mean/min/max/argmax.
		{"sum all", nd.Sum, a, nil, nd.Int64, nil, []int64{15}},
		{"sum axis 0", nd.Sum, a, []int{0}, nd.Int64, []int{3}, []int64{3, 5, 7}},
		{"sum axis -1", nd.Sum, a, []int{-1}, nd.Int64, []int{2}, []int64{3, 12}},
		{"sum transposed", nd.Sum, a.Transpose(), []int{0}, nd.Int64, []int{2}, []int64{3, 12}},
		{"sum int8 → int64", nd.Sum, nd.MustNew([]int8{100, 100}), nil, nd.Int64, nil, []int64{200}},
		{"sum uint8 → uint64", nd.Sum, nd.MustNew([]uint8{200, 100}), nil, nd.Uint64, nil, []uint64{300}},
		{"sum bool counts", nd.Sum, nd.MustNew([]bool{true, false, true}), nil, nd.Int64, nil, []int64{2}},
		{"sum float32 keeps", nd.Sum, f, []int{1}, nd.Float32, []int{2}, []float32{3, 9}},
		{"sum empty", nd.Sum, nd.Zeros(nd.Float64, 0), nil, nd.Float64, nil, []float64{0}},
		// Seed 000: np.mean of a=[[0., 3.], [1., 4.]] is 2.0 and of b=[[5, -4], [1, -1]] is 0.25.
		{"mean seed a", nd.Mean, nd.MustNew([][]float64{{0, 3}, {1, 4}}), nil, nd.Float64, nil, []float64{2}},
		{"mean seed b", nd.Mean, nd.MustNew([][]int{{5, -4}, {1, -1}}), nil, nd.Float64, nil, []float64{0.25}},
		{"mean axis float32", nd.Mean, f, []int{0}, nd.Float32, []int{2}, []float32{2, 4}},
		{"min all", nd.Min, a, nil, nd.Int64, nil, []int64{0}},
		{"max axis 1", nd.Max, a, []int{1}, nd.Int64, []int{2}, []int64{2, 5}},
		{"min bool", nd.Min, nd.MustNew([]bool{true, false}), nil, nd.Bool, nil, []bool{false}},
		{"argmax all", nd.Argmax, a, nil, nd.Int64, nil, []int64{5}},
		{"argmax axis 0", nd.Argmax, nd.MustNew([][]int{{1, 9}, {7, 9}}), []int{0}, nd.Int64, []int{2}, []int64{1, 0}},
		{"argmax first of ties", nd.Argmax, nd.MustNew([]int{3, 1, 3}), nil, nd.Int64, nil, []int64{0}},
		{"argmax NaN first", nd.Argmax, withNaN, nil, nd.Int64, nil, []int64{1}},
		{"argmax transposed", nd.Argmax, a.Transpose(), nil, nd.Int64, nil, []int64{5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.f(c.a, c.axis...)
			if err != nil {
				t.Fatal(err)
			}
			checkArray(t, r, c.dt, c.shape, c.values)
		})
	}
	for name, f := range map[string]func(*nd.Array, ...int) (*nd.Array, error){"min": nd.Min, "max": nd.Max} {
		r, _ := f(withNaN)
		if !math.IsNaN(r.Item().(float64)) {
			t.Errorf("%s with NaN = %v, want NaN", name, r)
		}
	}
	for name, c := range map[string]struct {
		f    func(*nd.Array, ...int) (*nd.Array, error)
		a    *nd.Array
		axis []int
		kind error
	}{
		"max empty":    {nd.Max, nd.Zeros(nd.Int64, 0), nil, nd.ErrValue},
		"argmax empty": {nd.Argmax, nd.Zeros(nd.Int64, 2, 0), []int{1}, nd.ErrValue},
		"mean empty":   {nd.Mean, nd.Zeros(nd.Int64, 0), nil, nd.ErrValue},
		"bad axis":     {nd.Sum, a, []int{2}, nd.ErrIndex},
		"two axes":     {nd.Sum, a, []int{0, 1}, nd.ErrIndex},
		"object":       {nd.Sum, nd.MustNew([]any{"a"}), nil, nd.ErrDType},
	} {
		if _, err := c.f(c.a, c.axis...); !errors.Is(err, c.kind) {
			t.Errorf("%s: err %v, want %v", name, err, c.kind)
		}
	}
}
