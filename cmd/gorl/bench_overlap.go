package main

import (
	"context"
	"io"
)

func init() {
	RegisterBench("dqn-cartpole-overlap", BenchRun{
		Doc: "dqn-cartpole with collection beside the updates (trainer.overlap): learning (≥ 195 on 4 of 5 seeds) and time",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			return solveRuns(ctx, SolveSpec{
				Algo: "dqn", Env: "CartPole-v1", Sets: []string{"trainer.overlap=true"}, Threshold: 195, Need: (4*o.Seeds + 4) / 5,
				Reference: "Tianshou 2.0.1: median 9.2 s, ~9.2k env steps", RefSeconds: 9.2, Speedup: 5,
			}, o, w)
		},
	})
}
