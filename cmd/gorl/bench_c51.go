package main

import (
	"context"
	"io"
)

// The learning runs of C51 and Rainbow on CartPole with the settings of
// Tianshou's tests (their registered defaults). Tianshou gives no time for
// these tests; the runs report ours, and dqn-cartpole is the comparison.
func init() {
	for _, r := range []struct{ name, algo, doc string }{
		{"c51-cartpole", "c51", "C51"},
		{"rainbow-cartpole", "rainbow", "Rainbow"},
	} {
		RegisterBench(r.name, BenchRun{
			Doc: r.doc + " on CartPole-v1 with Tianshou's test settings: learning (≥ 195 on 4 of 5 seeds), steps and time",
			Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
				return solveRuns(ctx, SolveSpec{Algo: r.algo, Env: "CartPole-v1", Threshold: 195, Need: (4*o.Seeds + 4) / 5}, o, w)
			},
		})
	}
}
