package trainer_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/logger"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/trainer"
)

// constPolicy always takes action 0.
type constPolicy struct {
	training bool
	space    env.Space
}

func (p *constPolicy) Params() nn.Params       { return nil }
func (p *constPolicy) SetTrainingStep(on bool) { p.training = on }
func (p *constPolicy) TrainingStep() bool      { return p.training }
func (p *constPolicy) ActionSpace() env.Space  { return p.space }
func (p *constPolicy) Act(dst, obs *batch.Batch, state any, explore bool) error {
	o, err := obs.Array("obs")
	if err != nil {
		return err
	}
	if a, ok := dst.Get("act"); ok && a.(*nd.Array).Dim(0) == o.Dim(0) {
		return nil
	}
	return dst.Set("act", nd.Zeros(nd.Int64, o.Dim(0)))
}

// counts is what the fake algorithms record.
type counts struct {
	Pre, Updates, Post int
	Rows               []int   // rows of each updated batch
	Schedules          []int64 // arguments of Schedule
	Repeats, Sizes     []int
	TrainingSteps      []bool // the policy's flag at each update
}

// offAlg is an OffPolicy algorithm that counts what happens to it.
type offAlg struct {
	pol   *constPolicy
	c     counts
	nanAt int // the update whose loss is NaN (0: none)
}

func newOff() *offAlg { return &offAlg{pol: &constPolicy{space: discrete2}} }

var discrete2, _ = env.NewDiscrete(2, 0)

func (a *offAlg) Policy() policy.Policy { return a.pol }
func (a *offAlg) Preprocess(b *batch.Batch, buf buffer.Buffer, idx []int) error {
	a.c.Pre++
	return nil
}
func (a *offAlg) Postprocess(b *batch.Batch, buf buffer.Buffer, idx []int) error {
	a.c.Post++
	return nil
}
func (a *offAlg) Update(b *batch.Batch) (map[string]float64, error) {
	a.c.Updates++
	n, _ := b.Len()
	a.c.Rows = append(a.c.Rows, n)
	a.c.TrainingSteps = append(a.c.TrainingSteps, a.pol.training)
	if a.c.Updates == a.nanAt {
		return map[string]float64{"loss": math.NaN(), "q": 1}, nil
	}
	return map[string]float64{"loss": float64(a.c.Updates)}, nil
}
func (a *offAlg) Schedule(envSteps int64) { a.c.Schedules = append(a.c.Schedules, envSteps) }
func (a *offAlg) Save(w io.Writer) error  { return algo.SaveParts(w, algo.JSONPart("counts", &a.c)) }
func (a *offAlg) Load(r io.Reader) error  { return algo.LoadParts(r, algo.JSONPart("counts", &a.c)) }

// onAlg is an OnPolicy algorithm that counts what happens to it.
type onAlg struct {
	pol *constPolicy
	c   counts
}

func (a *onAlg) Policy() policy.Policy { return a.pol }
func (a *onAlg) Preprocess(b *batch.Batch, buf buffer.Buffer, idx []int) error {
	a.c.Pre++
	return nil
}
func (a *onAlg) Postprocess(b *batch.Batch, buf buffer.Buffer, idx []int) error {
	a.c.Post++
	return nil
}
func (a *onAlg) UpdateRepeat(b *batch.Batch, size, repeat int) (map[string]float64, error) {
	a.c.Updates++
	n, _ := b.Len()
	a.c.Rows = append(a.c.Rows, n)
	a.c.Sizes, a.c.Repeats = append(a.c.Sizes, size), append(a.c.Repeats, repeat)
	return map[string]float64{}, nil
}
func (a *onAlg) Save(w io.Writer) error { return nil }
func (a *onAlg) Load(r io.Reader) error { return nil }

// fakes returns n Fake envs with the given episode lengths (reward 1 per
// step).
func fakes(n int, lengths ...int) []env.Env {
	es := make([]env.Env, n)
	for i := range es {
		es[i] = envtest.MustNew(envtest.Config{ID: i, Lengths: lengths})
	}
	return es
}

