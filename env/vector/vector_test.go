package vector_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
)

// kinds are the two implementations, run by every shared test.
var kinds = []struct {
	name string
	make func([]env.Env) (vector.Env, error)
}{
	{"Sync", func(e []env.Env) (vector.Env, error) { return vector.NewSync(e) }},
	{"Async", func(e []env.Env) (vector.Env, error) { return vector.NewAsync(e) }},
}

// fakes returns n fakes with IDs 0…n−1, env i's episodes lasting i+2 steps.
func fakes(t testing.TB, n int, cfg envtest.Config) ([]env.Env, []*envtest.Fake) {
	t.Helper()
	var es []env.Env
	var fs []*envtest.Fake
	for i := 0; i < n; i++ {
		c := cfg
		c.ID = i
		if c.Lengths == nil {
			c.Lengths = []int{i + 2}
		}
		f, err := envtest.New(c)
		if err != nil {
			t.Fatal(err)
		}
		es, fs = append(es, f), append(fs, f)
	}
	return es, fs
}

func newVec(t testing.TB, make func([]env.Env) (vector.Env, error), envs []env.Env) vector.Env {
	t.Helper()
	v, err := make(envs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

// actions returns n actions of value a.
func actions(n int, a int64) *nd.Array {
	x, _ := nd.Full(nd.Int64, a, n)
	return x
}

// obsRows returns the observations of a result as [][3]float32.
func obsRows(r *vector.Result) [][3]float32 {
	d := nd.Data[float32](r.Obs.(*nd.Array))
	var rows [][3]float32
	for i := 0; i+3 <= len(d); i += 3 {
		rows = append(rows, [3]float32{d[i], d[i+1], d[i+2]})
	}
	return rows
}

var bg = context.Background()

func TestResetAndStep(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			envs, _ := fakes(t, 3, envtest.Config{Reward: func(e, s int) float64 { return float64(e*100 + s) }})
			v := newVec(t, k.make, envs)
			if v.Len() != 3 || v.ObservationSpace().String() != "Box(0.0, inf, (3,), float32)" || v.ActionSpace().String() != "Discrete(2)" {
				t.Fatalf("Len %d, spaces %v %v", v.Len(), v.ObservationSpace(), v.ActionSpace())
			}
			r, err := v.Reset(bg, nil, []env.Seed{env.SeedOf(1), env.SeedOf(2), env.SeedOf(3)})
			if err != nil {
				t.Fatal(err)
			}
			// Fake observations are [ID, episode, step].
			if got := obsRows(r); !slices.Equal(got, [][3]float32{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}) || !slices.Equal(r.IDs, []int{0, 1, 2}) {
				t.Errorf("Reset: obs %v ids %v", got, r.IDs)
			}
			r, err = v.Step(bg, nil, actions(3, 1))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Rewards, []float64{1, 1, 1}) || slices.Contains(r.Terminated, true) {
				t.Errorf("step 1: rewards %v terminated %v", r.Rewards, r.Terminated)
			}
			// Env 0's episode (2 steps) ends now; env 1 and 2 go on.
			r, err = v.Step(bg, []int{2, 0, 1}, actions(3, 0))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.IDs, []int{2, 0, 1}) || !slices.Equal(obsRows(r), [][3]float32{{2, 0, 2}, {0, 0, 2}, {1, 0, 2}}) ||
				!slices.Equal(r.Rewards, []float64{2, 2, 2}) || !slices.Equal(r.Terminated, []bool{false, true, false}) {
				t.Errorf("step 2 of envs 2, 0, 1: ids %v obs %v rewards %v terminated %v", r.IDs, obsRows(r), r.Rewards, r.Terminated)
			}
			// No auto-reset: env 0 must be reset by the caller.
			if _, err := v.Step(bg, []int{0}, actions(1, 0)); !errors.Is(err, env.ErrNeedReset) || !bytes.Contains([]byte(err.Error()), []byte("env 0")) {
				t.Errorf("Step of an ended env: %v, want ErrNeedReset naming env 0", err)
			}
			r, err = v.Reset(bg, []int{0}, nil)
			if err != nil || !slices.Equal(obsRows(r), [][3]float32{{0, 1, 0}}) || r.Rewards[0] != 0 {
				t.Errorf("Reset of env 0: %v %v %v", obsRows(r), r.Rewards, err)
			}
			r, err = v.Step(bg, []int{0, 1}, actions(2, 1))
			if err != nil || !slices.Equal(r.Rewards, []float64{101, 3}) || !slices.Equal(r.Terminated, []bool{false, true}) {
				t.Errorf("after the reset: rewards %v terminated %v (%v)", r.Rewards, r.Terminated, err)
			}
		})
	}
}

