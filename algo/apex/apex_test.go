package apex

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"

	_ "github.com/gorl/gorl/env/classic"
)

// TestActorEps: εᵢ = 0.4^(1 + 7i/(N−1)), the paper's schedule, worked out
// with math.Pow at the ends and the middle of 8 actors.
func TestActorEps(t *testing.T) {
	for _, tc := range []struct {
		i, n int
		want float64
	}{
		{0, 1, 0.4},
		{0, 8, 0.4},
		{7, 8, math.Pow(0.4, 8)},
		{1, 8, math.Pow(0.4, 2)},
		{3, 4, math.Pow(0.4, 8)},
		{2, 5, math.Pow(0.4, 4.5)},
	} {
		if got := ActorEps(0.4, 7, tc.i, tc.n); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("ActorEps(0.4, 7, %d, %d) = %v, want %v", tc.i, tc.n, got, tc.want)
		}
	}
}

// TestNStep: 3-step transitions with γ = 0.5 over an episode of 4 steps
// that terminates, then one of 2 steps that is truncated. Expected values
// by hand: rewards 1, 2, 3, 4 give G₀ = 1 + 0.5·2 + 0.25·3 = 2.75 with
// γ³ = 0.125 bootstrapping from obs 3; at termination the window 1..3
// flushes as 2 + 1.5 + 1 = 4.5, then 3 + 2 = 5 and 4, none bootstrapping;
// the truncated episode (rewards 10, 20) gives 10 + 10 = 20 with γ² and 20
// with γ¹, both from its last observation.
func TestNStep(t *testing.T) {
	s := newNStep[int64](3, 0.5, []int{1}, nil)
	o := func(x float32) []float32 { return []float32{x} }
	s.push(o(0), []int64{0}, 1, o(1), false, false)
	s.push(o(1), []int64{1}, 2, o(2), false, false)
	if s.pending() != 0 {
		t.Fatalf("%d transitions before the window is full", s.pending())
	}
	s.push(o(2), []int64{0}, 3, o(3), false, false)
	s.push(o(3), []int64{1}, 4, o(4), true, false)
	s.push(o(10), []int64{0}, 10, o(11), false, false)
	s.push(o(11), []int64{1}, 20, o(12), false, true)
	want := []struct {
		obs, next float32
		act       int64
		rew       float64
		term      bool
		disc      float32
	}{
		{0, 3, 0, 2.75, false, 0.125},
		{1, 4, 1, 4.5, true, 0.125},
		{2, 4, 0, 5, true, 0.25},
		{3, 4, 1, 4, true, 0.5},
		{10, 12, 0, 20, false, 0.25},
		{11, 12, 1, 20, false, 0.5},
	}
	b, err := s.take()
	if err != nil {
		t.Fatal(err)
	}
	col := func(key string) *nd.Array {
		a, err := b.Array(key)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	obs, next := nd.ToSlice[float32](col(batch.KeyObs)), nd.ToSlice[float32](col(batch.KeyObsNext))
	act, rew := nd.ToSlice[int64](col(batch.KeyAct)), nd.ToSlice[float64](col(batch.KeyRew))
	term, disc := nd.ToSlice[bool](col(batch.KeyTerminated)), nd.ToSlice[float32](col(KeyDiscount))
	if len(act) != len(want) {
		t.Fatalf("%d transitions, want %d", len(act), len(want))
	}
	for k, w := range want {
		if obs[k] != w.obs || next[k] != w.next || act[k] != w.act || math.Abs(rew[k]-w.rew) > 1e-12 || term[k] != w.term || disc[k] != w.disc {
			t.Errorf("transition %d: obs %v next %v act %v rew %v term %v disc %v; want %+v", k, obs[k], next[k], act[k], rew[k], term[k], disc[k], w)
		}
	}
	if s.pending() != 0 {
		t.Errorf("%d transitions left after take", s.pending())
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(*Config)
	}{
		{"actors", func(c *Config) { c.Actors = 0 }},
		{"eps", func(c *Config) { c.Eps = 1.5 }},
		{"eps_alpha", func(c *Config) { c.EpsAlpha = math.NaN() }},
		{"learning_starts", func(c *Config) { c.LearningStarts = 1 }},
		{"dqn", func(c *Config) { c.DQN.Gamma = 2 }},
	} {
		c := DefaultConfig()
		tc.edit(&c)
		err := c.Validate()
		if !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", tc.field, err)
		}
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestRunLearnsFromActors runs 2 actors and the learner on an embedded
// server for 300 updates, held to 2 env steps per update: the actors
// step their envs within the bound, and a box action space is refused.
func TestRunLearnsFromActors(t *testing.T) {
	node, err := cluster.Start(cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	cfg := DefaultConfig()
	cfg.Actors = 2
	cfg.LearningStarts = 200
	cfg.DQN.Hidden = []int{32}
	cfg.StepsPerUpdate = 2
	var last Progress
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d, err := Run(ctx, cfg, Setup{
		Transport: node.Transport(),
		MakeEnv:   func(int) (env.Env, error) { return env.Make("CartPole-v1") },
		Seed:      1,
		After: func(d *dqn.DQN, p Progress) (bool, error) {
			last = p
			return p.Updates >= 300, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if d.Updates() != 300 || last.Updates != 300 {
		t.Errorf("%d updates, want 300", d.Updates())
	}
	if last.EnvSteps < int64(cfg.LearningStarts) || last.Episodes == 0 {
		t.Errorf("actors took %d steps in %d episodes, want at least %d steps", last.EnvSteps, last.Episodes, cfg.LearningStarts)
	}
	// Held to 2 steps per update: the slack is one flush and one n-step
	// window per actor, and each actor may take one step past the bound
	// before it sees it.
	if bound := int64(cfg.LearningStarts + cfg.Actors*(cfg.FlushEvery+cfg.DQN.NStep) + 2*300 + cfg.Actors); last.EnvSteps > bound {
		t.Errorf("actors took %d steps, more than the bound %d of 2 per update", last.EnvSteps, bound)
	}

	_, err = Run(ctx, cfg, Setup{
		Transport: node.Transport(),
		Group:     "box",
		MakeEnv:   func(int) (env.Env, error) { return env.Make("Pendulum-v1") },
		After:     func(*dqn.DQN, Progress) (bool, error) { return true, nil },
	})
	if err == nil {
		t.Fatal("Ape-X DQN ran on a Box action space")
	}
}

// TestRemoteActorsAndRestore runs the learner with Remote set and its 2
// actors through RunActor, as separate processes would, after restoring a
// learner saved at 1,000 updates and 2,300 env steps (the slack of 300
// and 2 steps per update): the updates go on from 1,001, the steps grow by
// the actors' reports, and once the learner has updated for a while, the
// actors hold to 2 env steps per update counted from its status (the slack,
// and a flush per actor seen late, as in TestRunLearnsFromActors). The
// first 50 updates are left out of that count: the actors run free until
// the learner sees the shards reach LearningStarts by their heartbeats, and
// the reports of those steps can arrive after its first update.
func TestRemoteActorsAndRestore(t *testing.T) {
	node, err := cluster.Start(cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	cfg := DefaultConfig()
	cfg.Actors = 2
	cfg.LearningStarts = 200
	cfg.DQN.Hidden = []int{32}
	cfg.StepsPerUpdate = 2
	s := Setup{
		Transport: node.Transport(),
		MakeEnv:   func(int) (env.Env, error) { return env.Make("CartPole-v1") },
		Seed:      2,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	actCtx, stopActors := context.WithCancel(ctx)
	done := make(chan error, cfg.Actors)
	for i := range cfg.Actors {
		as := s
		go func() { done <- RunActor(actCtx, cfg, as, i) }()
	}
	const restored, settle = 1000, 50
	var first, settled, last Progress
	s.Remote = true
	s.Restore = func(d *dqn.DQN) (Progress, error) {
		return Progress{Updates: restored, EnvSteps: 2300, Episodes: 40, LastReturn: 20}, nil
	}
	s.After = func(d *dqn.DQN, p Progress) (bool, error) {
		if first.Updates == 0 {
			first = p
		}
		if p.Updates == restored+settle {
			settled = p
		}
		last = p
		return p.Updates >= restored+300, nil
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
	if first.Updates != restored+1 || last.Updates != restored+300 {
		t.Errorf("updates from %d to %d, want %d to %d", first.Updates, last.Updates, restored+1, restored+300)
	}
	if last.EnvSteps < 2300+int64(cfg.LearningStarts) || last.Episodes <= 40 {
		t.Errorf("%d env steps and %d episodes, want the actors' reports added to 2300 and 40", last.EnvSteps, last.Episodes)
	}
	slack := int64(cfg.LearningStarts + cfg.Actors*(cfg.FlushEvery+cfg.DQN.NStep))
	if bound := 2*(300-settle) + slack + int64(cfg.Actors*cfg.FlushEvery); last.EnvSteps-settled.EnvSteps > bound {
		t.Errorf("actors took %d steps in %d updates, more than the bound %d", last.EnvSteps-settled.EnvSteps, 300-settle, bound)
	}
	if err := RunActor(ctx, cfg, s, 2); !errors.Is(err, ErrConfig) {
		t.Errorf("RunActor of actor 2 of 2: %v, want ErrConfig", err)
	}
}
