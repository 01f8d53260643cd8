package rainbow_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/rainbow"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

func newRainbow(hidden ...int) func(testing.TB, *rand.Rand) *rainbow.Rainbow {
	return func(t testing.TB, rng *rand.Rand) *rainbow.Rainbow {
		cfg := rainbow.DefaultConfig()
		cfg.Hidden, cfg.TargetUpdateFreq, cfg.NumAtoms = hidden, 5, 11
		cfg.BetaAnnealSteps = 0
		r, err := rainbow.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 3, 0), rng)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
}

// TestCheck runs algotest's off-policy checks (determinism, resume from a
// saved state across a target update, the allocation lock of an update
// cycle with new noise, a smoke run) on a Rainbow with two hidden layers of
// 32, 11 atoms and a target update every 5 steps, sampling from a
// prioritized buffer.
func TestCheck(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.OffPolicy[*rainbow.Rainbow]{
		New: newRainbow(32, 32),
		Params: func(r *rainbow.Rainbow) nn.Params {
			return append(slices.Clone(r.Network().Params()), r.Target().Params()...)
		},
		Other: func(t testing.TB) *rainbow.Rainbow { return newRainbow(16)(t, rand.New(rand.NewPCG(1, 1))) },
		Buffer: func(t testing.TB, rng *rand.Rand) buffer.Buffer {
			return algotest.Collection(t, 4, 50, algotest.Discrete(t, 3, 0), rng)
		},
		Explore: func(r *rainbow.Rainbow) { r.Q().SetEps(1, 1) },
	})
}

// TestNoise checks that every update cycle draws new noise, that the
// policy acts through it while collecting training data, and with the mean
// weights, whatever the noise, while testing.
func TestNoise(t *testing.T) {
	cfg := rainbow.DefaultConfig()
	cfg.Hidden, cfg.EpsTrain, cfg.EpsTest = []int{16}, 0, 0
	act := algotest.Discrete(t, 3, 0)
	r, err := rainbow.New(cfg, algotest.Box(t, -10, 10, 4), act, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	x := tensor.New(8, 4)
	x.FillUniform(rand.New(rand.NewPCG(5, 5)), -1, 1)
	obs := batch.MustNew("obs", x.ND())
	// logits acts with the training-step flag given (which sets the noisy
	// layers' mode) and returns the online network's logits in that mode.
	logits := func(training bool) []float32 {
		p := r.Policy()
		p.SetTrainingStep(training)
		var out batch.Batch
		if err := p.Act(&out, obs, nil, true); err != nil {
			t.Fatal(err)
		}
		var tp tensor.Tape
		return slices.Clone(r.Network().Call(&tp, []*tensor.Tensor{x}).Data())
	}
	noise := func() []float32 {
		return slices.Clone(r.Network().Params().Lookup("1.advantage.0.weight_epsilon").Data())
	}
	buf := algotest.Collection(t, 4, 50, act, rand.New(rand.NewPCG(3, 3)))
	b, idx := algotest.Take(t, buf)
	test, train, before := logits(false), logits(true), noise()
	if slices.Equal(test, train) {
		t.Fatal("the noisy and the mean weights give the same logits")
	}
	// Preprocess draws new noise and leaves the weights alone.
	if err := r.Preprocess(b, buf, idx); err != nil {
		t.Fatal(err)
	}
	if slices.Equal(noise(), before) {
		t.Error("an update cycle kept the noise")
	}
	if got := logits(false); !slices.Equal(got, test) {
		t.Error("testing: the logits changed with the noise")
	}
	if got := logits(true); slices.Equal(got, train) {
		t.Error("training: the logits did not change with the noise")
	}
}

func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, rainbow.DefaultConfig, rainbow.New, rainbow.ErrConfig, algotest.Discrete(t, 2, 0), []algotest.Reject[rainbow.Config]{
		{Name: "noisy_std 0", Edit: func(c *rainbow.Config) { c.NoisyStd = 0 }, Want: "noisy_std"},
		{Name: "stream sizes", Edit: func(c *rainbow.Config) { c.ValueHidden = []int{-1} }, Want: "value_hidden"},
		{Name: "atoms", Edit: func(c *rainbow.Config) { c.NumAtoms = 0 }, Want: "num_atoms"},
		{Name: "eps", Edit: func(c *rainbow.Config) { c.EpsTrain = 2 }, Want: "eps_train"},
		{Name: "beta_final", Edit: func(c *rainbow.Config) { c.BetaFinal = -1 }, Want: "beta_final"},
	}, algotest.Box(t, -1, 1, 2))
}
