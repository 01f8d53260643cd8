package nn

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// critic is a Model with two inputs, state and action, whose output is
// state·w + action: it shows which value went where.
type critic struct{ calls int }

func (*critic) Inputs() []string { return []string{"state", "action"} }

func (c *critic) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	c.calls++
	return tp.Add(tp.MulScalar(in[0], 10), in[1])
}

func arr(v ...float32) *nd.Array {
	a, err := nd.FromSlice(v, len(v), 1)
	if err != nil {
		panic(err)
	}
	return a
}

func TestCallerOrderAndExtraKeys(t *testing.T) {
	m := new(critic)
	var c Caller
	// Keys in another order, an extra key, spread over two batches.
	b1 := batch.MustNew("action", arr(1, 2), "reward", arr(5, 5))
	b2 := batch.MustNew("state", arr(3, 4), "next_state", arr(0, 0))
	q, err := c.Call(nil, m, b1, nil, b2)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float32{31, 42}; !slices.Equal(q.Data(), want) {
		t.Errorf("output %v, want %v (state·10 + action)", q.Data(), want)
	}
	// Key paths work too: a model may declare "obs.camera".
	nested := batch.MustNew("obs", batch.MustNew("camera", arr(7)), "action", arr(1))
	if _, err := c.Call(nil, pathModel{}, nested); err != nil {
		t.Errorf("key path: %v", err)
	}
}

type pathModel struct{}

func (pathModel) Inputs() []string { return []string{"obs.camera"} }
func (pathModel) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	return in[0]
}

func TestCallerErrors(t *testing.T) {
	m := new(critic)
	var c Caller
	state := batch.MustNew("state", arr(1))
	for _, tc := range []struct {
		name  string
		bs    []*batch.Batch
		want  error
		words []string
	}{
		{"missing", []*batch.Batch{state}, ErrMissingInput, []string{`"action"`}},
		{"none", nil, ErrMissingInput, []string{`"state"`}},
		{"twice", []*batch.Batch{state, batch.MustNew("state", arr(2), "action", arr(1))}, ErrDuplicateInput, []string{`"state"`, "0", "1"}},
		{"string", []*batch.Batch{state, batch.MustNew("action", "left")}, ErrInputType, []string{`"action"`}},
		{"nil", []*batch.Batch{state, batch.MustNew("action", nil)}, ErrInputType, []string{`"action"`}},
		{"batch", []*batch.Batch{state, batch.MustNew("action", batch.MustNew("x", 1))}, ErrInputType, []string{`"action"`}},
		{"object", []*batch.Batch{state, batch.MustNew("action", []any{"a", 1})}, ErrInputType, []string{`"action"`}},
	} {
		_, err := c.Call(nil, m, tc.bs...)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
			continue
		}
		for _, w := range tc.words {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not name %s", tc.name, err, w)
			}
		}
	}
	if m.calls != 0 {
		t.Errorf("the model was called %d times on bad input", m.calls)
	}
}

func TestCallerConversions(t *testing.T) {
	m := new(critic)
	var c Caller
	u8, err := nd.FromSlice([]uint8{1, 2}, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	act := tensor.MustFromSlice([]float32{0.5, 0.25}, 2, 1)
	b := batch.MustNew("state", u8)
	if err := b.Set("action", act); err != nil {
		t.Fatal(err)
	}
	q, err := c.Call(nil, m, b)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float32{10.5, 20.25}; !slices.Equal(q.Data(), want) {
		t.Errorf("output %v, want %v", q.Data(), want)
	}
	// The converted copy follows the array's contents on the next call.
	if err := u8.SetIndex(3, nd.I(0)); err != nil {
		t.Fatal(err)
	}
	q, _ = c.Call(nil, m, b)
	if q.Data()[0] != 30.5 {
		t.Errorf("after changing the array: %v, want 30.5 first", q.Data())
	}
	// A float32 array is shared, not copied.
	f32 := arr(1, 2)
	b = batch.MustNew("state", f32, "action", arr(0, 0))
	q, _ = c.Call(nil, m, b)
	nd.Data[float32](f32)[1] = 5
	q2, _ := c.Call(nil, m, b)
	if q.Data()[1] != 20 || q2.Data()[1] != 50 {
		t.Errorf("outputs %v then %v", q.Data(), q2.Data())
	}
}

// TestCallerNoAlloc locks the acting path: a Caller called again with the
// same arrays (refilled in place) on a reset no-grad tape does not allocate.
func TestCallerNoAlloc(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	mlp, err := NewMLP(MLPConfig{In: 4, Hidden: []int{16}, Out: 2}, rng)
	if err != nil {
		t.Fatal(err)
	}
	m := &obsModel{mlp}
	obs, _ := nd.FromSlice(make([]float32, 4), 1, 4)
	u8, _ := nd.FromSlice(make([]uint8, 4), 1, 4)
	for _, b := range []*batch.Batch{batch.MustNew("obs", obs, "info", "x"), batch.MustNew("obs", u8)} {
		var c Caller
		var tp tensor.Tape
		tp.SetGradEnabled(false)
		step := func() {
			tp.Reset()
			if _, err := c.Call(&tp, m, b); err != nil {
				t.Fatal(err)
			}
		}
		step()
		if n := testing.AllocsPerRun(20, step); n != 0 {
			t.Errorf("Caller.Call allocates %v times per call", n)
		}
	}
}

// obsModel feeds the "obs" input to a layer.
type obsModel struct{ Layer }

var obsInputs = []string{"obs"}

func (*obsModel) Inputs() []string { return obsInputs }
func (m *obsModel) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	return m.Forward(tp, in[0])
}
