package algo_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// take returns the transitions of buf at indices, as a Learner samples them.
func take(t testing.TB, buf buffer.Buffer, indices []int) *batch.Batch {
	t.Helper()
	b := new(batch.Batch)
	if err := buf.TakeTo(b, indices); err != nil {
		t.Fatal(err)
	}
	return b
}

// obsTarget is a target function that values an observation x (one float)
// at scale·x, and records the observations it was given.
type obsTarget struct {
	scale float32
	seen  []float32
}

func (o *obsTarget) values(dst []float32, next *batch.Batch) error {
	a, err := next.Array("obs")
	if err != nil {
		return err
	}
	obs := nd.Data[float32](a) // TakeTo makes contiguous arrays
	if len(obs) != len(dst) {
		return errors.New("one observation per target value expected")
	}
	o.seen = append(o.seen[:0], obs...)
	for i, x := range obs {
		dst[i] = o.scale * x
	}
	return nil
}

// TestQReturns checks the returns QReturns stores and the observations it
// hands to the target function. The test buffers' obs_next of a step is its
// reward, so the target function sees the rewards of the windows' last steps.
func TestQReturns(t *testing.T) {
	for _, tc := range []struct {
		name    string
		buf     func(testing.TB) buffer.Buffer
		indices []int
		gamma   float64
		n       int
		scale   float32
		seen    []float64 // obs_next of the windows' last steps
		want    []float64
	}{
		{
			// n = 1 reads obs_next from the batch itself. Index 2 (reward
			// 3) terminated: 3. Index 1 (reward 2): 2 + 0.9·10·2. Index 5
			// (reward 20, truncated: bootstraps): 20 + 0.9·10·20.
			name: "one step", buf: vectorBuffer, indices: []int{2, 1, 5},
			gamma: 0.9, n: 1, scale: 10,
			seen: []float64{3, 2, 20}, want: []float64{3, 20, 200},
		},
		{
			// The windows of TestNStep's wrap-around case end at indices
			// 4, 0, 1, 1, 1 (rewards 5, 6, 7, 7, 7); with targets equal to
			// those observations, t2 → 3 + 0.5·4 + 0.25·5 + 0.125·5 and
			// so on (hand-computed).
			name: "wrap-around", buf: wrapBuffer, indices: []int{2, 3, 4, 0, 1},
			gamma: 0.5, n: 3, scale: 1,
			seen: []float64{5, 6, 7, 7, 7},
			want: []float64{6.875, 8.75, 10.625, 11.25, 10.5},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			buf := tc.buf(t)
			b := take(t, buf, tc.indices)
			var q algo.QReturns
			tg := &obsTarget{scale: tc.scale}
			if err := q.Preprocess(b, buf, tc.indices, tc.gamma, tc.n, tg.values); err != nil {
				t.Fatal(err)
			}
			checkSlice(t, "observations given to the target", tg.seen, tc.seen, 0)
			ret, err := b.Array("returns")
			if err != nil {
				t.Fatal(err)
			}
			checkSlice(t, "returns", nd.ToSlice[float32](ret), tc.want, 1e-6)
		})
	}
}

// TestQReturnsNStep compares QReturns with NStep given the same targets,
// read from the buffer directly, over sampled indices of the vector buffer.
func TestQReturnsNStep(t *testing.T) {
	buf := vectorBuffer(t)
	indices := []int{6, 0, 3, 4, 4, 1, 7, 2, 5}
	for n := 1; n <= 4; n++ {
		var s algo.NStep
		last := s.Windows(buf, indices, 0.9, n)
		rew := buf.Rew()
		target := make([]float32, len(last))
		for k, i := range last {
			target[k] = 3 * float32(rew[i]) // obs_next of step i is its reward
		}
		want := make([]float32, len(indices))
		s.ReturnsTo(want, target)

		b := take(t, buf, indices)
		var q algo.QReturns
		if err := q.Preprocess(b, buf, indices, 0.9, n, (&obsTarget{scale: 3}).values); err != nil {
			t.Fatal(err)
		}
		ret, _ := b.Array("returns")
		if got := nd.ToSlice[float32](ret); !slices.Equal(got, want) {
			t.Errorf("n = %d: returns %v, NStep gives %v", n, got, want)
		}
	}
}