func TestActions(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			envs, fs := fakes(t, 2, envtest.Config{Lengths: []int{100}})
			v := newVec(t, k.make, envs)
			if _, err := v.Reset(bg, nil, nil); err != nil {
				t.Fatal(err)
			}
			// int32 actions are cast to the space's int64.
			if _, err := v.Step(bg, nil, nd.MustNew([]int32{1, 0})); err != nil {
				t.Fatal(err)
			}
			if fs[0].LastAction() != 1 || fs[1].LastAction() != 0 {
				t.Errorf("the envs got %d and %d, want 1 and 0", fs[0].LastAction(), fs[1].LastAction())
			}
			bad := []any{
				nd.MustNew([]int64{1, 0, 1}),    // three rows for two envs
				nd.MustNew([][]int64{{1}, {0}}), // a trailing axis the space lacks
				nd.MustNew([]float64{1, 0}),     // float into int: not "same_kind"
				[]int64{1, 0},                   // not an array
				nd.MustNew([]int64{1, 5}),       // env 1 rejects 5
			}
			for _, a := range bad {
				if _, err := v.Step(bg, nil, a); !errors.Is(err, env.ErrAction) {
					t.Errorf("actions %v: %v, want ErrAction", a, err)
				}
			}
		})
	}
}

func expectPanic(t *testing.T, want error, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		if err, ok := recover().(error); !ok || !errors.Is(err, want) {
			t.Errorf("panic %v, want one wrapping %v", err, want)
		}
	}()
	f()
}

func TestMisuse(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			envs, _ := fakes(t, 2, envtest.Config{Lengths: []int{100}})
			v := newVec(t, k.make, envs)
			expectPanic(t, vector.ErrID, func() { v.Reset(bg, []int{2}, nil) })
			expectPanic(t, vector.ErrID, func() { v.Reset(bg, []int{-1}, nil) })
			expectPanic(t, vector.ErrID, func() { v.Step(bg, []int{1, 1}, actions(2, 0)) })
			expectPanic(t, vector.ErrNotRunning, func() { v.Recv(bg, 1) })
			if _, err := v.Reset(bg, nil, []env.Seed{env.SeedOf(1)}); err == nil {
				t.Error("one seed for two envs did not fail")
			}
			if _, err := v.Reset(bg, nil, nil); err != nil {
				t.Fatal(err)
			}
			if err := v.Send([]int{1}, actions(1, 0)); err != nil {
				t.Fatal(err)
			}
			expectPanic(t, vector.ErrBusy, func() { v.Step(bg, []int{0, 1}, actions(2, 0)) })
			expectPanic(t, vector.ErrBusy, func() { v.Send([]int{1}, actions(1, 0)) })
			expectPanic(t, vector.ErrBusy, func() { v.MarshalState() })
			if _, err := v.Recv(bg, 0); err != nil {
				t.Fatal(err)
			}
			if err := v.Close(); err != nil {
				t.Fatal(err)
			}
			expectPanic(t, vector.ErrClosed, func() { v.Step(bg, nil, actions(2, 0)) })
		})
	}
}

func TestSendRecvSync(t *testing.T) {
	envs, fs := fakes(t, 4, envtest.Config{Lengths: []int{100}})
	v := newVec(t, kinds[0].make, envs)
	v.Reset(bg, nil, nil)
	if err := v.Send([]int{3, 1, 2}, nd.MustNew([]int64{1, 0, 1})); err != nil {
		t.Fatal(err)
	}
	// Sync steps the sent envs in the order sent: 3 and 1 first.
	r, err := v.Recv(bg, 2)
	if err != nil || !slices.Equal(r.IDs, []int{3, 1}) || v.Running() != 1 {
		t.Fatalf("Recv(2): ids %v, %v, running %d", r.IDs, err, v.Running())
	}
	if fs[2].LastAction() != -1 {
		t.Error("env 2 was stepped before its Recv")
	}
	if err := v.Send([]int{0}, actions(1, 1)); err != nil {
		t.Fatal(err)
	}
	r, err = v.Recv(bg, 0)
	if err != nil || !slices.Equal(r.IDs, []int{2, 0}) || v.Running() != 0 || fs[2].LastAction() != 1 {
		t.Fatalf("Recv(0): ids %v, %v, running %d, env 2 got %d", r.IDs, err, v.Running(), fs[2].LastAction())
	}
	// A done context before anything is stepped gives its error and keeps the queue.
	v.Send(nil, actions(4, 0))
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if r, err := v.Recv(ctx, 0); r != nil || !errors.Is(err, context.Canceled) || v.Running() != 4 {
		t.Errorf("Recv with a cancelled context: %v, %v, running %d", r, err, v.Running())
	}
}

