package main

import (
	"context"
	"io"
)

// The learning and speed runs of the quantile algorithms on CartPole with
// the settings of Tianshou's tests (their registered defaults): solved at a
// mean test return of 195 on 4 of 5 seeds. Tianshou publishes no times for
// these tests; the runs report env steps and ours.
func init() {
	for _, r := range []struct{ name, algo, doc string }{
		{"qrdqn-cartpole", "qrdqn", "QR-DQN"},
		{"iqn-cartpole", "iqn", "IQN"},
		{"fqf-cartpole", "fqf", "FQF"},
	} {
		RegisterBench(r.name, BenchRun{
			Doc: r.doc + " on CartPole-v1 with Tianshou's test settings: learning (≥ 195 on 4 of 5 seeds), steps and time",
			Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
				return solveRuns(ctx, SolveSpec{Algo: r.algo, Env: "CartPole-v1", Threshold: 195, Need: (4*o.Seeds + 4) / 5}, o, w)
			},
		})
	}
}