// TestQReturnsErrors checks that a batch without obs_next and a failing
// target function are errors, and that the target's error comes back as it
// is.
func TestQReturnsErrors(t *testing.T) {
	buf := vectorBuffer(t)
	var q algo.QReturns
	noNext := batch.MustNew("obs", nd.Zeros(nd.Float32, 2, 1))
	if err := q.Preprocess(noNext, buf, []int{0, 1}, 0.9, 1, (&obsTarget{}).values); err == nil {
		t.Error("a batch without obs_next gave no error")
	}
	boom := errors.New("target network failed")
	failing := func([]float32, *batch.Batch) error { return boom }
	if err := q.Preprocess(take(t, buf, []int{0, 1}), buf, []int{0, 1}, 0.9, 2, failing); !errors.Is(err, boom) {
		t.Errorf("error %v; want the target's error", err)
	}
}

// TestDiscreteActions checks the category indices read from "act" for the
// dtypes a buffer may hold, and the refused batches.
func TestDiscreteActions(t *testing.T) {
	space, err := env.NewDiscrete(3, 1) // actions 1, 2, 3
	if err != nil {
		t.Fatal(err)
	}
	two, _ := env.NewDiscrete(2, 0)
	for _, c := range []struct {
		name  string
		act   any
		space *env.Discrete
		want  []int // nil: an error
	}{
		{"int64", nd.MustNew([]int64{3, 1, 2}), space, []int{2, 0, 1}},
		{"int32", nd.MustNew([]int32{2, 2}), space, []int{1, 1}},
		{"uint8", nd.MustNew([]uint8{1, 3}), space, []int{0, 2}},
		{"strided", nd.MustNew([]int64{1, 9, 3, 9}).Index(nd.Step(2)), space, []int{0, 2}},
		{"bool", nd.MustNew([]bool{true, false}), two, []int{1, 0}},
		{"below the start", nd.MustNew([]int64{0}), space, nil},
		{"past the end", nd.MustNew([]int64{4}), space, nil},
		{"float", nd.MustNew([]float32{1}), space, nil},
		{"2-d", nd.MustNew([][]int64{{1}, {2}}), space, nil},
		{"missing", nil, space, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := batch.MustNew("obs", nd.Zeros(nd.Float32, 2))
			if c.act != nil {
				if err := b.Set("act", c.act); err != nil {
					t.Fatal(err)
				}
			}
			var a algo.DiscreteActions
			got, err := a.Read(b, c.space)
			switch {
			case c.want == nil && err == nil:
				t.Errorf("Read = %v; want an error", got)
			case c.want != nil && err != nil:
				t.Errorf("Read: %v", err)
			case !slices.Equal(got, c.want):
				t.Errorf("Read = %v; want %v", got, c.want)
			}
		})
	}
}

// TestUpdateTarget checks hard updates every freq steps and Polyak steps.
func TestUpdateTarget(t *testing.T) {
	params := func(w ...float32) (nn.Params, *tensor.Tensor) {
		x := tensor.MustFromSlice(w, len(w)).SetRequiresGrad(true)
		return nn.Params{{Name: "w", Tensor: x}}, x
	}
	online, _ := params(4, 8)
	target, tw := params(0, 0)

	// freq 3: steps 1 and 2 leave the target alone, step 3 copies.
	for step, want := range map[int64][]float32{1: {0, 0}, 2: {0, 0}, 3: {4, 8}} {
		tw.Data()[0], tw.Data()[1] = 0, 0
		algo.UpdateTarget(target, online, step, 3, 0)
		if !slices.Equal(tw.Data(), want) {
			t.Errorf("freq 3, step %d: target %v; want %v", step, tw.Data(), want)
		}
	}
	// τ = 0.25 from (0, 0): 0.25·(4, 8), then 0.25·(4, 8) + 0.75·(1, 2).
	tw.Data()[0], tw.Data()[1] = 0, 0
	algo.UpdateTarget(target, online, 1, 0, 0.25)
	algo.UpdateTarget(target, online, 2, 0, 0.25)
	if want := []float32{1.75, 3.5}; !slices.Equal(tw.Data(), want) {
		t.Errorf("τ 0.25, two steps: target %v; want %v", tw.Data(), want)
	}

	// Networks of different structures are a programmer error.
	other, _ := params(1, 2, 3)
	defer func() {
		if err, ok := recover().(error); !ok || !errors.Is(err, algo.ErrValue) {
			t.Errorf("UpdateTarget of mismatched networks panicked with %v; want an error wrapping ErrValue", err)
		}
	}()
	algo.UpdateTarget(other, online, 3, 3, 0)
}
