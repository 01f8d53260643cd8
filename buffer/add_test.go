package buffer_test

import (
	"errors"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
)

// full returns a 0-d array of dtype dt holding v.
func full(t *testing.T, dt nd.DType, v any) *nd.Array {
	t.Helper()
	a, err := nd.Full(dt, v)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// storedAt returns the value stored under key at index g as a float64.
func storedAt(t *testing.T, b buffer.Buffer, key string, g int) float64 {
	t.Helper()
	got, err := b.(interface {
		Get([]int, string) (any, error)
	}).Get([]int{g}, key)
	if err != nil {
		t.Fatal(err)
	}
	v, err := got.(*nd.Array).AsType(nd.Float64)
	if err != nil {
		t.Fatal(err)
	}
	return nd.Data[float64](v)[0]
}

// TestAddFollowsChangedInput adds the same Batch again and again, as a
// collector does, changing it between Adds in every way that matters: the
// plan Add keeps for an unchanged input must never store stale values or
// skip a check. Expected values are the ones written into the Batch.
func TestAddFollowsChangedInput(t *testing.T) {
	b := mustReplay(t, buffer.Config{Size: 20})
	data := batch.MustNew("obs", []float32{1, 2, 3, 4}, "act", int64(1), "rew", 1.0,
		"terminated", false, "truncated", false, "obs_next", []float32{5, 6, 7, 8},
		"info", batch.MustNew("x", 0.5))
	add := func() ([]buffer.Step, error) { return b.Add(data, nil, nil) }
	mustAddData := func(what string) int {
		t.Helper()
		steps, err := add()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return steps[0].Index
	}
	mustAddData("first Add")
	mustAddData("second Add") // the plan is kept from here on

	// New values in the same arrays are stored.
	obs, _ := data.Array("obs")
	nd.Data[float32](obs)[2] = 30
	act, _ := data.Array("act")
	nd.Data[int64](act)[0] = 9
	g := mustAddData("values changed in place")
	if got := storedAt(t, b, "act", g); got != 9 {
		t.Errorf("act = %v, want 9", got)
	}
	o, _ := b.Get([]int{g}, "obs")
	if got := nd.Data[float32](o.(*nd.Array))[2]; got != 30 {
		t.Errorf("obs[2] = %v, want 30", got)
	}

	// Another array under a key: its values are stored.
	if err := data.Set("act", full(t, nd.Int64, int64(7))); err != nil {
		t.Fatal(err)
	}
	if g := mustAddData("act replaced"); storedAt(t, b, "act", g) != 7 {
		t.Errorf("act = %v after replacing the array, want 7", storedAt(t, b, "act", g))
	}

	// An array that cannot be stored is refused, and nothing is stored.
	n := b.Len()
	if err := data.Set("act", full(t, nd.Float64, 2.5)); err != nil {
		t.Fatal(err)
	}
	if _, err := add(); !errors.Is(err, buffer.ErrType) || b.Len() != n {
		t.Fatalf("float act into an int64 column: %v (Len %d, want %d)", err, b.Len(), n)
	}
	if err := data.Set("act", full(t, nd.Int64, int64(3))); err != nil {
		t.Fatal(err)
	}
	mustAddData("act restored")

	// A missing required key is an error naming it.
	rew, _ := data.Get("rew")
	data.Delete("rew")
	if _, err := add(); !errors.Is(err, buffer.ErrKey) || b.Len() != n+1 {
		t.Fatalf("without rew: %v (Len %d, want %d)", err, b.Len(), n+1)
	}
	if err := data.Set("rew", rew); err != nil {
		t.Fatal(err)
	}
	mustAddData("rew restored")
	mustAddData("rew restored, plan kept")

	// A key left out is stored as zero; a new key, nested or not, extends
	// the schema.
	data.Delete("obs_next")
	if g := mustAddData("without obs_next"); storedAt(t, b, "obs_next", g) != 0 {
		t.Errorf("obs_next = %v without the key, want 0", storedAt(t, b, "obs_next", g))
	}
	info, _ := data.Get("info")
	if err := info.(*batch.Batch).Set("y", full(t, nd.Float64, 4.0)); err != nil {
		t.Fatal(err)
	}
	if g := mustAddData("info.y added"); storedAt(t, b, "info.y", g) != 4 {
		t.Errorf("info.y = %v, want 4", storedAt(t, b, "info.y", g))
	}
	if g := mustAddData("info.y again"); storedAt(t, b, "info.y", g) != 4 || storedAt(t, b, "info.x", g) != 0.5 {
		t.Errorf("info = (%v, %v), want (0.5, 4)", storedAt(t, b, "info.x", g), storedAt(t, b, "info.y", g))
	}

	// A key another buffer's Update brings in gets zeros from this input.
	other := mustReplay(t, buffer.Config{Size: 4})
	mustAdd(t, other, batch.MustNew("obs", []float32{1, 2, 3, 4}, "act", int64(1), "rew", 1.0,
		"terminated", false, "truncated", false, "extra", 8.0), nil)
	if _, err := b.Update(other); err != nil {
		t.Fatal(err)
	}
	if g := mustAddData("after Update"); storedAt(t, b, "extra", g) != 0 {
		t.Errorf("extra = %v from an input without it, want 0", storedAt(t, b, "extra", g))
	}
}

// TestVectorAddFollowsRowCount adds one two-row Batch with two and then one
// buffer id: the second Add must check the rows again and refuse it.
func TestVectorAddFollowsRowCount(t *testing.T) {
	b, err := buffer.NewVector(buffer.Config{Size: 8}, 2)
	if err != nil {
		t.Fatal(err)
	}
	data := batch.MustNew("obs", [][]float32{{1}, {2}}, "act", []int64{0, 1}, "rew", []float64{1, 2},
		"terminated", []bool{false, false}, "truncated", []bool{false, false})
	for range 2 {
		mustAdd(t, b, data, []int{0, 1})
	}
	if _, err := b.Add(data, []int{0}, nil); !errors.Is(err, buffer.ErrType) || b.Len() != 4 {
		t.Fatalf("two rows for one id: %v (Len %d, want 4)", err, b.Len())
	}
}

// TestAddReplansWithoutAllocating alternates two inputs, so that every Add
// matches and checks its input again: that too allocates nothing.
func TestAddReplansWithoutAllocating(t *testing.T) {
	b := mustReplay(t, buffer.Config{Size: 100})
	in := [2]*batch.Batch{cartPoleStep(1, false), cartPoleStep(2, true)}
	steps := make([]buffer.Step, 0, 1)
	k := 0
	var err error
	if allocs := testing.AllocsPerRun(100, func() {
		k++
		if steps, err = b.Add(in[k%2], nil, steps[:0]); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("Add of alternating inputs: %v allocations, want 0", allocs)
	}
}