// gated is a Fake whose Step waits for a release, so that tests decide the
// order in which envs finish.
type gated struct {
	*envtest.Fake
	release chan struct{}
}

func newGated(id int) *gated {
	return &gated{envtest.MustNew(envtest.Config{ID: id, Lengths: []int{100}}), make(chan struct{}, 10)}
}

func (g *gated) Step(action any) (any, float64, bool, bool, env.Info, error) {
	<-g.release
	return g.Fake.Step(action)
}

func gatedEnvs(n int) ([]env.Env, []*gated) {
	var es []env.Env
	var gs []*gated
	for i := 0; i < n; i++ {
		g := newGated(i)
		es, gs = append(es, g), append(gs, g)
	}
	return es, gs
}

func TestSendRecvAsync(t *testing.T) {
	envs, gates := gatedEnvs(4)
	v := newVec(t, kinds[1].make, envs)
	v.Reset(bg, nil, nil)
	if err := v.Send(nil, actions(4, 1)); err != nil {
		t.Fatal(err)
	}
	// Envs finish in the order they are released.
	gates[3].release <- struct{}{}
	r, err := v.Recv(bg, 1)
	if err != nil || !slices.Equal(r.IDs, []int{3}) || v.Running() != 3 {
		t.Fatalf("Recv(1): ids %v, %v, running %d; want 3", r.IDs, err, v.Running())
	}
	gates[1].release <- struct{}{}
	if r, err = v.Recv(bg, 1); err != nil || !slices.Equal(r.IDs, []int{1}) {
		t.Fatalf("Recv(1): ids %v, %v; want 1", r.IDs, err)
	}
	// A deadline before any env finishes: no Result and the deadline's error.
	ctx, cancel := context.WithTimeout(bg, time.Millisecond)
	defer cancel()
	if r, err := v.Recv(ctx, 0); r != nil || !errors.Is(err, context.DeadlineExceeded) || v.Running() != 2 {
		t.Fatalf("Recv before a deadline: %v, %v, running %d", r, err, v.Running())
	}
	// A deadline after one of two envs finished: that one, without error.
	gates[0].release <- struct{}{}
	ctx, cancel = context.WithTimeout(bg, 100*time.Millisecond)
	defer cancel()
	r, err = v.Recv(ctx, 0)
	if err != nil || !slices.Equal(r.IDs, []int{0}) || !slices.Equal(obsRows(r), [][3]float32{{0, 0, 1}}) || v.Running() != 1 {
		t.Fatalf("Recv with a deadline: ids %v obs %v, %v, running %d", r.IDs, obsRows(r), err, v.Running())
	}
	// Env 3 sent again and released: waitNum 0 waits for both.
	v.Send([]int{3}, actions(1, 0))
	gates[3].release <- struct{}{}
	gates[2].release <- struct{}{}
	r, err = v.Recv(bg, 0)
	if got := slices.Sorted(slices.Values(r.IDs)); err != nil || !slices.Equal(got, []int{2, 3}) || v.Running() != 0 {
		t.Fatalf("Recv(0): ids %v, %v, running %d", r.IDs, err, v.Running())
	}
}

