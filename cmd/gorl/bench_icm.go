package main

import (
	"context"
	"fmt"
	"io"
	"slices"
)

// icmMountainCarSets are the settings of the MountainCar comparison: the
// dqn preset of MountainCar-v0 (rl-baselines3-zoo's DQN, translated) with
// its exploration taken away, ε fixed at 0.1 (Tianshou's DQN + ICM test)
// and no random prefill, over 60,000 env steps. Finding the goal is then
// the exploration problem the curiosity bonus is for. The budget comes from
// runs of 100,000 steps (LEARNING.md), in which DQN alone reached −110
// after 70k–74k steps and DQN + ICM after 20k–57k.
var icmMountainCarSets = []string{
	"train_envs=1", "buffer_size=100000",
	"trainer.epochs=6", "trainer.step_per_epoch=10000", "trainer.step_per_collect=16", "trainer.update_per_step=0.5",
	"trainer.batch_size=128", "trainer.prefill_steps=1000", "trainer.prefill_random=false",
	"trainer.test_exploration=false", "trainer.test_episodes=20",
	"algorithm.hidden=[256,256]", "algorithm.optim.lr=0.004", "algorithm.gamma=0.98", "algorithm.n_step=1",
	"algorithm.double=false", `algorithm.loss="huber"`, "algorithm.max_grad_norm=10", "algorithm.target_update_freq=300",
	"algorithm.eps_train=0.1", "algorithm.eps_train_final=0.1", "algorithm.eps_decay_steps=0", "algorithm.eps_test=0",
}

// icmMountainCarICMSets are the module's settings on MountainCar.
var icmMountainCarICMSets = []string{"algorithm.icm.reward_scale=1"}

func init() {
	RegisterBench("icm-mountaincar", BenchRun{
		Doc: "DQN + ICM against DQN alone on MountainCar-v0, same settings and budget (60k steps, ε 0.1): solved (≥ −110) or not",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			fmt.Fprintln(w, "### DQN + ICM")
			fmt.Fprintln(w)
			errICM := solveRuns(ctx, SolveSpec{Algo: "icm-dqn", Env: "MountainCar-v0", Threshold: -110, Need: (4*o.Seeds + 4) / 5,
				Sets: append(slices.Clone(icmMountainCarSets), icmMountainCarICMSets...)}, o, w)
			fmt.Fprintln(w)
			fmt.Fprintln(w, "### DQN alone")
			fmt.Fprintln(w)
			if err := solveRuns(ctx, SolveSpec{Algo: "dqn", Env: "MountainCar-v0", Threshold: -110, Need: 0,
				Sets: icmMountainCarSets}, o, w); err != nil {
				return err
			}
			return errICM
		},
		Long: true,
	})
}
