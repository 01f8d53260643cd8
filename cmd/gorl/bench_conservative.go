package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/trainer"
)

// conservativeBench is a learning run of offline algorithms on a dataset
// that a policy trained online collects: for each seed, dataset trains the
// expert and collects the data in dir, and each of the algorithms (the
// settings of gorl train --dataset: its registered defaults and the pair's
// preset) is trained offline on it until its mean test return reaches bar.
type conservativeBench struct {
	env    string
	expert string // the expert's name, for the table's head
	// describe says how the expert is trained and the data collected, for
	// the table's preamble.
	describe string
	dataset  func(ctx context.Context, seed uint64, dir string, log io.Writer) (buffer.Buffer, DatasetInfo, error)
	algos    []string
	bar      float64
}

// run runs b for o's seeds and writes a Markdown table to w; it returns an
// error wrapping errNotLearned for each algorithm that reached the bar on
// fewer than 4 of 5 of the seeds.
func (b conservativeBench) run(ctx context.Context, o BenchOptions, w io.Writer) error {
	fmt.Fprintf(w, "%s;\neach algorithm trained offline on the data with the settings of gorl train --dataset (defaults, and the pair's preset), stopping at a mean test return ≥ %v.\n\n",
		b.describe, b.bar)
	cols := []string{"seed", b.expert + " test return", "data return", "data episodes"}
	for _, a := range b.algos {
		cols = append(cols, a+" test return", a+" updates", a+" s")
	}
	tb := newTable(w, cols...)
	solved := make([]int, len(b.algos))
	dir, err := os.MkdirTemp("", "gorl-offline-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for i := range o.Seeds {
		seed := o.FirstSeed + uint64(i)
		data, info, err := b.dataset(ctx, seed, dir, o.Log)
		if err != nil {
			return fmt.Errorf("seed %d: dataset: %w", seed, err)
		}
		cells := []string{fmt.Sprint(seed), bestOf(info.Expert), fmt.Sprintf("%.1f", info.Return), fmt.Sprint(info.Episodes)}
		for k, name := range b.algos {
			r, err := trainOffline(ctx, name, b.env, b.bar, seed, data)
			if err != nil {
				return fmt.Errorf("seed %d: %s: %w", seed, name, err)
			}
			if r.Solved {
				solved[k]++
			}
			fmt.Fprintf(o.Log, "%s seed %d: %s solved %v (%.1f) in %v\n", b.env, seed, name, r.Solved, r.BestReturn,
				r.Duration.Round(time.Millisecond))
			cells = append(cells, bestOf(r), fmt.Sprint(r.GradientSteps), fmt.Sprintf("%.2f", r.Duration.Seconds()))
		}
		tb.Row(cells...)
	}
	tb.Flush()
	need := (4*o.Seeds + 4) / 5
	fmt.Fprintln(w)
	var unmet []error
	for k, name := range b.algos {
		fmt.Fprintf(w, "%s: mean test return ≥ %v on %d of %d seeds (need %d): %s\n", name, b.bar, solved[k], o.Seeds, need,
			verdict(solved[k] >= need))
		if solved[k] < need {
			unmet = append(unmet, fmt.Errorf("%w: %s solved on %d of %d seeds, need %d", errNotLearned, name, solved[k], o.Seeds, need))
		}
	}
	return errors.Join(unmet...)
}

// trained is an online run's result and its trained policy.
type trained struct {
	res trainer.Result
	pol policy.Policy
}

// trainOnline trains algoName on envID with its registered defaults (no
// preset) and seed, stopping at a mean test return ≥ bar.
func trainOnline(ctx context.Context, algoName, envID string, bar float64, seed uint64) (trained, error) {
	rc, acfg, err := resolveDefaults(algoName, envID, []string{fmt.Sprintf("trainer.reward_threshold=%v", bar)})
	if err != nil {
		return trained{}, err
	}
	rc.Seed = seed
	s, err := newSession(rc, acfg, nil, trainer.Setup{})
	if err != nil {
		return trained{}, err
	}
	defer s.tr.Close()
	res, err := s.tr.Run(ctx)
	return trained{res: res, pol: s.alg.Policy()}, err
}

