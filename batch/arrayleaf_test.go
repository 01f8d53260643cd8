package batch_test

import (
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/batch/batchtest"
	"github.com/gorl/gorl/nd"
)

func tensor(t testing.TB, v any) *batchtest.Tensor {
	t.Helper()
	a, err := nd.New(v)
	if err != nil {
		t.Fatal(err)
	}
	return &batchtest.Tensor{Values: a}
}

func leafValues(t testing.TB, b *batch.Batch, key string) *nd.Array {
	t.Helper()
	v, ok := b.Get(key)
	if !ok {
		t.Fatalf("no key %q in %v", key, b)
	}
	return v.(*batchtest.Tensor).Values
}

// TestArrayLeafReadModifyWrite is seed 002's data[:, 1] += 6 on a Batch of
// an array and a tensor, in the read-modify-write form ArrayLeaf documents.
func TestArrayLeafReadModifyWrite(t *testing.T) {
	data := batch.MustNew(
		"obs", map[string]any{"index": nd.Zeros(nd.Float64, 2, 3)},
		"act", tensor(t, [][]float32{{0, 0}, {0, 0}}),
	)
	idx := []nd.Index{nd.All(), nd.I(1)}
	// Index alone: the array is a view, the tensor a copy, so only the array
	// changes (what ArrayLeaf's documentation warns about).
	if err := data.Index(idx...).Add(6); err != nil {
		t.Fatal(err)
	}
	wantArray(t, data, "obs.index", nd.MustNew([][]float64{{0, 6, 0}, {0, 6, 0}}))
	if got := leafValues(t, data, "act"); !nd.Equal(got, nd.MustNew([][]float32{{0, 0}, {0, 0}})) {
		t.Fatalf("Index(...).Add changed the tensor copy's source: %v", got)
	}
	// Read, modify, write back: both change (the array's view is written
	// onto itself).
	sub := data.Index(idx...)
	if err := sub.Add(6); err != nil {
		t.Fatal(err)
	}
	if err := data.SetIndex(sub, idx...); err != nil {
		t.Fatal(err)
	}
	// Hand-computed: column 1 of obs.index got 6 twice, column 1 of act once.
	wantArray(t, data, "obs.index", nd.MustNew([][]float64{{0, 12, 0}, {0, 12, 0}}))
	if got := leafValues(t, data, "act"); !nd.Equal(got, nd.MustNew([][]float32{{0, 6}, {0, 6}})) {
		t.Fatalf("act = %v, want [[0 6] [0 6]]", got)
	}
	// Seed 002's print(data[-1]), with the fake tensor's print.
	want := "Batch(\n    obs: Batch(\n             index: array([ 0., 12.,  0.]),\n         ),\n    act: tensor([0. 6.]),\n)"
	if got := data.Index(nd.I(-1)).String(); got != want {
		t.Errorf("data[-1] =\n%s\nwant\n%s", got, want)
	}
}

func TestArrayLeafInPlaceArithmetic(t *testing.T) {
	b := batch.MustNew("a", []float32{1, 2}, "t", tensor(t, []float32{10, 20}))
	if err := b.Mul(2); err != nil {
		t.Fatal(err)
	}
	// An ArrayLeaf in the operand is used as its array.
	y := batch.MustNew("a", tensor(t, []float32{1, 1}), "t", []float32{0.5, 0.25})
	if err := b.Add(y); err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "a", nd.MustNew([]float32{3, 5}))
	if got := leafValues(t, b, "t"); !nd.Equal(got, nd.MustNew([]float32{20.5, 40.25})) {
		t.Fatalf("t = %v", got)
	}
	// A failing leaf leaves everything unchanged, the ArrayLeaf included.
	bad := batch.MustNew("t", tensor(t, []float32{1, 2}), "i", []int64{1, 2})
	wantErr(t, bad.Add(0.5), batch.ErrType, "i")
	if got := leafValues(t, bad, "t"); !nd.Equal(got, nd.MustNew([]float32{1, 2})) {
		t.Fatalf("failed Add changed the tensor: %v", got)
	}
	wantErr(t, bad.Add(batch.MustNew("t", tensor(t, []float32{1, 2, 3}), "i", []int64{1, 1})), batch.ErrType, "t")
	// Other custom leaves still cannot take part, and the arithmetic
	// functions make new values, which a Batch cannot do for a leaf.
	probs, _ := batchtest.NewCategorical(nd.MustNew([][]float64{{0.5, 0.5}}))
	wantErr(t, batch.MustNew("d", probs).Add(1), batch.ErrType, "d")
	// A leaf whose Array is nil (a tensor requiring gradients) is refused
	// like any other custom leaf.
	ro := tensor(t, []float32{1})
	ro.ReadOnly = true
	wantErr(t, batch.MustNew("r", ro).Add(1), batch.ErrType, "r")
	wantErr(t, batch.MustNew("r", ro).SetIndex(0), batch.ErrType, "r")
	wantErr(t, batch.MustNew("r", ro).Empty(), batch.ErrType, "r")
	wantErr(t, batch.MustNew("x", []float32{0}).SetRow(0, batch.MustNew("x", ro)), batch.ErrType, "x")
	_, err := batch.Add(b, 1)
	wantErr(t, err, batch.ErrType, "t")
}

