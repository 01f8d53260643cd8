package bc_test

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
	"github.com/gorl/gorl/algo/bc"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/trainer"
)

// TestDiscreteLoss checks the cross entropy of one update and the direction
// of Adam's first step on a tiny fixed batch, by hand.
//
// Logits = W·s with W = I. Row 1: s = (1, 2), a = 1: −log softmax(1, 2)[1]
// = log(1 + e⁻¹) = 0.3132617. Row 2: s = (3, 0), a = 0: log(1 + e⁻³) =
// 0.0485874. Loss: the mean, 0.1809245.
//
// The gradient with respect to the logits is (softmax − onehot)/2: row 1
// (0.2689, −0.2689)/2, row 2 (−0.0474, 0.0474)/2; with respect to W, Σ over
// rows of that times sᵀ: row 0 of W gets (0.2689·(1, 2) − 0.0474·(3, 0))/2
// = (0.0633, 0.2689), row 1 the opposite. Adam's first step moves each
// weight by −lr·sign(gradient): W = ((0.99, −0.01), (0.01, 1.01)) with
// lr = 0.01.
func TestDiscreteLoss(t *testing.T) {
	cfg := bc.DefaultConfig()
	cfg.Optim.LR = 0.01
	net := linearNet([]float32{1, 0}, []float32{0, 1})
	b, err := bc.NewWithNetwork(cfg, net, algotest.Discrete(t, 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, acts := range []any{nd.MustNew([]int64{1, 0}), nd.MustNew([]int32{1, 0})} {
		if b.Updates() == 1 {
			// Second pass: int32 actions give the same loss from the
			// original weights.
			copy(net.Params()[0].Tensor.Data(), []float32{1, 0, 0, 1})
		}
		stats, err := b.Update(batch.MustNew("obs", nd.MustNew([][]float32{{1, 2}, {3, 0}}), "act", acts))
		if err != nil {
			t.Fatal(err)
		}
		if want := (math.Log1p(math.Exp(-1)) + math.Log1p(math.Exp(-3))) / 2; !scalar.EqualWithinAbs(stats["loss"], want, 1e-6) {
			t.Errorf("loss %v, want %v", stats["loss"], want)
		}
		if b.Updates() == 1 {
			w := net.Params()[0].Tensor.Data()
			for i, want := range []float64{0.99, -0.01, 0.01, 1.01} {
				if !scalar.EqualWithinAbs(float64(w[i]), want, 1e-6) {
					t.Errorf("weights after one step %v, want (0.99, −0.01, 0.01, 1.01)", w)
					break
				}
			}
		}
	}
}

// TestContinuousLoss checks the mean squared error by hand: out = W·s with
// W = (1, 0); s = (1, 2), a = 0.5: error 0.5; s = (3, 0), a = 1: error 2;
// MSE (0.25 + 4)/2 = 2.125, with float32 or float64 actions.
func TestContinuousLoss(t *testing.T) {
	for _, acts := range []any{nd.MustNew([][]float32{{0.5}, {1}}), nd.MustNew([][]float64{{0.5}, {1}})} {
		b, err := bc.NewWithNetwork(bc.DefaultConfig(), linearNet([]float32{1, 0}), algotest.Box(t, -1, 1, 1))
		if err != nil {
			t.Fatal(err)
		}
		stats, err := b.Update(batch.MustNew("obs", nd.MustNew([][]float32{{1, 2}, {3, 0}}), "act", acts))
		if err != nil {
			t.Fatal(err)
		}
		if !scalar.EqualWithinAbs(stats["loss"], 2.125, 1e-6) {
			t.Errorf("loss %v, want 2.125", stats["loss"])
		}
	}
}

// TestAct checks the policy: the largest logit for a Discrete space (with
// the space's start), the network's output mapped to the Box for a
// continuous space, in every mode.
func TestAct(t *testing.T) {
	obs := batch.MustNew("obs", nd.MustNew([][]float32{{1, 2}, {3, 0}, {1, 1}}))
	d, err := env.NewDiscrete(2, 5)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bc.NewWithNetwork(bc.DefaultConfig(), linearNet([]float32{1, 0}, []float32{0, 1}), d)
	if err != nil {
		t.Fatal(err)
	}
	p := b.Policy()
	var out batch.Batch
	for _, training := range []bool{false, true} {
		p.SetTrainingStep(training)
		if err := p.Act(&out, obs, nil, true); err != nil {
			t.Fatal(err)
		}
		// Logits (1, 2), (3, 0), (1, 1): actions 1, 0, 0 (tie: the first),
		// plus the start 5.
		if got, _ := batch.Values[int64](&out, "act"); !slices.Equal(got, []int64{6, 5, 5}) {
			t.Errorf("training step %v: actions %v, want [6 5 5]", training, got)
		}
	}

	// Box [−2, 2], clip then rescale: raw actions s₀ − s₁ = −1, 3, 0 become
	// −1, 1, 0 clipped, then −2, 2, 0.
	cfg := bc.DefaultConfig()
	cfg.Map = policy.BoxMapConfig{Bound: policy.Clip, Scale: true}
	c, err := bc.NewWithNetwork(cfg, linearNet([]float32{1, -1}), algotest.Box(t, -2, 2, 1))
	if err != nil {
		t.Fatal(err)
	}
	var cout batch.Batch
	if err := c.Policy().Act(&cout, obs, nil, false); err != nil {
		t.Fatal(err)
	}
	raw, _ := cout.Array("act")
	if got := nd.ToSlice[float32](raw); !slices.Equal(got, []float32{-1, 3, 0}) {
		t.Errorf("raw actions %v, want [-1 3 0]", got)
	}
	mapped := nd.Zeros(nd.Float32, 3, 1)
	if err := c.Policy().(policy.ActionMapper).MapActionTo(mapped, raw); err != nil {
		t.Fatal(err)
	}
	if got := nd.ToSlice[float32](mapped); !slices.Equal(got, []float32{-2, 2, 0}) {
		t.Errorf("mapped actions %v, want [-2 2 0]", got)
	}
	act, err := policy.ComputeAction(c.Policy(), nd.MustNew([]float32{0.25, 0}))
	if err != nil {
		t.Fatal(err)
	}
	if got := nd.ToSlice[float32](act); !slices.Equal(got, []float32{0.5}) {
		t.Errorf("ComputeAction: %v, want [0.5]", got)
	}
}

func TestErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		name string
		edit func(*bc.Config)
	}{
		{"hidden", func(c *bc.Config) { c.Hidden = []int{0} }},
		{"lr", func(c *bc.Config) { c.Optim.LR = -1 }},
		{"grad norm", func(c *bc.Config) { c.MaxGradNorm = math.NaN() }},
		{"map", func(c *bc.Config) { c.Map.Bound = "sigmoid" }},
	} {
		cfg := bc.DefaultConfig()
		tc.edit(&cfg)
		if _, err := bc.New(cfg, algotest.Box(t, -1, 1, 4), algotest.Discrete(t, 2, 0), rng); !errors.Is(err, bc.ErrConfig) {
			t.Errorf("%s: New = %v, want ErrConfig", tc.name, err)
		}
	}
	multi, _ := env.NewMultiBinary(2)
	for _, tc := range []struct {
		name     string
		obs, act env.Space
	}{
		{"MultiBinary actions", algotest.Box(t, -1, 1, 4), multi},
		{"Discrete observations", algotest.Discrete(t, 3, 0), algotest.Discrete(t, 2, 0)},
	} {
		if _, err := bc.New(bc.DefaultConfig(), tc.obs, tc.act, rng); !errors.Is(err, bc.ErrConfig) {
			t.Errorf("%s: New = %v, want ErrConfig", tc.name, err)
		}
	}

	b, err := bc.New(bc.DefaultConfig(), algotest.Box(t, -1, 1, 4), algotest.Discrete(t, 2, 0), rng)
	if err != nil {
		t.Fatal(err)
	}
	before := b.Network().Params().Clone()[0].Tensor
	obs := nd.Zeros(nd.Float32, 2, 4)
	for _, tc := range []struct {
		name string
		b    *batch.Batch
	}{
		{"no act", batch.MustNew("obs", obs)},
		{"action outside", batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 2}))},
		{"negative action", batch.MustNew("obs", obs, "act", nd.MustNew([]int64{-1, 0}))},
		{"float actions", batch.MustNew("obs", obs, "act", nd.MustNew([]float32{0, 1}))},
		{"act of two axes", batch.MustNew("obs", obs, "act", nd.MustNew([][]int64{{0}, {1}}))},
		{"no obs", batch.MustNew("act", nd.MustNew([]int64{0, 1}))},
	} {
		if _, err := b.Update(tc.b); err == nil {
			t.Errorf("%s: Update accepted the batch", tc.name)
		}
	}
	if !b.Network().Params()[0].Tensor.Equal(before) || b.Updates() != 0 {
		t.Error("a refused batch changed the network")
	}

	c, err := bc.New(bc.DefaultConfig(), algotest.Box(t, -1, 1, 4), algotest.Box(t, -1, 1, 2), rng)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		act  any
	}{
		{"int actions", nd.MustNew([][]int64{{0, 1}, {1, 0}})},
		{"wrong size", nd.MustNew([][]float32{{0}, {1}})},
		{"one axis", nd.MustNew([]float32{0, 1})},
	} {
		if _, err := c.Update(batch.MustNew("obs", obs, "act", tc.act)); err == nil {
			t.Errorf("continuous, %s: Update accepted the batch", tc.name)
		}
	}
	// A network whose output does not fit the action space.
	w, err := bc.NewWithNetwork(bc.DefaultConfig(), linearNet([]float32{1, 0, 0, 0}), algotest.Discrete(t, 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Update(batch.MustNew("obs", obs, "act", nd.MustNew([]int64{0, 1}))); !errors.Is(err, bc.ErrConfig) {
		t.Errorf("one logit for two actions: Update = %v, want ErrConfig", err)
	}
	var out batch.Batch
	if err := w.Policy().Act(&out, batch.MustNew("obs", obs), nil, false); !errors.Is(err, policy.ErrConfig) {
		t.Errorf("one logit for two actions: Act = %v, want policy.ErrConfig", err)
	}
}

// offline builds a BC on CartPole and an offline trainer for it over buf.
func offline(t *testing.T, seed uint64, epochs int, buf buffer.Buffer, checkpoint string, onEpoch func(trainer.EpochStats)) (*trainer.Trainer, *bc.BC) {
	t.Helper()
	probe := algotest.CartPoles(t, 1)[0]
	cfg := bc.DefaultConfig()
	cfg.Hidden = []int{16}
	b, err := bc.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(seed, 2)))
	if err != nil {
		t.Fatal(err)
	}
	tc := trainer.Config{Epochs: epochs, StepPerEpoch: 25, BatchSize: 32, TestEpisodes: 3}
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
	run := func(seed uint64) (*bc.BC, trainer.Result) {
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
	if !algotest.EqualParams(a.Network().Params(), b.Network().Params()) {
		t.Error("two runs of one seed: the parameters differ")
	}
	if ra.BestReturn != rb.BestReturn || ra.GradientSteps != 50 || rb.GradientSteps != 50 {
		t.Errorf("two runs of one seed: %+v and %+v", ra, rb)
	}
	if a.Network().Params()[0].Tensor.Equal(c.Network().Params()[0].Tensor) {
		t.Error("two seeds gave the same parameters")
	}
}

