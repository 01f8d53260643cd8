package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gorl/gorl/algo/impala"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/env"
)

// IMPALA on CartPole in one process: 4 actors as goroutines and the
// learner on an embedded NATS server, tested as the Ape-X run is.
func init() {
	RegisterBench("impala-cartpole", BenchRun{
		Doc: "IMPALA on CartPole-v1, 4 actors in one process on an embedded NATS server: learning (≥ 195 on 4 of 5 seeds), steps and time",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			cfg := impala.DefaultConfig()
			cfg.UnrollsPerUpdate = float64(cfg.BatchSize) // each unroll sampled about once
			fmt.Fprintf(w, "IMPALA on CartPole-v1: %d actors, unrolls of %d, %d unrolls per update, actors held to %v unrolls per update, net %v, stop at a mean test return ≥ 195 over %d episodes, tested every %d updates, at most %d updates.\n\n",
				cfg.Actors, cfg.Unroll, cfg.BatchSize, cfg.UnrollsPerUpdate, cfg.Net.Hidden, apexTestEpisodes, apexTestEvery, apexMaxUpdates)
			return distributedRuns("impala", "CartPole-v1", func(seed uint64) (apexResult, error) { return impalaRun(ctx, cfg, seed) }, o, w)
		},
	})
}

func impalaRun(ctx context.Context, cfg impala.Config, seed uint64) (apexResult, error) {
	return distBenchRun(ctx, "CartPole-v1", seed, func(node *cluster.Node, t *distTester, r *apexResult) error {
		_, err := impala.Run(ctx, cfg, impala.Setup{
			Transport: node.Transport(),
			MakeEnv:   func(int) (env.Env, error) { return env.Make("CartPole-v1") },
			Seed:      seed,
			After: func(l *impala.Learner, p impala.Progress) (bool, error) {
				return r.test(ctx, t, l.Actor, p.Updates, p.EnvSteps)
			},
		})
		return err
	})
}
