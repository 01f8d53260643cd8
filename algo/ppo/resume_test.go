package ppo_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic"
	"github.com/gorl/gorl/trainer"
)

// run returns a trainer of a small PPO on id for the given epochs, writing
// checkpoints to ckpt ("" for none).
func run(t *testing.T, id string, epochs int, ckpt string) (*trainer.Trainer, *ppo.PPO) {
	t.Helper()
	envs := func(n int) []env.Env {
		es := make([]env.Env, n)
		for i := range es {
			e, err := env.Make(id)
			if err != nil {
				t.Fatal(err)
			}
			es[i] = e
		}
		return es
	}
	probe := envs(1)[0]
	cfg := ppo.DefaultConfig()
	if _, ok := probe.ActionSpace().(*env.Box); ok {
		cfg = ppo.ContinuousConfig()
	}
	cfg.Net.Hidden = []int{16}
	cfg.RecomputeAdvantage, cfg.LRDecaySteps = true, 2000
	p, err := ppo.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(4, 4)))
	if err != nil {
		t.Fatal(err)
	}
	tc := trainer.Config{Epochs: epochs, StepPerEpoch: 200, StepPerCollect: 100, RepeatPerCollect: 2, BatchSize: 32, TestEpisodes: 2}
	tr, err := trainer.New(p, tc, trainer.Setup{TrainEnvs: envs(4), TestEnvs: envs(2), Seed: 9, Checkpoint: ckpt})
	if err != nil {
		t.Fatal(err)
	}
	return tr, p
}

// TestResume trains PPO through the on-policy trainer for four epochs, and
// for two epochs followed by a restore from the checkpoint and two more: the
// parameters, counters and results must be equal, for a Discrete and a Box
// action space.
func TestResume(t *testing.T) {
	ctx := context.Background()
	for _, id := range []string{"CartPole-v1", "Pendulum-v1"} {
		dir := t.TempDir()
		full, pFull := run(t, id, 4, "")
		resFull, err := full.Run(ctx)
		full.Close()
		if err != nil {
			t.Fatal(err)
		}
		ckpt := filepath.Join(dir, "half.ckpt")
		half, _ := run(t, id, 2, ckpt)
		if _, err := half.Run(ctx); err != nil {
			t.Fatal(err)
		}
		half.Close()
		rest, pRest := run(t, id, 4, "")
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
