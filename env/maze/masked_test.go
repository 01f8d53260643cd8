package maze_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/algo/trpo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/maze"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// run collects steps env steps of 4 masked mazes with a's policy (random
// actions first when random is set) and updates a in between, and fails if
// any step was an invalid move (the only steps with InvalidReward).
func run(t *testing.T, a algo.Algorithm, random bool, rounds, steps int, update func(buffer.Buffer) error) {
	t.Helper()
	envs := make([]env.Env, 4)
	for i := range envs {
		envs[i] = maze.New()
	}
	venv, err := vector.NewSync(envs)
	if err != nil {
		t.Fatal(err)
	}
	defer venv.Close()
	buf, err := buffer.NewVector(buffer.Config{Size: rounds * steps}, len(envs))
	if err != nil {
		t.Fatal(err)
	}
	a.Policy().SetTrainingStep(true)
	c, err := collector.New(collector.Config{Env: venv, Policy: a.Policy(), Buffer: buf, Explore: true, Rand: rand.New(rand.NewPCG(7, 8))})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Reset(ctx, nil); err != nil {
		t.Fatal(err)
	}
	seen, goals := 0, 0
	for r := range rounds {
		if _, err := c.Collect(ctx, collector.Request{NStep: steps, Random: random && r == 0}); err != nil {
			t.Fatal(err)
		}
		var all batch.Batch
		if err := buf.TakeTo(&all, buf.SampleIndices(0, nil)); err != nil {
			t.Fatal(err)
		}
		rew, err := batch.Values[float64](&all, batch.KeyRew)
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range rew {
			switch x {
			case maze.InvalidReward:
				t.Fatalf("round %d: transition %d was an invalid move", r, i)
			case maze.GoalReward:
				goals++
			}
		}
		seen += len(rew)
		if err := update(buf); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d transitions checked (with repeats), %d goals, no invalid move", seen, goals)
}

// TestMaskedDQNNeverInvalid: random prefill, then ε = 1 (every action a
// uniform choice) and ε = 0.1, with DQN updates on the masked batches in
// between.
func TestMaskedDQNNeverInvalid(t *testing.T) {
	cfg := dqn.DefaultConfig()
	cfg.EpsTrain, cfg.EpsTrainFinal, cfg.EpsDecaySteps = 1, 0.1, 2000
	cfg.NStep = 3
	e := maze.New()
	d, err := dqn.New(cfg, e.ObservationSpace(), e.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	var l algo.Learner
	rng := rand.New(rand.NewPCG(3, 4))
	envSteps := int64(0)
	run(t, d, true, 6, 400, func(buf buffer.Buffer) error {
		envSteps += 400
		d.Schedule(envSteps)
		for range 20 {
			if _, err := l.Step(d, buf, 32, rng); err != nil {
				return err
			}
		}
		return nil
	})
}

// TestMaskedPPONeverInvalid: the actor samples from masked logits, and PPO
// updates on the masked collections in between.
func TestMaskedPPONeverInvalid(t *testing.T) {
	e := maze.New()
	p, err := ppo.New(ppo.DefaultConfig(), e.ObservationSpace(), e.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	var l algo.Learner
	run(t, p, false, 4, 400, func(buf buffer.Buffer) error {
		_, err := l.StepAll(p, buf, 64, 2)
		buf.Reset()
		return err
	})
	// The learner's distribution (the one PPO's log-probabilities and
	// entropy come from) is masked like the policy's.
	obs, _, err := e.Reset(env.NoSeed)
	if err != nil {
		t.Fatal(err)
	}
	in := batch.MustNew(batch.KeyObs, obs.(*batch.Batch).Index(nd.NewAxis()))
	var tp tensor.Tape
	d, err := p.Net.Dist(&tp, in)
	if err != nil {
		t.Fatal(err)
	}
	// At the start only "right" (action 1) is allowed.
	if pr := d.(*distribution.Categorical).Probs().Data(); pr[0] != 0 || pr[1] != 1 || pr[2] != 0 || pr[3] != 0 {
		t.Errorf("PPO's distribution at the start: %v; want [0 1 0 0]", pr)
	}
}

// TestMaskedTRPONeverInvalid: TRPO's natural gradient (its own softmax and
// KL on the masked logits) keeps finite steps on the masked collections.
func TestMaskedTRPONeverInvalid(t *testing.T) {
	e := maze.New()
	p, err := trpo.New(trpo.DefaultConfig(), e.ObservationSpace(), e.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	var l algo.Learner
	run(t, p, false, 3, 400, func(buf buffer.Buffer) error {
		stats, err := l.StepAll(p, buf, 0, 1)
		buf.Reset()
		if err != nil {
			return err
		}
		if kl := stats["kl"]; math.IsNaN(kl) || math.IsInf(kl, 0) || kl < 0 {
			t.Errorf("TRPO's KL %v; want a finite value ≥ 0", kl)
		}
		return nil
	})
}
