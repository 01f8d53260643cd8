package trainer_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/minatar" // registers Breakout-MinAtar-v0
	"github.com/gorl/gorl/internal/par"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/trainer"
)

// overlapDQN builds the small DQN trainer of dqnRun (CartPole, 2 envs,
// epochs of 150 steps in collections of 10, 0.2 updates per step), in the
// overlapped mode when overlap is set, with a second DQN of the same
// configuration as the actor.
func overlapDQN(t *testing.T, epochs int, overlap bool, checkpoint string, onEpoch func(trainer.EpochStats)) (*trainer.Trainer, *dqn.DQN) {
	t.Helper()
	cfg := dqn.DefaultConfig()
	cfg.Hidden = []int{16}
	cfg.TargetUpdateFreq = 10
	probe := algotest.CartPoles(t, 1)[0]
	build := func(seed uint64) *dqn.DQN { return newDQN(t, cfg, probe, seed, 12) }
	d := build(11)
	tc := trainer.Config{Epochs: epochs, StepPerEpoch: 150, StepPerCollect: 10, UpdatePerStep: 0.2, BatchSize: 16,
		PrefillSteps: 40, TestEpisodes: 2, TestExploration: true, Overlap: overlap}
	s := trainer.Setup{
		TrainEnvs: algotest.CartPoles(t, 2), TestEnvs: algotest.CartPoles(t, 2), Buffer: vectorBuf(t, 1000, 2), Seed: 5,
		Checkpoint: checkpoint, OnEpoch: onEpoch,
	}
	if overlap {
		s.Actor = build(13) // other initial weights: the trainer copies the learner's in
	}
	tr, err := trainer.New(d, tc, s)
	if err != nil {
		t.Fatal(err)
	}
	return tr, d
}

// TestOverlapCounts: the overlapped mode keeps the update-to-data ratio of
// the sequential loop. By hand: 3 epochs of 150 steps in collections of 10
// (5 vector steps of 2 envs) make 450 env steps and round(0.2·10) = 2
// updates per collection, 90 updates; the prefill is 40 steps, and the
// tests run before training and after each epoch (4).
func TestOverlapCounts(t *testing.T) {
	for _, overlap := range []bool{false, true} {
		tr, d := overlapDQN(t, 3, overlap, "", nil)
		res, err := tr.Run(context.Background())
		tr.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.EnvSteps != 450 || res.GradientSteps != 90 || d.Updates() != 90 || res.PrefillSteps != 40 || res.Tests != 4 {
			t.Errorf("overlap %v: %+v, %d updates; want 450 env steps, 90 updates, 40 prefill steps, 4 tests", overlap, res, d.Updates())
		}
	}
}

// TestOverlapResume: an overlapped run is reproducible for a seed, and one
// resumed from the checkpoint of its second epoch (a synchronisation point)
// continues as the uninterrupted run: the same statistics, test returns and
// parameters. It runs under the race detector with the package's tests.
func TestOverlapResume(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	run := func(epochs int, ckpt, restore string) ([]trainer.EpochStats, trainer.Result, *dqn.DQN) {
		var eps []trainer.EpochStats
		tr, d := overlapDQN(t, epochs, true, ckpt, func(s trainer.EpochStats) { eps = append(eps, s) })
		defer tr.Close()
		if restore != "" {
			if err := tr.Restore(ctx, restore); err != nil {
				t.Fatal(err)
			}
		}
		res, err := tr.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return eps, res, d
	}
	whole, resWhole, dWhole := run(4, "", "")
	again, _, dAgain := run(4, "", "")
	ckpt := filepath.Join(dir, "half.ckpt")
	run(2, ckpt, "")
	rest, resRest, dRest := run(4, "", ckpt)

	for i, w := range whole {
		if a := again[i]; a.EnvSteps != w.EnvSteps || !same(a.TrainReturn, w.TrainReturn) || a.TestReturn != w.TestReturn {
			t.Errorf("epoch %d of two runs of one seed: %+v and %+v", w.Epoch, w, a)
		}
	}
	if resWhole.EnvSteps != resRest.EnvSteps || resWhole.GradientSteps != resRest.GradientSteps ||
		resWhole.Episodes != resRest.Episodes || resWhole.BestReturn != resRest.BestReturn {
		t.Errorf("uninterrupted %+v\nresumed       %+v", resWhole, resRest)
	}
	if len(rest) != 2 {
		t.Fatalf("%d epochs after resuming, want 2", len(rest))
	}
	for i, s := range rest {
		if w := whole[i+2]; s.Epoch != w.Epoch || s.EnvSteps != w.EnvSteps || !same(s.TrainReturn, w.TrainReturn) || s.TestReturn != w.TestReturn {
			t.Errorf("epoch %d: resumed %+v, uninterrupted %+v", s.Epoch, s, w)
		}
	}
	p, pa, pr := dWhole.Network().Params(), dAgain.Network().Params(), dRest.Network().Params()
	for i := range p {
		if !p[i].Tensor.Equal(pa[i].Tensor) {
			t.Errorf("parameter %s differs between two runs of one seed", p[i].Name)
		}
		if !p[i].Tensor.Equal(pr[i].Tensor) {
			t.Errorf("parameter %s differs after resuming", p[i].Name)
		}
	}
}

