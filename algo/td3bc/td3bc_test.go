package td3bc_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/td3bc"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

func small(hidden int) td3bc.Config {
	cfg := td3bc.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden, cfg.Tau = []int{hidden}, []int{hidden}, 0.1
	return cfg
}

func TestCheckOffPolicy(t *testing.T) {
	for _, norm := range []bool{true, false} {
		t.Run(map[bool]string{true: "normalized", false: "raw"}[norm], func(t *testing.T) {
			cfg := func(hidden int) td3bc.Config {
				c := small(hidden)
				c.NormalizeObs = norm
				return c
			}
			algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(td3bc.New, cfg, algotest.Box(t, -2, 2, 2), (*td3bc.TD3BC).Params))
		})
	}
}

func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, td3bc.DefaultConfig, td3bc.New, td3bc.ErrConfig, algotest.Box(t, -1, 1, 2), []algotest.Reject[td3bc.Config]{
		{Name: "alpha 0", Edit: func(c *td3bc.Config) { c.Alpha = 0 }, Want: "alpha"},
		{Name: "alpha NaN", Edit: func(c *td3bc.Config) { c.Alpha = math.NaN() }, Want: "alpha"},
		{Name: "tau 0", Edit: func(c *td3bc.Config) { c.Tau = 0 }, Want: "tau"},
		{Name: "negative max_action", Edit: func(c *td3bc.Config) { c.MaxAction = -1 }, Want: "max_action"},
		{Name: "policy_noise", Edit: func(c *td3bc.Config) { c.PolicyNoise = -1 }, Want: "policy_noise"},
		{Name: "update_actor_freq", Edit: func(c *td3bc.Config) { c.UpdateActorFreq = 0 }, Want: "update_actor_freq"},
	}, algotest.Discrete(t, 3, 0))
	// max_action 0 needs an action space [−h, h].
	_, err := td3bc.New(td3bc.DefaultConfig(), algotest.Box(t, -1, 1, 2), algotest.Box(t, 0, 1, 2), rand.New(rand.NewPCG(1, 1)))
	if err == nil {
		t.Error("New accepted an action space [0, 1] with max_action 0")
	}
}

// TestLoss checks TD3+BC's actor loss and its gradient on a fixed batch,
// by hand. q = (1, −3): mean|q| = 2, so λ = α/2 = 1.25 for α = 2.5, and
// −λ·mean(q) = −1.25·(−1) = 1.25. act = (0.5, −0.5), logged = (0, 0.5):
// mean((act − logged)²) = (0.25 + 1)/2 = 0.625. Loss 1.875. λ is a number,
// so ∂L/∂qᵢ = −λ/2 = −0.625 (not the derivative through |q|), and
// ∂L/∂actᵢ = (actᵢ − loggedᵢ)·2/2 = (0.5, −1).
func TestLoss(t *testing.T) {
	var tp tensor.Tape
	q := tensor.MustFromSlice([]float32{1, -3}, 2).SetRequiresGrad(true)
	act := tensor.MustFromSlice([]float32{0.5, -0.5}, 2, 1).SetRequiresGrad(true)
	logged := tensor.MustFromSlice([]float32{0, 0.5}, 2, 1)
	loss, lambda := td3bc.Loss(&tp, act, logged, q, 2.5)
	tp.Backward(loss)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"loss", float64(loss.Item()), 1.875}, {"lambda", lambda, 1.25},
		{"dL/dq1", float64(q.Grad()[0]), -0.625}, {"dL/dq2", float64(q.Grad()[1]), -0.625},
		{"dL/dact1", float64(act.Grad()[0]), 0.5}, {"dL/dact2", float64(act.Grad()[1]), -1},
	} {
		if !scalar.EqualWithinAbsOrRel(c.got, c.want, 1e-6, 1e-6) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestNormalization checks that the first Preprocess fits the observation
// normalization to the buffer: the policy's first parameters are then the
// mean and standard deviation (+10⁻³) of the buffer's observations,
// computed here directly.
func TestNormalization(t *testing.T) {
	act := algotest.Box(t, -2, 2, 1)
	buf := algotest.Collection(t, 2, 30, act, rand.New(rand.NewPCG(1, 2)))
	d, err := td3bc.New(small(8), algotest.Box(t, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	var all batch.Batch
	if err := buf.TakeTo(&all, buf.SampleIndices(0, nil)); err != nil {
		t.Fatal(err)
	}
	obs, err := all.Array("obs")
	if err != nil {
		t.Fatal(err)
	}
	f, _ := obs.AsType(nd.Float64)
	rows := nd.Data[float64](f.Copy())
	var l algo.Learner
	if _, err := l.Step(d, buf, 16, rand.New(rand.NewPCG(5, 6))); err != nil {
		t.Fatal(err)
	}
	ps := d.Policy().Params()
	if ps[0].Name != "obs_mean" || ps[1].Name != "obs_std" {
		t.Fatalf("the policy's parameters start with %s, %s", ps[0].Name, ps[1].Name)
	}
	k := len(rows) / 4
	for j := range 4 {
		var m, s float64
		for r := range k {
			m += rows[r*4+j]
		}
		m /= float64(k)
		for r := range k {
			s += (rows[r*4+j] - m) * (rows[r*4+j] - m)
		}
		s = math.Sqrt(s/float64(k)) + 1e-3
		if got := float64(ps[0].Tensor.Data()[j]); !scalar.EqualWithinAbsOrRel(got, m, 1e-5, 1e-5) {
			t.Errorf("feature %d: mean %v, want %v", j, got, m)
		}
		if got := float64(ps[1].Tensor.Data()[j]); !scalar.EqualWithinAbsOrRel(got, s, 1e-5, 1e-5) {
			t.Errorf("feature %d: std %v, want %v", j, got, s)
		}
	}
}
