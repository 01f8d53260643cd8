package main

import (
	"context"
	"errors"
	"fmt"
	"io"
)

func init() {
	need := func(o BenchOptions) int { return (4*o.Seeds + 4) / 5 }
	RegisterBench("rppo-cartpole-novel", BenchRun{
		Doc: "recurrent PPO against PPO on CartPoleNoVel-v1 (no velocities): rppo must reach 195 on 4 of 5 seeds; PPO's runs are reported beside",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			err := solveRuns(ctx, SolveSpec{Algo: "rppo", Env: "CartPoleNoVel-v1", Threshold: 195, Need: need(o)}, o, w)
			if err != nil && !errors.Is(err, errNotLearned) {
				return err
			}
			fmt.Fprintln(w, "\nThe feed-forward baseline, PPO with its CartPole settings, on the same env (reported, not a target):")
			fmt.Fprintln(w)
			perr := solveRuns(ctx, SolveSpec{Algo: "ppo", Env: "CartPoleNoVel-v1", Threshold: 195, Need: need(o)}, o, w)
			if perr != nil && !errors.Is(perr, errNotLearned) {
				return perr
			}
			return err
		},
	})
}
