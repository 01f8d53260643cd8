package main

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// recurrentVsPPO runs recurrent PPO with its defaults for envID (changed by
// sets) to the threshold over o's seeds, then PPO with its defaults on the
// same env as the feed-forward baseline, reported beside. It returns
// errNotLearned, after both, if rppo solves fewer than 4 of 5 seeds.
func recurrentVsPPO(ctx context.Context, o BenchOptions, w io.Writer, envID string, threshold float64, sets []string) error {
	need := (4*o.Seeds + 4) / 5
	err := solveRuns(ctx, SolveSpec{Algo: "rppo", Env: envID, Sets: sets, Threshold: threshold, Need: need}, o, w)
	if err != nil && !errors.Is(err, errNotLearned) {
		return err
	}
	fmt.Fprintf(w, "\nThe feed-forward baseline, PPO with its defaults for %s (reported, not a target):\n\n", envID)
	perr := solveRuns(ctx, SolveSpec{Algo: "ppo", Env: envID, Threshold: threshold, Need: need}, o, w)
	if perr != nil && !errors.Is(perr, errNotLearned) {
		return perr
	}
	return err
}

func init() {
	RegisterBench("rppo-cartpole-novel", BenchRun{
		Doc: "recurrent PPO against PPO on CartPoleNoVel-v1 (no velocities): rppo must reach 195 on 4 of 5 seeds; PPO's runs are reported beside",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			return recurrentVsPPO(ctx, o, w, "CartPoleNoVel-v1", 195, nil)
		},
	})
	RegisterBench("rppo-tmaze", BenchRun{
		Doc: "recurrent PPO with an LSTM against PPO on TMaze-v0 (the cue shown only at the first of 11 steps): rppo must reach 0.9 on 4 of 5 seeds; PPO, which cannot beat 0 in expectation, is reported beside",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			return recurrentVsPPO(ctx, o, w, "TMaze-v0", 0.9, []string{"algorithm.cell=lstm"})
		},
	})
	RegisterBench("rppo-pendulum-novel", BenchRun{
		Doc: "recurrent PPO (GRU, separate actor and critic trunks) against PPO on PendulumNoVel-v1 (no angular velocity): rppo must reach −250 on 4 of 5 seeds within 200,000 env steps; PPO's runs are reported beside",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			return recurrentVsPPO(ctx, o, w, "PendulumNoVel-v1", -250, nil)
		},
	})
}
