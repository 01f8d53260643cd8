package main

import (
	"context"
	"fmt"
	"io"
	"slices"
)

// icmMountainCarSets are the settings both arms of the MountainCar
// comparison share: rl-baselines3-zoo's DQN of MountainCar-v0 (the dqn
// preset: lr 4e-3, γ 0.98, batch 128, 8 gradient steps every 16 env steps,
// a target copy every 300 gradient steps, Huber loss, gradient norm 10)
// with a smaller network (128-128 for 256-256), its exploration taken away
// as in Tianshou's DQN + ICM test (ε fixed at 0.1, no random prefill), a
// test after every 1,000 env steps, and a budget of 50 epochs (50,400 env
// steps). Finding the flag and keeping to it is then the exploration
// problem the curiosity bonus is for. With 80 epochs DQN alone reaches
// −110 on some seeds too (LEARNING.md).
var icmMountainCarSets = []string{
	"train_envs=1", "buffer_size=50000",
	"trainer.epochs=50", "trainer.step_per_epoch=1000", "trainer.step_per_collect=16", "trainer.update_per_step=0.5",
	"trainer.batch_size=128", "trainer.prefill_steps=0",
	"trainer.test_exploration=false", "trainer.test_episodes=20",
	"algorithm.hidden=[128,128]", "algorithm.optim.lr=0.004", "algorithm.gamma=0.98", "algorithm.n_step=1",
	"algorithm.double=false", `algorithm.loss="huber"`, "algorithm.max_grad_norm=10", "algorithm.target_update_freq=300",
	"algorithm.eps_train=0.1", "algorithm.eps_train_final=0.1", "algorithm.eps_decay_steps=0", "algorithm.eps_test=0",
}

// icmMountainCarICMSets are the module's settings on MountainCar: one
// hidden layer of 64 in each net, features of 64, the observations mapped
// onto [−1, 1] before the feature net (MountainCar's position spans 1.8
// and its velocity 0.14, so raw forward errors hardly see the velocity),
// and the forward error divided by its running mean, scaled by 0.5 and
// capped at 2: a bonus of at most about 0.5 a step on average against the
// env's −1, which keeps the flag worth more than a long episode and does
// not grow as the features drift.
var icmMountainCarICMSets = []string{
	"algorithm.icm.feature_hidden=[64]", "algorithm.icm.feature_dim=64", "algorithm.icm.model_hidden=[64]",
	"algorithm.icm.obs_norm=true", "algorithm.icm.reward_norm=true", "algorithm.icm.reward_scale=0.5",
	"algorithm.icm.reward_clip=2",
}

func init() {
	RegisterBench("icm-mountaincar", BenchRun{
		Doc: "DQN + ICM against DQN alone on MountainCar-v0, same DQN settings and budget (50k steps, ε 0.1): solved (≥ −110) or not, per seed, for both",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			fmt.Fprintln(w, "### DQN + ICM")
			fmt.Fprintln(w)
			errICM := solveRuns(ctx, SolveSpec{Algo: "icm-dqn", Env: "MountainCar-v0", Threshold: -110, Need: (4*o.Seeds + 4) / 5,
				Sets: append(slices.Clone(icmMountainCarSets), icmMountainCarICMSets...)}, o, w)
			fmt.Fprintln(w)
			fmt.Fprintln(w, "### DQN alone (the same settings without the module)")
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
