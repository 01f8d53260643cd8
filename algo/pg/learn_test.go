//go:build learning

package pg_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gorl/gorl/algo/pg"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic"
	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/trainer"
)

func makeEnvs(t testing.TB, id string, n int) []env.Env {
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

// TestCartPole is REINFORCE's learning run with the settings of Tianshou's
// CartPole test (DefaultConfig; 8 training envs, 8 episodes per collection,
// 2 passes of minibatches of 64, 100 test episodes, test-in-train): it must
// reach a mean test return of 195 on at least 4 of 5 seeds. Run it with
//
//	go test -tags learning -run . -v ./algo/pg ./algo/a2c ./algo/ppo
func TestCartPole(t *testing.T) {
	t.Logf("BLAS: %s", tensor.BLASName())
	solved := 0
	for seed := uint64(0); seed < 5; seed++ {
		start := time.Now()
		probe, _ := env.Make("CartPole-v1")
		a, err := pg.New(pg.DefaultConfig(), probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		buf, err := buffer.NewVector(buffer.Config{Size: 20000}, 8)
		if err != nil {
			t.Fatal(err)
		}
		th := 195.0
		tc := trainer.Config{Epochs: 10, StepPerEpoch: 40000, EpisodePerCollect: 8, RepeatPerCollect: 2, BatchSize: 64, TestEpisodes: 100, TestInTrain: true, RewardThreshold: &th}
		tr, err := trainer.New(a, tc, trainer.Setup{TrainEnvs: makeEnvs(t, "CartPole-v1", 8), TestEnvs: makeEnvs(t, "CartPole-v1", 100), Buffer: buf, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		res, err := tr.Run(context.Background())
		tr.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.Solved {
			solved++
		}
		t.Logf("seed %d: solved %v best %.1f±%.1f at epoch %d, %d env steps, %d updates, %v (collect %v, update %v, test %v)",
			seed, res.Solved, res.BestReturn, res.BestStd, res.BestEpoch, res.EnvSteps, res.GradientSteps,
			time.Since(start).Round(time.Millisecond), res.CollectTime.Round(time.Millisecond), res.UpdateTime.Round(time.Millisecond), res.TestTime.Round(time.Millisecond))
	}
	if solved < 4 {
		t.Errorf("solved on %d of 5 seeds, want at least 4", solved)
	}
}
