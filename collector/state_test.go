package collector_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
)

// TestCollectorState: a run resumed from saved states (the vector env's,
// the collector's, the random source's) goes on exactly as the
// uninterrupted run, episodes in progress included, with random actions
// and with a policy that has a hidden state.
func TestCollectorState(t *testing.T) {
	for _, tc := range []struct {
		name   string
		random bool
	}{{"random", true}, {"hidden state", false}} {
		t.Run(tc.name, func(t *testing.T) {
			var log []string
			start := func(src *rand.PCG) (*collector.Collector, *vector.Sync) {
				v := cartPoles(t, 3, vector.NewSync)
				c, err := collector.New(collector.Config{Env: v, Policy: &fixedPolicy{State: true}, Buffer: vecBuf(t, 3, 100),
					Rand: rand.New(src), OnStep: func(e collector.StepEvent) {
						o, _ := e.Batch.Array("obs")
						a, _ := e.Batch.Array("act")
						line := fmt.Sprint(e.Env, nd.ToSlice[float32](o.Index(nd.I(e.Row))), nd.Data[int64](a)[e.Row])
						if hs, err := e.Batch.Array("policy.hidden_state"); err == nil {
							line += fmt.Sprint(" ", nd.ToSlice[float32](hs.Index(nd.I(e.Row))))
						}
						log = append(log, line)
					}})
				if err != nil {
					t.Fatal(err)
				}
				return c, v
			}
			req := collector.Request{NStep: 60, Random: tc.random}
			src := rand.NewPCG(3, 4)
			c, v := start(src)
			if err := c.Reset(bg, seedsOf(3)); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Collect(bg, collector.Request{NStep: 31, Random: tc.random}); err != nil {
				t.Fatal(err)
			}
			envState, err := v.MarshalState()
			if err != nil {
				t.Fatal(err)
			}
			state, err := c.MarshalState()
			if err != nil {
				t.Fatal(err)
			}
			rngState, err := src.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			log = nil
			want, err := c.Collect(bg, req)
			if err != nil {
				t.Fatal(err)
			}
			wantLog := log

			src2 := rand.NewPCG(0, 0)
			if err := src2.UnmarshalBinary(rngState); err != nil {
				t.Fatal(err)
			}
			c2, v2 := start(src2)
			if err := v2.UnmarshalState(envState); err != nil {
				t.Fatal(err)
			}
			if err := c2.UnmarshalState(state); err != nil {
				t.Fatal(err)
			}
			log = nil
			got, err := c2.Collect(bg, req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(log, wantLog) {
				t.Errorf("the resumed run differs:\n got %v\nwant %v", log, wantLog)
			}
			if !reflect.DeepEqual(got.Returns, want.Returns) || len(want.Returns) == 0 {
				t.Errorf("returns %v, want %v", got.Returns, want.Returns)
			}
		})
	}
}

// TestCollectorStateErrors: states of other collectors and corrupt data
// are refused, leaving the collector as it was.
func TestCollectorStateErrors(t *testing.T) {
	three, _ := newCollector(t, cartPoles(t, 3, vector.NewSync), &fixedPolicy{}, 10)
	two, _ := newCollector(t, cartPoles(t, 2, vector.NewSync), &fixedPolicy{}, 10)
	withState, _ := newCollector(t, cartPoles(t, 3, vector.NewSync), &fixedPolicy{State: true}, 10)
	if _, err := withState.Collect(bg, collector.Request{NStep: 3}); err != nil {
		t.Fatal(err)
	}
	good, err := three.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	fromTwo, err := two.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	hidden, err := withState.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"empty":     nil,
		"truncated": good[:len(good)-3],
		"other tag": append([]byte("x"), good[1:]...),
		"two envs":  fromTwo,
	} {
		if err := three.UnmarshalState(data); !errors.Is(err, collector.ErrState) {
			t.Errorf("%s: %v, want ErrState", name, err)
		}
	}
	if err := three.UnmarshalState(good); err != nil {
		t.Errorf("its own state: %v", err)
	}
	// A hidden state is restored into a collector whose policy has not
	// acted yet; one of another shape is refused.
	if err := three.UnmarshalState(hidden); err != nil {
		t.Errorf("a state with a hidden state: %v", err)
	}
	p := &fixedPolicy{State: true}
	wide := policyFunc(func(dst, obs *batch.Batch, state any, explore bool) error {
		if err := p.Act(dst, obs, nil, explore); err != nil {
			return err
		}
		k, _ := obs.Len()
		arrayIn(dst, "state", nd.Float32, k, 2)
		return nil
	})
	other, _ := newCollector(t, cartPoles(t, 3, vector.NewSync), wide, 10)
	if _, err := other.Collect(bg, collector.Request{NStep: 3}); err != nil {
		t.Fatal(err)
	}
	if err := other.UnmarshalState(hidden); !errors.Is(err, collector.ErrState) {
		t.Errorf("a hidden state of another shape: %v, want ErrState", err)
	}
}

// FuzzUnmarshalState feeds arbitrary bytes to UnmarshalState, which must
// return an error or succeed, never panic, and leave a collector that
// still collects.
func FuzzUnmarshalState(f *testing.F) {
	c, _ := newCollector(f, fakeVec(f, envtest.Config{}, []int{3}, []int{4}), &fixedPolicy{State: true}, 10)
	if _, err := c.Collect(bg, collector.Request{NStep: 3}); err != nil {
		f.Fatal(err)
	}
	good, err := c.MarshalState()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte("gorl collector state/1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := c.UnmarshalState(data); err != nil && !errors.Is(err, collector.ErrState) {
			t.Fatalf("UnmarshalState: %v, want an error wrapping ErrState", err)
		}
		if _, err := c.Collect(bg, collector.Request{NStep: 2}); err != nil {
			t.Fatalf("Collect after UnmarshalState: %v", err)
		}
	})
}
