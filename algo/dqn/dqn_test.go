package dqn_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// linearNet returns a Q network Q(s) = W·s without bias, W given by rows.
func linearNet(w ...[]float32) policy.ObsNet { return policy.ObsNet{Layer: algotest.Linear(w...)} }

func weights(p policy.Network) []float32 {
	return p.Params()[0].Tensor.Data()
}

// TestLoss checks the loss of one update and the direction of Adam's first
// step on a tiny fixed batch, by hand.
//
// Q(s) = s (W = I). Transition 1: s = (1, 2), a = 1, G = 3: Q(s, a) = 2,
// TD error 1. Transition 2: s = (3, 0), a = 0, G = 0: Q = 3, TD error −3.
//
//	MSE          (1² + 3²)/2                 = 5
//	Huber δ = 1  (½·1² + (3 − ½))/2          = 1.5
//	weighted MSE (0.5·1 + 2·9)/2             = 9.25   (w = 0.5, 2)
//	weighted Huber (0.5·0.5 + 2·2.5)/2       = 2.625
//
// The MSE gradient with respect to W is Σᵢ (Qᵢ − Gᵢ)·sᵢ in row aᵢ: row 0
// gets 3·(3, 0) = (9, 0), row 1 gets −1·(1, 2) = (−1, −2). Adam's first step
// moves each weight by −lr·sign(gradient) (zero gradient: no move): W =
// ((0.99, 0), (0.01, 1.01)) with lr = 0.01.
func TestLoss(t *testing.T) {
	base := batch.MustNew(
		"obs", nd.MustNew([][]float32{{1, 2}, {3, 0}}),
		"act", nd.MustNew([]int64{1, 0}),
		"returns", nd.MustNew([]float32{3, 0}),
	)
	weighted := base.Clone()
	if err := weighted.Set("weight", nd.MustNew([]float64{0.5, 2})); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		loss dqn.Loss
		b    *batch.Batch
		want float64
	}{
		{"mse", dqn.MSE, base, 5},
		{"huber", dqn.Huber, base, 1.5},
		{"weighted mse", dqn.MSE, weighted, 9.25},
		{"weighted huber", dqn.Huber, weighted, 2.625},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := dqn.DefaultConfig()
			cfg.TargetUpdateFreq = 0
			cfg.Loss = tc.loss
			cfg.Optim.LR = 0.01
			net := linearNet([]float32{1, 0}, []float32{0, 1})
			d, err := dqn.NewWithNetworks(cfg, net, nil, algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			stats, err := d.Update(tc.b)
			if err != nil {
				t.Fatal(err)
			}
			if !scalar.EqualWithinAbs(stats["loss"], tc.want, 1e-6) {
				t.Errorf("loss %v, want %v", stats["loss"], tc.want)
			}
			if tc.name != "mse" {
				return
			}
			w := weights(net)
			for i, want := range []float64{0.99, 0, 0.01, 1.01} {
				if !scalar.EqualWithinAbs(float64(w[i]), want, 1e-6) {
					t.Errorf("weights after one step %v, want (0.99, 0, 0.01, 1.01)", w)
					break
				}
			}
		})
	}
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

