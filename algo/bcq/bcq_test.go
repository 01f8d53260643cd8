package bcq_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/bcq"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/trainer"
)

// affine returns a network out = W·obs + bias, W given by rows (bias nil:
// none).
func affine(bias []float32, w ...[]float32) policy.ObsNet {
	l := algotest.Linear(w...)
	if bias != nil {
		l.Bias = tensor.MustFromSlice(bias, len(bias)).SetRequiresGrad(true)
	}
	return policy.ObsNet{Layer: l}
}

func weights(n policy.Network) []float32 { return n.Params()[0].Tensor.Data() }

// TestLoss checks the three terms of the loss on a tiny fixed batch by hand,
// and the direction of Adam's first step on the Q network.
//
// Q(s) = s (W = I), logits(s) = (s₁, s₀). Row 1: s = (1, 2), a = 1, G = 3;
// row 2: s = (3, 0), a = 0, G = 0.
//
//	Q(s, a) = 2, 3; TD errors −1, 3; Huber ½·1, 3 − ½: mean 1.5
//	logits (2, 1), (0, 3); −log softmax[a] = log(1 + e), log(1 + e³):
//	  mean (1.3132617 + 3.0485874)/2 = 2.1809245
//	mean of the logits' squares (4 + 1 + 0 + 9)/4 = 3.5, times λ = 0.01
//	total 1.5 + 2.1809245 + 0.035 = 3.7159245
//
// The Huber gradient with respect to Q(s, a) is clip(TD, −1, 1)/2 = −0.5,
// 0.5: row 1 of W_Q gets −0.5·(1, 2), row 0 gets 0.5·(3, 0) = (1.5, 0).
// Adam's first step moves each weight by −lr·sign(gradient), none where
// the gradient is 0: W_Q = ((0.99, 0), (0.01, 1.01)) with lr = 0.01.
func TestLoss(t *testing.T) {
	cfg := bcq.DefaultConfig()
	cfg.Optim.LR = 0.01
	q := affine(nil, []float32{1, 0}, []float32{0, 1})
	imit := affine(nil, []float32{0, 1}, []float32{1, 0})
	b, err := bcq.NewWithNetworks(cfg, q, affine(nil, []float32{0, 0}, []float32{0, 0}), imit, algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	stats, err := b.Update(batch.MustNew(
		"obs", nd.MustNew([][]float32{{1, 2}, {3, 0}}),
		"act", nd.MustNew([]int64{1, 0}),
		"returns", nd.MustNew([]float32{3, 0}),
	))
	if err != nil {
		t.Fatal(err)
	}
	iLoss := (math.Log1p(math.E) + math.Log1p(math.Exp(3))) / 2
	for _, c := range []struct {
		key  string
		want float64
	}{
		{"loss/q", 1.5},
		{"loss/imitation", iLoss},
		{"loss/reg", 3.5},
		{"loss", 1.5 + iLoss + 0.035},
	} {
		if !scalar.EqualWithinAbs(stats[c.key], c.want, 1e-5) {
			t.Errorf("%s = %v, want %v", c.key, stats[c.key], c.want)
		}
	}
	for i, want := range []float64{0.99, 0, 0.01, 1.01} {
		if w := weights(q); !scalar.EqualWithinAbs(float64(w[i]), want, 1e-6) {
			t.Errorf("Q weights after one step %v, want (0.99, 0, 0.01, 1.01)", w)
			break
		}
	}
}

// TestAct checks the constraint by hand. Q(s) = s over 3 actions; the
// imitation logits are constant, (0, log 0.5, log 0.2): the probabilities
// relative to the largest are 1, 0.5 and 0.2. For s = (1, 2, 3) the
// eligible action of largest Q is 0 for τ = 1 and 0.6, 1 for τ = 0.5
// (probability ratio exactly τ is eligible), 2 for τ = 0.2 and 0.
func TestAct(t *testing.T) {
	obs := batch.MustNew("obs", nd.MustNew([][]float32{{1, 2, 3}}))
	logits := []float32{0, float32(math.Log(0.5)), float32(math.Log(0.2))}
	for _, tc := range []struct {
		tau  float64
		want int64
	}{{1, 0}, {0.6, 0}, {0.5, 1}, {0.3, 1}, {0.2, 2}, {0, 2}} {
		cfg := bcq.DefaultConfig()
		cfg.Threshold = tc.tau
		id := [][]float32{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
		zero := [][]float32{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}
		b, err := bcq.NewWithNetworks(cfg, affine(nil, id...), affine(nil, zero...), affine(logits, zero...), algotest.Discrete(t, 3, 0),
			rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		var out batch.Batch
		if err := b.Policy().Act(&out, obs, nil, false); err != nil {
			t.Fatal(err)
		}
		if got, _ := batch.Values[int64](&out, "act"); got[0] != tc.want {
			t.Errorf("τ = %v: action %d, want %d", tc.tau, got[0], tc.want)
		}
	}
}

// TestExplore: with ε = 1 and explore on, the three actions are drawn
// uniformly (chi-squared test over 3,000 rows, 2 degrees of freedom, 0.1%
// critical value 13.8); with explore off, ε changes nothing.
func TestExplore(t *testing.T) {
	cfg := bcq.DefaultConfig()
	cfg.Eps = 1
	id := [][]float32{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	b, err := bcq.NewWithNetworks(cfg, affine(nil, id...), affine(nil, id...), affine(nil, id...), algotest.Discrete(t, 3, 0),
		rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	rows := make([][]float32, 3000)
	for i := range rows {
		rows[i] = []float32{0, 0, 1} // greedy action 2
	}
	obs := batch.MustNew("obs", nd.MustNew(rows))
	var out batch.Batch
	if err := b.Policy().Act(&out, obs, nil, false); err != nil {
		t.Fatal(err)
	}
	for _, a := range nd.Data[int64](must(out.Array("act"))) {
		if a != 2 {
			t.Fatalf("without explore: action %d, want 2", a)
		}
	}
	if err := b.Policy().Act(&out, obs, nil, true); err != nil {
		t.Fatal(err)
	}
	var counts [3]float64
	for _, a := range nd.Data[int64](must(out.Array("act"))) {
		counts[a]++
	}
	chi := 0.0
	for _, c := range counts {
		chi += (c - 1000) * (c - 1000) / 1000
	}
	if chi > 13.8 {
		t.Errorf("explored actions %v: χ² = %.1f > 13.8", counts, chi)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// twoStepBuffer holds one episode of two steps in a Replay: s₀ = (0, 0),
// r = 1; s₁ = (1, 1), r = 2, ending in (2, 1), terminated as given.
func twoStepBuffer(t testing.TB, terminated bool) buffer.Buffer {
	t.Helper()
	buf, err := buffer.New(buffer.Config{Size: 8})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		obs, next []float32
		rew       float64
		term      bool
	}{
		{[]float32{0, 0}, []float32{1, 1}, 1, false},
		{[]float32{1, 1}, []float32{2, 1}, 2, terminated},
	} {
		b := batch.MustNew("obs", s.obs, "act", int64(0), "rew", s.rew, "terminated", s.term, "truncated", false, "obs_next", s.next)
		if _, err := buf.Add(b, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	return buf
}

// TestTargets checks the 2-step returns of Preprocess by hand. At the last
// obs_next s′ = (2, 1): online Q(s′) = s′ = (2, 1); imitation logits (0,
// s′₁) = (0, 1), so action 0 has e⁻¹ = 0.368 times the probability of
// action 1; target values (s′₁, 3s′₀) = (1, 6). With τ = 0.5 only action 1
// is eligible, Q′ = 6; with τ = 0.3 both are and the online argmax is 0,
// Q′ = 1. Return of step 0 with γ = 0.5: 1 + 0.5·2 + 0.25·Q′; a terminated
// end has no Q′.
func TestTargets(t *testing.T) {
	for _, tc := range []struct {
		tau  float64
		term bool
		want float64
	}{
		{0.5, false, 3.5},
		{0.3, false, 2.25},
		{0, false, 2.25},
		{0.5, true, 2},
	} {
		cfg := bcq.DefaultConfig()
		cfg.Gamma, cfg.NStep, cfg.Threshold = 0.5, 2, tc.tau
		q := affine(nil, []float32{1, 0}, []float32{0, 1})
		target := affine(nil, []float32{0, 0}, []float32{0, 0})
		imit := affine(nil, []float32{0, 0}, []float32{0, 1})
		b, err := bcq.NewWithNetworks(cfg, q, target, imit, algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		// NewWithNetworks copied the online weights; set the target's own.
		copy(weights(target), []float32{0, 1, 3, 0})
		buf := twoStepBuffer(t, tc.term)
		bt := new(batch.Batch)
		if err := buf.TakeTo(bt, []int{0}); err != nil {
			t.Fatal(err)
		}
		if err := b.Preprocess(bt, buf, []int{0}); err != nil {
			t.Fatal(err)
		}
		ret, err := batch.Values[float32](bt, "returns")
		if err != nil {
			t.Fatal(err)
		}
		if !scalar.EqualWithinAbs(float64(ret[0]), tc.want, 1e-6) {
			t.Errorf("τ = %v, terminated %v: return %v, want %v", tc.tau, tc.term, ret[0], tc.want)
		}
	}
}

// TestTargetUpdates checks the hard copy every TargetUpdateFreq steps and
// the soft update.
func TestTargetUpdates(t *testing.T) {
	bt := batch.MustNew(
		"obs", nd.MustNew([][]float32{{1, 2}}),
		"act", nd.MustNew([]int64{1}),
		"returns", nd.MustNew([]float32{5}),
	)
	mk := func(cfg bcq.Config) (*bcq.BCQ, policy.Network, policy.Network) {
		q, target := affine(nil, []float32{1, 0}, []float32{0, 1}), affine(nil, []float32{0, 0}, []float32{0, 0})
		b, err := bcq.NewWithNetworks(cfg, q, target, affine(nil, []float32{1, 0}, []float32{0, 1}), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		return b, q, target
	}
	cfg := bcq.DefaultConfig()
	cfg.TargetUpdateFreq = 3
	b, q, target := mk(cfg)
	initial := append([]float32(nil), weights(target)...)
	for step := 1; step <= 6; step++ {
		if _, err := b.Update(bt); err != nil {
			t.Fatal(err)
		}
		synced := slices.Equal(weights(target), weights(q))
		if want := step%3 == 0; synced != want {
			t.Errorf("after step %d: target equals Q: %v, want %v", step, synced, want)
		}
		if step < 3 && !slices.Equal(weights(target), initial) {
			t.Errorf("after step %d the target changed", step)
		}
	}

	cfg = bcq.DefaultConfig()
	cfg.TargetUpdateFreq, cfg.Tau = 0, 0.25
	b, q, target = mk(cfg)
	before := append([]float32(nil), weights(target)...)
	if _, err := b.Update(bt); err != nil {
		t.Fatal(err)
	}
	for i, w := range weights(target) {
		if want := 0.25*float64(weights(q)[i]) + 0.75*float64(before[i]); !scalar.EqualWithinAbs(float64(w), want, 1e-6) {
			t.Errorf("soft-updated target %v: element %d is %v, want %v", weights(target), i, w, want)
		}
	}
}

func TestErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		name string
		edit func(*bcq.Config)
	}{
		{"gamma", func(c *bcq.Config) { c.Gamma = 1.5 }},
		{"n_step", func(c *bcq.Config) { c.NStep = 0 }},
		{"both target updates", func(c *bcq.Config) { c.Tau = 0.1 }},
		{"no target update", func(c *bcq.Config) { c.TargetUpdateFreq = 0 }},
		{"threshold", func(c *bcq.Config) { c.Threshold = 1.5 }},
		{"penalty", func(c *bcq.Config) { c.ImitationPenalty = -1 }},
		{"eps", func(c *bcq.Config) { c.Eps = 2 }},
		{"hidden", func(c *bcq.Config) { c.Hidden = []int{0} }},
		{"lr", func(c *bcq.Config) { c.Optim.LR = -1 }},
	} {
		cfg := bcq.DefaultConfig()
		tc.edit(&cfg)
		if _, err := bcq.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 2, 0), rng); !errors.Is(err, bcq.ErrConfig) {
			t.Errorf("%s: New = %v, want ErrConfig", tc.name, err)
		}
	}
	if _, err := bcq.New(bcq.DefaultConfig(), algotest.Box(t, -10, 10, 4), algotest.Box(t, -10, 10, 2), rng); !errors.Is(err, bcq.ErrConfig) {
		t.Errorf("Box action space: %v, want ErrConfig", err)
	}
	shared := affine(nil, []float32{1, 0}, []float32{0, 1})
	if _, err := bcq.NewWithNetworks(bcq.DefaultConfig(), shared, affine(nil, []float32{1, 0}, []float32{0, 1}), shared,
		algotest.Discrete(t, 2, 0), rng); !errors.Is(err, bcq.ErrConfig) {
		t.Errorf("Q and imitation networks sharing weights: %v, want ErrConfig", err)
	}
	if _, err := bcq.NewWithNetworks(bcq.DefaultConfig(), shared, affine(nil, []float32{1, 0, 0}), affine(nil, []float32{1, 0}, []float32{0, 1}),
		algotest.Discrete(t, 2, 0), rng); !errors.Is(err, bcq.ErrConfig) {
		t.Errorf("a target of another shape: %v, want ErrConfig", err)
	}

	b, err := bcq.New(bcq.DefaultConfig(), algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 2, 0), rng)
	if err != nil {
		t.Fatal(err)
	}
	before := b.Network().Params().Clone()
	obs := nd.Zeros(nd.Float32, 2, 4)
	ret := nd.MustNew([]float32{0, 0})
	for _, tc := range []struct {
		name string
		b    *batch.Batch
	}{
		{"no returns", batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 1}))},
		{"no act", batch.MustNew("obs", obs, "returns", ret)},
		{"action outside", batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 2}), "returns", ret)},
		{"float actions", batch.MustNew("obs", obs, "act", nd.MustNew([]float32{0, 1}), "returns", ret)},
		{"int returns", batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 1}), "returns", nd.MustNew([]int64{0, 1}))},
		{"short returns", batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 1}), "returns", nd.MustNew([]float32{0}))},
		{"no obs", batch.MustNew("act", nd.MustNew([]int64{0, 1}), "returns", ret)},
	} {
		if _, err := b.Update(tc.b); err == nil {
			t.Errorf("%s: Update accepted the batch", tc.name)
		}
	}
	after := b.Network().Params()
	for i := range before {
		if !before[i].Tensor.Equal(after[i].Tensor) {
			t.Error("a refused batch changed the Q network")
		}
	}

	// NaN imitation logits leave no action eligible.
	nan := float32(math.NaN())
	d, err := bcq.NewWithNetworks(bcq.DefaultConfig(), affine(nil, []float32{1, 0}, []float32{0, 1}), affine(nil, []float32{1, 0}, []float32{0, 1}),
		affine([]float32{0, nan}, []float32{0, 0}, []float32{0, 0}), algotest.Discrete(t, 2, 0), rng)
	if err != nil {
		t.Fatal(err)
	}
	var out batch.Batch
	if err := d.Policy().Act(&out, batch.MustNew("obs", nd.MustNew([][]float32{{1, 2}})), nil, false); !errors.Is(err, bcq.ErrDiverged) {
		t.Errorf("NaN logits: Act = %v, want ErrDiverged", err)
	}
	buf := twoStepBuffer(t, false)
	bt := new(batch.Batch)
	if err := buf.TakeTo(bt, []int{0}); err != nil {
		t.Fatal(err)
	}
	if err := d.Preprocess(bt, buf, []int{0}); !errors.Is(err, bcq.ErrDiverged) {
		t.Errorf("NaN logits: Preprocess = %v, want ErrDiverged", err)
	}
}

