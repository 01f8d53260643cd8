package batch_test

import (
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

func TestArithmetic(t *testing.T) {
	mk := func() *batch.Batch {
		return batch.MustNew("a", [][]float64{{0, 2}, {1, 3}}, "b", []int{5, -5}, "o", batch.MustNew("c", []float32{1, 2}), "r", batch.MustNew(), "n", nil)
	}
	// Expected values computed by hand.
	tests := []struct {
		name       string
		fn         func(x *batch.Batch, y any) (*batch.Batch, error)
		method     func(x *batch.Batch, y any) error
		y          any
		a, b, oc   any
		inPlaceErr error // an error expected in place only (int b cannot hold a float)
	}{
		{"add scalar", batch.Add, (*batch.Batch).Add, 1, [][]float64{{1, 3}, {2, 4}}, []int64{6, -4}, []float32{2, 3}, nil},
		{"sub scalar", batch.Sub, (*batch.Batch).Sub, 1, [][]float64{{-1, 1}, {0, 2}}, []int64{4, -6}, []float32{0, 1}, nil},
		{"mul scalar", batch.Mul, (*batch.Batch).Mul, 2, [][]float64{{0, 4}, {2, 6}}, []int64{10, -10}, []float32{2, 4}, nil},
		{"div scalar", batch.Div, (*batch.Batch).Div, 2, [][]float64{{0, 1}, {0.5, 1.5}}, []float64{2.5, -2.5}, []float32{0.5, 1}, nd.ErrCast},
		{"add batch", batch.Add, (*batch.Batch).Add,
			batch.MustNew("a", []float64{10, 20}, "b", []int{1, 1}, "o", batch.MustNew("c", float32(1)), "r", batch.MustNew(), "n", nil),
			[][]float64{{10, 22}, {11, 23}}, []int64{6, -4}, []float32{2, 3}, nil},
		{"mul array", batch.Mul, (*batch.Batch).Mul, arr(t, []int8{2, 3}), [][]float64{{0, 6}, {2, 9}}, []int64{10, -15}, []float32{2, 6}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := mk()
			r, err := tt.fn(x, tt.y)
			if err != nil {
				t.Fatal(err)
			}
			wantArray(t, r, "a", arr(t, tt.a))
			wantArray(t, r, "b", arr(t, tt.b))
			wantArray(t, r, "o.c", arr(t, tt.oc))
			if !batch.Equal(x, mk()) {
				t.Error("the function changed its argument")
			}
			if v, ok := r.Get("n"); !ok || v != nil {
				t.Error("nil not kept")
			}
			if rr, _ := r.Batch("r"); rr == nil || rr.NumKeys() != 0 {
				t.Error("reserved key not kept")
			}
			err = tt.method(x, tt.y)
			if tt.inPlaceErr != nil {
				wantErr(t, err, tt.inPlaceErr, "b")
				if !batch.Equal(x, mk()) {
					t.Error("failed in-place operation changed the batch")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !batch.Equal(x, r) {
				t.Errorf("in place:\n%v\nwant\n%v", x, r)
			}
		})
	}
}

// TestArithmeticSeed reproduces seed 000's data[:, 1] += 1 and seed 002's
// data[:, 1] += 6 through views.
func TestArithmeticSeed(t *testing.T) {
	data := batch.MustNew("a", [][]float64{{0, 2}, {1, 3}}, "b", [][]int{{5, -5}})
	if err := data.Index(nd.All(), nd.I(1)).Add(1); err != nil {
		t.Fatal(err)
	}
	wantArray(t, data, "a", arr(t, [][]float64{{0, 3}, {1, 4}}))
	wantArray(t, data, "b", arr(t, [][]int{{5, -4}}))
	d2 := batch.MustNew("obs", map[string]any{"index": nd.Zeros(nd.Float64, 2, 3)}, "act", nd.Zeros(nd.Float32, 2, 2))
	if err := d2.Index(nd.All(), nd.I(1)).Add(6); err != nil {
		t.Fatal(err)
	}
	last := d2.Index(nd.I(-1))
	wantArray(t, last, "obs.index", arr(t, []float64{0, 6, 0}))
	wantArray(t, last, "act", arr(t, []float32{0, 6}))
}

func TestArithmeticErrors(t *testing.T) {
	tests := []struct {
		name string
		x    *batch.Batch
		y    any
		kind error
		key  string
	}{
		{"string operand", batch.MustNew("a", []int{1}), "x", batch.ErrType, ""},
		{"nil operand", batch.MustNew("a", []int{1}), nil, batch.ErrType, ""},
		{"string leaf", batch.MustNew("a", []int{1}, "s", "x"), 1, batch.ErrType, "s"},
		{"custom leaf", batch.MustNew("a", []int{1}, "d", mustCategorical(t, []float64{1})), 1, batch.ErrType, "d"},
		{"object array", batch.MustNew("a", []int{1}, "o", []any{"x"}), 1, nd.ErrDType, "o"},
		{"missing key", batch.MustNew("a", []int{1}, "b", []int{1}), batch.MustNew("a", 1), batch.ErrStructure, "b"},
		{"extra key", batch.MustNew("a", []int{1}), batch.MustNew("a", 1, "b", 1), batch.ErrStructure, "b"},
		{"kinds", batch.MustNew("o", batch.MustNew("c", []int{1})), batch.MustNew("o", 1), batch.ErrStructure, "o"},
		{"array with batch", batch.MustNew("a", []int{1}), batch.MustNew("a", batch.MustNew("c", 1)), batch.ErrStructure, "a"},
		{"shapes", batch.MustNew("a", []int{1, 2}), arr(t, []int{1, 2, 3}), nd.ErrShape, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.x.Clone()
			wantErr(t, tt.x.Add(tt.y), tt.kind, tt.key)
			if !batch.Equal(before, tt.x) {
				t.Error("failed Add changed the batch")
			}
			_, err := batch.Add(tt.x, tt.y)
			wantErr(t, err, tt.kind, tt.key)
		})
	}
	// The in-place check covers the broadcast that would grow the array.
	wantErr(t, batch.MustNew("a", []int{1}).Add(arr(t, []int{1, 2})), nd.ErrShape, "a")
}

// TestReductions reproduces seed 000's np.mean(batch) (whole arrays) and
// seed 003's (axis 0).
func TestReductions(t *testing.T) {
	data := batch.MustNew("a", [][]float64{{0, 3}, {1, 4}}, "b", [][]int{{5, -4}, {1, -3}}, "r", batch.MustNew(), "n", nil)
	m, err := batch.Mean(data)
	if err != nil {
		t.Fatal(err)
	}
	// Seed 000's printout (a: 1.5, b: -0.25) does not match its own data
	// after data[:, 1] += 1; the expected values here are computed by hand:
	// mean(0, 3, 1, 4) = 2, mean(5, -4, 1, -3) = -0.25.
	wantArray(t, m, "a", arr(t, 2.0))
	wantArray(t, m, "b", arr(t, -0.25))
	s0 := batch.MustNew("b", []int{5, -5}, "a", [][]float64{{0, 2}, {1, 3}})
	m0, err := batch.Mean(s0, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Seed 003: b: 0.0, a: array([0.5, 2.5]).
	wantArray(t, m0, "b", arr(t, 0.0))
	wantArray(t, m0, "a", arr(t, []float64{0.5, 2.5}))
	sum, err := batch.Sum(s0, -1)
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, sum, "a", arr(t, []float64{2, 4}))
	mn, err := batch.Min(s0)
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, mn, "b", arr(t, int64(-5)))
	mx, err := batch.Max(batch.MustNew("o", batch.MustNew("x", []float32{1, 7})))
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, mx, "o.x", arr(t, float32(7)))
	_, err = batch.Mean(batch.MustNew("s", "x"))
	wantErr(t, err, batch.ErrType, "s")
	_, err = batch.Sum(batch.MustNew("o", batch.MustNew("x", []any{"a"})))
	wantErr(t, err, nd.ErrDType, "o.x")
	_, err = batch.Min(batch.MustNew("e", []float64{}))
	wantErr(t, err, nd.ErrValue, "e")
}
