package ppo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic"
	"github.com/gorl/gorl/trainer"
)

// resumeCase is a run TestResume interrupts: an env, with or without
// normalization (a Normalizer shared by the training and test envs) and
// state-dependent exploration.
type resumeCase struct {
	id        string
	norm, sde bool
}

// run returns a trainer of a small PPO for the given epochs, writing
// checkpoints to ckpt ("" for none).
func run(t *testing.T, c resumeCase, epochs int, ckpt string) (*trainer.Trainer, *ppo.PPO) {
	t.Helper()
	var norm *env.Normalizer
	envs := func(n int, train bool) []env.Env {
		es := make([]env.Env, n)
		for i := range es {
			e, err := env.Make(c.id)
			if err == nil && norm != nil {
				e, err = norm.Wrap(e, train)
			}
			if err != nil {
				t.Fatal(err)
			}
			es[i] = e
		}
		return es
	}
	probe := envs(1, false)[0]
	if c.norm {
		var err error
		norm, err = env.NewNormalizer(env.NormalizeConfig{Obs: true, Reward: true, Gamma: 0.95}, probe.ObservationSpace().Shape()[0])
		if err != nil {
			t.Fatal(err)
		}
	}
	cfg := ppo.DefaultConfig()
	if _, ok := probe.ActionSpace().(*env.Box); ok {
		cfg = ppo.ContinuousConfig()
	}
	cfg.Net.SDE, cfg.Net.SDESampleFreq = c.sde, 3
	cfg.Net.Hidden = []int{16}
	cfg.RecomputeAdvantage, cfg.LRDecaySteps = true, 2000
	p, err := ppo.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(4, 4)))
	if err != nil {
		t.Fatal(err)
	}
	tc := trainer.Config{Epochs: epochs, StepPerEpoch: 200, StepPerCollect: 100, RepeatPerCollect: 2, BatchSize: 32, TestEpisodes: 2}
	tr, err := trainer.New(p, tc, trainer.Setup{TrainEnvs: envs(4, true), TestEnvs: envs(2, false), Seed: 9, Checkpoint: ckpt})
	if err != nil {
		t.Fatal(err)
	}
	return tr, p
}

// TestResume trains PPO through the on-policy trainer for four epochs, and
// for two epochs followed by a restore from the checkpoint and two more: the
// parameters, counters and results must be equal, for a Discrete and a Box
// action space, with normalized observations and rewards, and with
// state-dependent exploration.
func TestResume(t *testing.T) {
	ctx := context.Background()
	for _, c := range []resumeCase{{id: "CartPole-v1"}, {id: "Pendulum-v1"}, {id: "Pendulum-v1", norm: true}, {id: "Pendulum-v1", norm: true, sde: true}} {
		id := fmt.Sprintf("%+v", c)
		dir := t.TempDir()
		full, pFull := run(t, c, 4, "")
		resFull, err := full.Run(ctx)
		full.Close()
		if err != nil {
			t.Fatal(err)
		}
		ckpt := filepath.Join(dir, "half.ckpt")
		half, _ := run(t, c, 2, ckpt)
		if _, err := half.Run(ctx); err != nil {
			t.Fatal(err)
		}
		half.Close()
		rest, pRest := run(t, c, 4, "")
		if err := rest.Restore(ctx, ckpt); err != nil {
			t.Fatal(err)
		}
		resRest, err := rest.Run(ctx)
		rest.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resFull.EnvSteps != resRest.EnvSteps || resFull.Episodes != resRest.Episodes || resFull.BestReturn != resRest.BestReturn {
			t.Errorf("%s: uninterrupted %+v\nresumed %+v", id, resFull, resRest)
		}
		if !algotest.EqualParams(pFull.Net.Params(), pRest.Net.Params()) || pFull.Counters != pRest.Counters {
			t.Errorf("%s: parameters or counters differ after resuming", id)
		}
		if pFull.Opt.LR() != pRest.Opt.LR() {
			t.Errorf("%s: learning rates %v and %v", id, pFull.Opt.LR(), pRest.Opt.LR())
		}
	}
}