func vectorBuf(t testing.TB, size, n int) buffer.Buffer {
	t.Helper()
	b, err := buffer.NewVector(buffer.Config{Size: size}, n)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestOffPolicyCounts follows the off-policy loop on fake envs: two envs with
// episodes of 4 steps, a prefill of 6 steps (3 vector steps), 2 epochs of
// 20 steps in collections of 10 (5 vector steps) with 0.5 updates per step.
// By hand: 40 training steps, round(0.5·10) = 5 updates per collection, 20
// updates of 4 rows; each env takes 3 + 20 steps, so ⌊23/4⌋ = 5 episodes end
// in each (none during the prefill); tests before training and after each
// epoch: 3.
func TestOffPolicyCounts(t *testing.T) {
	a := newOff()
	cfg := trainer.Config{Epochs: 2, StepPerEpoch: 20, StepPerCollect: 10, UpdatePerStep: 0.5, BatchSize: 4,
		PrefillSteps: 6, TestEpisodes: 3, LogInterval: 10}
	var epochs []trainer.EpochStats
	var log bytes.Buffer
	tr, err := trainer.New(a, cfg, trainer.Setup{
		TrainEnvs: fakes(2, 4), TestEnvs: fakes(2, 3), Buffer: vectorBuf(t, 100, 2), Seed: 1,
		Logger:  logger.NewJSONL(&log),
		OnEpoch: func(s trainer.EpochStats) { epochs = append(epochs, s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	res, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := trainer.Result{Epochs: 2, EnvSteps: 40, GradientSteps: 20, Episodes: 10, PrefillSteps: 6, BestReturn: 3, Tests: 3}
	if res.Epochs != want.Epochs || res.EnvSteps != want.EnvSteps || res.GradientSteps != want.GradientSteps ||
		res.Episodes != want.Episodes || res.PrefillSteps != want.PrefillSteps || res.BestReturn != want.BestReturn ||
		res.Tests != want.Tests || res.Solved {
		t.Errorf("result %+v, want %+v", res, want)
	}
	if a.c.Pre != 20 || a.c.Updates != 20 || a.c.Post != 20 {
		t.Errorf("preprocess, update, postprocess ran %d, %d, %d times; want 20 each", a.c.Pre, a.c.Updates, a.c.Post)
	}
	for i, n := range a.c.Rows {
		if n != 4 || !a.c.TrainingSteps[i] {
			t.Fatalf("update %d on %d rows with training flag %v; want 4 rows, flag on", i, n, a.c.TrainingSteps[i])
		}
	}
	// Schedule: before the prefill (0), then before each collection and
	// each update: collections at 0, 10, 20, 30 steps, updates after them.
	if got := a.c.Schedules[:8]; !slices.Equal(got, []int64{0, 0, 10, 10, 10, 10, 10, 10}) {
		t.Errorf("first schedules %v", got)
	}
	if len(epochs) != 2 || epochs[1].EnvSteps != 40 || epochs[0].TestReturn != 3 || epochs[0].TrainReturn != 4 {
		t.Errorf("epoch statistics %+v", epochs)
	}
	for _, scope := range []string{`"scope":"train"`, `"scope":"update"`, `"scope":"test"`} {
		if !strings.Contains(log.String(), scope) {
			t.Errorf("the log has no %s record:\n%s", scope, log.String())
		}
	}
}

// TestTestInTrain checks that a collection whose training episodes meet the
// stop criterion triggers a test, and that a passing test stops training.
// Both envs end an episode of return 5 in every collection of 10 steps; the
// criterion (mean ≥ 5) is armed from its second call on. The first test, before
// training, does not consult it; the first collection (call 1) does not stop,
// the second collection (call 2) triggers a test, which passes (call 3).
func TestTestInTrain(t *testing.T) {
	calls := 0
	stop := func(m float64) bool { calls++; return calls >= 2 && m >= 5 }
	a := newOff()
	cfg := trainer.Config{Epochs: 5, StepPerEpoch: 100, StepPerCollect: 10, UpdatePerStep: 0.1, BatchSize: 2,
		TestEpisodes: 2, TestInTrain: true}
	tr, err := trainer.New(a, cfg, trainer.Setup{TrainEnvs: fakes(2, 5), TestEnvs: fakes(1, 5), Buffer: vectorBuf(t, 100, 2), Stop: stop})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	res, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !res.Solved || res.EnvSteps != 20 || res.Tests != 2 || res.Epochs != 1 || calls != 3 {
		t.Errorf("result %+v after %d criterion calls; want solved after 20 steps, 2 tests, 1 epoch, 3 calls", res, calls)
	}
	// The test that passed happened before the second collection's update.
	if a.c.Updates != 1 {
		t.Errorf("%d updates, want 1", a.c.Updates)
	}

	// With the threshold of the Config: test episodes of 3 steps never
	// reach 5, so every collection triggers a test that fails: 1 + 2·2
	// during training + 2 after the epochs.
	threshold := 5.0
	cfg = trainer.Config{Epochs: 2, StepPerEpoch: 20, StepPerCollect: 10, BatchSize: 2, TestEpisodes: 1,
		TestInTrain: true, RewardThreshold: &threshold}
	tr2, err := trainer.New(newOff(), cfg, trainer.Setup{TrainEnvs: fakes(2, 5), TestEnvs: fakes(1, 3), Buffer: vectorBuf(t, 100, 2)})
	if err != nil {
		t.Fatal(err)
	}
	defer tr2.Close()
	if res, err = tr2.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if res.Solved || res.Tests != 7 || res.BestReturn != 3 {
		t.Errorf("result %+v; want 7 failed tests", res)
	}
}

// TestOnPolicyCounts: two envs, collections of 6 steps, 2 epochs of 12
// steps: 4 updates, each on the whole collection of 6 transitions, with
// the trainer's batch size and repeat; the buffer is empty after each.
func TestOnPolicyCounts(t *testing.T) {
	a := &onAlg{pol: &constPolicy{space: discrete2}}
	cfg := trainer.Config{Epochs: 2, StepPerEpoch: 12, StepPerCollect: 6, RepeatPerCollect: 3, BatchSize: 2}
	tr, err := trainer.New(a, cfg, trainer.Setup{TrainEnvs: fakes(2, 4)})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	res, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.EnvSteps != 24 || res.GradientSteps != 4 || a.c.Updates != 4 || a.c.Pre != 4 || a.c.Post != 4 {
		t.Errorf("result %+v, counts %+v", res, a.c)
	}
	for i := range a.c.Rows {
		if a.c.Rows[i] != 6 || a.c.Sizes[i] != 2 || a.c.Repeats[i] != 3 {
			t.Errorf("update %d on %d rows, batch size %d, repeat %d; want 6, 2, 3", i, a.c.Rows[i], a.c.Sizes[i], a.c.Repeats[i])
		}
	}
	if n := tr.Buffer().Len(); n != 0 {
		t.Errorf("the collection buffer holds %d transitions after the update", n)
	}
}

// TestOfflineCounts: 3 epochs of 7 updates from a fixed buffer, tests
// before training and after each epoch.
func TestOfflineCounts(t *testing.T) {
	buf := vectorBuf(t, 20, 1)
	for i := range 10 {
		b := batch.MustNew("obs", [][]float32{{float32(i), 0, 0}}, "act", []int64{0}, "rew", []float64{1},
			"terminated", []bool{i%5 == 4}, "truncated", []bool{false}, "obs_next", [][]float32{{0, 0, 0}})
		if _, err := buf.Add(b, []int{0}, nil); err != nil {
			t.Fatal(err)
		}
	}
	a := newOff()
	cfg := trainer.Config{Epochs: 3, StepPerEpoch: 7, BatchSize: 5, TestEpisodes: 1}
	tr, err := trainer.New(a, cfg, trainer.Setup{TestEnvs: fakes(1, 2), Buffer: buf})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	res, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.GradientSteps != 21 || a.c.Updates != 21 || res.EnvSteps != 0 || res.Tests != 4 || res.Epochs != 3 {
		t.Errorf("result %+v, %d updates; want 21 updates, 4 tests, 3 epochs", res, a.c.Updates)
	}
}

func TestNewErrors(t *testing.T) {
	ok := trainer.Config{Epochs: 1, StepPerEpoch: 10, StepPerCollect: 10, BatchSize: 4}
	for _, tc := range []struct {
		name  string
		alg   algo.Algorithm
		cfg   func(trainer.Config) trainer.Config
		setup func() trainer.Setup
	}{
		{"no epochs", newOff(), func(c trainer.Config) trainer.Config { c.Epochs = 0; return c },
			func() trainer.Setup { return trainer.Setup{TrainEnvs: fakes(1, 3), Buffer: vectorBuf(t, 10, 1)} }},
		{"both collection sizes", newOff(), func(c trainer.Config) trainer.Config { c.EpisodePerCollect = 1; return c },
			func() trainer.Setup { return trainer.Setup{TrainEnvs: fakes(1, 3), Buffer: vectorBuf(t, 10, 1)} }},
		{"no buffer", newOff(), func(c trainer.Config) trainer.Config { return c },
			func() trainer.Setup { return trainer.Setup{TrainEnvs: fakes(1, 3)} }},
		{"empty offline buffer", newOff(), func(c trainer.Config) trainer.Config { return c },
			func() trainer.Setup { return trainer.Setup{Buffer: vectorBuf(t, 10, 1)} }},
		{"no test envs", newOff(), func(c trainer.Config) trainer.Config { c.TestEpisodes = 1; return c },
			func() trainer.Setup { return trainer.Setup{TrainEnvs: fakes(1, 3), Buffer: vectorBuf(t, 10, 1)} }},
		{"no batch size", newOff(), func(c trainer.Config) trainer.Config { c.BatchSize = 0; return c },
			func() trainer.Setup { return trainer.Setup{TrainEnvs: fakes(1, 3), Buffer: vectorBuf(t, 10, 1)} }},
	} {
		if _, err := trainer.New(tc.alg, tc.cfg(ok), tc.setup()); !errors.Is(err, trainer.ErrConfig) {
			t.Errorf("%s: New = %v, want ErrConfig", tc.name, err)
		}
	}
	// Fewer sub-buffers than envs is the collector's error.
	if _, err := trainer.New(newOff(), ok, trainer.Setup{TrainEnvs: fakes(2, 3), Buffer: vectorBuf(t, 10, 1)}); err == nil {
		t.Error("New accepted a buffer with fewer sub-buffers than envs")
	}
}

// dqnRun builds a small DQN trainer on CartPole for the resume test.
func dqnRun(t *testing.T, epochs int, checkpoint string, onEpoch func(trainer.EpochStats)) (*trainer.Trainer, *dqn.DQN) {
	t.Helper()
	cfg := dqn.DefaultConfig()
	cfg.Hidden = []int{16}
	cfg.TargetUpdateFreq = 10
	probe := algotest.CartPoles(t, 1)[0]
	d, err := dqn.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(11, 12)))
	if err != nil {
		t.Fatal(err)
	}
	tc := trainer.Config{Epochs: epochs, StepPerEpoch: 150, StepPerCollect: 10, UpdatePerStep: 0.2, BatchSize: 16,
		PrefillSteps: 40, TestEpisodes: 2, TestExploration: true}
	tr, err := trainer.New(d, tc, trainer.Setup{
		TrainEnvs: algotest.CartPoles(t, 2), TestEnvs: algotest.CartPoles(t, 2), Buffer: vectorBuf(t, 1000, 2), Seed: 5,
		Checkpoint: checkpoint, OnEpoch: onEpoch,
	})
	if err != nil {
		t.Fatal(err)
	}
	return tr, d
}

// TestResume runs 4 epochs of DQN on CartPole without interruption, and 2
// epochs then 2 more after restoring the checkpoint of the second into a new
// trainer: networks, optimizer-driven updates, statistics and test returns
// must be identical.
func TestResume(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var whole, resumed []trainer.EpochStats
	full, dFull := dqnRun(t, 4, filepath.Join(dir, "full.ckpt"), func(s trainer.EpochStats) { whole = append(whole, s) })
	defer full.Close()
	resFull, err := full.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}

	ckpt := filepath.Join(dir, "half.ckpt")
	half, _ := dqnRun(t, 2, ckpt, nil)
	if _, err := half.Run(ctx); err != nil {
		t.Fatal(err)
	}
	half.Close()
	rest, dRest := dqnRun(t, 4, "", func(s trainer.EpochStats) { resumed = append(resumed, s) })
	defer rest.Close()
	if err := rest.Restore(ctx, ckpt); err != nil {
		t.Fatal(err)
	}
	resRest, err := rest.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}

	if resFull.EnvSteps != resRest.EnvSteps || resFull.GradientSteps != resRest.GradientSteps ||
		resFull.Episodes != resRest.Episodes || resFull.BestReturn != resRest.BestReturn || resFull.Epochs != resRest.Epochs {
		t.Errorf("uninterrupted %+v\nresumed       %+v", resFull, resRest)
	}
	if len(resumed) != 2 || len(whole) != 4 {
		t.Fatalf("%d epochs after resuming, %d in the whole run", len(resumed), len(whole))
	}
	for i, s := range resumed {
		w := whole[i+2]
		if s.Epoch != w.Epoch || s.EnvSteps != w.EnvSteps || !same(s.TrainReturn, w.TrainReturn) || s.TestReturn != w.TestReturn {
			t.Errorf("epoch %d: resumed %+v, uninterrupted %+v", s.Epoch, s, w)
		}
	}
	p1, p2 := dFull.Network().Params(), dRest.Network().Params()
	for i := range p1 {
		if !p1[i].Tensor.Equal(p2[i].Tensor) {
			t.Errorf("parameter %s differs after resuming", p1[i].Name)
		}
	}
	if dFull.Updates() != dRest.Updates() {
		t.Errorf("updates %d and %d", dFull.Updates(), dRest.Updates())
	}
}

func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// TestRestoreErrors: a checkpoint of another algorithm configuration or a
// corrupt file is refused.
func TestRestoreErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "c.ckpt")
	tr, _ := dqnRun(t, 1, ckpt, nil)
	if _, err := tr.Run(ctx); err != nil {
		t.Fatal(err)
	}
	tr.Close()

	other := dqn.DefaultConfig()
	other.Hidden = []int{8}
	probe := algotest.CartPoles(t, 1)[0]
	d, _ := dqn.New(other, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(1, 1)))
	tr2, err := trainer.New(d, trainer.Config{Epochs: 1, StepPerEpoch: 10, StepPerCollect: 10, BatchSize: 4},
		trainer.Setup{TrainEnvs: algotest.CartPoles(t, 2), Buffer: vectorBuf(t, 1000, 2)})
	if err != nil {
		t.Fatal(err)
	}
	defer tr2.Close()
	if err := tr2.Restore(ctx, ckpt); !errors.Is(err, algo.ErrState) {
		t.Errorf("Restore into another network: %v, want ErrState", err)
	}
	if err := tr2.Restore(ctx, filepath.Join(dir, "missing")); err == nil {
		t.Error("Restore of a missing file succeeded")
	}
}

