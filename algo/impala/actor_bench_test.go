package impala

import (
	"context"
	"slices"
	"testing"

	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/internal/race"
)

// unrollFunc returns a function that makes one unroll of an actor of
// DefaultConfig on CartPole: Unroll env steps through the collector, then
// the row the actor sends, with the behaviour log-probabilities (the send
// itself left out).
func unrollFunc(tb testing.TB) (func(), *actor) {
	tb.Helper()
	node, err := cluster.Start(cluster.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { node.Close() })
	cfg := DefaultConfig()
	s := Setup{Transport: node.Transport(), Group: "bench", MakeEnv: func(int) (env.Env, error) { return env.Make("CartPole-v1") }}
	probe, err := s.MakeEnv(0)
	if err != nil {
		tb.Fatal(err)
	}
	obs, act := probe.ObservationSpace(), probe.ActionSpace()
	probe.Close()
	a, err := newActor(cfg, s, 0, obs, act, 1)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		a.shard.Close()
		a.vec.Close()
	})
	a.pol.SetTrainingStep(true)
	first := true
	unroll := func() {
		a.local.Reset()
		if _, err := a.coll.Collect(context.Background(), collector.Request{NStep: cfg.Unroll, ResetBeforeCollect: first}); err != nil {
			tb.Fatal(err)
		}
		first = false
		if _, err := a.row(); err != nil {
			tb.Fatal(err)
		}
	}
	return unroll, a
}

// BenchmarkActorUnroll measures one actor unroll of 20 CartPole steps and
// its row.
func BenchmarkActorUnroll(b *testing.B) {
	unroll, _ := unrollFunc(b)
	cputime.Measure(b, unroll)
}

// TestActorUnrollAllocs locks the actor's steady state: an unroll (the
// env steps and the row) allocates nothing.
func TestActorUnrollAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	unroll, a := unrollFunc(t)
	unroll()
	unroll()
	// The row takes the local buffer's transitions by the indices the
	// actor keeps: they must be the buffer's own chronological order.
	if got := a.local.SampleIndices(0, nil); !slices.Equal(got, a.idx) {
		t.Fatalf("the local buffer's indices %v, the actor's %v", got, a.idx)
	}
	if n := testing.AllocsPerRun(20, unroll); n != 0 {
		t.Errorf("an unroll allocates %v times; want 0", n)
	}
}
