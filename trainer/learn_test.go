//go:build learning

package trainer_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic"
	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/trainer"
)

func makeEnvs(t testing.TB, n int) []env.Env {
	es := make([]env.Env, n)
	for i := range es {
		e, err := env.Make("CartPole-v1")
		if err != nil {
			t.Fatal(err)
		}
		es[i] = e
	}
	return es
}

func TestDQNCartPole(t *testing.T) {
	t.Logf("BLAS: %s", tensor.BLASName())
	for seed := uint64(0); seed < 5; seed++ {
		start := time.Now()
		probe, _ := env.Make("CartPole-v1")
		d, err := dqn.New(dqn.DefaultConfig(), probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		buf, err := buffer.NewVector(buffer.Config{Size: 20000}, 10)
		if err != nil {
			t.Fatal(err)
		}
		cfg := trainer.DefaultConfig()
		threshold := 195.0
		cfg.RewardThreshold = &threshold
		tr, err := trainer.New(d, cfg, trainer.Setup{
			TrainEnvs: makeEnvs(t, 10), TestEnvs: makeEnvs(t, 100), Buffer: buf, Seed: seed,
		})
		if err != nil {
			t.Fatal(err)
		}
		res, err := tr.Run(context.Background())
		tr.Close()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("seed %d: solved %v best %.1f±%.1f at epoch %d, %d env steps (+%d prefill), %d updates, %d tests, %v (collect %v, update %v, test %v)",
			seed, res.Solved, res.BestReturn, res.BestStd, res.BestEpoch, res.EnvSteps, res.PrefillSteps, res.GradientSteps, res.Tests,
			time.Since(start).Round(time.Millisecond), res.CollectTime.Round(time.Millisecond), res.UpdateTime.Round(time.Millisecond), res.TestTime.Round(time.Millisecond))
	}
}
