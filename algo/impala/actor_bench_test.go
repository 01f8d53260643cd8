package impala

import (
	"context"
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
func unrollFunc(tb testing.TB) func() {
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
	return func() {
		a.local.Reset()
		if _, err := a.coll.Collect(context.Background(), collector.Request{NStep: cfg.Unroll, ResetBeforeCollect: first}); err != nil {
			tb.Fatal(err)
		}
		first = false
		if _, err := a.row(); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkActorUnroll measures one actor unroll of 20 CartPole steps and
// its row.
func BenchmarkActorUnroll(b *testing.B) {
	cputime.Measure(b, unrollFunc(b))
}

// TestActorUnrollAllocs locks the actor's steady state: an unroll allocates
// once, the list of the local buffer's indices (Replay.SampleIndices(0)
// returns a new slice); the env steps and the row reuse their memory.
func TestActorUnrollAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	unroll := unrollFunc(t)
	unroll()
	unroll()
	if n := testing.AllocsPerRun(20, unroll); n > 1 {
		t.Errorf("an unroll allocates %v times; want at most 1", n)
	}
}
