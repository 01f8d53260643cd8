package main

import (
	"context"
	"errors"
	"fmt"
	"io"
)

func init() {
	need := func(o BenchOptions) int { return (4*o.Seeds + 4) / 5 }
	RegisterBench("r2d2-cartpolenovel", BenchRun{
		Doc: "R2D2 against feed-forward DQN on CartPoleNoVel-v1 (no velocities): r2d2 must reach 195 on 4 of 5 seeds; DQN's runs, with the same 100,000 env steps at most, are reported beside",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			err := solveRuns(ctx, SolveSpec{Algo: "r2d2", Env: "CartPoleNoVel-v1", Threshold: 195, Need: need(o)}, o, w)
			if err != nil && !errors.Is(err, errNotLearned) {
				return err
			}
			fmt.Fprintln(w, "\nThe feed-forward baseline, DQN with its CartPole settings and R2D2's budget of 10 epochs of 10,000 env steps, on the same env (reported, not a target):")
			fmt.Fprintln(w)
			derr := solveRuns(ctx, SolveSpec{Algo: "dqn", Env: "CartPoleNoVel-v1", Threshold: 195, Need: need(o),
				Sets: []string{"trainer.epochs=10"}}, o, w)
			if derr != nil && !errors.Is(derr, errNotLearned) {
				return derr
			}
			return err
		},
	})
}
