package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/gorl/gorl/algo/apex"
	"github.com/gorl/gorl/algo/ddpg"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/internal/cputime"
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
	tb := newTable(w, "seed", "solved", "best test return", "env steps", "updates", "wall s", "cpu s")
	var walls, steps []float64
	solved := 0
	for i := range o.Seeds {
		seed := o.FirstSeed + uint64(i)
		cpu0, _ := cputime.Process()
		r, err := apexDDPGRun(ctx, cfg, seed)
		cpu1, measured := cputime.Process()
		if err != nil {
			return err
		}
		cpu := "-"
		if measured {
			cpu = fmt.Sprintf("%.2f", (cpu1 - cpu0).Seconds())
		}
		if r.solved {
			solved++
		}
		walls, steps = append(walls, r.duration.Seconds()), append(steps, float64(r.steps))
		tb.Row(fmt.Sprint(seed), fmt.Sprint(r.solved), fmt.Sprintf("%.1f", r.best), fmt.Sprint(r.steps), fmt.Sprint(r.updates), fmt.Sprintf("%.2f", r.duration.Seconds()), cpu)
		fmt.Fprintf(o.Log, "apex-ddpg Pendulum-v1 seed %d: solved %v in %v\n", seed, r.solved, r.duration.Round(time.Millisecond))
	}
	tb.Flush()
	need := (4*o.Seeds + 4) / 5
	fmt.Fprintf(w, "\nmedian: %.2f s, %.0f env steps; solved on %d of %d seeds (need %d): %s\n",
		median(walls), median(steps), solved, o.Seeds, need, verdict(solved >= need))
	if solved < need {
		return fmt.Errorf("%w: apex-ddpg on Pendulum-v1 solved on %d of %d seeds, need %d", errNotLearned, solved, o.Seeds, need)
	}
	return nil
}

func apexDDPGRun(ctx context.Context, cfg apex.DDPGConfig, seed uint64) (apexResult, error) {
	node, err := cluster.Start(cluster.Options{})
	if err != nil {
		return apexResult{}, err
	}
	defer node.Close()
	envs := make([]env.Env, apexTestEpisodes)
	for i := range envs {
		if envs[i], err = env.Make("Pendulum-v1"); err != nil {
			return apexResult{}, err
		}
	}
	vec, err := vector.New(envs, vector.Config{})
	if err != nil {
		return apexResult{}, err
	}
	t := &tester{vec: vec}
	defer t.close()
	r := apexResult{best: math.Inf(-1)}
	start := time.Now()
	_, err = apex.RunDDPG(ctx, cfg, apex.DDPGSetup{
		Transport: node.Transport(),
		MakeEnv:   func(int) (env.Env, error) { return env.Make("Pendulum-v1") },
		Seed:      seed,
		After: func(d *ddpg.DDPG, p apex.Progress) (bool, error) {
			r.steps, r.updates = p.EnvSteps, p.Updates
			if p.Updates%apexDDPGTestEvery != 0 {
				return p.Updates >= apexDDPGMaxUpdates, nil
			}
			m, err := t.mean(ctx, d.Policy())
			if err != nil {
				return true, err
			}
			r.best = max(r.best, m)
			r.solved = m >= apexDDPGThreshold
			return r.solved || p.Updates >= apexDDPGMaxUpdates, nil
		},
	})
	r.duration = time.Since(start)
	return r, err
}
