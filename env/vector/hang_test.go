package vector_test

import (
	"context"
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
)

// waitGoroutines waits until at most n goroutines run, failing after a
// second.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > n && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := runtime.NumGoroutine(); got > n {
		t.Errorf("%d goroutines, want at most %d", got, n)
	}
}

func TestStepTimeout(t *testing.T) {
	const timeout = 50 * time.Millisecond
	for _, async := range []bool{false, true} {
		for _, how := range []string{"Step", "Send/Recv"} {
			name := map[bool]string{false: "Sync", true: "Async"}[async] + "/" + how
			t.Run(name, func(t *testing.T) {
				before := runtime.NumGoroutine()
				unblock := make(chan struct{})
				envs, fs := fakes(t, 3, envtest.Config{Lengths: []int{100}})
				// Env 1 hangs in the third Step of its life.
				fs[1] = envtest.MustNew(envtest.Config{ID: 1, Lengths: []int{100}, BlockAt: 3, Unblock: unblock})
				envs[1] = fs[1]
				v, err := vector.New(envs, vector.Config{Async: async, StepTimeout: timeout})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := v.Reset(bg, nil, nil); err != nil {
					t.Fatal(err)
				}
				step := func() (err error) {
					if how == "Step" {
						_, err = v.Step(bg, nil, actions(3, 1))
						return err
					}
					if err := v.Send(nil, actions(3, 1)); err != nil {
						return err
					}
					for v.Running() > 0 {
						if _, err := v.Recv(bg, 0); err != nil {
							return err
						}
					}
					return nil
				}
				for i := 0; i < 2; i++ {
					if err := step(); err != nil {
						t.Fatal(err)
					}
				}
				start := time.Now()
				envtest.Within(t, 5*time.Second, "the third step", func() { err = step() })
				// The message names env 1 and its step: the third of its
				// episode and of its life.
				const want = "env 1: step 3 of the episode (3 in all) did not return within 50ms"
				if !errors.Is(err, vector.ErrStepTimeout) || !strings.Contains(err.Error(), want) {
					t.Fatalf("hanging step: %v, want ErrStepTimeout with %q", err, want)
				}
				if took := time.Since(start); took < timeout {
					t.Errorf("the step failed after %v, before the timeout %v", took, timeout)
				}
				// The vector env is unusable from then on.
				if _, err := v.Reset(bg, nil, nil); !errors.Is(err, vector.ErrStepTimeout) {
					t.Errorf("Reset after the timeout: %v, want ErrStepTimeout", err)
				}
				if _, err := v.MarshalState(); !errors.Is(err, vector.ErrStepTimeout) {
					t.Errorf("MarshalState after the timeout: %v, want ErrStepTimeout", err)
				}
				envtest.Within(t, 5*time.Second, "Close", func() { err = v.Close() })
				if err == nil || !strings.Contains(err.Error(), "env 1: not closed") {
					t.Errorf("Close = %v, want an error naming env 1", err)
				}
				for i, f := range fs {
					if want := map[bool]int{true: 0, false: 1}[i == 1]; f.Closed() != want {
						t.Errorf("env %d closed %d times, want %d", i, f.Closed(), want)
					}
				}
				close(unblock) // the abandoned goroutine ends
				waitGoroutines(t, before)
			})
		}
	}
}