// offline builds a small BCQ on CartPole and an offline trainer for it over
// buf, testing with exploration (the policy's random source takes part).
func offline(t *testing.T, seed uint64, epochs int, buf buffer.Buffer, checkpoint string, onEpoch func(trainer.EpochStats)) (*trainer.Trainer, *bcq.BCQ) {
	t.Helper()
	probe := algotest.CartPoles(t, 1)[0]
	cfg := bcq.DefaultConfig()
	cfg.Hidden = []int{16}
	cfg.TargetUpdateFreq = 10
	cfg.Eps = 0.2
	b, err := bcq.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(seed, 2)))
	if err != nil {
		t.Fatal(err)
	}
	tc := trainer.Config{Epochs: epochs, StepPerEpoch: 25, BatchSize: 32, TestEpisodes: 3, TestExploration: true}
	tr, err := trainer.New(b, tc, trainer.Setup{TestEnvs: algotest.CartPoles(t, 2), Buffer: buf, Seed: seed,
		Checkpoint: checkpoint, OnEpoch: onEpoch})
	if err != nil {
		t.Fatal(err)
	}
	return tr, b
}

// TestDeterminism trains twice offline from the same seed and data and
// compares every parameter bit for bit and the test returns; another seed
// must give other parameters.
func TestDeterminism(t *testing.T) {
	ctx := context.Background()
	data := algotest.RandomCartPoleData(t, 600, 1)
	run := func(seed uint64) (*bcq.BCQ, trainer.Result) {
		tr, b := offline(t, seed, 2, data, "", nil)
		defer tr.Close()
		res, err := tr.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return b, res
	}
	a, ra := run(7)
	b, rb := run(7)
	c, _ := run(8)
	if !algotest.EqualParams(a.Policy().Params(), b.Policy().Params()) {
		t.Error("two runs of one seed: the parameters differ")
	}
	if !algotest.EqualParams(a.Target().Params(), b.Target().Params()) {
		t.Error("two runs of one seed (target): the parameters differ")
	}
	if ra.BestReturn != rb.BestReturn || ra.GradientSteps != 50 || rb.GradientSteps != 50 {
		t.Errorf("two runs of one seed: %+v and %+v", ra, rb)
	}
	if a.Network().Params()[0].Tensor.Equal(c.Network().Params()[0].Tensor) {
		t.Error("two seeds gave the same parameters")
	}
}

