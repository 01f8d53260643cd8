package collector_test

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
)

// collectors runs the shared tests with both collectors and both vector
// envs.
var collectors = []struct {
	name         string
	async, aColl bool
}{
	{"Collector/Sync", false, false},
	{"Collector/Async", true, false},
	{"AsyncCollector/Sync", false, true},
	{"AsyncCollector/Async", true, true},
}

// collector returns a Collect of NStep steps by a new collector of the
// kind over v.
func collector_(t *testing.T, v vector.Env, aColl bool) func(ctx context.Context, nStep int) error {
	t.Helper()
	if aColl {
		c := newAsync(t, v, &fixedPolicy{}, vecBuf(t, v.Len(), 100), 0, 0)
		return func(ctx context.Context, nStep int) error {
			_, err := c.Collect(ctx, collector.Request{NStep: nStep})
			return err
		}
	}
	c, _ := newCollector(t, v, &fixedPolicy{}, 100)
	return func(ctx context.Context, nStep int) error {
		_, err := c.Collect(ctx, collector.Request{NStep: nStep})
		return err
	}
}

// collect runs one Collect of NStep steps by a new collector of the kind.
func collect(t *testing.T, v vector.Env, aColl bool, ctx context.Context, nStep int) error {
	t.Helper()
	return collector_(t, v, aColl)(ctx, nStep)
}

