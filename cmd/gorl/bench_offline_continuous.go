package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/trainer"
)

// DatasetSpec describes a dataset a benchmark builds for itself: an
// expert trained with gorl train's code path (the registered defaults of
// Expert on Env, stopping at a mean test return ≥ Threshold), then Steps
// env steps collected with it by gorl collect's code path (collectDataset)
// with Noise or Epsilon, written to a file and read back by openDataset,
// as gorl train --dataset reads it.
type DatasetSpec struct {
	Expert    string
	Env       string
	Threshold float64
	Steps     int
	Envs      int
	Noise     float64
	Epsilon   float64
}

// DatasetInfo describes a built dataset.
type DatasetInfo struct {
	Path     string         // the file (removed by the caller)
	Expert   trainer.Result // the expert's training
	Episodes int            // finished episodes in the data
	Return   float64        // their mean return
	Size     int64          // the file's size in bytes
}

// buildDataset builds the dataset of spec for one seed in dir (the
// expert, the collection and its noise seeded from seed) and returns it
// as loaded from its file. Offline benchmarks call it for their data.
func buildDataset(ctx context.Context, spec DatasetSpec, seed uint64, dir string, log io.Writer) (buffer.Buffer, DatasetInfo, error) {
	var info DatasetInfo
	rc, acfg, err := resolveDefaults(spec.Expert, spec.Env, []string{fmt.Sprintf("trainer.reward_threshold=%v", spec.Threshold)})
	if err != nil {
		return nil, info, err
	}
	rc.Seed = seed
	s, err := newSession(rc, acfg, nil, trainer.Setup{})
	if err != nil {
		return nil, info, err
	}
	info.Expert, err = s.tr.Run(ctx)
	s.tr.Close()
	if err != nil {
		return nil, info, fmt.Errorf("%s: %w", spec.Expert, err)
	}
	fmt.Fprintf(log, "dataset seed %d: %s solved %v (%.1f) in %v\n", seed, spec.Expert, info.Expert.Solved, info.Expert.BestReturn,
		info.Expert.Duration.Round(time.Millisecond))
	// Env seeds apart from the expert's training (seed + i) and test envs.
	data, st, err := collectDataset(ctx, CollectSpec{Policy: s.alg.Policy(), Env: spec.Env, Steps: spec.Steps, Envs: spec.Envs,
		Noise: spec.Noise, Epsilon: spec.Epsilon, Seed: seed + 2_000_000})
	if err != nil {
		return nil, info, fmt.Errorf("collecting: %w", err)
	}
	info.Episodes, info.Return = st.Episodes, st.Return.Mean
	info.Path = filepath.Join(dir, fmt.Sprintf("%s-%s-seed%d.buf", spec.Expert, spec.Env, seed))
	if err := saveDataset(info.Path, data); err != nil {
		return nil, info, err
	}
	if fi, err := os.Stat(info.Path); err == nil {
		info.Size = fi.Size()
	}
	obs, act, err := spaces(spec.Env)
	if err != nil {
		return nil, info, err
	}
	loaded, err := openDataset(info.Path, spec.Env, obs, act)
	return loaded, info, err
}

// pendulumDataset is the data of the continuous offline runs: a SAC expert
// (Tianshou's test settings) trained on Pendulum until its mean test return
// reaches −200, then 20,000 steps (Tianshou's gather_pendulum_data.py
// size) collected with its most likely actions plus Gaussian noise of σ
// 0.1 of the torque range's half-width.
var pendulumDataset = DatasetSpec{Expert: "sac", Env: "Pendulum-v1", Threshold: -200, Steps: 20_000, Envs: 10, Noise: 0.1}

// offlineContinuousAlgos are the algorithms the continuous offline run
// trains, each with --set overrides of its registered defaults: more
// updates than Tianshou's tests (whose bars, −1100 and −1200, are far
// looser), stopping at −250.
var offlineContinuousAlgos = []struct {
	name string
	sets []string
}{
	{"bcq-continuous", []string{"trainer.epochs=20", "trainer.step_per_epoch=1000"}},
	{"td3-bc", []string{"trainer.epochs=20", "trainer.step_per_epoch=1000"}},
}