// TestTargets checks the 2-step returns of Preprocess by hand for Machin's
// three modes. Online Q(s) = s, target Q′(s) = (s₁, 3s₀); at the last
// obs_next (2, 1): online values (2, 1), target values (1, 6). Return of
// step 0 with γ = 0.5: 1 + 0.5·2 + 0.25·Q′, Q′ = max of the online values
// (vanilla, 2), max of the target's (fixed target, 6), or the target's value
// of the online argmax (double, 1). A terminated end has no Q′.
func TestTargets(t *testing.T) {
	for _, tc := range []struct {
		mode dqn.Mode
		term bool
		want float64
	}{
		{dqn.Vanilla, false, 2.5},
		{dqn.FixedTarget, false, 3.5},
		{dqn.Double, false, 2.25},
		{dqn.Double, true, 2},
	} {
		t.Run(string(tc.mode), func(t *testing.T) {
			cfg := dqn.DefaultConfig()
			cfg.Gamma, cfg.NStep = 0.5, 2
			cfg.TargetUpdateFreq = 0
			if err := cfg.ApplyMode(tc.mode); err != nil {
				t.Fatal(err)
			}
			net := linearNet([]float32{1, 0}, []float32{0, 1})
			var target policy.Network
			if tc.mode != dqn.Vanilla {
				target = linearNet([]float32{0, 0}, []float32{0, 0})
			}
			d, err := dqn.NewWithNetworks(cfg, net, target, algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			if target != nil {
				// NewWithNetworks copied the online weights; set the
				// target's own.
				copy(weights(target), []float32{0, 1, 3, 0})
			}
			buf := twoStepBuffer(t, tc.term)
			b := new(batch.Batch)
			if err := buf.TakeTo(b, []int{0}); err != nil {
				t.Fatal(err)
			}
			if err := d.Preprocess(b, buf, []int{0}); err != nil {
				t.Fatal(err)
			}
			ret, err := batch.Values[float32](b, "returns")
			if err != nil {
				t.Fatal(err)
			}
			if !scalar.EqualWithinAbs(float64(ret[0]), tc.want, 1e-6) {
				t.Errorf("return %v, want %v", ret[0], tc.want)
			}
		})
	}
}

// TestTargetUpdates checks the hard copy every TargetUpdateFreq steps and
// the soft update.
func TestTargetUpdates(t *testing.T) {
	b := batch.MustNew(
		"obs", nd.MustNew([][]float32{{1, 2}}),
		"act", nd.MustNew([]int64{1}),
		"returns", nd.MustNew([]float32{5}),
	)
	t.Run("hard", func(t *testing.T) {
		cfg := dqn.DefaultConfig()
		cfg.TargetUpdateFreq = 3
		net, target := linearNet([]float32{1, 0}, []float32{0, 1}), linearNet([]float32{0, 0}, []float32{0, 0})
		d, err := dqn.NewWithNetworks(cfg, net, target, algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		initial := append([]float32(nil), weights(target)...)
		for step := 1; step <= 6; step++ {
			if _, err := d.Update(b); err != nil {
				t.Fatal(err)
			}
			synced := equalF(weights(target), weights(net))
			if want := step%3 == 0; synced != want {
				t.Errorf("after step %d: target equals online: %v, want %v", step, synced, want)
			}
			if step < 3 && !equalF(weights(target), initial) {
				t.Errorf("after step %d the target changed", step)
			}
		}
	})
	t.Run("soft", func(t *testing.T) {
		cfg := dqn.DefaultConfig()
		cfg.TargetUpdateFreq, cfg.Tau = 0, 0.25
		net, target := linearNet([]float32{1, 0}, []float32{0, 1}), linearNet([]float32{0, 0}, []float32{0, 0})
		d, err := dqn.NewWithNetworks(cfg, net, target, algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		before := append([]float32(nil), weights(target)...)
		if _, err := d.Update(b); err != nil {
			t.Fatal(err)
		}
		for i, w := range weights(target) {
			want := 0.25*float64(weights(net)[i]) + 0.75*float64(before[i])
			if !scalar.EqualWithinAbs(float64(w), want, 1e-6) {
				t.Errorf("soft-updated target %v: element %d is %v, want %v", weights(target), i, w, want)
			}
		}
	})
}

func equalF(a, b []float32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// TestPrioritized checks that Postprocess reports |TD error| as priorities:
// with α = 1 and β = 1 the importance weights of two transitions then stand in
// the inverse ratio of their priorities, and β follows the schedule.
func TestPrioritized(t *testing.T) {
	buf, err := buffer.NewPrioritizedVector(buffer.Config{Size: 4}, 1, buffer.PriorityConfig{Alpha: 1, Beta: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range [][]float32{{1, 2}, {3, 0}} {
		b := batch.MustNew("obs", [][]float32{o}, "act", []int64{0}, "rew", []float64{0}, "terminated", []bool{true}, "truncated", []bool{false}, "obs_next", [][]float32{o})
		if _, err := buf.Add(b, []int{0}, nil); err != nil {
			t.Fatal(err)
		}
	}
	cfg := dqn.DefaultConfig()
	cfg.TargetUpdateFreq, cfg.NStep = 0, 1
	cfg.BetaFinal, cfg.BetaAnnealSteps = 0.5, 100
	net := linearNet([]float32{1, 0}, []float32{0, 1})
	d, err := dqn.NewWithNetworks(cfg, net, nil, algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	// Terminated steps: returns = rewards = 0; Q(s, 0) = 1 and 3, TD errors
	// −1 and −3.
	idx := []int{0, 1}
	b, err := buf.Take(idx)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Preprocess(b, buf, idx); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Update(b); err != nil {
		t.Fatal(err)
	}
	d.Schedule(50)
	if err := d.Postprocess(b, buf, idx); err != nil {
		t.Fatal(err)
	}
	if got := buf.Beta(); !scalar.EqualWithinAbs(got, 0.75, 1e-12) {
		t.Errorf("β after 50 of 100 steps = %v, want 0.75", got)
	}
	if err := buf.SetBeta(1); err != nil {
		t.Fatal(err)
	}
	after, err := buf.Take(idx)
	if err != nil {
		t.Fatal(err)
	}
	w, err := batch.Values[float64](after, "weight")
	if err != nil {
		t.Fatal(err)
	}
	if !scalar.EqualWithinAbs(w[0]/w[1], 3, 1e-5) {
		t.Errorf("weights %v: ratio %v, want 3 (priorities 1 and 3)", w, w[0]/w[1])
	}
}

func TestSchedule(t *testing.T) {
	cfg := dqn.DefaultConfig()
	cfg.EpsTrain, cfg.EpsTrainFinal, cfg.EpsDecaySteps = 1, 0.1, 1000
	cfg.Hidden = []int{8}
	d, err := dqn.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	q := d.Policy().(*policy.Q)
	for _, tc := range []struct {
		steps int64
		want  float64
	}{{0, 1}, {500, 0.55}, {1000, 0.1}, {5000, 0.1}} {
		d.Schedule(tc.steps)
		if tr, te := q.Eps(); !scalar.EqualWithinAbs(tr, tc.want, 1e-12) || te != 0.05 {
			t.Errorf("after %d steps ε = %v, %v; want %v, 0.05", tc.steps, tr, te, tc.want)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*dqn.Config)
	}{
		{"gamma", func(c *dqn.Config) { c.Gamma = 1.5 }},
		{"n_step", func(c *dqn.Config) { c.NStep = 0 }},
		{"both targets", func(c *dqn.Config) { c.Tau = 0.1 }},
		{"loss", func(c *dqn.Config) { c.Loss = "l1" }},
		{"eps", func(c *dqn.Config) { c.EpsTest = -0.1 }},
		{"hidden", func(c *dqn.Config) { c.Hidden = []int{0} }},
		{"hold", func(c *dqn.Config) { c.Hold.MaxDuration = -1 }},
		{"lr", func(c *dqn.Config) { c.Optim.LR = -1 }},
	} {
		cfg := dqn.DefaultConfig()
		tc.edit(&cfg)
		if _, err := dqn.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("%s: New accepted an invalid config", tc.name)
		}
	}
	cfg := dqn.DefaultConfig()
	if _, err := dqn.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Box(t, -10, 10, 2), rand.New(rand.NewPCG(1, 1))); !errors.Is(err, dqn.ErrConfig) {
		t.Errorf("Box action space: %v, want ErrConfig", err)
	}
	if err := cfg.ApplyMode("triple"); !errors.Is(err, dqn.ErrConfig) {
		t.Errorf("unknown mode: %v", err)
	}
	d, err := dqn.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	bad := batch.MustNew("obs", nd.Zeros(nd.Float32, 1, 4), "act", nd.MustNew([]int64{5}), "returns", nd.MustNew([]float32{0}))
	if _, err := d.Update(bad); err == nil {
		t.Error("Update accepted an action outside the space")
	}
	if _, err := d.Update(batch.MustNew("obs", nd.Zeros(nd.Float32, 1, 4), "act", nd.MustNew([]int64{0}))); err == nil {
		t.Error("Update accepted a batch without returns")
	}
}

// fill adds steps transitions of a 4-dimensional random walk to buf (10
// envs), episodes ending at random.
func fill(t testing.TB, buf buffer.Buffer, steps int, rng *rand.Rand) {
	t.Helper()
	obs := make([][]float32, 10)
	for range steps {
		next := make([][]float32, 10)
		act, rew := make([]int64, 10), make([]float64, 10)
		term, trunc := make([]bool, 10), make([]bool, 10)
		for j := range 10 {
			if obs[j] == nil {
				obs[j] = []float32{0, 0, 0, 0}
			}
			next[j] = make([]float32, 4)
			for k := range 4 {
				next[j][k] = obs[j][k] + float32(rng.NormFloat64())*0.1
			}
			act[j] = int64(rng.IntN(2))
			rew[j] = 1
			term[j] = rng.IntN(30) == 0
			trunc[j] = !term[j] && rng.IntN(100) == 0
		}
		b := batch.MustNew("obs", obs, "act", act, "rew", rew, "terminated", term, "truncated", trunc, "obs_next", next)
		if _, err := buf.Add(b, nil, nil); err != nil {
			t.Fatal(err)
		}
		for j := range 10 {
			obs[j] = next[j]
			if term[j] || trunc[j] {
				obs[j] = nil
			}
		}
	}
}

// TestCheck runs algotest's off-policy checks (determinism, resume from a
// saved state across a target update, the allocation lock of an update
// cycle — sample, n-step returns with double Q targets, update, target
// copy —, a smoke run) on a DQN with two hidden layers of 32 and a target
// update every 5 steps, sampling from 150 steps of 10 envs (fill).
// TestHold checks that Config.Hold reaches the policy: with ε 1 and
// durations uniform in 1…65536 (shorter than 5 steps with probability
// 5/65536 for each env) the exploring policy keeps its actions while its
// state, written under "state", is handed back.
func TestHold(t *testing.T) {
	cfg := dqn.DefaultConfig()
	cfg.Hidden = []int{8}
	cfg.EpsTrain = 1
	cfg.Hold = policy.HoldConfig{MaxDuration: 1 << 16}
	d, err := dqn.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 5, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	p := d.Policy()
	p.SetTrainingStep(true)
	obs := batch.MustNew(batch.KeyObs, nd.Zeros(nd.Float32, 6, 4))
	var dst batch.Batch
	var state any
	var first []int64
	for step := range 5 {
		if err := p.Act(&dst, obs, state, true); err != nil {
			t.Fatal(err)
		}
		st, err := dst.Array(batch.KeyState)
		if err != nil {
			t.Fatalf("no state with a hold: %v", err)
		}
		state = st.Copy()
		a, _ := dst.Array(batch.KeyAct)
		for i, v := range nd.ToSlice[int64](a) {
			if step == 0 {
				first = append(first, v)
			} else if v != first[i] {
				t.Fatalf("step %d: env %d took %d, want its held %d", step, i, v, first[i])
			}
		}
	}
}

func TestCheck(t *testing.T) {
	newDQN := func(hidden ...int) func(testing.TB, *rand.Rand) *dqn.DQN {
		return func(t testing.TB, rng *rand.Rand) *dqn.DQN {
			cfg := dqn.DefaultConfig()
			cfg.Hidden = hidden
			cfg.TargetUpdateFreq = 5
			d, err := dqn.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 2, 0), rng)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
	}
	algotest.CheckOffPolicy(t, algotest.OffPolicy[*dqn.DQN]{
		New: newDQN(32, 32),
		Params: func(d *dqn.DQN) nn.Params {
			return append(slices.Clone(d.Network().Params()), d.Target().Params()...)
		},
		Other: func(t testing.TB) *dqn.DQN { return newDQN(16)(t, rand.New(rand.NewPCG(1, 1))) },
		Buffer: func(t testing.TB, rng *rand.Rand) buffer.Buffer {
			buf, err := buffer.NewVector(buffer.Config{Size: 2000}, 10)
			if err != nil {
				t.Fatal(err)
			}
			fill(t, buf, 150, rng)
			return buf
		},
		Updates: 12, // then 8 more, crossing a target update (every 5)
		Resume:  8,
		Explore: func(d *dqn.DQN) { d.Policy().(*policy.Q).SetEps(1, 1) },
	})
}