// newCollectorHooked returns a Collector over v whose OnStep calls hook.
func newCollectorHooked(t *testing.T, v vector.Env, hook func()) *collector.Collector {
	t.Helper()
	c, err := collector.New(collector.Config{Env: v, Policy: &fixedPolicy{}, Buffer: vecBuf(t, v.Len(), 100),
		OnStep: func(collector.StepEvent) { hook() }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCollectHangingEnv: with a step timeout, an env whose Step never
// returns ends the Collect with an error naming the env and its step.
func TestCollectHangingEnv(t *testing.T) {
	for _, k := range collectors {
		t.Run(k.name, func(t *testing.T) {
			unblock := make(chan struct{})
			defer close(unblock)
			envs := []env.Env{
				envtest.MustNew(envtest.Config{ID: 0, Lengths: []int{100}}),
				envtest.MustNew(envtest.Config{ID: 1, Lengths: []int{100}, BlockAt: 4, Unblock: unblock}),
			}
			v, err := vector.New(envs, vector.Config{Async: k.async, StepTimeout: 30 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { envtest.Within(t, 5*time.Second, "Close", func() { v.Close() }) }()
			run := collector_(t, v, k.aColl)
			envtest.Within(t, 5*time.Second, "Collect", func() { err = run(bg, 50) })
			const want = "env 1: step 4 of the episode (4 in all) did not return within 30ms"
			if !errors.Is(err, vector.ErrStepTimeout) || !strings.Contains(err.Error(), want) {
				t.Fatalf("Collect = %v, want ErrStepTimeout with %q", err, want)
			}
		})
	}
}

// TestCollectContextHangingEnv: a context that ends while an Async env
// hangs ends the Collect at once (no step timeout set), with ctx's error.
func TestCollectContextHangingEnv(t *testing.T) {
	for _, k := range collectors {
		if !k.async {
			continue // Sync waits for its env; the step timeout bounds it
		}
		t.Run(k.name, func(t *testing.T) {
			unblock := make(chan struct{})
			envs := []env.Env{
				envtest.MustNew(envtest.Config{ID: 0, Lengths: []int{100}}),
				envtest.MustNew(envtest.Config{ID: 1, Lengths: []int{100}, BlockAt: 4, Unblock: unblock}),
			}
			v, err := vector.NewAsync(envs)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(bg, 30*time.Millisecond)
			defer cancel()
			run := collector_(t, v, k.aColl)
			envtest.Within(t, 5*time.Second, "Collect", func() { err = run(ctx, 50) })
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Collect = %v, want context.DeadlineExceeded", err)
			}
			close(unblock) // Close waits for the env without a step timeout
			envtest.Within(t, 5*time.Second, "Close", func() { v.Close() })
		})
	}
}

// TestCollectCancelBetweenSteps: a context cancelled during a Collect (here
// by the OnStep hook of the third env step) stops it before the next
// vector step with an error wrapping context.Canceled.
func TestCollectCancelBetweenSteps(t *testing.T) {
	for _, async := range []bool{false, true} {
		v, err := vector.New([]env.Env{envtest.MustNew(envtest.Config{Lengths: []int{100}})}, vector.Config{Async: async})
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		ctx, cancel := context.WithCancel(bg)
		defer cancel()
		steps := 0
		c := newCollectorHooked(t, v, func() {
			if steps++; steps == 3 {
				cancel()
			}
		})
		s, err := c.Collect(ctx, collector.Request{NStep: 1000})
		if !errors.Is(err, context.Canceled) || s.Steps != 3 {
			t.Errorf("async %v: Collect = %d steps, %v; want 3 steps and context.Canceled", async, s.Steps, err)
		}
	}
}

// TestCollectPanicStack: the stack of an env's panic reaches the caller
// through the Collect's error.
func TestCollectPanicStack(t *testing.T) {
	for _, k := range collectors {
		t.Run(k.name, func(t *testing.T) {
			envs := []env.Env{
				envtest.MustNew(envtest.Config{ID: 0, Lengths: []int{100}}),
				envtest.MustNew(envtest.Config{ID: 1, Lengths: []int{100}, PanicAt: 3}),
			}
			v, err := vector.New(envs, vector.Config{Async: k.async})
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			err = collect(t, v, k.aColl, bg, 50)
			var pe *vector.PanicError
			if !errors.As(err, &pe) || pe.Env != 1 {
				t.Fatalf("Collect = %v, want a *vector.PanicError of env 1", err)
			}
			// The stack shows where the env panicked.
			if !strings.Contains(string(pe.Stack), "envtest.(*Fake).Step") {
				t.Errorf("PanicError.Stack does not show the env's Step:\n%s", pe.Stack)
			}
		})
	}
}

// TestCollectNonFinite: a NaN reward ends the Collect with an error naming
// the env and its step, unless the vector env allows it.
func TestCollectNonFinite(t *testing.T) {
	for _, k := range collectors {
		for _, allow := range []bool{false, true} {
			t.Run(k.name, func(t *testing.T) {
				envs := []env.Env{
					envtest.MustNew(envtest.Config{ID: 0, Lengths: []int{100}}),
					envtest.MustNew(envtest.Config{ID: 1, Lengths: []int{100}, Reward: func(_, s int) float64 {
						if s == 5 {
							return math.NaN()
						}
						return 1
					}}),
				}
				v, err := vector.New(envs, vector.Config{Async: k.async, AllowNonFinite: allow})
				if err != nil {
					t.Fatal(err)
				}
				defer v.Close()
				err = collect(t, v, k.aColl, bg, 20)
				const want = "env 1: step 5 of the episode (5 in all): reward NaN"
				if allow && err != nil {
					t.Fatalf("with AllowNonFinite: %v", err)
				}
				if !allow && (!errors.Is(err, vector.ErrNonFinite) || !strings.Contains(err.Error(), want)) {
					t.Fatalf("Collect = %v, want ErrNonFinite with %q", err, want)
				}
			})
		}
	}
}

// TestCollectEnvID: every stored transition's info holds env_id, the env's
// id, as Tianshou's vector envs add it; the policy sees it too.
func TestCollectEnvID(t *testing.T) {
	var seen [][]int64
	pol := policyFunc(func(dst, obs *batch.Batch, _ any, _ bool) error {
		id, err := obs.Array("info.env_id")
		if err != nil {
			return err
		}
		seen = append(seen, nd.ToSlice[int64](id))
		arrayIn(dst, "act", nd.Int64, id.Dim(0))
		return nil
	})
	c, buf := newCollector(t, fakeVec(t, envtest.Config{}, []int{2}, []int{3}, []int{4}), pol, 10)
	if _, err := c.Collect(bg, collector.Request{NStep: 6}); err != nil {
		t.Fatal(err)
	}
	if want := [][]int64{{0, 1, 2}, {0, 1, 2}}; !reflect.DeepEqual(seen, want) {
		t.Errorf("info.env_id given to the policy %v, want %v", seen, want)
	}
	// Sub-buffer i (rows 10i…) holds env i's steps.
	data, err := buf.Take([]int{0, 1, 10, 11, 20, 21})
	if err != nil {
		t.Fatal(err)
	}
	id, err := data.Array("info.env_id")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := nd.ToSlice[int64](id), []int64{0, 0, 1, 1, 2, 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("stored info.env_id %v, want %v", got, want)
	}
}
