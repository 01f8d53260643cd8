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
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/policy"
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
	offlineSteps     = 20_000
	offlineEnvs      = 10
	offlineEps       = 0.1
)

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

// offlineRuns runs, for each seed: DQN trained on CartPole until its mean
// test return reaches 195 (gorl's DQN defaults, Tianshou's test settings);
// 20,000 steps collected by it with ε = 0.1 into a buffer.Vector; the buffer
// saved to a file in the buffer package's format and loaded back; BC and BCQ
// (their DefaultConfigs) trained by the offline trainer on the loaded data
// until their mean test return reaches 195. It writes a Markdown table.
func offlineRuns(ctx context.Context, o BenchOptions, w io.Writer) error {
	fmt.Fprintf(w, "DQN (gorl's defaults) trained on %s to a mean test return ≥ %v, then %d steps collected with ε = %v in %d envs,\n"+
		"saved in the buffer format, loaded, and BC and BCQ trained offline on them (at most 5 epochs of 2,000 updates of 64,\n"+
		"100 test episodes after each; stop at a mean test return ≥ %v).\n\n",
		offlineEnv, offlineThreshold, offlineSteps, offlineEps, offlineEnvs, offlineThreshold)
	tb := newTable(w, "seed", "DQN test return", "DQN env steps", "DQN s", "data return", "data episodes", "file MB",
		"BC test return", "BC updates", "BC s", "BCQ test return", "BCQ updates", "BCQ s")
	var solved [2]int
	for i := range o.Seeds {
		seed := o.FirstSeed + uint64(i)
		r, err := offlineSeed(ctx, seed, o.Log)
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

// offlineSeed runs the offline pipeline for one seed.
func offlineSeed(ctx context.Context, seed uint64, log io.Writer) (offlineResult, error) {
	var r offlineResult
	th := fmt.Sprintf("trainer.reward_threshold=%v", offlineThreshold)
	rc, acfg, err := resolveDefaults("dqn", offlineEnv, []string{th})
	if err != nil {
		return r, err
	}
	rc.Seed = seed
	s, err := newSession(rc, acfg, nil, trainer.Setup{})
	if err != nil {
		return r, err
	}
	r.expert, err = s.tr.Run(ctx)
	s.tr.Close()
	if err != nil {
		return r, fmt.Errorf("DQN: %w", err)
	}
	fmt.Fprintf(log, "offline seed %d: DQN solved %v (%.1f) in %v\n", seed, r.expert.Solved, r.expert.BestReturn, r.expert.Duration.Round(time.Millisecond))

	data, err := collectExpert(ctx, s.alg.Policy(), seed, &r)
	if err != nil {
		return r, fmt.Errorf("collecting: %w", err)
	}
	loaded, err := saveLoad(data, &r)
	if err != nil {
		return r, err
	}

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

// collectExpert collects offlineSteps steps with the trained DQN policy,
// ε-greedy with offlineEps, into a new buffer.Vector, and records the
// finished episodes' statistics in r.
func collectExpert(ctx context.Context, p policy.Policy, seed uint64, r *offlineResult) (buffer.Buffer, error) {
	q, ok := p.(*policy.Q)
	if !ok {
		return nil, fmt.Errorf("the DQN policy is a %T, not a *policy.Q", p)
	}
	if err := q.SetEps(offlineEps, offlineEps); err != nil {
		return nil, err
	}
	q.SetTrainingStep(true)
	es, err := makeEnvs(offlineEnv, offlineEnvs)
	if err != nil {
		return nil, err
	}
	vec, err := vector.NewSync(es)
	if err != nil {
		return nil, err
	}
	defer vec.Close()
	data, err := buffer.NewVector(buffer.Config{Size: offlineSteps}, offlineEnvs)
	if err != nil {
		return nil, err
	}
	c, err := collector.New(collector.Config{Env: vec, Policy: q, Buffer: data, Explore: true,
		Rand: rand.New(rand.NewPCG(seed, 0xc011ec7))})
	if err != nil {
		return nil, err
	}
	// Seeds apart from the training (seed + i) and test envs of the DQN run.
	seeds := make([]env.Seed, offlineEnvs)
	for i := range seeds {
		seeds[i] = env.SeedOf(seed + 1_000_000 + uint64(i))
	}
	if err := c.Reset(ctx, seeds); err != nil {
		return nil, err
	}
	cs, err := c.Collect(ctx, collector.Request{NStep: offlineSteps})
	if err != nil {
		return nil, err
	}
	r.episodes, r.dataRet = cs.Episodes, cs.Return.Mean
	return data, nil
}

// saveLoad writes data to a temporary file in the buffer package's format,
// reads it back with buffer.Load, removes the file and records its size.
func saveLoad(data buffer.Buffer, r *offlineResult) (buffer.Buffer, error) {
	f, err := os.CreateTemp("", "gorl-offline-*.buf")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if err := data.Save(f); err != nil {
		return nil, fmt.Errorf("saving the data: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	r.fileSize = st.Size()
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	loaded, err := buffer.Load(f, r.fileSize)
	if err != nil {
		return nil, fmt.Errorf("loading the data: %w", err)
	}
	if loaded.Len() != data.Len() {
		return nil, fmt.Errorf("loaded %d transitions of %d saved", loaded.Len(), data.Len())
	}
	return loaded, nil
}

func init() {
	RegisterBench("offline-cartpole", BenchRun{
		Doc: "BC and BCQ on CartPole-v1 from 20,000 steps of a trained DQN, saved and loaded in the buffer format (≥ 195 on 4 of 5 seeds)",
		Run: offlineRuns,
	})
}
