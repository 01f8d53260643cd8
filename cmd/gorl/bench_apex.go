package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gorl/gorl/algo/apex"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/internal/cputime"
)

// Ape-X DQN on CartPole in one process: 4 actors as goroutines and the
// learner on an embedded NATS server, the learner's network tested every
// apexTestEvery updates on apexTestEpisodes episodes with DQN's test ε.
func init() {
	RegisterBench("apex-dqn-cartpole", BenchRun{
		Doc: "Ape-X DQN on CartPole-v1, 4 actors in one process on an embedded NATS server: learning (≥ 195 on 4 of 5 seeds), steps and time",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			cfg := apex.DefaultConfig()
			cfg.StepsPerUpdate = 10 // DQN's CartPole test: 10 env steps per gradient step
			return apexRuns(ctx, cfg, o, w)
		},
	})
}

const (
	apexTestEvery    = 200
	apexTestEpisodes = 10
	apexMaxUpdates   = 50_000
)

type apexResult struct {
	solved   bool
	best     float64
	steps    int64
	updates  int64
	duration time.Duration
}

func apexRuns(ctx context.Context, cfg apex.Config, o BenchOptions, w io.Writer) error {
	fmt.Fprintf(w, "Ape-X DQN on CartPole-v1: %d actors (ε %v, α %v) held to %v env steps per update, learner %v, stop at a mean test return ≥ 195 over %d episodes, tested every %d updates, at most %d updates.\n\n",
		cfg.Actors, cfg.Eps, cfg.EpsAlpha, cfg.StepsPerUpdate, cfg.DQN.Hidden, apexTestEpisodes, apexTestEvery, apexMaxUpdates)
	tb := newTable(w, "seed", "solved", "best test return", "env steps", "updates", "wall s", "cpu s")
	var walls, steps, cpus []float64
	solved := 0
	for i := range o.Seeds {
		seed := o.FirstSeed + uint64(i)
		cpu0, _ := cputime.Process()
		r, err := apexRun(ctx, cfg, seed)
		cpu1, measured := cputime.Process()
		if err != nil {
			return err
		}
		cpu := "-"
		if measured {
			cpus = append(cpus, (cpu1 - cpu0).Seconds())
			cpu = fmt.Sprintf("%.2f", (cpu1 - cpu0).Seconds())
		}
		if r.solved {
			solved++
		}
		walls, steps = append(walls, r.duration.Seconds()), append(steps, float64(r.steps))
		tb.Row(fmt.Sprint(seed), fmt.Sprint(r.solved), fmt.Sprintf("%.1f", r.best), fmt.Sprint(r.steps), fmt.Sprint(r.updates), fmt.Sprintf("%.2f", r.duration.Seconds()), cpu)
		fmt.Fprintf(o.Log, "apex-dqn CartPole-v1 seed %d: solved %v in %v\n", seed, r.solved, r.duration.Round(time.Millisecond))
	}
	tb.Flush()
	if len(cpus) > 0 {
		defer fmt.Fprintf(w, "median CPU time %.2f s (the process's user + system time: on a loaded machine wall time exceeds it)\n", median(cpus))
	}
	need := (4*o.Seeds + 4) / 5
	fmt.Fprintf(w, "\nmedian: %.2f s, %.0f env steps; solved on %d of %d seeds (need %d): %s\n",
		median(walls), median(steps), solved, o.Seeds, need, verdict(solved >= need))
	if solved < need {
		return fmt.Errorf("%w: apex-dqn on CartPole-v1 solved on %d of %d seeds, need %d", errNotLearned, solved, o.Seeds, need)
	}
	return nil
}

func apexRun(ctx context.Context, cfg apex.Config, seed uint64) (apexResult, error) {
	node, err := cluster.Start(cluster.Options{})
	if err != nil {
		return apexResult{}, err
	}
	defer node.Close()
	testEnvs := make([]env.Env, apexTestEpisodes)
	for i := range testEnvs {
		if testEnvs[i], err = env.Make("CartPole-v1"); err != nil {
			return apexResult{}, err
		}
	}
	vec, err := vector.New(testEnvs, vector.Config{})
	if err != nil {
		return apexResult{}, err
	}
	defer vec.Close()
	var test *collector.Collector
	var r apexResult
	start := time.Now()
	r.best = -1e300
	_, err = apex.Run(ctx, cfg, apex.Setup{
		Transport: node.Transport(),
		MakeEnv:   func(int) (env.Env, error) { return env.Make("CartPole-v1") },
		Seed:      seed,
		After: func(d *dqn.DQN, p apex.Progress) (bool, error) {
			r.steps, r.updates = p.EnvSteps, p.Updates
			if p.Updates%apexTestEvery != 0 {
				return p.Updates >= apexMaxUpdates, nil
			}
			if test == nil {
				if test, err = collector.New(collector.Config{Env: vec, Policy: d.Policy(), Explore: true}); err != nil {
					return true, err
				}
			}
			pol := d.Policy()
			pol.SetTrainingStep(false)
			cs, err := test.Collect(ctx, collector.Request{NEpisode: apexTestEpisodes, ResetBeforeCollect: true})
			pol.SetTrainingStep(true)
			if err != nil {
				return true, err
			}
			r.best = max(r.best, cs.Return.Mean)
			r.solved = cs.Return.Mean >= 195
			return r.solved || p.Updates >= apexMaxUpdates, nil
		},
	})
	r.duration = time.Since(start)
	return r, err
}
