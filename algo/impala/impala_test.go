package impala

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/env"

	_ "github.com/gorl/gorl/env/classic"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// TestVTraceByHand: two steps, γ 0.9, r = (1, 2), V = (0.5, 1), the
// bootstrap V(x₂) = 3, ratios π/μ = (2, 0.5), ρ̄ = c̄ = 1. Worked out from
// the paper's equation 1:
//
//	step 1: ρ = c = 0.5, δ = 0.5·(2 + 0.9·3 − 1) = 1.85, v₁ = 1 + 1.85 = 2.85,
//	        adv₁ = 0.5·(2 + 0.9·3 − 1) = 1.85
//	step 0: ρ = c = 1 (clipped from 2), δ = 1 + 0.9·1 − 0.5 = 1.4,
//	        v₀ = 0.5 + 1.4 + 0.9·1·1.85 = 3.565, adv₀ = 1 + 0.9·2.85 − 0.5 = 3.065
func TestVTraceByHand(t *testing.T) {
	vs, adv := make([]float64, 2), make([]float64, 2)
	err := VTrace(vs, adv, Unroll{
		Values: []float64{0.5, 1}, NextValues: []float64{1, 3}, Rewards: []float64{1, 2},
		Terminated: []bool{false, false}, Continues: []bool{true, false},
		LogRhos: []float64{math.Log(2), math.Log(0.5)},
	}, 0.9, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	for k, w := range []struct{ vs, adv float64 }{{3.565, 3.065}, {2.85, 1.85}} {
		if !near(vs[k], w.vs) || !near(adv[k], w.adv) {
			t.Errorf("step %d: vs %v adv %v, want %v and %v", k, vs[k], adv[k], w.vs, w.adv)
		}
	}
}

// TestVTraceOnPolicy: with π = μ and no clipping in play, vₜ is the n-step
// return to the end of the unroll or of the episode, computed here
// directly: Σ γᵏ r plus γⁿ V(bootstrap) unless the episode terminated.
// The unroll holds an episode that terminates at step 2 and one truncated
// at step 4 and one running past the unroll's end (step 6).
func TestVTraceOnPolicy(t *testing.T) {
	const gamma = 0.95
	rew := []float64{1, -2, 3, 0.5, 4, -1, 2}
	val := []float64{0.3, 0.1, -0.4, 2, 1.5, 0.7, -0.2}
	boot := []float64{0, 0, 9, 0, 5, 0, 7} // V of the next observation where an episode or the unroll ends
	terms := []bool{false, false, true, false, false, false, false}
	ends := []bool{false, false, true, false, true, false, true}
	n := len(rew)
	next := make([]float64, n)
	conts := make([]bool, n)
	for k := range n {
		conts[k] = !ends[k]
		if conts[k] {
			next[k] = val[k+1]
		} else {
			next[k] = boot[k]
		}
	}
	vs, adv := make([]float64, n), make([]float64, n)
	if err := VTrace(vs, adv, Unroll{Values: val, NextValues: next, Rewards: rew, Terminated: terms,
		Continues: conts, LogRhos: make([]float64, n)}, gamma, 1, 1); err != nil {
		t.Fatal(err)
	}
	for k := range n {
		g, disc, j := 0.0, 1.0, k
		for ; ; j++ {
			g += disc * rew[j]
			disc *= gamma
			if ends[j] {
				break
			}
		}
		if !terms[j] {
			g += disc * boot[j]
		}
		if math.Abs(vs[k]-g) > 1e-9 {
			t.Errorf("v[%d] = %v, want the return %v", k, vs[k], g)
		}
		// The advantage is r + γ v′ − V with v′ the next target.
		vNext := boot[k]
		if conts[k] {
			vNext = vs[k+1]
		}
		if terms[k] {
			vNext = 0
		}
		if w := rew[k] + gamma*vNext - val[k]; math.Abs(adv[k]-w) > 1e-9 {
			t.Errorf("adv[%d] = %v, want %v", k, adv[k], w)
		}
	}
	if err := VTrace(vs[:1], adv, Unroll{Values: val, NextValues: next, Rewards: rew, Terminated: terms,
		Continues: conts, LogRhos: make([]float64, n)}, gamma, 1, 1); err == nil {
		t.Error("slices of different lengths were accepted")
	}
}

// TestRunUpdates runs 2 actors and the learner for 30 updates on an
// embedded server.
func TestRunUpdates(t *testing.T) {
	node, err := cluster.Start(cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	cfg := DefaultConfig()
	cfg.Actors, cfg.BatchSize, cfg.UnrollsPerUpdate = 2, 4, 4
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var last Progress
	l, err := Run(ctx, cfg, Setup{
		Transport: node.Transport(),
		MakeEnv:   func(int) (env.Env, error) { return env.Make("CartPole-v1") },
		Seed:      3,
		After: func(l *Learner, p Progress) (bool, error) {
			last = p
			if math.IsNaN(p.Loss) {
				t.Fatalf("loss NaN at update %d", p.Updates)
			}
			return p.Updates >= 30, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Steps are counted before their unroll is sent, so a reading may hold
	// up to one unroll per actor more steps than sent unrolls.
	if u := int64(cfg.Unroll); l.Updates() != 30 || last.Unrolls < int64(cfg.BatchSize) ||
		last.EnvSteps < last.Unrolls*u || last.EnvSteps > (last.Unrolls+int64(cfg.Actors))*u {
		t.Errorf("%d updates, %d unrolls, %d env steps", l.Updates(), last.Unrolls, last.EnvSteps)
	}
	if _, err := NewLearner(cfg, node2Box(t), node2Box(t), nil); err == nil {
		t.Error("a Box action space was accepted")
	}
}

func node2Box(t *testing.T) env.Space {
	e, err := env.Make("Pendulum-v1")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	return e.ActionSpace()
}

// TestRemoteActorsAndRestore saves a learner after the updates of a short
// run, then runs a learner with Remote set, restored from that state, and
// 2 actors through RunActor as other processes would: the restored
// network equals the saved one parameter for parameter, the updates go on
// from the saved count, and the actors' reports reach the learner (every
// reported step belongs to a sent unroll of 20 steps).
func TestRemoteActorsAndRestore(t *testing.T) {
	node, err := cluster.Start(cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	cfg := DefaultConfig()
	cfg.Actors, cfg.BatchSize, cfg.UnrollsPerUpdate = 2, 4, 4
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s := Setup{
		Transport: node.Transport(),
		MakeEnv:   func(int) (env.Env, error) { return env.Make("CartPole-v1") },
		Seed:      4,
	}
	var saved bytes.Buffer
	first := s
	first.Group = "first"
	first.After = func(l *Learner, p Progress) (bool, error) { return p.Updates >= 10, nil }
	l, err := Run(ctx, cfg, first)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Save(&saved); err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(l.Net.Params()[0].Tensor.Data())

	actCtx, stopActors := context.WithCancel(ctx)
	done := make(chan error, cfg.Actors)
	for i := range cfg.Actors {
		as := s
		go func() { done <- RunActor(actCtx, cfg, as, i) }()
	}
	var start, last Progress
	s.Remote = true
	s.Restore = func(l *Learner) (Progress, error) {
		if err := l.Load(bytes.NewReader(saved.Bytes())); err != nil {
			return Progress{}, err
		}
		if got := l.Net.Params()[0].Tensor.Data(); !slices.Equal(got, want) {
			t.Errorf("restored parameters differ from the saved ones")
		}
		return Progress{Updates: l.Updates(), EnvSteps: 800, Unrolls: 40}, nil
	}
	s.After = func(l *Learner, p Progress) (bool, error) {
		if start.Updates == 0 {
			start = p
		}
		last = p
		return p.Updates >= 40, nil
	}
	if _, err := Run(ctx, cfg, s); err != nil {
		t.Fatal(err)
	}
	stopActors()
	for range cfg.Actors {
		if err := <-done; err != nil {
			t.Errorf("actor: %v", err)
		}
	}
	if start.Updates != 11 || last.Updates != 40 {
		t.Errorf("updates from %d to %d, want 11 to 40", start.Updates, last.Updates)
	}
	if last.Unrolls <= 40 || last.EnvSteps != 800+(last.Unrolls-40)*int64(cfg.Unroll) {
		t.Errorf("%d unrolls and %d env steps, want more than 40 unrolls of 20 steps each beyond the restored 800", last.Unrolls, last.EnvSteps)
	}
}
