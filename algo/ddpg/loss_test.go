package ddpg_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/ddpg"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
)

// TestLosses checks DDPG's 1-step returns, critic loss and actor loss on 5
// transitions against float64 arithmetic in the test: y = r + γ·(1 −
// terminated)·Q′(s′, μ′(s′)) with μ′ = 2·tanh(MLP′), L_Q = mean((Q(s, a) −
// y)²) with the critic before its step, and L_μ = −mean(Q(s, μ(s))) with
// the stepped critic and the actor before its step.
func TestLosses(t *testing.T) {
	cfg := ddpg.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden, cfg.NStep, cfg.Gamma = []int{3}, []int{4}, 1, 0.9
	d, err := ddpg.New(cfg, algotest.Box(t, -10, 10, 2), algotest.Box(t, -2, 2, 1), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	tr := algotest.Five()
	obs, next, rew, term := tr.Obs, tr.Next, tr.Rew, tr.Term
	act := [][]float32{{0.5}, {-1.5}, {2.5}, {0}, {-0.2}}
	b := algotest.Preprocessed(t, d, tr, act)
	ps := d.Params()
	q64 := func(ps nn.Params, prefix string, s []float32, a []float64) float64 {
		return algotest.MLP64(ps, prefix, append([]float64{float64(s[0]), float64(s[1])}, a...))[0]
	}
	mu64 := func(ps nn.Params, prefix string, s []float32) []float64 {
		return []float64{2 * math.Tanh(algotest.MLP64(ps, prefix, []float64{float64(s[0]), float64(s[1])})[0])}
	}
	ret, _ := b.Array("returns")
	y := make([]float64, len(obs))
	wantQ := 0.0
	for i := range obs {
		y[i] = rew[i]
		if !term[i] {
			y[i] += 0.9 * q64(ps, "critics_target.0.", next[i], mu64(ps, "actor_target.", next[i]))
		}
		if got := float64(nd.Data[float32](ret)[i]); !scalar.EqualWithinAbsOrRel(got, y[i], 1e-5, 1e-5) {
			t.Errorf("return %d = %v, want %v", i, got, y[i])
		}
		diff := q64(ps, "critics.0.", obs[i], []float64{float64(act[i][0])}) - y[i]
		wantQ += diff * diff / float64(len(obs))
	}
	actor := ps.Clone() // the actor before its step
	stats, err := d.Update(b)
	if err != nil {
		t.Fatal(err)
	}
	if !scalar.EqualWithinAbsOrRel(stats["loss/critic"], wantQ, 1e-5, 1e-5) {
		t.Errorf("critic loss %v, want %v", stats["loss/critic"], wantQ)
	}
	wantMu := 0.0
	for i := range obs {
		wantMu -= q64(d.Params(), "critics.0.", obs[i], mu64(actor, "actor.", obs[i])) / float64(len(obs))
	}
	if !scalar.EqualWithinAbsOrRel(stats["loss/actor"], wantMu, 1e-5, 1e-5) {
		t.Errorf("actor loss %v, want %v", stats["loss/actor"], wantMu)
	}
}
