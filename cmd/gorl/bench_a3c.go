package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gorl/gorl/algo/a2c"
	"github.com/gorl/gorl/algo/a3c"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/env"
)

// A3C on CartPole in one process: 4 workers as goroutines pushing their
// gradients to the shared model on an embedded NATS server, tested as
// the Ape-X run is.
func init() {
	RegisterBench("a3c-cartpole", BenchRun{
		Doc: "A3C on CartPole-v1, 4 workers in one process on an embedded NATS server: learning (≥ 195 on 4 of 5 seeds), steps and time (compare a2c-cartpole)",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			cfg := a3c.DefaultConfig()
			fmt.Fprintf(w, "A3C on CartPole-v1: %d workers of %d steps per gradient, net %v, γ %v, Adam lr %v shared, stop at a mean test return ≥ 195 over %d episodes, tested every %d updates, at most %d updates.\n\n",
				cfg.Workers, cfg.NSteps, cfg.A2C.Net.Hidden, cfg.A2C.Gamma, cfg.A2C.Optim.LR, apexTestEpisodes, apexTestEvery, apexMaxUpdates)
			return distributedRuns("a3c", "CartPole-v1", func(seed uint64) (apexResult, error) { return a3cRun(ctx, cfg, seed) }, o, w)
		},
	})
}

func a3cRun(ctx context.Context, cfg a3c.Config, seed uint64) (apexResult, error) {
	return distBenchRun(ctx, "CartPole-v1", seed, func(node *cluster.Node, t *distTester, r *apexResult) error {
		_, err := a3c.Run(ctx, cfg, a3c.Setup{
			Transport: node.Transport(),
			MakeEnv:   func(int) (env.Env, error) { return env.Make("CartPole-v1") },
			Seed:      seed,
			After: func(a *a2c.A2C, p a3c.Progress) (bool, error) {
				return r.test(ctx, t, a.Policy(), p.Updates, p.EnvSteps)
			},
		})
		return err
	})
}
