package trainer_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/trainer"
)

// A trainer built from a DQN runs the off-policy loop: here on fake envs
// whose episodes last 8 steps whatever the actions, so the counts are
// known: 2 epochs of 40 steps in collections of 8 (4 vector steps of 2
// envs), one update per 4 steps, a test of 2 episodes before training and
// after each epoch. CartPole (package env/classic) is trained the same way.
func Example() {
	envs := func(n int) []env.Env {
		es := make([]env.Env, n)
		for i := range es {
			es[i] = envtest.MustNew(envtest.Config{ID: i, Lengths: []int{8}})
		}
		return es
	}
	probe := envtest.MustNew(envtest.Config{})
	cfg := dqn.DefaultConfig()
	cfg.Hidden = []int{16}
	alg, err := dqn.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	buf, _ := buffer.NewVector(buffer.Config{Size: 200}, 2)
	tc := trainer.Config{Epochs: 2, StepPerEpoch: 40, StepPerCollect: 8, UpdatePerStep: 0.25, BatchSize: 16,
		PrefillSteps: 16, TestEpisodes: 2}
	tr, err := trainer.New(alg, tc, trainer.Setup{TrainEnvs: envs(2), TestEnvs: envs(2), Buffer: buf, Seed: 1,
		OnEpoch: func(s trainer.EpochStats) {
			fmt.Printf("epoch %d: %d env steps, %d updates, test return %.0f\n", s.Epoch, s.EnvSteps, s.GradientSteps, s.TestReturn)
		}})
	if err != nil {
		panic(err)
	}
	defer tr.Close()
	res, err := tr.Run(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d epochs, %d episodes, %d tests, best return %.0f\n", res.Epochs, res.Episodes, res.Tests, res.BestReturn)
	// Output:
	// epoch 1: 40 env steps, 10 updates, test return 8
	// epoch 2: 80 env steps, 20 updates, test return 8
	// 2 epochs, 10 episodes, 3 tests, best return 8
}
