package impala_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/impala"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/nd"
)

func newLearner(t *testing.T) *impala.Learner {
	t.Helper()
	e, err := env.Make("CartPole-v1")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	l, err := impala.NewLearner(impala.DefaultConfig(), e.ObservationSpace(), e.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestLearnerUpdateAllocs locks the steady state of the learner: updates on
// new batches of one shape, as the distributed buffer samples them, allocate
// nothing.
func TestLearnerUpdateAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	l := newLearner(t)
	cfg := impala.DefaultConfig()
	rng := rand.New(rand.NewPCG(3, 4))
	bs := []*batch.Batch{unrollBatch(t, cfg.BatchSize, cfg.Unroll, rng), unrollBatch(t, cfg.BatchSize, cfg.Unroll, rng)}
	k := 0
	step := func() {
		if _, err := l.Update(bs[k%2]); err != nil {
			t.Fatal(err)
		}
		k++
	}
	step()
	step()
	if n := testing.AllocsPerRun(20, step); n != 0 {
		t.Errorf("an update allocates %v times; want 0", n)
	}
}

// TestLearnerUpdateShapes: the learner takes batches of another shape after
// its first, and rejects batches whose columns do not fit their
// observations.
func TestLearnerUpdateShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	// with returns a batch of 4 unrolls of 10 steps with the given
	// columns in place of its own (a nil column removed).
	with := func(cols map[string]*nd.Array) *batch.Batch {
		b := unrollBatch(t, 4, 10, rng)
		for key, v := range cols {
			if v == nil {
				b.Delete(key)
			} else if err := b.Set(key, v); err != nil {
				t.Fatal(err)
			}
		}
		return b
	}
	for _, tc := range []struct {
		name string
		b    *batch.Batch
		ok   bool
	}{
		{"another shape", unrollBatch(t, 4, 10, rng), true},
		{"a single unroll", unrollBatch(t, 1, 3, rng), true},
		{"obs without a step axis", with(map[string]*nd.Array{batch.KeyObs: nd.Zeros(nd.Float32, 40), batch.KeyObsNext: nd.Zeros(nd.Float32, 40)}), false},
		{"obs_next of another shape", with(map[string]*nd.Array{batch.KeyObsNext: nd.Zeros(nd.Float32, 4, 11, 4)}), false},
		{"rews of another shape", with(map[string]*nd.Array{impala.KeyRews: nd.Zeros(nd.Float64, 4, 11)}), false},
		{"act of one axis", with(map[string]*nd.Array{batch.KeyAct: nd.Zeros(nd.Int64, 40)}), false},
		{"no logp", with(map[string]*nd.Array{impala.KeyLogP: nil}), false},
		{"terms of floats", with(map[string]*nd.Array{impala.KeyTerms: nd.Zeros(nd.Float64, 4, 10)}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLearner(t)
			if _, err := l.Update(unrollBatch(t, 8, 20, rng)); err != nil {
				t.Fatal(err)
			}
			st, err := l.Update(tc.b)
			if !tc.ok {
				if err == nil {
					t.Error("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if math.IsNaN(st["loss"]) || math.IsInf(st["loss"], 0) {
				t.Errorf("loss %v", st["loss"])
			}
		})
	}
}
