package bcqc_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/bcqc"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/tensor"
)

func small(hidden int) bcqc.Config {
	cfg := bcqc.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden, cfg.VAEHidden, cfg.Tau = []int{hidden}, []int{hidden}, []int{hidden}, 0.1
	cfg.ForwardSampledTimes = 5
	return cfg
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(bcqc.New, small, algotest.Box(t, -2, 2, 2), (*bcqc.BCQ).Params))
}

func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, bcqc.DefaultConfig, bcqc.New, bcqc.ErrConfig, algotest.Box(t, -1, 1, 2), []algotest.Reject[bcqc.Config]{
		{Name: "lambda", Edit: func(c *bcqc.Config) { c.Lambda = 1.5 }, Want: "lambda"},
		{Name: "phi", Edit: func(c *bcqc.Config) { c.Phi = -0.1 }, Want: "phi"},
		{Name: "tau", Edit: func(c *bcqc.Config) { c.Tau = 0 }, Want: "tau"},
		{Name: "gamma", Edit: func(c *bcqc.Config) { c.Gamma = math.NaN() }, Want: "gamma"},
		{Name: "vae_hidden", Edit: func(c *bcqc.Config) { c.VAEHidden = nil }, Want: "vae_hidden"},
		{Name: "num_sampled_action", Edit: func(c *bcqc.Config) { c.NumSampledAction = 0 }, Want: "num_sampled_action"},
		{Name: "forward_sampled_times", Edit: func(c *bcqc.Config) { c.ForwardSampledTimes = 0 }, Want: "forward_sampled_times"},
		{Name: "latent_dim", Edit: func(c *bcqc.Config) { c.LatentDim = -1 }, Want: "latent_dim"},
	}, algotest.Discrete(t, 3, 0))
}

// TestVAELoss checks the VAE's loss and its gradient on a fixed batch, by
// hand. Reconstruction: recon (0.5, 0), act (0, 0): mean squared error
// 0.125. KL terms −log σ + (σ² + μ² − 1)/2: μ = 0, log σ = 0 gives 0; μ =
// 1, log σ = ln 2 (σ = 2) gives −0.693147 + (4 + 1 − 1)/2 = 1.306853; their
// mean is 0.653426 and half of it 0.326713. Loss 0.451713.
// Gradients: ∂/∂recon = 2·(recon − act)/2 = (0.5, 0); ∂/∂μ = μ/(2·2) =
// (0, 0.25); ∂/∂log σ = (σ² − 1)/(2·2) = (0, 0.75).
func TestVAELoss(t *testing.T) {
	var tp tensor.Tape
	recon := tensor.MustFromSlice([]float32{0.5, 0}, 2, 1).SetRequiresGrad(true)
	act := tensor.MustFromSlice([]float32{0, 0}, 2, 1)
	mean := tensor.MustFromSlice([]float32{0, 1}, 1, 2).SetRequiresGrad(true)
	logStd := tensor.MustFromSlice([]float32{0, float32(math.Ln2)}, 1, 2).SetRequiresGrad(true)
	loss := bcqc.VAELoss(&tp, recon, act, mean, logStd)
	tp.Backward(loss)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"loss", float64(loss.Item()), 0.451713},
		{"dL/drecon1", float64(recon.Grad()[0]), 0.5}, {"dL/drecon2", float64(recon.Grad()[1]), 0},
		{"dL/dmean1", float64(mean.Grad()[0]), 0}, {"dL/dmean2", float64(mean.Grad()[1]), 0.25},
		{"dL/dlogstd1", float64(logStd.Grad()[0]), 0}, {"dL/dlogstd2", float64(logStd.Grad()[1]), 0.75},
	} {
		if !scalar.EqualWithinAbsOrRel(c.got, c.want, 1e-5, 1e-5) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestTargetValues checks BCQ's target over sampled actions, by hand, for
// λ = 0.75, 2 rows of 3 samples: row 1 pairs (1, 3), (2, 2), (0, 4) give
// 0.75·min + 0.25·max = 1.5, 2, 1 → 2; row 2 pairs (−1, −2), (−5, 0),
// (−3, −3) give −1.75, −3.75, −3 → −1.75. With λ = 1 (the minimum) row 1
// gives 2 and with λ = 0 (the maximum) 4.
func TestTargetValues(t *testing.T) {
	q1 := []float32{1, 2, 0, -1, -5, -3}
	q2 := []float32{3, 2, 4, -2, 0, -3}
	for _, c := range []struct {
		lambda float64
		want   []float32
	}{{0.75, []float32{2, -1.75}}, {1, []float32{2, -2}}, {0, []float32{4, 0}}} {
		dst := make([]float32, 2)
		bcqc.TargetValuesTo(dst, q1, q2, 3, c.lambda)
		for i := range dst {
			if math.Abs(float64(dst[i]-c.want[i])) > 1e-6 {
				t.Errorf("λ %v: row %d: %v, want %v", c.lambda, i, dst[i], c.want[i])
			}
		}
	}
}

// TestPolicyBounds checks that the policy's actions lie within
// [−max_action, max_action] and that Φ moves a decoded action by at most
// φ·max_action.
func TestPolicyBounds(t *testing.T) {
	act := algotest.Box(t, -2, 2, 2)
	b, err := bcqc.New(small(8), algotest.Box(t, -10, 10, 4), act, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	obs := batch.MustNew("obs", [][]float32{{1, 2, 3, 4}, {-5, 0, 5, 9}, {0, 0, 0, 0}})
	var out batch.Batch
	if err := b.Policy().Act(&out, obs, nil, false); err != nil {
		t.Fatal(err)
	}
	a, err := out.Array("act")
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Shape(); len(got) != 2 || got[0] != 3 || got[1] != 2 {
		t.Fatalf("actions of shape %v, want [3 2]", got)
	}
	for i := range 3 {
		for j := range 2 {
			if v := a.At(i, j).(float32); v < -2 || v > 2 {
				t.Errorf("action [%d %d] = %v outside [−2, 2]", i, j, v)
			}
		}
	}
	var tp tensor.Tape
	o := tensor.MustFromSlice([]float32{1, 2, 3, 4, -5, 0, 5, 9}, 2, 4)
	base := tensor.MustFromSlice([]float32{0.3, -1.2, 1.99, -0.5}, 2, 2)
	p := b.Perturbation()
	moved := p.Forward(&tp, o, base).Data()
	for i, v := range moved {
		if d := math.Abs(float64(v - base.Data()[i])); d > 0.05*2+1e-6 || v < -2 || v > 2 {
			t.Errorf("Φ moved %v to %v", base.Data()[i], v)
		}
	}
}