// offlinePendulumRuns builds pendulumDataset for each seed and trains each
// of offlineContinuousAlgos on it through gorl train's code path (the
// dataset file as --dataset) until the mean test return reaches −250,
// writing a Markdown table.
func offlinePendulumRuns(ctx context.Context, o BenchOptions, w io.Writer) error {
	const threshold = -250.0
	spec := pendulumDataset
	fmt.Fprintf(w, "%s (registered defaults) trained on %s to a mean test return ≥ %v, then %d steps collected by gorl collect's code path\n"+
		"with its most likely actions plus Gaussian noise σ = %v of the half-range, saved in the buffer format and read back; each\n"+
		"algorithm then trained offline on them (at most 20 epochs of 1,000 updates, 10 test episodes after each; stop at ≥ %v).\n\n",
		spec.Expert, spec.Env, spec.Threshold, spec.Steps, spec.Noise, threshold)
	head := []string{"seed", "expert best", "expert env steps", "data return", "data episodes", "file MB"}
	for _, a := range offlineContinuousAlgos {
		head = append(head, a.name+" best", a.name+" updates", a.name+" s")
	}
	tb := newTable(w, head...)
	solved := make([]int, len(offlineContinuousAlgos))
	dir, err := os.MkdirTemp("", "gorl-offline-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for i := range o.Seeds {
		seed := o.FirstSeed + uint64(i)
		data, info, err := buildDataset(ctx, spec, seed, dir, o.Log)
		if err != nil {
			return fmt.Errorf("seed %d: dataset: %w", seed, err)
		}
		cells := []string{fmt.Sprint(seed), bestOf(info.Expert), fmt.Sprint(info.Expert.EnvSteps + info.Expert.PrefillSteps),
			fmt.Sprintf("%.1f", info.Return), fmt.Sprint(info.Episodes), fmt.Sprintf("%.2f", float64(info.Size)/1e6)}
		for k, a := range offlineContinuousAlgos {
			sets := append([]string{fmt.Sprintf("trainer.reward_threshold=%v", threshold)}, a.sets...)
			rc, acfg, err := resolveDefaults(a.name, spec.Env, sets)
			if err != nil {
				return err
			}
			rc.Seed, rc.Dataset = seed, info.Path
			s, err := newSession(rc, acfg, data, trainer.Setup{})
			if err != nil {
				return fmt.Errorf("seed %d: %s: %w", seed, a.name, err)
			}
			res, err := s.tr.Run(ctx)
			s.tr.Close()
			if err != nil {
				return fmt.Errorf("seed %d: %s: %w", seed, a.name, err)
			}
			if res.Solved {
				solved[k]++
			}
			fmt.Fprintf(o.Log, "offline seed %d: %s solved %v (%.1f) in %v\n", seed, a.name, res.Solved, res.BestReturn, res.Duration.Round(time.Millisecond))
			cells = append(cells, bestOf(res), fmt.Sprint(res.GradientSteps), fmt.Sprintf("%.1f", res.Duration.Seconds()))
		}
		tb.Row(cells...)
	}
	tb.Flush()
	need := (4*o.Seeds + 4) / 5
	fmt.Fprintln(w)
	var unmet []error
	for k, a := range offlineContinuousAlgos {
		fmt.Fprintf(w, "%s: mean test return ≥ %v on %d of %d seeds (need %d): %s\n", a.name, threshold, solved[k], o.Seeds, need, verdict(solved[k] >= need))
		if solved[k] < need {
			unmet = append(unmet, fmt.Errorf("%w: %s solved on %d of %d seeds, need %d", errNotLearned, a.name, solved[k], o.Seeds, need))
		}
	}
	return errors.Join(unmet...)
}

func init() {
	RegisterBench("offline-pendulum", BenchRun{
		Doc: "continuous BCQ and TD3+BC on Pendulum-v1 from 20,000 noisy steps of a trained SAC, built by gorl collect's code path (≥ −250 on 4 of 5 seeds)",
		Run: offlinePendulumRuns,
	})
}
