package collector_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env/envtest"
)

// TestCollectNStepOneEnv: with one env, n_step is exact, and a second
// Collect continues the episode in progress. Expected rows by hand: the
// fake's episodes last 3 steps, its obs is [id, episode, step].
func TestCollectNStepOneEnv(t *testing.T) {
	v := fakeVec(t, envtest.Config{}, []int{3})
	buf := vecBuf(t, 1, 10)
	c, err := collector.New(collector.Config{Env: v, Policy: &fixedPolicy{}, Buffer: buf})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Reset(bg, nil); err != nil {
		t.Fatal(err)
	}
	s, err := c.Collect(bg, collector.Request{NStep: 4})
	if err != nil {
		t.Fatal(err)
	}
	if s.Steps != 4 || s.Episodes != 1 || !reflect.DeepEqual(s.Lens, []int{3}) || !reflect.DeepEqual(s.Returns, []float64{3}) {
		t.Fatalf("stats %+v, want 4 steps, one episode of length 3 and return 3", s)
	}
	s, err = c.Collect(bg, collector.Request{NStep: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Steps != 2 || s.Episodes != 1 || s.Lens[0] != 3 {
		t.Fatalf("second Collect: %+v, want 2 steps ending the episode begun before (length 3)", s)
	}
	want := []row{
		{"0.0.0", "0.0.1", 1, false}, {"0.0.1", "0.0.2", 1, false}, {"0.0.2", "0.0.3", 1, true},
		{"0.1.0", "0.1.1", 1, false}, {"0.1.1", "0.1.2", 1, false}, {"0.1.2", "0.1.3", 1, true},
	}
	if got := subRows(t, buf, 0, 10); !reflect.DeepEqual(got, want) {
		t.Errorf("buffer rows\n got %v\nwant %v", got, want)
	}
}

// TestCollectRequestErrors: invalid requests are errors before anything
// happens.
func TestCollectRequestErrors(t *testing.T) {
	v := fakeVec(t, envtest.Config{}, []int{3})
	c, err := collector.New(collector.Config{Env: v, Policy: &fixedPolicy{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []collector.Request{
		{},
		{NStep: 1, NEpisode: 1},
		{NStep: -1},
		{NEpisode: -2},
		{NStep: 1, Random: true}, // no Config.Rand
		{NStep: 1, Render: true}, // no Config.OnFrame
		{NStep: 1, RenderPause: -1},
	} {
		if _, err := c.Collect(bg, req); !errors.Is(err, collector.ErrRequest) {
			t.Errorf("Collect(%+v): %v, want ErrRequest", req, err)
		}
	}
	_ = fmt.Sprint()
}
