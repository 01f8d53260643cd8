package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/gorl/gorl/algo/apex"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/policy"
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
	return distributedRuns("apex-dqn", "CartPole-v1", func(seed uint64) (apexResult, error) { return apexRun(ctx, cfg, seed) }, o, w)
}

// distributedRuns runs a distributed algorithm on o.Seeds seeds and writes
// the table of solved seeds, env steps and times.
func distributedRuns(name, envID string, run func(seed uint64) (apexResult, error), o BenchOptions, w io.Writer) error {
	tb := newTable(w, "seed", "solved", "best test return", "env steps", "updates", "wall s", "cpu s")
	var walls, steps, cpus []float64
	solved := 0
	for i := range o.Seeds {
		seed := o.FirstSeed + uint64(i)
		cpu0, _ := cputime.Process()
		r, err := run(seed)
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
		fmt.Fprintf(o.Log, "%s %s seed %d: solved %v in %v\n", name, envID, seed, r.solved, r.duration.Round(time.Millisecond))
	}
	tb.Flush()
	if len(cpus) > 0 {
		defer fmt.Fprintf(w, "median CPU time %.2f s (the process's user + system time: on a loaded machine wall time exceeds it)\n", median(cpus))
	}
	need := (4*o.Seeds + 4) / 5
	fmt.Fprintf(w, "\nmedian: %.2f s, %.0f env steps; solved on %d of %d seeds (need %d): %s\n",
		median(walls), median(steps), solved, o.Seeds, need, verdict(solved >= need))
	if solved < need {
		return fmt.Errorf("%w: %s on %s solved on %d of %d seeds, need %d", errNotLearned, name, envID, solved, o.Seeds, need)
	}
	return nil
}

// test records a test of pol in r every apexTestEvery updates and says
// whether the run is over.
func (r *apexResult) test(ctx context.Context, t *distTester, pol policy.Policy, updates, steps int64) (bool, error) {
	r.steps, r.updates = steps, updates
	if updates%apexTestEvery != 0 {
		return updates >= apexMaxUpdates, nil
	}
	m, _, err := t.run(ctx, pol)
	if err != nil {
		return true, err
	}
	r.best = max(r.best, m)
	r.solved = m >= 195
	return r.solved || updates >= apexMaxUpdates, nil
}

// distBenchRun runs one seed of a distributed bench: run starts the
// algorithm on an embedded NATS node, testing its policies with t and
// recording into r; distBenchRun times it.
func distBenchRun(ctx context.Context, envID string, seed uint64, run func(node *cluster.Node, t *distTester, r *apexResult) error) (apexResult, error) {
	node, err := cluster.Start(cluster.Options{})
	if err != nil {
		return apexResult{}, err
	}
	defer node.Close()
	t, err := newDistTester(envID, apexTestEpisodes, seed)
	if err != nil {
		return apexResult{}, err
	}
	defer t.close()
	r := apexResult{best: math.Inf(-1)}
	start := time.Now()
	err = run(node, t, &r)
	r.duration = time.Since(start)
	return r, err
}

func apexRun(ctx context.Context, cfg apex.Config, seed uint64) (apexResult, error) {
	return distBenchRun(ctx, "CartPole-v1", seed, func(node *cluster.Node, t *distTester, r *apexResult) error {
		_, err := apex.Run(ctx, cfg, apex.Setup{
			Transport: node.Transport(),
			MakeEnv:   func(int) (env.Env, error) { return env.Make("CartPole-v1") },
			Seed:      seed,
			After: func(d *dqn.DQN, p apex.Progress) (bool, error) {
				return r.test(ctx, t, d.Policy(), p.Updates, p.EnvSteps)
			},
		})
		return err
	})
}