// TestResume checks the offline trainer's checkpoints with BCQ: 4 epochs
// without interruption equal 2 epochs, a restore of their checkpoint into a
// new trainer, and 2 more (networks, target, Adam, the policy's random
// source, sampling and test envs). The hard target update every 10 steps
// falls inside and across the epochs of 25 steps.
func TestResume(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	data := algotest.RandomCartPoleData(t, 600, 2)
	var whole, resumed []trainer.EpochStats
	full, bFull := offline(t, 3, 4, data, "", func(s trainer.EpochStats) { whole = append(whole, s) })
	defer full.Close()
	resFull, err := full.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(dir, "bcq.ckpt")
	half, _ := offline(t, 3, 2, data, ckpt, nil)
	if _, err := half.Run(ctx); err != nil {
		t.Fatal(err)
	}
	half.Close()
	rest, bRest := offline(t, 3, 4, data, "", func(s trainer.EpochStats) { resumed = append(resumed, s) })
	defer rest.Close()
	if err := rest.Restore(ctx, ckpt); err != nil {
		t.Fatal(err)
	}
	resRest, err := rest.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if resFull.GradientSteps != resRest.GradientSteps || resFull.BestReturn != resRest.BestReturn || resFull.Epochs != resRest.Epochs {
		t.Errorf("uninterrupted %+v\nresumed       %+v", resFull, resRest)
	}
	if len(resumed) != 2 || len(whole) != 4 {
		t.Fatalf("%d epochs after resuming, %d in the whole run", len(resumed), len(whole))
	}
	for i, s := range resumed {
		if w := whole[i+2]; s.Epoch != w.Epoch || s.GradientSteps != w.GradientSteps || s.TestReturn != w.TestReturn {
			t.Errorf("epoch %d: resumed %+v, uninterrupted %+v", s.Epoch, s, w)
		}
	}
	if !algotest.EqualParams(bFull.Policy().Params(), bRest.Policy().Params()) {
		t.Error("after resuming: the parameters differ")
	}
	if !algotest.EqualParams(bFull.Target().Params(), bRest.Target().Params()) {
		t.Error("after resuming (target): the parameters differ")
	}
}

