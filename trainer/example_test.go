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

// DefaultConfig holds Tianshou's CartPole DQN settings; a run changes the
// fields it needs, and Validate (which New calls) names what is wrong.
func ExampleConfig() {
	cfg := trainer.DefaultConfig()
	fmt.Println(cfg.Epochs, cfg.StepPerEpoch, cfg.StepPerCollect, cfg.UpdatePerStep, cfg.BatchSize)
	cfg.Epochs, cfg.StepPerEpoch = 5, 2000
	fmt.Println(cfg.Validate())
	cfg.Epochs = 0
	fmt.Println(cfg.Validate())
	// Output:
	// 20 10000 10 0.1 64
	// <nil>
	// trainer: invalid configuration: epochs 0 < 1
}

// Setup's hooks: TrainHook runs before every collection, and Stop ends
// the run at the first test after an epoch whose mean return reaches 8
// (every episode of the fake lasts 8 steps with a reward of 1 each). The
// test before training only records the best return, as in Tianshou, so
// the run trains for one epoch of two collections of 8 steps.
func ExampleSetup() {
	probe := envtest.MustNew(envtest.Config{})
	cfg := dqn.DefaultConfig()
	cfg.Hidden = []int{16}
	alg, err := dqn.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	fake := func(id int) env.Env { return envtest.MustNew(envtest.Config{ID: id, Lengths: []int{8}}) }
	buf, _ := buffer.NewVector(buffer.Config{Size: 100}, 1)
	collects := 0
	tr, err := trainer.New(alg, trainer.Config{Epochs: 3, StepPerEpoch: 16, StepPerCollect: 8, BatchSize: 8, TestEpisodes: 1},
		trainer.Setup{
			TrainEnvs: []env.Env{fake(0)}, TestEnvs: []env.Env{fake(1)}, Buffer: buf, Seed: 7,
			TrainHook: func(epoch int, envSteps int64) { collects++ },
			Stop:      func(meanReturn float64) bool { return meanReturn >= 8 },
		})
	if err != nil {
		panic(err)
	}
	defer tr.Close()
	res, err := tr.Run(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println("solved:", res.Solved, "epochs:", res.Epochs, "collections:", collects)
	// Output: solved: true epochs: 1 collections: 2
}
