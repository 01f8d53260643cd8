package main

import (
	"context"
	"io"
)

// BDQN's learning run with the settings of Tianshou's BDQN test (the
// registered defaults): Pendulum discretized into 40 points of the torque,
// to Tianshou's test threshold −250 on 4 of 5 seeds.
func init() {
	RegisterBench("bdqn-pendulum", BenchRun{
		Doc: "BDQN on Pendulum-v1 discretized into 40 actions, Tianshou's test settings: learning (≥ −250 on 4 of 5 seeds)",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			need := (4*o.Seeds + 4) / 5
			return solveRuns(ctx, SolveSpec{Algo: "bdqn", Env: "Pendulum-v1", Threshold: -250, Need: need}, o, w)
		},
	})
}