// Envs of an earlier Send that finish during a Step are kept for Recv, and
// a Step whose context ends leaves its unfinished envs to Recv.
func TestAsyncStepInterleaving(t *testing.T) {
	envs, gates := gatedEnvs(3)
	v := newVec(t, kinds[1].make, envs)
	v.Reset(bg, nil, nil)
	v.Send([]int{1}, actions(1, 1))
	gates[1].release <- struct{}{}
	gates[0].release <- struct{}{}
	gates[2].release <- struct{}{}
	r, err := v.Step(bg, []int{0, 2}, actions(2, 0))
	if err != nil || !slices.Equal(r.IDs, []int{0, 2}) || v.Running() != 1 {
		t.Fatalf("Step: %v, %v, running %d", r.IDs, err, v.Running())
	}
	r, err = v.Recv(bg, 0)
	if err != nil || !slices.Equal(r.IDs, []int{1}) || !slices.Equal(obsRows(r), [][3]float32{{1, 0, 1}}) {
		t.Fatalf("Recv of env 1: %v, %v", r, err)
	}
	gates[2].release <- struct{}{}
	ctx, cancel := context.WithTimeout(bg, 10*time.Millisecond)
	defer cancel()
	if _, err := v.Step(ctx, []int{0, 2}, actions(2, 0)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Step past its deadline: %v", err)
	}
	if v.Running() == 0 {
		t.Fatal("after the deadline no env runs, want env 0 (and env 2 if it was not collected)")
	}
	gates[0].release <- struct{}{}
	r, err = v.Recv(bg, 0)
	if err != nil || !slices.Contains(r.IDs, 0) || v.Running() != 0 {
		t.Fatalf("Recv after the deadline: %v, %v, running %d", r.IDs, err, v.Running())
	}
	for j, id := range r.IDs {
		if id == 0 && obsRows(r)[j] != [3]float32{0, 0, 2} {
			t.Errorf("env 0's observation %v, want [0 0 2]", obsRows(r)[j])
		}
	}
}

func TestEnvPanicsAndErrors(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			envs := []env.Env{
				envtest.MustNew(envtest.Config{ID: 0, Lengths: []int{100}}),
				envtest.MustNew(envtest.Config{ID: 1, Lengths: []int{100}, PanicAt: 2, ErrorAt: 3}),
			}
			v := newVec(t, k.make, envs)
			v.Reset(bg, nil, nil)
			if _, err := v.Step(bg, nil, actions(2, 1)); err != nil {
				t.Fatal(err)
			}
			_, err := v.Step(bg, nil, actions(2, 1))
			var pe *vector.PanicError
			if !errors.As(err, &pe) || pe.Env != 1 || !errors.Is(err, envtest.ErrFake) || len(pe.Stack) == 0 ||
				!bytes.HasPrefix([]byte(pe.Error()), []byte("env 1: panic: ")) {
				t.Fatalf("a panicking env: %v, want a *PanicError for env 1", err)
			}
			_, err = v.Step(bg, []int{1}, actions(1, 1))
			if !errors.Is(err, envtest.ErrFake) || errors.As(err, &pe) || !bytes.HasPrefix([]byte(err.Error()), []byte("env 1: ")) {
				t.Fatalf("a failing env: %v, want its error named env 1", err)
			}
			// The vector env still works.
			if _, err := v.Step(bg, nil, actions(2, 1)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestStateRoundTrip(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			envs, _ := fakes(t, 3, envtest.Config{})
			v := newVec(t, k.make, envs)
			run := func(steps int) []string {
				var log []string
				for i := 0; i < steps; i++ {
					r, err := v.Step(bg, nil, actions(3, 1))
					if err != nil {
						t.Fatal(err)
					}
					var ended []int
					for j, id := range r.IDs {
						if r.Terminated[j] {
							ended = append(ended, id)
						}
					}
					log = append(log, fmt.Sprint(obsRows(r), r.Rewards))
					if len(ended) > 0 {
						if _, err := v.Reset(bg, ended, nil); err != nil {
							t.Fatal(err)
						}
					}
				}
				return log
			}
			v.Reset(bg, nil, nil)
			run(3)
			saved, err := v.MarshalState()
			if err != nil {
				t.Fatal(err)
			}
			want := run(5)
			if err := v.UnmarshalState(saved); err != nil {
				t.Fatal(err)
			}
			if got := run(5); !slices.Equal(got, want) {
				t.Errorf("after restoring: %v, want %v", got, want)
			}
			// A corrupt state of the last env rolls the others back.
			before, _ := v.MarshalState()
			if err := v.UnmarshalState(saved[:len(saved)-1]); !errors.Is(err, env.ErrState) {
				t.Errorf("truncated state: %v, want ErrState", err)
			}
			after, _ := v.MarshalState()
			if !bytes.Equal(before, after) {
				t.Error("a failed UnmarshalState changed the envs")
			}
		})
	}
}

