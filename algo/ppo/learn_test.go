//go:build learning

package ppo_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gorl/gorl/algo/ppo"
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

// TestCartPole is PPO's learning run with the settings of Tianshou's
// CartPole test, those of the speed run (DefaultConfig; 20 training envs,
// collections of 2,000 steps, 10 passes of minibatches of 64, 100 test
// episodes, test-in-train): it must reach a mean test return of 195 on at
// least 4 of 5 seeds. Run it with
//
//	go test -tags learning -run . -v ./algo/pg ./algo/a2c ./algo/ppo
func TestCartPole(t *testing.T) {
	t.Logf("BLAS: %s", tensor.BLASName())
	solved := 0
	for seed := uint64(0); seed < 5; seed++ {
		start := time.Now()
		probe, _ := env.Make("CartPole-v1")
		a, err := ppo.New(ppo.DefaultConfig(), probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		th := 195.0
		tc := trainer.Config{Epochs: 10, StepPerEpoch: 50000, StepPerCollect: 2000, RepeatPerCollect: 10, BatchSize: 64, TestEpisodes: 100, TestInTrain: true, RewardThreshold: &th}
		tr, err := trainer.New(a, tc, trainer.Setup{TrainEnvs: makeEnvs(t, "CartPole-v1", 20), TestEnvs: makeEnvs(t, "CartPole-v1", 100), Seed: seed})
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

// TestPendulum is PPO's learning run with a Normal head and the settings of
// Tianshou's Pendulum test (ContinuousConfig; 16 training envs, 16 episodes
// per collection, 2 passes of minibatches of 128, 100 test episodes,
// test-in-train): it must reach a mean test return of −250 on at least 4 of
// 5 seeds.
func TestPendulum(t *testing.T) {
	t.Logf("BLAS: %s", tensor.BLASName())
	solved := 0
	for seed := uint64(0); seed < 5; seed++ {
		start := time.Now()
		probe, _ := env.Make("Pendulum-v1")
		a, err := ppo.New(ppo.ContinuousConfig(), probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		buf, err := buffer.NewVector(buffer.Config{Size: 20000}, 16)
		if err != nil {
			t.Fatal(err)
		}
		th := -250.0
		tc := trainer.Config{Epochs: 5, StepPerEpoch: 150000, EpisodePerCollect: 16, RepeatPerCollect: 2, BatchSize: 128, TestEpisodes: 100, TestInTrain: true, RewardThreshold: &th}
		tr, err := trainer.New(a, tc, trainer.Setup{TrainEnvs: makeEnvs(t, "Pendulum-v1", 16), TestEnvs: makeEnvs(t, "Pendulum-v1", 100), Buffer: buf, Seed: seed,
			OnEpoch: func(s trainer.EpochStats) {
				t.Logf("  epoch %d: train %.1f test %.1f", s.Epoch, s.TrainReturn, s.TestReturn)
			}})
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