// trainOffline trains the offline algorithm algoName on data with the
// settings of gorl train (its registered defaults, and the pair's preset
// where it has one) and seed, stopping at a mean test return ≥ bar.
func trainOffline(ctx context.Context, algoName, envID string, bar float64, seed uint64, data buffer.Buffer) (trainer.Result, error) {
	rc, acfg, err := resolve(algoName, envID, nil, []string{fmt.Sprintf("trainer.reward_threshold=%v", bar)})
	if err != nil {
		return trainer.Result{}, err
	}
	rc.Seed, rc.Dataset = seed, "(in memory)"
	s, err := newSession(rc, acfg, data, trainer.Setup{})
	if err != nil {
		return trainer.Result{}, err
	}
	defer s.tr.Close()
	return s.tr.Run(ctx)
}

// sampledData collects steps env steps of envID in envs envs with p
// sampling its actions (its training-step flag on), by gorl collect's code
// path (collectDataset: the buffer holds env actions), the envs seeded
// apart from those of p's training. It is the dataset of the Pendulum run: a
// trained SAC's samples, as Tianshou's gather_pendulum_data collects them.
func sampledData(ctx context.Context, p policy.Policy, envID string, steps, envs int, seed uint64) (buffer.Buffer, collector.Stats, error) {
	return collectDataset(ctx, CollectSpec{Policy: p, Env: envID, Steps: steps, Envs: envs, Sample: true, Seed: seed + 1_000_000})
}

// sampledPendulum is the data of the CQL Pendulum run for one seed: a SAC
// (gorl's defaults) trained to a mean test return of −250, then 20,000
// steps sampled from its stochastic policy in 10 envs (sampledData).
func sampledPendulum(ctx context.Context, seed uint64, _ string, log io.Writer) (buffer.Buffer, DatasetInfo, error) {
	expert, err := trainOnline(ctx, "sac", "Pendulum-v1", -250, seed)
	if err != nil {
		return nil, DatasetInfo{}, fmt.Errorf("sac: %w", err)
	}
	fmt.Fprintf(log, "dataset seed %d: sac solved %v (%.1f) in %v\n", seed, expert.res.Solved, expert.res.BestReturn,
		expert.res.Duration.Round(time.Millisecond))
	data, cs, err := sampledData(ctx, expert.pol, "Pendulum-v1", 20_000, 10, seed)
	return data, DatasetInfo{Expert: expert.res, Episodes: cs.Episodes, Return: cs.Return.Mean}, err
}

func init() {
	RegisterBench("conservative-cartpole", BenchRun{
		Doc: "discrete CQL and CRR on CartPole-v1 from 20,000 steps of a trained DQN at ε = 0.1, built by gorl collect's code path (≥ 195 on 4 of 5 seeds)",
		Run: conservativeBench{
			env: offlineEnv, expert: cartpoleDataset.Expert,
			describe: fmt.Sprintf("%s (gorl's defaults) trained on %s to a mean test return ≥ %v, then %d steps collected with it at ε = %v (DQN's training ε) in %d envs "+
				"by gorl collect's code path, saved in the buffer format and read back as gorl train --dataset reads it",
				cartpoleDataset.Expert, offlineEnv, cartpoleDataset.Threshold, cartpoleDataset.Steps, cartpoleDataset.Epsilon, cartpoleDataset.Envs),
			dataset: func(ctx context.Context, seed uint64, dir string, log io.Writer) (buffer.Buffer, DatasetInfo, error) {
				return buildDataset(ctx, cartpoleDataset, seed, dir, log)
			},
			algos: []string{"discrete-cql", "crr"},
			bar:   offlineThreshold,
		}.run,
	})
	RegisterBench("cql-pendulum", BenchRun{
		Doc: "CQL (its Pendulum preset) on Pendulum-v1 from 20,000 steps sampled by a trained SAC (≥ −250 on 4 of 5 seeds)",
		Run: conservativeBench{
			env: "Pendulum-v1", expert: "sac",
			describe: "sac (gorl's defaults) trained on Pendulum-v1 to a mean test return ≥ -250, then 20000 steps sampled from its stochastic policy in 10 envs (Tianshou's gather_pendulum_data)",
			dataset:  sampledPendulum,
			algos:    []string{"cql"},
			bar:      -250,
		}.run,
	})
}