// TestResume checks the offline trainer's checkpoints with BC: 4 epochs
// without interruption equal 2 epochs, a restore of their checkpoint into a
// new trainer, and 2 more (networks, Adam, sampling and test envs).
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
	ckpt := filepath.Join(dir, "bc.ckpt")
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
	if !algotest.EqualParams(bFull.Network().Params(), bRest.Network().Params()) {
		t.Error("after resuming: the parameters differ")
	}
	if bFull.Updates() != bRest.Updates() {
		t.Errorf("updates %d and %d", bFull.Updates(), bRest.Updates())
	}
}

// TestSaveLoad saves a BC during training, loads the state into a fresh BC,
// and checks that both continue identically; another network is refused.
func TestSaveLoad(t *testing.T) {
	data := algotest.RandomCartPoleData(t, 300, 4)
	probe := algotest.CartPoles(t, 1)[0]
	mk := func(seed uint64, hidden ...int) *bc.BC {
		cfg := bc.DefaultConfig()
		cfg.Hidden = hidden
		b, err := bc.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(seed, 0)))
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
	for range 5 {
		if _, err := l1.Step(b, data, 32, r1); err != nil {
			t.Fatal(err)
		}
		if _, err := l2.Step(fresh, data, 32, r2); err != nil {
			t.Fatal(err)
		}
	}
	if !algotest.EqualParams(b.Network().Params(), fresh.Network().Params()) {
		t.Error("after loading: the parameters differ")
	}
	if err := mk(1, 8).Load(bytes.NewReader(state.Bytes())); !errors.Is(err, algo.ErrState) {
		t.Errorf("loading into another network: %v, want ErrState", err)
	}
}

// TestUpdateAllocations locks the steady state of an update cycle (sample,
// update) and of acting at zero allocations.
func TestUpdateAllocations(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	data := algotest.RandomCartPoleData(t, 300, 5)
	probe := algotest.CartPoles(t, 1)[0]
	b, err := bc.New(bc.DefaultConfig(), probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(1, 1)))
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
		if err := b.Policy().Act(&out, obs, nil, false); err != nil {
			t.Fatal(err)
		}
	}
	act()
	if a := testing.AllocsPerRun(50, act); a != 0 {
		t.Errorf("acting allocates %v times", a)
	}
}

// linearNet returns a network out = W·obs without bias, W given by rows.
func linearNet(w ...[]float32) policy.ObsNet { return policy.ObsNet{Layer: algotest.Linear(w...)} }
