package icm_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/algo/icm"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// smallDQN is a DQN with one hidden layer of hidden units, 1-step returns
// and a target network copied every 5 steps.
func smallDQN(hidden, nStep int) dqn.Config {
	cfg := dqn.DefaultConfig()
	cfg.Hidden, cfg.NStep, cfg.TargetUpdateFreq = []int{hidden}, nStep, 5
	return cfg
}

// linearICM is a module of linear maps only (no hidden layers), whose
// losses the test computes by hand: features of 2.
func linearICM(nStep int) icm.Config {
	cfg := icm.DefaultConfig()
	cfg.FeatureHidden, cfg.ModelHidden, cfg.FeatureDim, cfg.NStep = nil, nil, 2, nStep
	return cfg
}

func build(t testing.TB, cfg icm.Config, dcfg dqn.Config, seed uint64) *icm.ICM {
	obs, act := algotest.Box(t, -10, 10, 2), algotest.Discrete(t, 3, 0)
	d, err := dqn.New(dcfg, obs, act, rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatal(err)
	}
	m, err := icm.New(cfg, d, obs, act, rand.New(rand.NewPCG(seed, 2)))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// linear applies y = W·x + b with PyTorch's layout (W [out, in]) in
// float64.
func linear(ps nn.Params, prefix string, x []float64) []float64 {
	w, b := ps.Lookup(prefix+"0.weight"), ps.Lookup(prefix+"0.bias")
	out, in := w.Dim(0), w.Dim(1)
	y := make([]float64, out)
	for i := range out {
		y[i] = float64(b.Data()[i])
		for j := range in {
			y[i] += float64(w.Data()[i*in+j]) * x[j]
		}
	}
	return y
}

// TestLosses checks ℓ_F, ℓ_I, the loss L and the intrinsic reward on the
// five transitions of algotest.Five with actions 0, 2, 1, 1, 0, against a
// float64 computation of the linear module from its own weights:
// φ = W_φ·x + b_φ, ℓ_F = ½‖W_f·[φ(s), onehot(a)] + b_f − φ(s′)‖²,
// ℓ_I = −log softmax(W_i·[φ(s), φ(s′)] + b_i)_a, over β = 0.2 and η = 0.01,
// with LRScale 2 scaling L; and that the DQN's 1-step returns carry η·ℓ_F
// beyond those of the same DQN alone.
func TestLosses(t *testing.T) {
	cfg := linearICM(1)
	cfg.LRScale = 2
	m := build(t, cfg, smallDQN(8, 1), 1)
	plain := build(t, cfg, smallDQN(8, 1), 1).Inner() // the same DQN weights
	tr := algotest.Five()
	acts := []int64{0, 2, 1, 1, 0}
	ps := m.Params().Clone() // the weights before the update
	var fwdSum, invSum float64
	bonus := make([]float64, 5)
	for i := range tr.Obs {
		f64 := func(x []float32) []float64 {
			y := make([]float64, len(x))
			for j, v := range x {
				y[j] = float64(v)
			}
			return y
		}
		p1, p2 := linear(ps, "feature_net.", f64(tr.Obs[i])), linear(ps, "feature_net.", f64(tr.Next[i]))
		oh := []float64{0, 0, 0}
		oh[acts[i]] = 1
		pred := linear(ps, "forward_model.", append(slices.Clone(p1), oh...))
		lf := 0.0
		for j := range pred {
			lf += 0.5 * (pred[j] - p2[j]) * (pred[j] - p2[j])
		}
		logits := linear(ps, "inverse_model.", append(slices.Clone(p1), p2...))
		mx := slices.Max(logits)
		z := 0.0
		for _, l := range logits {
			z += math.Exp(l - mx)
		}
		fwdSum += lf
		invSum += -(logits[acts[i]] - mx - math.Log(z))
		bonus[i] = 0.01 * lf
	}
	wantF, wantI := fwdSum/5, invSum/5
	wantL := 2 * (0.8*wantI + 0.2*wantF)

	b := algotest.Preprocessed(t, m, tr, acts)
	ret := slices.Clone(batchFloats(t, b, batch.KeyReturns))
	bp := algotest.Preprocessed(t, plain, tr, acts)
	plainRet := batchFloats(t, bp, batch.KeyReturns)
	for i := range ret {
		if d := float64(ret[i] - plainRet[i]); math.Abs(d-bonus[i]) > 1e-5 {
			t.Errorf("transition %d: returns differ by %v; want η·ℓ_F = %v", i, d, bonus[i])
		}
	}
	st, err := m.Update(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key  string
		want float64
	}{{"icm/forward", wantF}, {"icm/inverse", wantI}, {"icm/loss", wantL}, {"icm/reward", 0.01 * wantF}} {
		if got := st[c.key]; math.Abs(got-c.want) > 1e-5*math.Max(1, math.Abs(c.want)) {
			t.Errorf("%s = %v; want %v", c.key, got, c.want)
		}
	}
	if _, ok := st["loss"]; !ok {
		t.Error("the DQN's loss is missing from the statistics")
	}
	for i, p := range m.Params() {
		if slices.Equal(p.Tensor.Data(), ps[i].Tensor.Data()) {
			t.Errorf("%s did not change in the update", p.Name)
		}
	}
}

func batchFloats(t testing.TB, b *batch.Batch, key string) []float32 {
	t.Helper()
	v, err := batch.Values[float32](b, key)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestWindowBonus checks that with 3-step returns the bonus reaches every
// step of a window: transitions 2, 3, 4 of Five form one episode tail (4
// truncated), so the first window sums γ⁰, γ¹, γ² times the bonuses of
// steps 2, 3 and 4 beyond the plain returns; and that the buffer's rewards
// are left alone.
func TestWindowBonus(t *testing.T) {
	cfg := linearICM(3)
	m := build(t, cfg, smallDQN(8, 3), 4)
	plain := build(t, cfg, smallDQN(8, 3), 4).Inner()
	tr := algotest.Five()
	acts := []int64{0, 2, 1, 1, 0}
	// The bonuses of each transition, from a 1-step module of the same
	// weights.
	one := build(t, linearICM(1), smallDQN(8, 1), 4)
	one1 := build(t, linearICM(1), smallDQN(8, 1), 4).Inner()
	r1 := batchFloats(t, algotest.Preprocessed(t, one, tr, acts), batch.KeyReturns)
	r0 := batchFloats(t, algotest.Preprocessed(t, one1, tr, acts), batch.KeyReturns)
	bonus := make([]float64, 5)
	for i := range bonus {
		bonus[i] = float64(r1[i] - r0[i])
	}
	ret := batchFloats(t, algotest.Preprocessed(t, m, tr, acts), batch.KeyReturns)
	plainRet := batchFloats(t, algotest.Preprocessed(t, plain, tr, acts), batch.KeyReturns)
	g := smallDQN(8, 3).Gamma
	want := bonus[2] + g*bonus[3] + g*g*bonus[4]
	if d := float64(ret[2] - plainRet[2]); math.Abs(d-want) > 1e-5 {
		t.Errorf("window from step 2: returns differ by %v; want %v", d, want)
	}
	// Step 1 is terminated: its window is itself.
	if d := float64(ret[1] - plainRet[1]); math.Abs(d-bonus[1]) > 1e-5 {
		t.Errorf("terminated step 1: returns differ by %v; want %v", d, bonus[1])
	}
}

func TestCheckOffPolicy(t *testing.T) {
	newICM := func(hidden int) func(t testing.TB, rng *rand.Rand) *icm.ICM {
		return func(t testing.TB, rng *rand.Rand) *icm.ICM {
			obs, act := algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 2, 0)
			d, err := dqn.New(smallDQN(16, 3), obs, act, rng)
			if err != nil {
				t.Fatal(err)
			}
			cfg := icm.DefaultConfig()
			cfg.FeatureHidden, cfg.FeatureDim, cfg.ModelHidden = []int{hidden}, 8, []int{hidden}
			cfg.ObsNorm, cfg.RewardNorm = true, true
			m, err := icm.New(cfg, d, obs, act, rng)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
	}
	algotest.CheckOffPolicy(t, algotest.OffPolicy[*icm.ICM]{
		New:    newICM(16),
		Params: func(m *icm.ICM) nn.Params { return m.Params() },
		Other:  func(t testing.TB) *icm.ICM { return newICM(8)(t, rand.New(rand.NewPCG(1, 1))) },
		Buffer: func(t testing.TB, rng *rand.Rand) buffer.Buffer {
			return algotest.Collection(t, 4, 50, algotest.Discrete(t, 2, 0), rng)
		},
		Explore: func(m *icm.ICM) { m.Policy().(*policy.Q).SetEps(1, 1) },
	})
}

func TestRejects(t *testing.T) {
	newICM := func(cfg icm.Config, obs, act env.Space, rng *rand.Rand) (*icm.ICM, error) {
		d, err := dqn.New(smallDQN(8, 1), obs, algotest.Discrete(t, 2, 0), rng)
		if err != nil {
			t.Fatal(err)
		}
		return icm.New(cfg, d, obs, act, rng)
	}
	algotest.CheckRejects(t, icm.DefaultConfig, newICM, icm.ErrConfig, algotest.Discrete(t, 2, 0), []algotest.Reject[icm.Config]{
		{Name: "feature dim 0", Edit: func(c *icm.Config) { c.FeatureDim = 0 }, Want: "feature_dim"},
		{Name: "forward weight 1.5", Edit: func(c *icm.Config) { c.ForwardLossWeight = 1.5 }, Want: "forward_loss_weight"},
		{Name: "reward scale −1", Edit: func(c *icm.Config) { c.RewardScale = -1 }, Want: "reward_scale"},
		{Name: "final reward scale NaN", Edit: func(c *icm.Config) { c.RewardScaleFinal = math.NaN() }, Want: "reward_scale_final"},
		{Name: "reward clip −1", Edit: func(c *icm.Config) { c.RewardClip = -1 }, Want: "reward_clip"},
		{Name: "reward decay −1", Edit: func(c *icm.Config) { c.RewardScaleDecaySteps = -1 }, Want: "reward_scale_decay_steps"},
		{Name: "lr scale 0", Edit: func(c *icm.Config) { c.LRScale = 0 }, Want: "lr_scale"},
		{Name: "hidden 0", Edit: func(c *icm.Config) { c.ModelHidden = []int{0} }, Want: "hidden"},
	}, algotest.Box(t, -1, 1, 1))
}

// bonuses returns the 1-step returns of m on tr beyond those of its DQN
// alone: the intrinsic reward of each transition.
func bonuses(t *testing.T, m, plain *icm.ICM, tr algotest.Transitions) []float64 {
	t.Helper()
	acts := []int64{0, 2, 1, 1, 0}
	ret := slices.Clone(batchFloats(t, algotest.Preprocessed(t, m, tr, acts), batch.KeyReturns))
	plainRet := batchFloats(t, algotest.Preprocessed(t, plain.Inner(), tr, acts), batch.KeyReturns)
	out := make([]float64, len(ret))
	for i := range ret {
		out[i] = float64(ret[i] - plainRet[i])
	}
	return out
}

// TestObsNormAndSchedule checks ObsNorm and the η schedule against a
// module of the same weights without them. ObsNorm on the Box [−10, 10]²
// maps x to x/10 (shift (−10 + 10)/2 = 0, scale 2/20), so its bonuses on
// Five equal the plain module's on Five divided by 10. The schedule
// anneals η from 0.01 to 0.002 over 100 env steps: η is 0.01 before any
// Schedule and at step 0, 0.006 halfway, 0.002 at step 100 and after.
func TestObsNormAndSchedule(t *testing.T) {
	tr := algotest.Five()
	scaled := algotest.Five()
	for i := range scaled.Obs {
		for j := range scaled.Obs[i] {
			scaled.Obs[i][j] /= 10
			scaled.Next[i][j] /= 10
		}
	}
	base := build(t, linearICM(1), smallDQN(8, 1), 3)
	ref := bonuses(t, base, base, scaled)

	cfg := linearICM(1)
	cfg.ObsNorm = true
	normed := build(t, cfg, smallDQN(8, 1), 3)
	got := bonuses(t, normed, normed, tr)
	for i := range got {
		if math.Abs(got[i]-ref[i]) > 1e-6*math.Max(1, math.Abs(ref[i])) {
			t.Errorf("obs_norm: transition %d: bonus %v; want %v, that of the obs divided by 10", i, got[i], ref[i])
		}
	}

	cfg = linearICM(1)
	cfg.RewardScaleFinal, cfg.RewardScaleDecaySteps = 0.002, 100
	sched := build(t, cfg, smallDQN(8, 1), 3)
	full := bonuses(t, base, base, tr) // η = 0.01
	for _, c := range []struct {
		steps int64 // -1: no Schedule call
		eta   float64
	}{{-1, 0.01}, {0, 0.01}, {50, 0.006}, {100, 0.002}, {1000, 0.002}} {
		if c.steps >= 0 {
			sched.Schedule(c.steps)
		}
		got := bonuses(t, sched, sched, tr)
		for i := range got {
			want := full[i] * c.eta / 0.01
			if math.Abs(got[i]-want) > 1e-6 {
				t.Errorf("schedule at %d steps: transition %d: bonus %v; want %v (η %v)", c.steps, i, got[i], want, c.eta)
			}
		}
	}
}

// TestRewardNormAndClip checks RewardNorm and RewardClip against the
// bonuses b_i = η·ℓ_F,i of the same module without them, with η = 0.01,
// on Five and then on Five with the observations halved (bonuses b′_i).
// RewardNorm's first batch starts the running mean at its own mean ℓ_F,
// m₁ = Σb/(5η), so its bonuses are η·ℓ_F,i/m₁ = b_i/m₁; the second moves
// it to m₂ = m₁ + 0.01·(Σb′/(5η) − m₁), giving b′_i/m₂. RewardClip at the
// median of b caps the larger bonuses at that median.
func TestRewardNormAndClip(t *testing.T) {
	batches := [2]algotest.Transitions{algotest.Five(), algotest.Five()}
	for i := range batches[1].Obs {
		for j := range batches[1].Obs[i] {
			batches[1].Obs[i][j] /= 2
			batches[1].Next[i][j] /= 2
		}
	}
	base := build(t, linearICM(1), smallDQN(8, 1), 5)
	var plain [2][]float64
	var sum [2]float64
	for p, tr := range batches {
		plain[p] = bonuses(t, base, base, tr)
		for _, b := range plain[p] {
			sum[p] += b
		}
	}
	m1 := sum[0] / (5 * 0.01)
	mean := [2]float64{m1, m1 + 0.01*(sum[1]/(5*0.01)-m1)}
	med := slices.Sorted(slices.Values(plain[0]))[2]
	for _, c := range []struct {
		name string
		edit func(*icm.Config)
		want func(pass, i int) float64
	}{
		{"norm", func(c *icm.Config) { c.RewardNorm = true }, func(p, i int) float64 { return plain[p][i] / mean[p] }},
		{"clip", func(c *icm.Config) { c.RewardClip = med }, func(p, i int) float64 { return min(plain[p][i], med) }},
	} {
		cfg := linearICM(1)
		c.edit(&cfg)
		m := build(t, cfg, smallDQN(8, 1), 5)
		for p, tr := range batches {
			got := bonuses(t, m, m, tr)
			for i := range got {
				if want := c.want(p, i); math.Abs(got[i]-want) > 1e-6 {
					t.Errorf("%s, batch %d: transition %d: bonus %v; want %v", c.name, p, i, got[i], want)
				}
			}
		}
	}
}