// TestSaveLoad saves a BCQ during training, loads the state into a fresh
// BCQ, and checks that both continue identically, acting included; another
// network is refused.
func TestSaveLoad(t *testing.T) {
	data := algotest.RandomCartPoleData(t, 300, 4)
	probe := algotest.CartPoles(t, 1)[0]
	mk := func(seed uint64, hidden ...int) *bcq.BCQ {
		cfg := bcq.DefaultConfig()
		cfg.Hidden = hidden
		cfg.TargetUpdateFreq = 4
		cfg.Eps = 0.5
		b, err := bcq.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(seed, 0)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var l1, l2 algo.Learner
	b := mk(1, 16)
	rng := rand.New(rand.NewPCG(5, 5))
	for range 5 {
		if _, err := l1.Step(b, data, 32, rng); err != nil {
			t.Fatal(err)
		}
	}
	var state bytes.Buffer
	if err := b.Save(&state); err != nil {
		t.Fatal(err)
	}
	fresh := mk(2, 16)
	if err := fresh.Load(bytes.NewReader(state.Bytes())); err != nil {
		t.Fatal(err)
	}
	if fresh.Updates() != 5 {
		t.Errorf("loaded Updates = %d, want 5", fresh.Updates())
	}
	r1, r2 := rand.New(rand.NewPCG(6, 6)), rand.New(rand.NewPCG(6, 6))
	for range 5 { // crosses a target update (every 4)
		if _, err := l1.Step(b, data, 32, r1); err != nil {
			t.Fatal(err)
		}
		if _, err := l2.Step(fresh, data, 32, r2); err != nil {
			t.Fatal(err)
		}
	}
	if !algotest.EqualParams(b.Policy().Params(), fresh.Policy().Params()) {
		t.Error("after loading: the parameters differ")
	}
	if !algotest.EqualParams(b.Target().Params(), fresh.Target().Params()) {
		t.Error("after loading (target): the parameters differ")
	}
	obs := batch.MustNew("obs", nd.Zeros(nd.Float32, 64, 4))
	var o1, o2 batch.Batch
	if err := b.Policy().Act(&o1, obs, nil, true); err != nil {
		t.Fatal(err)
	}
	if err := fresh.Policy().Act(&o2, obs, nil, true); err != nil {
		t.Fatal(err)
	}
	if !batch.Equal(&o1, &o2) {
		t.Error("the policies' random sources differ after loading")
	}
	if err := mk(1, 8).Load(bytes.NewReader(state.Bytes())); !errors.Is(err, algo.ErrState) {
		t.Errorf("loading into another network: %v, want ErrState", err)
	}
}

// TestUpdateAllocations locks the steady state of an update cycle (sample,
// 3-step returns with constrained targets, update, target copy) and of
// acting at zero allocations.
func TestUpdateAllocations(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	data := algotest.RandomCartPoleData(t, 300, 5)
	probe := algotest.CartPoles(t, 1)[0]
	cfg := bcq.DefaultConfig()
	cfg.TargetUpdateFreq = 3
	b, err := bcq.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	var l algo.Learner
	rng := rand.New(rand.NewPCG(1, 1))
	step := func() {
		if _, err := l.Step(b, data, 64, rng); err != nil {
			t.Fatal(err)
		}
	}
	step()
	if a := testing.AllocsPerRun(50, step); a != 0 {
		t.Errorf("an update cycle allocates %v times", a)
	}
	obs := batch.MustNew("obs", nd.Zeros(nd.Float32, 10, 4))
	var out batch.Batch
	act := func() {
		if err := b.Policy().Act(&out, obs, nil, true); err != nil {
			t.Fatal(err)
		}
	}
	act()
	if a := testing.AllocsPerRun(50, act); a != 0 {
		t.Errorf("acting allocates %v times", a)
	}
}
