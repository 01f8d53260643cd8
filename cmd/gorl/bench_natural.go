package main

import (
	"context"
	"io"
)

// The learning runs of NPG and TRPO with the settings of Tianshou's tests
// (the algorithms' registered defaults): CartPole at Tianshou's test
// threshold 195 and Pendulum at −250, each on 4 of 5 seeds.
func init() {
	need := func(o BenchOptions) int { return (4*o.Seeds + 4) / 5 }
	for _, r := range []struct{ name, algo, env, doc string }{
		{"npg-cartpole", "npg", "CartPole-v1", "NPG on CartPole-v1 with a Categorical head: learning (≥ 195 on 4 of 5 seeds)"},
		{"npg-pendulum", "npg", "Pendulum-v1", "NPG on Pendulum-v1 with Tianshou's test settings: learning (≥ −250 on 4 of 5 seeds)"},
		{"trpo-cartpole", "trpo", "CartPole-v1", "TRPO on CartPole-v1 with a Categorical head: learning (≥ 195 on 4 of 5 seeds)"},
		{"trpo-pendulum", "trpo", "Pendulum-v1", "TRPO on Pendulum-v1 with Tianshou's test settings: learning (≥ −250 on 4 of 5 seeds)"},
	} {
		threshold := 195.0
		if r.env == "Pendulum-v1" {
			threshold = -250
		}
		RegisterBench(r.name, BenchRun{
			Doc: r.doc,
			Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
				return solveRuns(ctx, SolveSpec{Algo: r.algo, Env: r.env, Threshold: threshold, Need: need(o)}, o, w)
			},
		})
	}
}
