package a2c_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/a2c"
	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// linearNet returns a Net over observations of two numbers and two
// actions: logits = W·s, V(s) = w·s, both without bias.
func linearNet(t *testing.T, actor [2][]float32, critic []float32) *actorcritic.Net {
	t.Helper()
	net, err := actorcritic.NewNetFrom(policy.ObsNet{Layer: nn.Identity}, algotest.Linear(actor[0], actor[1]), algotest.Linear(critic),
		policy.CategoricalHead{}, algotest.Discrete(t, 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// episode holds one env's terminated episode of three steps in a buffer:
// observations (i, 0), next observations (i + 1, 0), rewards 1.
func episode(t *testing.T) (buffer.Buffer, *batch.Batch, []int) {
	t.Helper()
	buf, err := buffer.New(buffer.Config{Size: 8})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		b := batch.MustNew("obs", []float32{float32(i), 0}, "act", int64(i%2), "rew", 1.0,
			"terminated", i == 2, "truncated", false, "obs_next", []float32{float32(i + 1), 0})
		if _, err := buf.Add(b, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	b, idx := algotest.Take(t, buf)
	return buf, b, idx
}

func values(t *testing.T, b *batch.Batch, key string) []float32 {
	t.Helper()
	v, err := batch.Values[float32](b, key)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func check(t *testing.T, name string, got []float32, want ...float64) {
	t.Helper()
	for i := range want {
		if !scalar.EqualWithinAbs(float64(got[i]), want[i], 1e-5) {
			t.Errorf("%s = %v, want %v", name, got, want)
			return
		}
	}
}

// TestGAE checks Preprocess's values, advantages and returns by hand with
// the critic V(s) = s₀, γ = λ = 0.5, on a terminated episode with V = (0, 1,
// 2) and V′ = (1, 2, terminal):
//
//	δ = (1 + 0.5·1 − 0, 1 + 0.5·2 − 1, 1 − 2) = (1.5, 1, −1)
//	Â = (1.5 + 0.25·0.75, 1 + 0.25·(−1), −1) = (1.6875, 0.75, −1)
//	G = Â + V = (1.6875, 1.75, 1)
//
// With ReturnScaling the first collection divides by √(1 + 10⁻⁸) (the
// statistics start at variance 1) and leaves the statistics at the mean
// and variance of G: 1.479167, 0.115451. The second, on the same data,
// scales the values by s = √0.115451 = 0.339781 for the estimate: Â =
// (1.439918, 1.080109, 0.320437), and the returns are (Â + s·V)/s =
// (4.237778, 4.178836, 2.943069) (computed with the recurrences above).
func TestGAE(t *testing.T) {
	for _, scaling := range []bool{false, true} {
		cfg := a2c.DefaultConfig()
		cfg.Gamma, cfg.GAELambda, cfg.ReturnScaling = 0.5, 0.5, scaling
		net := linearNet(t, [2][]float32{{0, 0}, {0, 0}}, []float32{1, 0})
		a, err := a2c.NewWithNet(cfg, net, algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		buf, b, idx := episode(t)
		if err := a.Preprocess(b, buf, idx); err != nil {
			t.Fatal(err)
		}
		check(t, "v_s", values(t, b, "v_s"), 0, 1, 2)
		check(t, "adv", values(t, b, "adv"), 1.6875, 0.75, -1)
		check(t, "returns", values(t, b, "returns"), 1.6875, 1.75, 1)
		if !scaling {
			if a.Counters.Returns.Count != 0 {
				t.Error("the return statistics changed without ReturnScaling")
			}
			continue
		}
		if s := a.Counters.Returns; !scalar.EqualWithinAbs(s.Mean, 1.479167, 1e-6) || !scalar.EqualWithinAbs(s.Var, 0.115451, 1e-6) {
			t.Errorf("statistics %+v, want mean 1.479167, variance 0.115451", s)
		}
		if err := a.Preprocess(b, buf, idx); err != nil {
			t.Fatal(err)
		}
		check(t, "scaled adv", values(t, b, "adv"), 1.439918, 1.080109, 0.320437)
		check(t, "scaled returns", values(t, b, "returns"), 4.237778, 4.178836, 2.943069)
	}
}

// TestLoss checks A2C's loss on a tiny fixed batch by hand. The actor's
// logits are 0 (π uniform, log π = −ln 2 = −0.693147, entropy ln 2); the
// critic is V(s) = s₀. Transitions: s = (1, 0), Â = 1, G = 2; s = (2, 0),
// Â = −2, G = 0.
//
//	actor loss = −(−0.693147·1 + (−0.693147)·(−2))/2 = −0.346574
//	value loss = ((2 − 1)² + (0 − 2)²)/2          = 2.5
//	loss = −0.346574 + 0.5·2.5 − 0.01·0.693147    = 0.896495
func TestLoss(t *testing.T) {
	cfg := a2c.DefaultConfig()
	cfg.EntCoef = 0.01
	net := linearNet(t, [2][]float32{{0, 0}, {0, 0}}, []float32{1, 0})
	a, err := a2c.NewWithNet(cfg, net, algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	b := batch.MustNew(
		"obs", nd.MustNew([][]float32{{1, 0}, {2, 0}}),
		"act", nd.MustNew([]int64{0, 1}),
		"adv", nd.MustNew([]float32{1, -2}),
		"returns", nd.MustNew([]float32{2, 0}),
	)
	stats, err := a.UpdateRepeat(b, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]float64{"actor_loss": -0.346574, "vf_loss": 2.5, "entropy": 0.693147, "loss": 0.896495} {
		if !scalar.EqualWithinAbs(stats[k], want, 1e-5) {
			t.Errorf("%s = %v, want %v", k, stats[k], want)
		}
	}
	if _, err := a.UpdateRepeat(batch.MustNew("obs", nd.Zeros(nd.Float32, 2, 2), "act", nd.MustNew([]int64{0, 1}), "returns", nd.MustNew([]float32{2, 0})), 0, 1); err == nil {
		t.Error("UpdateRepeat accepted a batch without adv")
	}
}

func TestConfigErrors(t *testing.T) {
	obs, act := algotest.Box(t, -1, 1, 4), algotest.Discrete(t, 2, 0)
	for _, tc := range []struct {
		name string
		edit func(*a2c.Config)
	}{
		{"gamma", func(c *a2c.Config) { c.Gamma = 2 }},
		{"lambda", func(c *a2c.Config) { c.GAELambda = -0.5 }},
		{"vf", func(c *a2c.Config) { c.VFCoef = -1 }},
		{"ent", func(c *a2c.Config) { c.EntCoef = math.Inf(1) }},
		{"lr", func(c *a2c.Config) { c.Optim.LR = -1 }},
		{"net", func(c *a2c.Config) { c.Net.Hidden = []int{0} }},
	} {
		cfg := a2c.DefaultConfig()
		tc.edit(&cfg)
		if _, err := a2c.New(cfg, obs, act, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, a2c.ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", tc.name, err)
		}
	}
	net, err := actorcritic.NewNet(actorcritic.NetConfig{Hidden: []int{4}}, obs, act, false, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a2c.NewWithNet(a2c.DefaultConfig(), net, act, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, a2c.ErrConfig) {
		t.Errorf("a Net without critic: %v, want ErrConfig", err)
	}
}

// TestCheck runs algotest's on-policy checks (determinism, resume from a
// saved state, the allocation lock of an update, a smoke run) with both
// heads, on an A2C with two hidden layers of 16, return scaling, an entropy
// bonus and gradient clipping, so that every part runs.
func TestCheck(t *testing.T) {
	newA2C := func(hidden ...int) func(testing.TB, env.Space, *rand.Rand) *a2c.A2C {
		return func(t testing.TB, act env.Space, rng *rand.Rand) *a2c.A2C {
			cfg := a2c.DefaultConfig()
			cfg.Net.Hidden = hidden
			cfg.ReturnScaling, cfg.EntCoef, cfg.MaxGradNorm, cfg.GAELambda = true, 0.01, 0.5, 0.95
			a, err := a2c.New(cfg, algotest.Box(t, -10, 10, 4), act, rng)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
	}
	algotest.CheckOnPolicy(t, algotest.OnPolicy[*a2c.A2C]{
		New:    newA2C(16, 16),
		Params: func(a *a2c.A2C) nn.Params { return a.Net.Params() },
		Other: func(t testing.TB, act env.Space) *a2c.A2C {
			return newA2C(8)(t, act, rand.New(rand.NewPCG(1, 1)))
		},
	})
}
