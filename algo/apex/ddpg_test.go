package apex

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gorl/gorl/algo/ddpg"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// TestActorSigma: σᵢ = σ·spread^(½ − i/(N−1)), worked out by hand for σ
// 0.2 and spread 4: the ends are 0.2·2 and 0.2/2, the middle of 3 is σ.
func TestActorSigma(t *testing.T) {
	for _, tc := range []struct {
		i, n int
		want float64
	}{
		{0, 1, 0.2},
		{0, 4, 0.4},
		{3, 4, 0.1},
		{1, 3, 0.2},
		{1, 4, 0.2 * math.Pow(4, 1.0/6)},
	} {
		if got := ActorSigma(0.2, 4, tc.i, tc.n); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("ActorSigma(0.2, 4, %d, %d) = %v, want %v", tc.i, tc.n, got, tc.want)
		}
	}
}

func TestDDPGValidate(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(*DDPGConfig)
	}{
		{"actors", func(c *DDPGConfig) { c.Actors = 0 }},
		{"noise_spread", func(c *DDPGConfig) { c.NoiseSpread = 0.5 }},
		{"learning_starts", func(c *DDPGConfig) { c.LearningStarts = 1 }},
		{"ddpg", func(c *DDPGConfig) { c.DDPG.MaxAction = 0 }},
	} {
		c := DefaultDDPGConfig()
		tc.edit(&c)
		if err := c.Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", tc.field, err)
		}
	}
	if err := DefaultDDPGConfig().Validate(); err != nil {
		t.Fatal(err)
	}
}

// pendulumBatch returns k transitions of Pendulum's shapes with made-up
// values, returns included, and importance weights w.
func pendulumBatch(t *testing.T, k int, w []float64) *batch.Batch {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	vals := func(n int, scale float64) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(scale * (2*rng.Float64() - 1))
		}
		return x
	}
	obs := must(t, vals(3*k, 1), k, 3)
	act := must(t, vals(k, 1), k, 1)
	ret := must(t, vals(k, 5), k)
	b := batch.MustNew(batch.KeyObs, obs, batch.KeyAct, act, batch.KeyReturns, ret)
	if w != nil {
		if err := b.Set(batch.KeyWeight, must(t, w, k)); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func newPendulumDDPG(t *testing.T) *ddpg.DDPG {
	t.Helper()
	e, err := env.Make("Pendulum-v1")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	cfg := ddpg.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden = []int{16}, []int{16}
	d, err := ddpg.New(cfg, e.ObservationSpace(), e.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDDPGAgentUpdate: the weighted critic step's loss is mean(w·δ²) of
// the TD errors δ it reports (a float64 reference in the test), those
// are G − Q(s, a) of the critic before the step (TDErrorsTo's absolute
// values), and unit weights step the critic as DDPG's own Update does.
func TestDDPGAgentUpdate(t *testing.T) {
	const k = 8
	w := []float64{2, 0, 1, 0.5, 1, 3, 0.25, 1}
	a := &ddpgAgent{DDPG: newPendulumDDPG(t)}
	b := pendulumBatch(t, k, w)
	abs := make([]float64, k)
	if err := a.TDErrorsTo(abs, b); err != nil {
		t.Fatal(err)
	}
	st, err := a.Update(b)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for i, d := range a.TD() {
		want += w[i] * d * d / k
		if math.Abs(math.Abs(d)-abs[i]) > 1e-6 {
			t.Errorf("TD error %d: %v, TDErrorsTo %v", i, d, abs[i])
		}
	}
	if got := st["loss/critic"]; math.Abs(got-want) > 1e-5*math.Max(1, want) {
		t.Errorf("critic loss %v, want mean(w·δ²) = %v", got, want)
	}

	unit := &ddpgAgent{DDPG: newPendulumDDPG(t)}
	ref := newPendulumDDPG(t)
	ones := []float64{1, 1, 1, 1, 1, 1, 1, 1}
	if _, err := unit.Update(pendulumBatch(t, k, ones)); err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Update(pendulumBatch(t, k, nil)); err != nil {
		t.Fatal(err)
	}
	got, exp := unit.Params(), ref.Params()
	for i := range got {
		for j, x := range got[i].Tensor.Data() {
			if y := exp[i].Tensor.Data()[j]; math.Abs(float64(x-y)) > 1e-6 {
				t.Fatalf("%s[%d] = %v after a unit-weight update, DDPG's %v", got[i].Name, j, x, y)
			}
		}
	}
}

// TestRunDDPG runs 2 actors and the learner on Pendulum for 200 updates,
// held to 1 env step per update; a discrete action space is refused.
func TestRunDDPG(t *testing.T) {
	node, err := cluster.Start(cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	cfg := DefaultDDPGConfig()
	cfg.Actors = 2
	cfg.LearningStarts = 200
	cfg.BatchSize = 32
	cfg.DDPG.ActorHidden, cfg.DDPG.Critic.Hidden = []int{32}, []int{32}
	cfg.StepsPerUpdate = 1
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var last Progress
	d, err := RunDDPG(ctx, cfg, DDPGSetup{
		Transport: node.Transport(),
		MakeEnv:   func(int) (env.Env, error) { return env.Make("Pendulum-v1") },
		Seed:      1,
		After: func(d *ddpg.DDPG, p Progress) (bool, error) {
			last = p
			return p.Updates >= 200, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if d.Updates() != 200 || last.Updates != 200 {
		t.Errorf("%d updates, want 200", d.Updates())
	}
	if last.EnvSteps < int64(cfg.LearningStarts) || last.Episodes == 0 || last.Loss == 0 {
		t.Errorf("actors took %d steps in %d episodes, loss %v; want at least %d steps and a loss", last.EnvSteps, last.Episodes, last.Loss, cfg.LearningStarts)
	}
	// The slack is TestRunLearnsFromActors's plus two flushes per actor: no
	// actor is held while the learner waits for data (held's doc), which a
	// loaded machine makes happen between updates. Unheld actors would take
	// thousands of steps in the time of 200 updates.
	if bound := int64(cfg.LearningStarts + cfg.Actors*(3*cfg.FlushEvery+cfg.DDPG.NStep) + 200 + cfg.Actors); last.EnvSteps > bound {
		t.Errorf("actors took %d steps, more than the bound %d of 1 per update", last.EnvSteps, bound)
	}
	_, err = RunDDPG(ctx, cfg, DDPGSetup{
		Transport: node.Transport(),
		Group:     "discrete",
		MakeEnv:   func(int) (env.Env, error) { return env.Make("CartPole-v1") },
		After:     func(*ddpg.DDPG, Progress) (bool, error) { return true, nil },
	})
	if err == nil {
		t.Fatal("Ape-X DDPG ran on a discrete action space")
	}
}

func must[T float32 | float64](t *testing.T, x []T, shape ...int) *nd.Array {
	t.Helper()
	a, err := nd.FromSlice(x, shape...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