func TestArrayLeafAssign(t *testing.T) {
	b := batch.MustNew("t", tensor(t, [][]float32{{1, 2}, {3, 4}, {5, 6}}), "x", []float64{1, 2, 3})
	// SetIndex into the leaf, and a missing key reset at the index.
	if err := b.SetIndex(batch.MustNew("t", []float32{9, 9}), nd.I(1)); err != nil {
		t.Fatal(err)
	}
	if err := b.SetIndex(batch.MustNew("x", 7), nd.I(0)); err != nil {
		t.Fatal(err)
	}
	if got := leafValues(t, b, "t"); !nd.Equal(got, nd.MustNew([][]float32{{0, 0}, {9, 9}, {5, 6}})) {
		t.Fatalf("t = %v", got)
	}
	wantArray(t, b, "x", nd.MustNew([]float64{7, 0, 3}))
	// SetRow with a leaf as the source: written as its values.
	if err := b.SetRow(2, batch.MustNew("t", tensor(t, []float32{-1, -2}), "x", tensor(t, float32(8)))); err != nil {
		t.Fatal(err)
	}
	if got := leafValues(t, b, "t"); !nd.Equal(got, nd.MustNew([][]float32{{0, 0}, {9, 9}, {-1, -2}})) {
		t.Fatalf("t = %v", got)
	}
	wantArray(t, b, "x", nd.MustNew([]float64{7, 0, 8}))
	// A scalar is broadcast into the leaf; a value nd refuses is an error.
	if err := b.SetIndex(1); err != nil {
		t.Fatal(err)
	}
	if got := leafValues(t, b, "t"); !nd.Equal(got, nd.MustNew([][]float32{{1, 1}, {1, 1}, {1, 1}})) {
		t.Fatalf("t = %v", got)
	}
	wantErr(t, b.SetIndex(batch.MustNew("t", []float32{1, 2, 3}), nd.I(0)), batch.ErrType, "t")
	wantErr(t, b.SetIndex(batch.MustNew("t", batch.MustNew("u", 1)), nd.I(0)), batch.ErrType, "t")
	// Into an Object array a leaf is stored whole, one per position (a
	// replay buffer's storage for custom leaves).
	store := batch.MustNew("t", nd.Zeros(nd.Object, 2))
	leaf := tensor(t, []float32{1, 2})
	if err := store.SetRow(1, batch.MustNew("t", leaf)); err != nil {
		t.Fatal(err)
	}
	if got := mustArray(t, store, "t").At(1); got != leaf {
		t.Fatalf("Object storage holds %v, want the leaf", got)
	}
	// A leaf cannot be assigned onto a nested Batch.
	nested := batch.MustNew("n", batch.MustNew("a", []float32{1}))
	wantErr(t, nested.SetIndex(batch.MustNew("n", tensor(t, []float32{1})), nd.I(0)), batch.ErrType, "n")
}

func TestArrayLeafEmpty(t *testing.T) {
	b := batch.MustNew("t", tensor(t, []float32{1, 2, 3}), "x", []int64{1, 2, 3})
	if _, err := batch.Empty(b); err == nil {
		t.Fatal("the function Empty reset a Batch holding a leaf it would share with the copy")
	}
	if err := b.Empty(nd.I(1)); err != nil {
		t.Fatal(err)
	}
	if got := leafValues(t, b, "t"); !nd.Equal(got, nd.MustNew([]float32{1, 0, 3})) {
		t.Fatalf("t = %v", got)
	}
	if err := b.Empty(); err != nil {
		t.Fatal(err)
	}
	if got := leafValues(t, b, "t"); !nd.Equal(got, nd.Zeros(nd.Float32, 3)) {
		t.Fatalf("t = %v", got)
	}
	wantArray(t, b, "x", nd.Zeros(nd.Int64, 3))
	probs, _ := batchtest.NewCategorical(nd.MustNew([][]float64{{0.5, 0.5}}))
	wantErr(t, batch.MustNew("d", probs).Empty(), batch.ErrType, "d")
}
