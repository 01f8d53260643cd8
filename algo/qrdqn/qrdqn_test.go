package qrdqn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/qrdqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
)

func small(hidden int) qrdqn.Config {
	cfg := qrdqn.DefaultConfig()
	cfg.Hidden, cfg.NumQuantiles, cfg.TargetUpdateFreq = []int{hidden}, 5, 4
	return cfg
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(qrdqn.New, small, algotest.Discrete(t, 3, 0), (*qrdqn.QRDQN).Params))
}

func TestCheckOffPolicySoftTarget(t *testing.T) {
	soft := func(h int) qrdqn.Config {
		c := small(h)
		c.TargetUpdateFreq, c.Tau, c.Double = 0, 0.1, false
		return c
	}
	algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(qrdqn.New, soft, algotest.Discrete(t, 2, 1), (*qrdqn.QRDQN).Params))
}

func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, qrdqn.DefaultConfig, qrdqn.New, qrdqn.ErrConfig, algotest.Discrete(t, 3, 0), []algotest.Reject[qrdqn.Config]{
		{Name: "num_quantiles", Edit: func(c *qrdqn.Config) { c.NumQuantiles = 0 }, Want: "num_quantiles"},
		{Name: "hidden", Edit: func(c *qrdqn.Config) { c.Hidden = []int{0} }, Want: "hidden"},
		{Name: "gamma", Edit: func(c *qrdqn.Config) { c.Gamma = 1.5 }, Want: "gamma"},
		{Name: "n_step", Edit: func(c *qrdqn.Config) { c.NStep = 0 }, Want: "n_step"},
		{Name: "both targets", Edit: func(c *qrdqn.Config) { c.Tau = 0.1 }, Want: "tau"},
		{Name: "kappa", Edit: func(c *qrdqn.Config) { c.Kappa = -1 }, Want: "kappa"},
		{Name: "eps", Edit: func(c *qrdqn.Config) { c.EpsTest = 2 }, Want: "ε"},
		{Name: "lr", Edit: func(c *qrdqn.Config) { c.Optim.LR = -1 }, Want: "learning rate"},
	}, algotest.Box(t, -2, 2, 2))
}

// TestLoss checks the distributional 1-step returns and the loss of one
// update on the five transitions of algotest.Five against float64 code:
// with N = 4 quantiles at τ̂ = (1/8, 3/8, 5/8, 7/8) and the online network Z
// (an MLP 2→6→4·3), the next action a′ = argmaxₐ mean_j Z(s′)ⱼₐ (double
// Q-learning; the target network is the online one's copy before the
// step), the returns Gⱼ = r + γ·(1 − terminated)·Z(s′)ⱼₐ′, and the loss the
// batch mean of the quantile Huber loss (κ = 1) of Z(s)·ₐ against G.
func TestLoss(t *testing.T) {
	const n, nAct, gamma = 4, 3, 0.9
	cfg := qrdqn.DefaultConfig()
	cfg.Hidden, cfg.NumQuantiles, cfg.NStep, cfg.Gamma = []int{6}, n, 1, gamma
	q, err := qrdqn.New(cfg, algotest.Box(t, -10, 10, 2), algotest.Discrete(t, nAct, 0), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	tr := algotest.Five()
	act := []int64{0, 2, 1, 1, 0}
	z64 := func(s []float32) [][]float64 { // [N][A]
		out := algotest.MLP64(q.Params(), "", []float64{float64(s[0]), float64(s[1])})
		z := make([][]float64, n)
		for j := range z {
			z[j] = out[j*nAct : (j+1)*nAct]
		}
		return z
	}
	var pred, target [][]float64
	for i := range tr.Obs {
		zn := z64(tr.Next[i])
		best, bestQ := 0, math.Inf(-1)
		for a := range nAct {
			var m float64
			for j := range n {
				m += zn[j][a] / n
			}
			if m > bestQ {
				best, bestQ = a, m
			}
		}
		g := make([]float64, n)
		for j := range g {
			g[j] = tr.Rew[i]
			if !tr.Term[i] {
				g[j] += gamma * zn[j][best]
			}
		}
		target = append(target, g)
		zs := z64(tr.Obs[i])
		p := make([]float64, n)
		for j := range p {
			p[j] = zs[j][act[i]]
		}
		pred = append(pred, p)
	}
	b := algotest.Preprocessed(t, q, tr, act)
	ra, err := b.Array(batch.KeyReturns)
	if err != nil {
		t.Fatal(err)
	}
	ret := nd.Data[float32](ra)
	for i := range target {
		for j, w := range target[i] {
			if !scalar.EqualWithinAbsOrRel(float64(ret[i*n+j]), w, 1e-5, 1e-5) {
				t.Errorf("return %d quantile %d: %v, want %v", i, j, ret[i*n+j], w)
			}
		}
	}
	stats, err := q.Update(b)
	if err != nil {
		t.Fatal(err)
	}
	tau := []float64{1.0 / 8, 3.0 / 8, 5.0 / 8, 7.0 / 8}
	var want float64
	for i := range pred {
		for k, p := range pred[i] {
			for _, g := range target[i] {
				u := g - p
				h := math.Abs(u) - 0.5
				if math.Abs(u) <= 1 {
					h = 0.5 * u * u
				}
				ind := 0.0
				if u <= 0 {
					ind = 1
				}
				want += math.Abs(tau[k]-ind) * h / n
			}
		}
	}
	want /= float64(len(pred))
	if !scalar.EqualWithinAbsOrRel(stats["loss"], want, 1e-5, 1e-5) {
		t.Errorf("loss %v, want %v", stats["loss"], want)
	}
}

// TestFractions checks τ̂ᵢ = (2i + 1)/(2N) for N = 4.
func TestFractions(t *testing.T) {
	for i, want := range []float32{0.125, 0.375, 0.625, 0.875} {
		if got := qrdqn.Fractions(4).Data()[i]; got != want {
			t.Errorf("τ̂%d = %v, want %v", i, got, want)
		}
	}
}

// TestPrioritized checks updates from a prioritized buffer: importance
// weights reach the loss, each transition's loss goes back as its priority
// (no error), and β moves from the buffer's 0.4 towards BetaFinal 1 by
// the linear schedule: 0.4 + 0.6·500/1000 = 0.7 at 500 env steps.
func TestPrioritized(t *testing.T) {
	cfg := small(8)
	cfg.BetaFinal, cfg.BetaAnnealSteps = 1, 1000
	act := algotest.Discrete(t, 2, 0)
	q := algotest.Build(t, qrdqn.New, cfg, act, rand.New(rand.NewPCG(1, 2)))
	buf, err := buffer.NewPrioritized(buffer.Config{Size: 64}, buffer.DefaultPriorityConfig())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 40 {
		o := []float32{rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()}
		b := batch.MustNew("obs", o, "act", int64(i%2), "rew", 1.0, "terminated", i%10 == 9,
			"truncated", false, "obs_next", o)
		if _, err := buf.Add(b, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	q.Schedule(500)
	var l algo.Learner
	for range 3 {
		st, err := l.Step(q, buf, 16, rng)
		if err != nil {
			t.Fatal(err)
		}
		if !(st["loss"] >= 0) {
			t.Fatalf("loss %v", st["loss"])
		}
	}
	if got := buf.Beta(); !scalar.EqualWithinAbs(got, 0.7, 1e-12) {
		t.Errorf("β %v, want 0.7", got)
	}
}