// countPolicy is a constPolicy that counts the env steps it acts for, from
// the collector's goroutine.
type countPolicy struct {
	constPolicy
	acted *atomic.Int64
}

func (p *countPolicy) Act(dst, obs *batch.Batch, state any, explore bool) error {
	o, err := obs.Array("obs")
	if err == nil {
		p.acted.Add(int64(o.Dim(0)))
	}
	return p.constPolicy.Act(dst, obs, state, explore)
}

// boundAlg is an offAlg whose updates check the overlapped mode's bound:
// the learner makes at most round(ratio × stored steps) updates, and the
// collector acts at most one collection beyond what is stored.
type boundAlg struct {
	*offAlg
	pol    policy.Policy
	buf    buffer.Buffer
	acted  *atomic.Int64
	ratio  float64
	chunk  int64
	ahead  int // updates that saw a collection in progress
	faults []string
}

func (a *boundAlg) Policy() policy.Policy { return a.pol }
func (a *boundAlg) Update(b *batch.Batch) (map[string]float64, error) {
	stats, err := a.offAlg.Update(b)
	stored, acted := int64(a.buf.Len()), a.acted.Load() // only the trainer's goroutine writes the buffer
	if float64(a.c.Updates) > math.Round(a.ratio*float64(stored)) {
		a.faults = append(a.faults, fmt.Sprintf("update %d with %d steps stored", a.c.Updates, stored))
	}
	if acted > stored+a.chunk {
		a.faults = append(a.faults, fmt.Sprintf("update %d: %d steps acted, %d stored", a.c.Updates, acted, stored))
	}
	if acted > stored {
		a.ahead++
	}
	time.Sleep(200 * time.Microsecond) // a learner slower than collection, which would run ahead unbounded
	return stats, err
}

// TestOverlapBound runs the overlapped mode with a learner much slower than
// collection: two envs, collections of 10 steps, 0.5 updates per step, 2
// epochs of 100 steps. At every update, the updates so far are at most
// 0.5 × the steps stored and the steps acted at most the stored ones plus
// one collection (10). The test also requires that collection did run
// beside the updates at least once.
func TestOverlapBound(t *testing.T) {
	var acted atomic.Int64
	buf := vectorBuf(t, 1000, 2)
	mk := func() *boundAlg {
		return &boundAlg{offAlg: newOff(), pol: &countPolicy{constPolicy{space: discrete2}, &acted}, buf: buf, acted: &acted, ratio: 0.5, chunk: 10}
	}
	learner, actor := mk(), mk()
	cfg := trainer.Config{Epochs: 2, StepPerEpoch: 100, StepPerCollect: 10, UpdatePerStep: 0.5, BatchSize: 4, Overlap: true}
	tr, err := trainer.New(learner, cfg, trainer.Setup{TrainEnvs: fakes(2, 7), Buffer: buf, Seed: 1, Actor: actor})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	res, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.EnvSteps != 200 || res.GradientSteps != 100 || acted.Load() != 200 {
		t.Errorf("%d env steps, %d updates, %d acted; want 200, 100, 200", res.EnvSteps, res.GradientSteps, acted.Load())
	}
	for _, f := range learner.faults {
		t.Error(f)
	}
	if learner.ahead == 0 {
		t.Error("no update ran while a collection was in progress")
	}
	if actor.c.Updates != 0 {
		t.Errorf("the actor was updated %d times", actor.c.Updates)
	}
}

// TestOverlapErrors: the overlapped mode needs an actor of the trained
// algorithm's type, other than the trained one, and the off-policy trainer.
func TestOverlapErrors(t *testing.T) {
	cfg := trainer.Config{Epochs: 1, StepPerEpoch: 10, StepPerCollect: 10, BatchSize: 2, Overlap: true}
	same := newOff()
	for _, tc := range []struct {
		name  string
		alg   algo.Algorithm
		actor algo.Algorithm
	}{
		{"no actor", newOff(), nil},
		{"the trained algorithm itself", same, same},
		{"another type", newOff(), &onAlg{pol: &constPolicy{space: discrete2}}},
		{"on-policy", &onAlg{pol: &constPolicy{space: discrete2}}, &onAlg{pol: &constPolicy{space: discrete2}}},
	} {
		s := trainer.Setup{TrainEnvs: fakes(1, 3), Buffer: vectorBuf(t, 10, 1)}
		s.Actor = tc.actor
		_, err := trainer.New(tc.alg, cfg, s)
		if !errors.Is(err, trainer.ErrConfig) {
			t.Errorf("%s: New = %v, want ErrConfig", tc.name, err)
		}
	}
}

