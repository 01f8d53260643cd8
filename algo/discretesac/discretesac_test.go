package discretesac_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/discretesac"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

func small(hidden int) discretesac.Config {
	cfg := discretesac.DefaultConfig()
	cfg.ActorHidden, cfg.CriticHidden, cfg.Tau, cfg.AutoAlpha = []int{hidden}, []int{hidden}, 0.1, true
	return cfg
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(discretesac.New, small, algotest.Discrete(t, 3, 0), (*discretesac.DiscreteSAC).Params))
}

// TestCheckOffPolicyHold runs the same checks with held random actions,
// whose state travels in the collector's hidden state.
func TestCheckOffPolicyHold(t *testing.T) {
	hold := func(hidden int) discretesac.Config {
		cfg := small(hidden)
		cfg.Hold, cfg.HoldEps = policy.HoldConfig{Mu: 2, MaxDuration: 20}, 0.5
		return cfg
	}
	algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(discretesac.New, hold, algotest.Discrete(t, 3, 0), (*discretesac.DiscreteSAC).Params))
}

// TestHold checks Config.Hold: with HoldEps 1 and durations uniform in
// 1…65536 each env keeps one random action over 5 training steps while its
// state is handed back, and tests (the training-step flag off) act with
// the actor alone and write no state.
func TestHold(t *testing.T) {
	cfg := small(8)
	cfg.Hold, cfg.HoldEps = policy.HoldConfig{MaxDuration: 1 << 16}, 1
	s := algotest.Build(t, discretesac.New, cfg, algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 2)))
	p := s.Policy()
	obs := batch.MustNew("obs", nd.Zeros(nd.Float32, 16, 4))
	var test batch.Batch
	if err := p.Act(&test, obs, nil, true); err != nil {
		t.Fatal(err)
	}
	if test.Has(batch.KeyState) {
		t.Error("a test step wrote a hold state")
	}
	p.SetTrainingStep(true)
	var dst batch.Batch
	var state any
	var first []int64
	for step := range 5 {
		if err := p.Act(&dst, obs, state, true); err != nil {
			t.Fatal(err)
		}
		st, err := dst.Array(batch.KeyState)
		if err != nil {
			t.Fatal(err)
		}
		state = st.Copy()
		a, _ := dst.Array("act")
		got := nd.ToSlice[int64](a)
		if step == 0 {
			first = got
		} else if !slices.Equal(got, first) {
			t.Fatalf("step %d: actions %v, want the held %v", step, got, first)
		}
	}
}

func TestNewRejects(t *testing.T) {
	box := algotest.Box(t, -1, 1, 2)
	algotest.CheckRejects(t, discretesac.DefaultConfig, discretesac.New, discretesac.ErrConfig, algotest.Discrete(t, 3, 0), []algotest.Reject[discretesac.Config]{
		{Name: "tau 0", Edit: func(c *discretesac.Config) { c.Tau = 0 }, Want: "tau"},
		{Name: "tau above 1", Edit: func(c *discretesac.Config) { c.Tau = 1.5 }, Want: "tau"},
		{Name: "alpha", Edit: func(c *discretesac.Config) { c.Alpha = 0 }, Want: "alpha"},
		{Name: "gamma", Edit: func(c *discretesac.Config) { c.Gamma = -0.1 }, Want: "gamma"},
		{Name: "n_step", Edit: func(c *discretesac.Config) { c.NStep = 0 }, Want: "n_step"},
		{Name: "ratio", Edit: func(c *discretesac.Config) { c.TargetEntropyRatio = 1.2 }, Want: "target_entropy_ratio"},
		{Name: "actor_hidden", Edit: func(c *discretesac.Config) { c.ActorHidden = nil }, Want: "actor_hidden"},
		{Name: "critic lr", Edit: func(c *discretesac.Config) { c.CriticOptim.Optim.LR = -1 }, Want: "critic_optim"},
		{Name: "ez_eps", Edit: func(c *discretesac.Config) { c.HoldEps = 2 }, Want: "ez_eps"},
		{Name: "hold", Edit: func(c *discretesac.Config) { c.Hold.Mu = -1 }, Want: "hold mu"},
	}, box)
}

// TestTargetEntropy checks H̄ = ratio·log|A| (Tianshou's 0.98·log|A|).
func TestTargetEntropy(t *testing.T) {
	s := algotest.Build(t, discretesac.New, small(4), algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 2)))
	if want := 0.98 * math.Log(3); !scalar.EqualWithinAbs(s.TargetEntropy(), want, 1e-12) {
		t.Errorf("target entropy %v, want %v", s.TargetEntropy(), want)
	}
}