func TestCloseIsIdempotentAndLeavesNoGoroutine(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			envs, fs := fakes(t, 8, envtest.Config{Lengths: []int{100}, Sleep: 10 * time.Millisecond})
			v, err := k.make(envs)
			if err != nil {
				t.Fatal(err)
			}
			v.Reset(bg, nil, nil)
			v.Send(nil, actions(8, 1)) // still running when Close is called
			if err := v.Close(); err != nil {
				t.Fatal(err)
			}
			if err := v.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
			for i, f := range fs {
				if f.Closed() != 1 {
					t.Errorf("env %d closed %d times", i, f.Closed())
				}
			}
			// Goroutines that have exited may take a moment to be counted out.
			deadline := time.Now().Add(time.Second)
			for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			if n := runtime.NumGoroutine(); n > before {
				t.Errorf("%d goroutines after Close, %d before", n, before)
			}
		})
	}
}

func TestSpacesMustAgree(t *testing.T) {
	a := envtest.MustNew(envtest.Config{})
	b := must(env.NewFrameStack(envtest.MustNew(envtest.Config{}), 2))
	for _, k := range kinds {
		if _, err := k.make([]env.Env{a, b}); err == nil {
			t.Errorf("%s of envs with different spaces did not fail", k.name)
		}
		if _, err := k.make(nil); err == nil {
			t.Errorf("%s of no envs did not fail", k.name)
		}
	}
}

