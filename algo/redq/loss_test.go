package redq_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/redq"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
)

// TestLosses checks REDQ's 1-step returns, critic loss and actor loss on 5
// transitions against float64 arithmetic in the test. The actor's log σ is
// pinned at its lower clamp (σ = e⁻²⁰) and α at 1e-9, so that its samples
// are tanh(μ) and the entropy terms vanish below the tolerance:
// y = r + γ·(1 − terminated)·min over the drawn subset of Q′ᵢ(s′, tanh μ(s′)),
// L_Q = Σᵢ mean((Qᵢ(s, a) − y)²) with the critics before their step, and
// L_π = −mean(meanᵢ Qᵢ(s, tanh μ(s))) with the stepped critics and the actor
// before its step.
func TestLosses(t *testing.T) {
	cfg := redq.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden, cfg.NStep, cfg.Gamma = []int{3}, []int{4}, 1, 0.9
	cfg.EnsembleSize, cfg.SubsetSize, cfg.ActorDelay, cfg.Alpha = 5, 3, 1, 1e-9
	r, err := redq.New(cfg, algotest.Box(t, -10, 10, 2), algotest.Box(t, -2, 2, 1), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	// The actor's last layer: output 1 is log σ.
	w, b := r.Params().Lookup("actor.2.weight"), r.Params().Lookup("actor.2.bias")
	if w == nil || b == nil {
		t.Fatalf("no actor.2 layer in %v", r.Params())
	}
	for i := range 3 {
		w.Data()[3+i] = 0
	}
	b.Data()[1] = -30
	tr := algotest.Five()
	obs, next, rew, term := tr.Obs, tr.Next, tr.Rew, tr.Term
	act := [][]float32{{0.5}, {-0.9}, {0.99}, {0}, {-0.2}}
	bt := algotest.Preprocessed(t, r, tr, act)
	subset := append([]int(nil), r.Subset()...)
	ps := r.Params()
	s64 := func(s []float32) []float64 { return []float64{float64(s[0]), float64(s[1])} }
	q64 := func(ps nn.Params, prefix string, s []float32, a float64) float64 {
		return algotest.MLP64(ps, prefix, append(s64(s), a))[0]
	}
	mu64 := func(ps nn.Params, s []float32) float64 { return math.Tanh(algotest.MLP64(ps, "actor.", s64(s))[0]) }
	ret, _ := bt.Array("returns")
	wantQ := 0.0
	for i := range obs {
		y := rew[i]
		if !term[i] {
			m := math.Inf(1)
			for _, k := range subset {
				m = math.Min(m, q64(ps, "critics_target."+string(rune('0'+k))+".", next[i], mu64(ps, next[i])))
			}
			y += 0.9 * m
		}
		if got := float64(nd.Data[float32](ret)[i]); !scalar.EqualWithinAbsOrRel(got, y, 1e-5, 1e-5) {
			t.Errorf("return %d = %v, want %v (subset %v)", i, got, y, subset)
		}
		for k := range cfg.EnsembleSize {
			diff := q64(ps, "critics."+string(rune('0'+k))+".", obs[i], float64(act[i][0])) - y
			wantQ += diff * diff / float64(len(obs))
		}
	}
	actor := ps.Clone() // the actor before its step
	stats, err := r.Update(bt)
	if err != nil {
		t.Fatal(err)
	}
	if !scalar.EqualWithinAbsOrRel(stats["loss/critics"], wantQ, 1e-5, 1e-5) {
		t.Errorf("critic loss %v, want %v", stats["loss/critics"], wantQ)
	}
	wantPi := 0.0
	for i := range obs {
		for k := range cfg.EnsembleSize {
			wantPi -= q64(r.Params(), "critics."+string(rune('0'+k))+".", obs[i], mu64(actor, obs[i])) /
				float64(len(obs)*cfg.EnsembleSize)
		}
	}
	if !scalar.EqualWithinAbsOrRel(stats["loss/actor"], wantPi, 1e-5, 1e-5) {
		t.Errorf("actor loss %v, want %v", stats["loss/actor"], wantPi)
	}
}

// TestActorDelay checks that the actor and α step once every ActorDelay
// critic updates, and that the actor's parameters change only then.
func TestActorDelay(t *testing.T) {
	cfg := small(8)
	cfg.ActorDelay = 3
	r := algotest.Build(t, redq.New, cfg, algotest.Box(t, -2, 2, 2), rand.New(rand.NewPCG(1, 2)))
	buf := algotest.Collection(t, 4, 50, algotest.Box(t, -2, 2, 2), rand.New(rand.NewPCG(3, 4)))
	rng := rand.New(rand.NewPCG(5, 6))
	var l algo.Learner
	actorParams := func() []float32 { return append([]float32(nil), r.Policy().Params()[0].Tensor.Data()...) }
	for u := 1; u <= 7; u++ {
		before, alpha := actorParams(), r.Alpha()
		if _, err := l.Step(r, buf, 32, rng); err != nil {
			t.Fatal(err)
		}
		stepped := u%3 == 0
		changed := !slicesEqual(before, actorParams())
		if changed != stepped || (r.Alpha() != alpha) != stepped {
			t.Errorf("update %d: actor changed %v, α changed %v; want %v", u, changed, r.Alpha() != alpha, stepped)
		}
		if r.Updates() != int64(u) || r.ActorUpdates() != int64(u/3) {
			t.Errorf("update %d: %d critic and %d actor updates", u, r.Updates(), r.ActorUpdates())
		}
	}
}

func slicesEqual(a, b []float32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}