func TestStepTimeoutReset(t *testing.T) {
	// A slow env within the timeout is not an error; a Reset that hangs
	// is named as a reset.
	for _, async := range []bool{false, true} {
		t.Run(map[bool]string{false: "Sync", true: "Async"}[async], func(t *testing.T) {
			envs, _ := fakes(t, 2, envtest.Config{Lengths: []int{100}, Sleep: time.Millisecond})
			unblock := make(chan struct{})
			defer close(unblock)
			envs[0] = &blockingReset{Env: envs[0], unblock: unblock}
			v, err := vector.New(envs, vector.Config{Async: async, StepTimeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			if _, err := v.Reset(bg, []int{1}, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := v.Step(bg, []int{1}, actions(1, 0)); err != nil {
				t.Fatalf("a step within the timeout: %v", err)
			}
			v2, err := vector.New([]env.Env{&blockingReset{Env: envtest.MustNew(envtest.Config{}), unblock: unblock}},
				vector.Config{Async: async, StepTimeout: 20 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			envtest.Within(t, 5*time.Second, "Reset", func() { _, err = v2.Reset(bg, nil, nil) })
			if !errors.Is(err, vector.ErrStepTimeout) || !strings.Contains(err.Error(), "env 0: reset did not return") {
				t.Errorf("hanging Reset: %v, want ErrStepTimeout naming the reset of env 0", err)
			}
			envtest.Within(t, 5*time.Second, "Close", func() { v2.Close() })
		})
	}
}

// blockingReset is an env whose Reset blocks until unblock is closed.
type blockingReset struct {
	env.Env
	unblock <-chan struct{}
}

func (b *blockingReset) Reset(seed env.Seed) (any, env.Info, error) {
	<-b.unblock
	return b.Env.Reset(seed)
}

func TestContextEndsWait(t *testing.T) {
	// A cancelled context stops Sync before its next env and Async at
	// once, with ctx's error; Async's Close then waits for the hanging env
	// no longer than the step timeout.
	for _, async := range []bool{false, true} {
		t.Run(map[bool]string{false: "Sync", true: "Async"}[async], func(t *testing.T) {
			unblock := make(chan struct{})
			defer close(unblock)
			envs := []env.Env{
				envtest.MustNew(envtest.Config{ID: 0, Lengths: []int{100}, BlockAt: 1, Unblock: unblock}),
				envtest.MustNew(envtest.Config{ID: 1, Lengths: []int{100}}),
			}
			v, err := vector.New(envs, vector.Config{Async: async, StepTimeout: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := v.Reset(bg, nil, nil); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(bg)
			cancel()
			if _, err := v.Step(ctx, []int{1}, actions(1, 0)); !errors.Is(err, context.Canceled) {
				t.Fatalf("Step with a cancelled context: %v, want context.Canceled", err)
			}
			if async {
				ctx, cancel := context.WithTimeout(bg, 10*time.Millisecond)
				defer cancel()
				envtest.Within(t, 5*time.Second, "Step", func() { _, err = v.Step(ctx, []int{0}, actions(1, 0)) })
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("Step of a hanging env with a deadline: %v, want context.DeadlineExceeded", err)
				}
			}
			envtest.Within(t, 5*time.Second, "Close", func() { err = v.Close() })
			if async && (err == nil || !strings.Contains(err.Error(), "env 0: not closed")) {
				t.Errorf("Close = %v, want an error naming the abandoned env 0", err)
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	if _, err := vector.New(fakesOnly(t, 1), vector.Config{StepTimeout: -time.Second}); err == nil {
		t.Error("New with a negative StepTimeout: nil error")
	}
	for _, async := range []bool{false, true} {
		v, err := vector.New(fakesOnly(t, 1), vector.Config{Async: async})
		if err != nil {
			t.Fatal(err)
		}
		_, isAsync := v.(*vector.Async)
		if isAsync != async {
			t.Errorf("New with Async %v made a %T", async, v)
		}
		v.Close()
	}
}

func fakesOnly(t *testing.T, n int) []env.Env {
	envs, _ := fakes(t, n, envtest.Config{})
	return envs
}

// poisoned is a Fake whose at-th Step returns an observation with a
// non-finite element: bad in the array, or in the Dict's "pos".
type poisoned struct {
	*envtest.Fake
	at, n int
	bad   float32
}

func (p *poisoned) Step(a any) (any, float64, bool, bool, env.Info, error) {
	obs, r, term, trunc, info, err := p.Fake.Step(a)
	if p.n++; p.n == p.at {
		switch o := obs.(type) {
		case *nd.Array:
			nd.Data[float32](o)[2] = p.bad
		case *batch.Batch:
			pos, _ := o.Get("pos")
			nd.Data[float32](pos.(*nd.Array))[1] = p.bad
		}
	}
	return obs, r, term, trunc, info, err
}

func TestNonFinite(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	reward := func(v float64) func(e, s int) float64 {
		return func(e, s int) float64 {
			if s == 2 {
				return v
			}
			return 1
		}
	}
	tests := []struct {
		name string
		cfg  envtest.Config // of env 1
		bad  float32        // poisons the observation of step 2
		want string
	}{
		{"NaN reward", envtest.Config{Reward: reward(nan)}, 0, "env 1: step 2 of the episode (2 in all): reward NaN"},
		{"-Inf reward", envtest.Config{Reward: reward(-inf)}, 0, "env 1: step 2 of the episode (2 in all): reward -Inf"},
		{"NaN obs", envtest.Config{}, float32(nan), "env 1: step 2 of the episode (2 in all): observation element 2 is NaN"},
		{"Inf obs", envtest.Config{}, float32(inf), "env 1: step 2 of the episode (2 in all): observation element 2 is +Inf"},
		{"Inf Dict obs", envtest.Config{Dict: true}, float32(inf), "env 1: step 2 of the episode (2 in all): observation pos element 1 is +Inf"},
	}
	for _, k := range []bool{false, true} {
		for _, tt := range tests {
			for _, allow := range []bool{false, true} {
				name := map[bool]string{false: "Sync", true: "Async"}[k] + "/" + tt.name + map[bool]string{false: "", true: "/allowed"}[allow]
				t.Run(name, func(t *testing.T) {
					c0 := tt.cfg
					c0.Reward, c0.Lengths = nil, []int{100}
					c1 := tt.cfg
					c1.ID, c1.Lengths = 1, []int{100}
					envs := []env.Env{envtest.MustNew(c0), &poisoned{Fake: envtest.MustNew(c1), at: 2, bad: tt.bad}}
					if tt.bad == 0 {
						envs[1] = envtest.MustNew(c1)
					}
					v, err := vector.New(envs, vector.Config{Async: k, AllowNonFinite: allow})
					if err != nil {
						t.Fatal(err)
					}
					defer v.Close()
					if _, err := v.Reset(bg, nil, nil); err != nil {
						t.Fatal(err)
					}
					if _, err := v.Step(bg, nil, actions(2, 1)); err != nil {
						t.Fatal(err)
					}
					_, err = v.Step(bg, nil, actions(2, 1))
					if allow {
						if err != nil {
							t.Fatalf("with AllowNonFinite: %v", err)
						}
						return
					}
					if !errors.Is(err, vector.ErrNonFinite) || !strings.Contains(err.Error(), tt.want) {
						t.Fatalf("Step = %v, want ErrNonFinite with %q", err, tt.want)
					}
				})
			}
		}
	}
}
