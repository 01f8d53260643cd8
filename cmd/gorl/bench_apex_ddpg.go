package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gorl/gorl/algo/apex"
	"github.com/gorl/gorl/algo/ddpg"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/env"
)

// Ape-X DDPG on Pendulum in one process: 4 actors as goroutines and the
// learner on an embedded NATS server, the learner's actor tested without
// noise every apexDDPGTestEvery updates on apexTestEpisodes episodes,
// against Tianshou's Pendulum threshold.
func init() {
	RegisterBench("apex-ddpg-pendulum", BenchRun{
		Doc: "Ape-X DDPG on Pendulum-v1, 4 actors in one process on an embedded NATS server: learning (≥ −250 on 4 of 5 seeds), steps and time (compare ddpg-pendulum)",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			cfg := apex.DefaultDDPGConfig()
			cfg.StepsPerUpdate = 1 // on two cores, free-running actors would starve the learner
			return apexDDPGRuns(ctx, cfg, o, w)
		},
	})
}

const (
	apexDDPGTestEvery  = 1000
	apexDDPGMaxUpdates = 40_000
	apexDDPGThreshold  = -250
)

func apexDDPGRuns(ctx context.Context, cfg apex.DDPGConfig, o BenchOptions, w io.Writer) error {
	fmt.Fprintf(w, "Ape-X DDPG on Pendulum-v1: %d actors (σ %v spread by %v) held to %v env steps per update, actor %v, critic %v, batch %d, stop at a mean test return ≥ %d over %d episodes, tested every %d updates, at most %d updates.\n\n",
		cfg.Actors, cfg.DDPG.Noise.Sigma, cfg.NoiseSpread, cfg.StepsPerUpdate, cfg.DDPG.ActorHidden, cfg.DDPG.Critic.Hidden, cfg.BatchSize,
		apexDDPGThreshold, apexTestEpisodes, apexDDPGTestEvery, apexDDPGMaxUpdates)
	return distributedRuns("apex-ddpg", "Pendulum-v1", func(seed uint64) (apexResult, error) { return apexDDPGRun(ctx, cfg, seed) }, o, w)
}

func apexDDPGRun(ctx context.Context, cfg apex.DDPGConfig, seed uint64) (apexResult, error) {
	return distBenchRun(ctx, "Pendulum-v1", seed, func(node *cluster.Node, t *distTester, r *apexResult) error {
		_, err := apex.RunDDPG(ctx, cfg, apex.DDPGSetup{
			Transport: node.Transport(),
			MakeEnv:   func(int) (env.Env, error) { return env.Make("Pendulum-v1") },
			Seed:      seed,
			After: func(d *ddpg.DDPG, p apex.Progress) (bool, error) {
				r.steps, r.updates = p.EnvSteps, p.Updates
				if p.Updates%apexDDPGTestEvery != 0 {
					return p.Updates >= apexDDPGMaxUpdates, nil
				}
				m, _, err := t.run(ctx, d.Policy())
				if err != nil {
					return true, err
				}
				r.best = max(r.best, m)
				r.solved = m >= apexDDPGThreshold
				return r.solved || p.Updates >= apexDDPGMaxUpdates, nil
			},
		})
		return err
	})
}
