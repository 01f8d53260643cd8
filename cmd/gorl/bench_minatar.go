package main

import (
	"context"
	"io"
)

// DQN on MinAtar Breakout and Space Invaders with the MinAtar paper's
// settings (the dqn presets of these envs), 1M frames per seed, next to the
// paper's DQN curves at 1M frames (Young & Tian 2019, figure of returns
// during training, averaged over 30 runs; read off the plot). The
// threshold is the paper's figure, so a run that reaches it stops there.
func init() {
	for _, r := range []struct {
		name, env string
		ref       float64
		refText   string
	}{
		{"dqn-breakout-minatar", "Breakout-MinAtar-v0", 9, "about 9"},
		{"dqn-spaceinvaders-minatar", "SpaceInvaders-MinAtar-v0", 33, "about 33"},
	} {
		RegisterBench(r.name, BenchRun{
			Doc: "DQN on " + r.env + " with the MinAtar paper's settings, 1M frames (paper's DQN at 1M frames: " + r.refText + "; half an hour of CPU per seed)",
			Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
				return solveRuns(ctx, SolveSpec{Algo: "dqn", Env: r.env, Threshold: r.ref, Need: 0,
					Reference: "MinAtar paper's DQN at 1M frames: " + r.refText}, o, w)
			},
			Long: true,
		})
	}
}
