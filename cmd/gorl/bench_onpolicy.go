package main

import (
	"context"
	"io"
)

// The learning runs of the on-policy algorithms and PPO's speed run, with
// the settings of Tianshou's tests (the algorithms' registered defaults).
func init() {
	need := func(o BenchOptions) int { return (4*o.Seeds + 4) / 5 }
	RegisterBench("pg-cartpole", BenchRun{
		Doc: "REINFORCE on CartPole-v1 with Tianshou's test settings: learning (≥ 195 on 4 of 5 seeds)",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			return solveRuns(ctx, SolveSpec{Algo: "pg", Env: "CartPole-v1", Threshold: 195, Need: need(o)}, o, w)
		},
	})
	RegisterBench("a2c-cartpole", BenchRun{
		Doc: "A2C on CartPole-v1 with Tianshou's test settings: learning (≥ 195 on 4 of 5 seeds)",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			return solveRuns(ctx, SolveSpec{Algo: "a2c", Env: "CartPole-v1", Threshold: 195, Need: need(o)}, o, w)
		},
	})
	RegisterBench("ppo-cartpole", BenchRun{
		Doc: "PPO on CartPole-v1 with Tianshou's test settings: learning (≥ 195 on 4 of 5 seeds) and speed (Tianshou 7.2 s)",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			return solveRuns(ctx, SolveSpec{
				Algo: "ppo", Env: "CartPole-v1", Threshold: 195, Need: need(o),
				Reference: "Tianshou 2.0.1: median 7.2 s, ~18k env steps", RefSeconds: 7.2, Speedup: 5,
			}, o, w)
		},
	})
	RegisterBench("ppo-pendulum", BenchRun{
		Doc: "PPO with a Normal head on Pendulum-v1 with Tianshou's test settings: learning (≥ −250 on 4 of 5 seeds)",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			return solveRuns(ctx, SolveSpec{Algo: "ppo", Env: "Pendulum-v1", Threshold: -250, Need: need(o)}, o, w)
		},
	})
}