// FuzzCheckpointDecode restores arbitrary bytes as a checkpoint into a fresh
// trainer: Restore must return an error or succeed, never panic.
func FuzzCheckpointDecode(f *testing.F) {
	dir := f.TempDir()
	ckpt := filepath.Join(dir, "seed.ckpt")
	build := func(t testing.TB, checkpoint string) *trainer.Trainer {
		cfg := trainer.Config{Epochs: 1, StepPerEpoch: 6, StepPerCollect: 2, BatchSize: 2, TestEpisodes: 1}
		tr, err := trainer.New(newOff(), cfg, trainer.Setup{TrainEnvs: fakes(2, 3), TestEnvs: fakes(1, 2),
			Buffer: vectorBuf(t, 20, 2), Checkpoint: checkpoint})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	tr := build(f, ckpt)
	if _, err := tr.Run(context.Background()); err != nil {
		f.Fatal(err)
	}
	tr.Close()
	good, err := os.ReadFile(ckpt)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte("GRLS\x01\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "c")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		tr := build(t, "")
		defer tr.Close()
		_ = tr.Restore(context.Background(), path)
	})
}

// TestSteadyStateAllocations checks that the off-policy loop (collection,
// updates, tests, logging) allocates nothing per step once running: four
// more epochs of 150 steps, 30 updates and 2 test episodes each may cost at
// most a few allocations (measured: none beyond noise of a few hundred per
// run, which the first epoch also has).
func TestSteadyStateAllocations(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates")
	}
	mallocs := func(epochs int) uint64 {
		tr, _ := dqnRun(t, epochs, "", nil)
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

// TestDeterminism runs the same DQN training twice: every statistic and
// parameter must agree.
func TestDeterminism(t *testing.T) {
	run := func() (trainer.Result, *dqn.DQN, []trainer.EpochStats) {
		var eps []trainer.EpochStats
		tr, d := dqnRun(t, 3, "", func(s trainer.EpochStats) { eps = append(eps, s) })
		defer tr.Close()
		res, err := tr.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return res, d, eps
	}
	r1, d1, e1 := run()
	r2, d2, e2 := run()
	if r1.EnvSteps != r2.EnvSteps || r1.Episodes != r2.Episodes || r1.BestReturn != r2.BestReturn || r1.GradientSteps != r2.GradientSteps {
		t.Errorf("two runs of one seed: %+v and %+v", r1, r2)
	}
	for i := range e1 {
		if !same(e1[i].TrainReturn, e2[i].TrainReturn) || e1[i].TestReturn != e2[i].TestReturn {
			t.Errorf("epoch %d differs: %+v and %+v", i+1, e1[i], e2[i])
		}
	}
	p1, p2 := d1.Network().Params(), d2.Network().Params()
	for i := range p1 {
		if !p1[i].Tensor.Equal(p2[i].Tensor) {
			t.Errorf("parameter %s differs between two runs of one seed", p1[i].Name)
		}
	}
}

// TestFirstTestDoesNotStop checks Tianshou's rule that the test before
// training only sets the best policy: with a criterion that every mean
// meets, the run still trains one whole epoch (100 steps, 10 updates at 0.1
// per step) and stops at the test that ends it.
func TestFirstTestDoesNotStop(t *testing.T) {
	a := newOff()
	cfg := trainer.Config{Epochs: 5, StepPerEpoch: 100, StepPerCollect: 10, UpdatePerStep: 0.1, BatchSize: 2, TestEpisodes: 1}
	always := func(float64) bool { return true }
	tr, err := trainer.New(a, cfg, trainer.Setup{TrainEnvs: fakes(2, 5), TestEnvs: fakes(1, 5), Buffer: vectorBuf(t, 100, 2), Stop: always})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	res, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !res.Solved || res.Epochs != 1 || res.EnvSteps != 100 || res.Tests != 2 || a.c.Updates != 10 {
		t.Errorf("result %+v with %d updates; want solved after 1 epoch, 100 env steps, 2 tests, 10 updates", res, a.c.Updates)
	}
}

// Every logger of package logger is what a trainer logs to.
var _ trainer.Logger = logger.Logger(nil)

// TestNonFiniteUpdate checks that an update with a NaN loss stops the run
// with an error naming the update, its epoch, the statistic and the last
// checkpoint (before, the run trained on to the end and saved NaN policies).
func TestNonFiniteUpdate(t *testing.T) {
	a := newOff()
	a.nanAt = 15 // in the second epoch: 10 updates an epoch
	ckpt := filepath.Join(t.TempDir(), "checkpoint.gorl")
	cfg := trainer.Config{Epochs: 3, StepPerEpoch: 20, StepPerCollect: 10, UpdatePerStep: 0.5, BatchSize: 4, TestEpisodes: 1}
	tr, err := trainer.New(a, cfg, trainer.Setup{TrainEnvs: fakes(2, 4), TestEnvs: fakes(1, 3), Buffer: vectorBuf(t, 100, 2), Checkpoint: ckpt})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	_, err = tr.Run(context.Background())
	if !errors.Is(err, trainer.ErrNonFinite) {
		t.Fatalf("Run = %v, want ErrNonFinite", err)
	}
	for _, want := range []string{"update 15 in epoch 2", "loss NaN", ckpt + ", holds epoch 1"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if a.c.Updates != 15 {
		t.Errorf("%d updates, want the run to stop at the 15th", a.c.Updates)
	}
}

// TestNoTests checks that TestEpisodes 0 runs no tests even when test envs
// are given (before, New built a test collector that failed at the first
// test with an invalid request).
func TestNoTests(t *testing.T) {
	a := newOff()
	cfg := trainer.Config{Epochs: 2, StepPerEpoch: 20, StepPerCollect: 10, UpdatePerStep: 0.5, BatchSize: 4}
	tr, err := trainer.New(a, cfg, trainer.Setup{TrainEnvs: fakes(2, 4), TestEnvs: fakes(1, 3), Buffer: vectorBuf(t, 100, 2)})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	res, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Tests != 0 || res.Epochs != 2 {
		t.Errorf("result %+v, want 2 epochs and no test", res)
	}
}
