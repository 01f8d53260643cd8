package main

import (
	"context"
	"io"
	"strings"
)

// DQN and Rainbow on MinAtar Breakout and Space Invaders with their presets
// (the MinAtar paper's DQN settings; Revisiting Rainbow's MinAtar settings),
// 1M frames per seed, next to the paper's DQN curves at 1M frames (Young &
// Tian 2019, figure of returns during training, averaged over 30 runs; read
// off the plot; the paper has no Rainbow). The threshold is the paper's
// figure, so a run that reaches it stops there.
func init() {
	for _, r := range []struct {
		algo, name, env string
		ref             float64
		refText         string
	}{
		{"dqn", "DQN", "Breakout-MinAtar-v0", 9, "about 9"},
		{"dqn", "DQN", "SpaceInvaders-MinAtar-v0", 33, "about 33"},
		{"rainbow", "Rainbow", "Breakout-MinAtar-v0", 9, "about 9"},
		{"rainbow", "Rainbow", "SpaceInvaders-MinAtar-v0", 33, "about 33"},
	} {
		game := strings.ToLower(strings.TrimSuffix(r.env, "-MinAtar-v0"))
		RegisterBench(r.algo+"-"+game+"-minatar", BenchRun{
			Doc: r.name + " on " + r.env + " with its preset, 1M frames (the MinAtar paper's DQN at 1M frames: " + r.refText + "; up to an hour of CPU per seed)",
			Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
				return solveRuns(ctx, SolveSpec{Algo: r.algo, Env: r.env, Threshold: r.ref, Need: 0,
					Reference: "MinAtar paper's DQN at 1M frames: " + r.refText}, o, w)
			},
			Long: true,
		})
	}
}