// TestOverlapSteadyStateAllocations: the overlapped mode allocates per
// epoch (a goroutine and its channels), not per collection.
func TestOverlapSteadyStateAllocations(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates")
	}
	mallocs := func(epochs int) uint64 {
		tr, _ := overlapDQN(t, epochs, true, "", nil)
		defer tr.Close()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		if _, err := tr.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&m1)
		return m1.Mallocs - m0.Mallocs
	}
	one, five := mallocs(1), mallocs(5)
	t.Logf("allocations: 1 epoch %d, 5 epochs %d", one, five)
	if five > one && five-one > 4*150/10 {
		t.Errorf("1 epoch: %d allocations, 5 epochs: %d; more than 1 per 10 env steps of the 4 extra epochs", one, five)
	}
}

// TestOverlapConv runs the overlapped mode on the CNN path (the MinAtar
// paper's network on Breakout), whose convolutions can split work over the
// worker pool from both goroutines at once: two runs of one seed give the
// same parameters, and the counts are the sequential loop's (2 epochs of
// 40 steps in collections of 8, 4 vector steps of 2 envs, with 0.5 updates
// per step: 80 env steps, 40 updates).
func TestOverlapConv(t *testing.T) {
	cfg := dqn.DefaultConfig()
	cfg.Conv, cfg.Hidden = []dqn.ConvLayer{{Out: 4, Kernel: 3}}, []int{16}
	makeEnvs := func(n int) []env.Env {
		es := make([]env.Env, n)
		for i := range es {
			e, err := env.Make("Breakout-MinAtar-v0")
			if err != nil {
				t.Fatal(err)
			}
			es[i] = e
		}
		return es
	}
	run := func() (trainer.Result, *dqn.DQN) {
		probe := makeEnvs(1)[0]
		defer probe.Close()
		build := func(seed uint64) *dqn.DQN { return newDQN(t, cfg, probe, seed, 1) }
		d := build(1)
		tc := trainer.Config{Epochs: 2, StepPerEpoch: 40, StepPerCollect: 8, UpdatePerStep: 0.5, BatchSize: 8,
			PrefillSteps: 16, Overlap: true}
		tr, err := trainer.New(d, tc, trainer.Setup{TrainEnvs: makeEnvs(2), Buffer: vectorBuf(t, 200, 2), Seed: 3, Actor: build(2)})
		if err != nil {
			t.Fatal(err)
		}
		defer tr.Close()
		res, err := tr.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return res, d
	}
	r1, d1 := run()
	_, d2 := run()
	if r1.EnvSteps != 80 || r1.GradientSteps != 40 {
		t.Errorf("%d env steps, %d updates; want 80, 40", r1.EnvSteps, r1.GradientSteps)
	}
	p1, p2 := d1.Network().Params(), d2.Network().Params()
	for i := range p1 {
		if !p1[i].Tensor.Equal(p2[i].Tensor) {
			t.Errorf("parameter %s differs between two runs of one seed", p1[i].Name)
		}
	}
}

// TestOverlapReservesAProcessor: while an overlapped epoch runs, the
// worker pool's default size leaves out the processor the collector
// goroutine keeps busy (at least one worker stays), and the run gives it
// back; the sequential loop keeps the whole pool.
func TestOverlapReservesAProcessor(t *testing.T) {
	par.SetWorkers(0)
	full := par.Workers()
	for _, c := range []struct {
		overlap bool
		want    int
	}{
		{false, full},
		{true, max(full-1, 1)},
	} {
		cfg := dqn.DefaultConfig()
		cfg.Hidden = []int{16}
		probe := algotest.CartPoles(t, 1)[0]
		build := func(seed uint64) *dqn.DQN { return newDQN(t, cfg, probe, seed, 12) }
		var seen []int
		s := trainer.Setup{TrainEnvs: algotest.CartPoles(t, 2), Buffer: vectorBuf(t, 500, 2), Seed: 5,
			TrainHook: func(int, int64) { seen = append(seen, par.Workers()) }}
		if c.overlap {
			s.Actor = build(13)
		}
		tc := trainer.Config{Epochs: 2, StepPerEpoch: 40, StepPerCollect: 10, UpdatePerStep: 0.2, BatchSize: 16,
			PrefillSteps: 40, Overlap: c.overlap}
		tr, err := trainer.New(build(11), tc, s)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tr.Run(context.Background())
		tr.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) == 0 {
			t.Fatalf("overlap %v: the train hook never ran", c.overlap)
		}
		for i, w := range seen {
			if w != c.want {
				t.Errorf("overlap %v: %d workers at collection %d, want %d of %d", c.overlap, w, i, c.want, full)
				break
			}
		}
		if got := par.Workers(); got != full {
			t.Errorf("overlap %v: %d workers after the run, want %d", c.overlap, got, full)
		}
	}
}

// newDQN returns a DQN of cfg for probe's spaces, its weights drawn from
// the PCG stream (seed, stream).
func newDQN(t *testing.T, cfg dqn.Config, probe env.Env, seed, stream uint64) *dqn.DQN {
	t.Helper()
	d, err := dqn.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(seed, stream)))
	if err != nil {
		t.Fatal(err)
	}
	return d
}
