package main

import (
	"context"
	"io"
)

// The learning and speed runs of the off-policy actor-critics on Pendulum
// and of discrete SAC on CartPole with the settings of Tianshou's tests
// (their registered defaults), and SAC's and TD3's runs on
// MountainCarContinuous with their presets.
func init() {
	need := func(o BenchOptions) int { return (4*o.Seeds + 4) / 5 }
	for _, r := range []struct {
		name, algo, doc, ref string
		secs                 float64
	}{
		{"sac-pendulum", "sac", "SAC", "Tianshou 2.0.1: median 20.7 s, 20,000 env steps", 20.7},
		{"td3-pendulum", "td3", "TD3", "Tianshou 2.0.1: median 28.0 s, 25,600 env steps", 28.0},
		{"ddpg-pendulum", "ddpg", "DDPG", "Tianshou 2.0.1: median 23.0 s, 20,000 env steps", 23.0},
		// Tianshou gives no time for its REDQ test; the run reports ours.
		{"redq-pendulum", "redq", "REDQ", "", 0},
	} {
		speed := "steps and time"
		if r.ref != "" {
			speed = "speed (" + r.ref + ")"
		}
		RegisterBench(r.name, BenchRun{
			Doc: r.doc + " on Pendulum-v1 with Tianshou's test settings: learning (≥ −250 on 4 of 5 seeds), " + speed,
			Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
				return solveRuns(ctx, SolveSpec{Algo: r.algo, Env: "Pendulum-v1", Threshold: -250, Need: need(o),
					Reference: r.ref, RefSeconds: r.secs, Speedup: 5}, o, w)
			},
		})
	}
	RegisterBench("discrete-sac-cartpole", BenchRun{
		Doc: "discrete SAC on CartPole-v1 with Tianshou's test settings: learning (≥ 170, the test's lowered goal, on 4 of 5 seeds), steps and time",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			return solveRuns(ctx, SolveSpec{Algo: "discrete-sac", Env: "CartPole-v1", Threshold: 170, Need: need(o)}, o, w)
		},
	})
	for _, r := range []struct{ name, algo, doc string }{
		{"sac-mountaincar", "sac", "SAC"},
		{"td3-mountaincar", "td3", "TD3"},
	} {
		RegisterBench(r.name, BenchRun{
			Doc: r.doc + " on MountainCarContinuous-v0 with its preset (OU exploration noise): solved (≥ 90) or not, steps and time",
			Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
				return solveRuns(ctx, SolveSpec{Algo: r.algo, Env: "MountainCarContinuous-v0", Threshold: 90, Need: 0}, o, w)
			},
		})
	}
}

// SAC on the MuJoCo locomotion tasks with Tianshou's MuJoCo example settings
// (the sac presets of these envs), 1M env steps per seed, next to the
// returns Tianshou publishes for that script at 1M steps (mean ± std over
// 10 seeds). No run stops early: the threshold is the published mean, and
// the table reports each seed's best test return.
func init() {
	for _, r := range []struct {
		name, env string
		ref       float64
		refText   string
	}{
		{"sac-halfcheetah", "HalfCheetah-v4", 12139, "12,139 ± 1,567"},
		{"sac-hopper", "Hopper-v4", 3542, "3,542 ± 51"},
	} {
		RegisterBench(r.name, BenchRun{
			Doc: "SAC on " + r.env + " with Tianshou's MuJoCo example settings, 1M env steps (Tianshou: " + r.refText + "; hours per seed)",
			Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
				return solveRuns(ctx, SolveSpec{Algo: "sac", Env: r.env, Threshold: r.ref, Need: 0,
					Reference: "Tianshou mujoco_sac.py at 1M steps: " + r.refText}, o, w)
			},
			Long: true,
		})
	}
}