// TestLosses checks discrete SAC's 1-step returns, critic loss, actor loss
// and α loss on 5 transitions against float64 arithmetic in the test, with
// π = softmax(actor), H = −Σₐ π log π:
// y = r + γ·(1 − terminated)·(Σₐ π(a|s′)·minᵢ Q′ᵢ(s′, a) + α·H(s′)),
// L_Q = Σᵢ mean((Qᵢ(s, a) − y)²) with the critics before their step,
// L_π = mean(Σₐ π(a|s)·(α·log π(a|s) − minᵢ Qᵢ(s, a))) with the stepped
// critics and the actor before its step, and L_α = −log α·mean(−H(s) + H̄).
func TestLosses(t *testing.T) {
	cfg := discretesac.DefaultConfig()
	cfg.ActorHidden, cfg.CriticHidden, cfg.NStep, cfg.Gamma = []int{3}, []int{4}, 1, 0.9
	cfg.Alpha, cfg.AutoAlpha = 0.3, true
	s, err := discretesac.New(cfg, algotest.Box(t, -10, 10, 2), algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	tr := algotest.Five()
	obs, next, rew, term := tr.Obs, tr.Next, tr.Rew, tr.Term
	act := []int64{0, 2, 1, 1, 0}
	b := algotest.Preprocessed(t, s, tr, act)
	s64 := func(s []float32) []float64 { return []float64{float64(s[0]), float64(s[1])} }
	// pi64 returns π(·|s) and log π(·|s).
	pi64 := func(ps nn.Params, s []float32) (p, logp []float64) {
		z := algotest.MLP64(ps, "actor.", s64(s))
		m := math.Max(z[0], math.Max(z[1], z[2]))
		var sum float64
		for _, v := range z {
			sum += math.Exp(v - m)
		}
		for _, v := range z {
			l := v - m - math.Log(sum)
			p, logp = append(p, math.Exp(l)), append(logp, l)
		}
		return p, logp
	}
	minQ := func(ps nn.Params, prefix string, s []float32) []float64 {
		a, b := algotest.MLP64(ps, prefix+"0.", s64(s)), algotest.MLP64(ps, prefix+"1.", s64(s))
		for i := range a {
			a[i] = math.Min(a[i], b[i])
		}
		return a
	}
	ps := s.Params()
	ret, _ := b.Array("returns")
	wantQ := 0.0
	for i := range obs {
		y := rew[i]
		if !term[i] {
			p, logp := pi64(ps, next[i])
			q := minQ(ps, "critics_target.", next[i])
			v := 0.0
			for a := range p {
				v += p[a]*q[a] - 0.3*p[a]*logp[a]
			}
			y += 0.9 * v
		}
		if got := float64(nd.Data[float32](ret)[i]); !scalar.EqualWithinAbsOrRel(got, y, 1e-5, 1e-5) {
			t.Errorf("return %d = %v, want %v", i, got, y)
		}
		for c := range 2 {
			diff := algotest.MLP64(ps, "critics."+string(rune('0'+c))+".", s64(obs[i]))[act[i]] - y
			wantQ += diff * diff / float64(len(obs))
		}
	}
	actor := ps.Clone()
	stats, err := s.Update(b)
	if err != nil {
		t.Fatal(err)
	}
	if !scalar.EqualWithinAbsOrRel(stats["loss/critics"], wantQ, 1e-5, 1e-5) {
		t.Errorf("critic loss %v, want %v", stats["loss/critics"], wantQ)
	}
	wantPi, meanH := 0.0, 0.0
	for i := range obs {
		p, logp := pi64(actor, obs[i])
		q := minQ(s.Params(), "critics.", obs[i])
		for a := range p {
			wantPi += p[a] * (0.3*logp[a] - q[a]) / float64(len(obs))
			meanH -= p[a] * logp[a] / float64(len(obs))
		}
	}
	if !scalar.EqualWithinAbsOrRel(stats["loss/actor"], wantPi, 1e-5, 1e-5) {
		t.Errorf("actor loss %v, want %v", stats["loss/actor"], wantPi)
	}
	if want := -math.Log(0.3) * (-meanH + 0.98*math.Log(3)); !scalar.EqualWithinAbsOrRel(stats["loss/alpha"], want, 1e-5, 1e-5) {
		t.Errorf("α loss %v, want %v", stats["loss/alpha"], want)
	}
}

// TestDeterministicEval checks that outside a training step the policy
// takes the most probable action, and samples inside one.
func TestDeterministicEval(t *testing.T) {
	s := algotest.Build(t, discretesac.New, small(8), algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 2)))
	p := s.Policy()
	obs := batch.MustNew("obs", nd.Zeros(nd.Float32, 64, 4))
	act := func() []int64 {
		var b batch.Batch
		if err := p.Act(&b, obs, nil, true); err != nil {
			t.Fatal(err)
		}
		a, _ := b.Array("act")
		return append([]int64(nil), nd.Data[int64](a)...)
	}
	a := act()
	for _, v := range a {
		if v != a[0] {
			t.Fatalf("evaluation actions %v on equal observations; want one action", a)
		}
	}
	p.SetTrainingStep(true)
	c := act()
	differ := false
	for _, v := range c {
		differ = differ || v != c[0]
	}
	if !differ {
		t.Error("a training step did not sample")
	}
}