func TestRender(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			envs, _ := fakes(t, 3, envtest.Config{Lengths: []int{10}})
			v := newVec(t, k.make, envs)
			v.Reset(bg, nil, nil)
			v.Step(bg, []int{1}, actions(1, 0))
			frames, err := v.Render([]int{1, 2})
			if err != nil || len(frames) != 2 {
				t.Fatalf("Render: %d frames, %v", len(frames), err)
			}
			// The fake's gray level is its step count: 1 for env 1, 0 for env 2.
			if r, _, _, _ := frames[0].At(0, 0).RGBA(); r>>8 != 1 {
				t.Errorf("env 1's frame has level %d, want 1", r>>8)
			}
			if r, _, _, _ := frames[1].At(0, 0).RGBA(); r>>8 != 0 {
				t.Errorf("env 2's frame has level %d, want 0", r>>8)
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestSyncStepDoesNotAllocate(t *testing.T) {
	envs, _ := fakes(t, 4, envtest.Config{Lengths: []int{1 << 30}})
	v := newVec(t, kinds[0].make, envs)
	v.Reset(bg, nil, nil)
	act := actions(4, 1)
	ids := []int{3, 1}
	act2 := actions(2, 0)
	if n := testing.AllocsPerRun(100, func() {
		if _, err := v.Step(bg, nil, act); err != nil {
			t.Fatal(err)
		}
		if _, err := v.Step(bg, ids, act2); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Sync.Step: %v allocations, want 0", n)
	}
}

// The steady state of a collector over Sync: stepping 8 CartPoles and
// resetting those whose episode ended allocates nothing.
func TestSyncCartPoleDoesNotAllocate(t *testing.T) {
	v := newVec(t, kinds[0].make, cartPoles(t, 8))
	if _, err := v.Reset(bg, nil, seeds(8)); err != nil {
		t.Fatal(err)
	}
	act := actions(8, 1)
	ended := make([]int, 0, 8)
	if n := testing.AllocsPerRun(500, func() {
		r, err := v.Step(bg, nil, act)
		if err != nil {
			t.Fatal(err)
		}
		ended = ended[:0]
		for j, id := range r.IDs {
			if r.Terminated[j] || r.Truncated[j] {
				ended = append(ended, id)
			}
		}
		if len(ended) > 0 {
			if _, err := v.Reset(bg, ended, nil); err != nil {
				t.Fatal(err)
			}
		}
	}); n != 0 {
		t.Errorf("Sync.Step and Reset of 8 CartPoles: %v allocations, want 0", n)
	}
}

func TestAsyncStepDoesNotAllocate(t *testing.T) {
	envs, _ := fakes(t, 4, envtest.Config{Lengths: []int{1 << 30}})
	v := newVec(t, kinds[1].make, envs)
	v.Reset(bg, nil, nil)
	act := actions(4, 1)
	if n := testing.AllocsPerRun(100, func() {
		if _, err := v.Step(bg, nil, act); err != nil {
			t.Fatal(err)
		}
		v.Send(nil, act)
		if _, err := v.Recv(bg, 0); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Async.Step, Send and Recv: %v allocations, want 0", n)
	}
}

func TestDictObservations(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			envs, _ := fakes(t, 3, envtest.Config{Dict: true})
			v := newVec(t, k.make, envs)
			if _, err := v.Reset(bg, nil, nil); err != nil {
				t.Fatal(err)
			}
			r, err := v.Step(bg, []int{2, 0}, actions(2, 1))
			if err != nil {
				t.Fatal(err)
			}
			obs := r.Obs.(*batch.Batch)
			id, _ := obs.Array("id")
			pos, _ := obs.Array("pos")
			// Rows follow the ids: env 2 then env 0, each at episode 0, step 1.
			if !slices.Equal(nd.ToSlice[int64](id), []int64{2, 0}) || !slices.Equal(nd.ToSlice[float32](pos), []float32{0, 1, 0, 1}) {
				t.Errorf("obs %v", obs)
			}
			if n, _ := obs.Len(); n != 2 {
				t.Errorf("Len of the stacked observations = %d, want 2", n)
			}
		})
	}
	envs, _ := fakes(t, 3, envtest.Config{Dict: true, Lengths: []int{1 << 30}})
	v := newVec(t, kinds[0].make, envs)
	v.Reset(bg, nil, nil)
	act := actions(3, 1)
	if n := testing.AllocsPerRun(100, func() { v.Step(bg, nil, act) }); n != 0 {
		t.Errorf("Sync.Step with Dict observations: %v allocations, want 0", n)
	}
}

// dictActs is an env with a Dict action space whose observation is its
// last action's "a" value.
type dictActs struct {
	obs, act env.Space
	out      *nd.Array
}

func newDictActs() *dictActs {
	return &dictActs{
		obs: must(env.NewBox(0, 10, []int{}, nd.Int64)),
		act: must(env.NewDict(env.DictEntry{Key: "a", Space: must(env.NewDiscrete(3, 0))},
			env.DictEntry{Key: "b", Space: must(env.NewBox(-1.0, 1.0, []int{2}, nd.Float32))})),
		out: nd.Zeros(nd.Int64),
	}
}

func (d *dictActs) ObservationSpace() env.Space           { return d.obs }
func (d *dictActs) ActionSpace() env.Space                { return d.act }
func (d *dictActs) Close() error                          { return nil }
func (d *dictActs) Reset(env.Seed) (any, env.Info, error) { return d.out, nil, nil }
func (d *dictActs) Step(action any) (any, float64, bool, bool, env.Info, error) {
	if !d.act.Contains(action) {
		return nil, 0, false, false, nil, env.ErrAction
	}
	a, _ := action.(*batch.Batch).Array("a")
	nd.CopyTo(d.out, a)
	b, _ := action.(*batch.Batch).Array("b")
	return d.out, float64(nd.Data[float32](b)[1]), false, false, nil, nil
}

func TestDictActions(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			v := newVec(t, k.make, []env.Env{newDictActs(), newDictActs()})
			v.Reset(bg, nil, nil)
			acts := batch.MustNew("a", nd.MustNew([]int64{2, 1}), "b", nd.MustNew([][]float32{{0, 0.5}, {0, -0.5}}))
			r, err := v.Step(bg, nil, acts)
			if err != nil {
				t.Fatal(err)
			}
			if got := nd.ToSlice[int64](r.Obs.(*nd.Array)); !slices.Equal(got, []int64{2, 1}) || !slices.Equal(r.Rewards, []float64{0.5, -0.5}) {
				t.Errorf("obs %v rewards %v, want [2 1] and [0.5 -0.5]", got, r.Rewards)
			}
			if _, err := v.Step(bg, nil, nd.MustNew([]int64{1, 1})); !errors.Is(err, env.ErrAction) {
				t.Errorf("an array of actions for a Dict space: %v, want ErrAction", err)
			}
			if _, err := v.Step(bg, nil, batch.MustNew("a", nd.MustNew([]int64{1}), "b", nd.Zeros(nd.Float32, 1, 2))); !errors.Is(err, env.ErrAction) {
				t.Errorf("a Batch of one action for two envs: %v, want ErrAction", err)
			}
		})
	}
}
