package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/bc"
	"github.com/gorl/gorl/algo/bcq"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// The offline run's settings. The data size is that of Tianshou's offline
// CartPole data (test/offline/gather_cartpole_data.py collects 20,000 steps
// with a trained expert, at ε = 0.2; a small ε = 0.1 here), the offline
// training that of its discrete BCQ test (at most 5 epochs of 2,000 updates
// of 64 transitions, 100 test episodes after each).
const (
	offlineEnv       = "CartPole-v1"
	offlineThreshold = 195.0
)

// cartpoleDataset is the data of the offline CartPole run: DQN (gorl's
// defaults, Tianshou's test settings) trained until its mean test return
// reaches 195, then 20,000 steps in 10 envs with its greedy actions, each
// replaced by a uniform random one with probability 0.1.
var cartpoleDataset = DatasetSpec{Expert: "dqn", Env: offlineEnv, Threshold: offlineThreshold, Steps: 20_000, Envs: 10, Epsilon: 0.1}

// offlineBenchTrainer is offlineTrainer stopping at offlineThreshold.
func offlineBenchTrainer(explore bool) trainer.Config {
	tc, th := offlineTrainer(explore), offlineThreshold
	tc.RewardThreshold = &th
	return tc
}

// offlineResult is one seed of the offline run.
type offlineResult struct {
	expert   trainer.Result
	episodes int     // finished episodes in the data
	dataRet  float64 // their mean return
	fileSize int64
	algos    [2]trainer.Result // BC, BCQ
}

// offlineRuns runs, for each seed: cartpoleDataset built by buildDataset
// (the DQN expert, gorl collect's code path, the file saved in the buffer
// format and read back as --dataset reads it); BC and BCQ
// (their DefaultConfigs) trained by the offline trainer on the loaded data
// until their mean test return reaches 195. It writes a Markdown table.
func offlineRuns(ctx context.Context, o BenchOptions, w io.Writer) error {
	fmt.Fprintf(w, "DQN (gorl's defaults) trained on %s to a mean test return ≥ %v, then %d steps collected with ε = %v in %d envs,\n"+
		"by gorl collect's code path, saved in the buffer format, loaded, and BC and BCQ trained offline on them (at most 5 epochs of 2,000 updates of 64,\n"+
		"100 test episodes after each; stop at a mean test return ≥ %v).\n\n",
		offlineEnv, offlineThreshold, cartpoleDataset.Steps, cartpoleDataset.Epsilon, cartpoleDataset.Envs, offlineThreshold)
	tb := newTable(w, "seed", "DQN test return", "DQN env steps", "DQN s", "data return", "data episodes", "file MB",
		"BC test return", "BC updates", "BC s", "BCQ test return", "BCQ updates", "BCQ s")
	var solved [2]int
	dir, err := os.MkdirTemp("", "gorl-offline-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for i := range o.Seeds {
		seed := o.FirstSeed + uint64(i)
		r, err := offlineSeed(ctx, seed, dir, o.Log)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		for k, a := range r.algos {
			if a.Solved {
				solved[k]++
			}
		}
		cells := []string{fmt.Sprint(seed), bestOf(r.expert), fmt.Sprint(r.expert.EnvSteps + r.expert.PrefillSteps),
			fmt.Sprintf("%.2f", r.expert.Duration.Seconds()), fmt.Sprintf("%.1f", r.dataRet), fmt.Sprint(r.episodes),
			fmt.Sprintf("%.2f", float64(r.fileSize)/1e6)}
		for _, a := range r.algos {
			cells = append(cells, bestOf(a), fmt.Sprint(a.GradientSteps), fmt.Sprintf("%.2f", a.Duration.Seconds()))
		}
		tb.Row(cells...)
	}
	tb.Flush()
	need := (4*o.Seeds + 4) / 5
	fmt.Fprintln(w)
	var unmet []error
	for k, name := range []string{"BC", "BCQ"} {
		fmt.Fprintf(w, "%s: mean test return ≥ %v after training on %d of %d seeds (need %d): %s\n", name, offlineThreshold,
			solved[k], o.Seeds, need, verdict(solved[k] >= need))
		if solved[k] < need {
			unmet = append(unmet, fmt.Errorf("%w: %s solved on %d of %d seeds, need %d", errNotLearned, name, solved[k], o.Seeds, need))
		}
	}
	return errors.Join(unmet...)
}

// bestOf formats the best mean test return of a run, marked when it did not
// reach the threshold.
func bestOf(r trainer.Result) string {
	s := fmt.Sprintf("%.1f ± %.1f", r.BestReturn, r.BestStd)
	if !r.Solved {
		s += " (not solved)"
	}
	return s
}

// offlineSeed runs the offline pipeline for one seed, its dataset built
// (buildDataset) in dir.
func offlineSeed(ctx context.Context, seed uint64, dir string, log io.Writer) (offlineResult, error) {
	var r offlineResult
	loaded, info, err := buildDataset(ctx, cartpoleDataset, seed, dir, log)
	if err != nil {
		return r, err
	}
	r.expert, r.episodes, r.dataRet, r.fileSize = info.Expert, info.Episodes, info.Return, info.Size

	probe, err := env.Make(offlineEnv)
	if err != nil {
		return r, err
	}
	defer probe.Close()
	obs, act := probe.ObservationSpace(), probe.ActionSpace()
	rng := rand.New(rand.NewPCG(seed, 0xb0c))
	for k, name := range []string{"BC", "BCQ"} {
		var alg algo.Algorithm
		if k == 0 {
			alg, err = bc.New(bc.DefaultConfig(), obs, act, rng)
		} else {
			alg, err = bcq.New(bcq.DefaultConfig(), obs, act, rng)
		}
		if err != nil {
			return r, err
		}
		test, err := makeEnvs(offlineEnv, 100)
		if err != nil {
			return r, err
		}
		tr, err := trainer.New(alg, offlineBenchTrainer(k == 1), trainer.Setup{TestEnvs: test, Buffer: loaded, Seed: seed})
		if err != nil {
			return r, fmt.Errorf("%s: %w", name, err)
		}
		r.algos[k], err = tr.Run(ctx)
		tr.Close()
		if err != nil {
			return r, fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(log, "offline seed %d: %s solved %v (%.1f) in %v\n", seed, name, r.algos[k].Solved, r.algos[k].BestReturn,
			r.algos[k].Duration.Round(time.Millisecond))
	}
	return r, nil
}

func init() {
	RegisterBench("offline-cartpole", BenchRun{
		Doc: "BC and BCQ on CartPole-v1 from 20,000 steps of a trained DQN, saved and loaded in the buffer format (≥ 195 on 4 of 5 seeds)",
		Run: offlineRuns,
	})
}
