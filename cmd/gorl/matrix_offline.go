package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/trainer"
)

// The offline pairs of the learning matrix: each offline algorithm learns
// from a dataset of its env that a trained expert gathers through gorl
// collect's code path (buildDataset), and is tested like the online pairs.

// matrixDatasets are the datasets of the offline pairs, per env: those of
// gorl bench offline-cartpole (a DQN at ε 0.1) and offline-pendulum (a SAC
// with Gaussian noise), the data the offline bars are set on.
var matrixDatasets = map[string]DatasetSpec{
	offlineEnv:    cartpoleDataset,
	"Pendulum-v1": pendulumDataset,
}

// offlineBars are the offline algorithms' bars, those of gorl bench's
// offline runs: a mean test return of 195 on CartPole (discrete CQL, CRR,
// BC and BCQ from a DQN's data) and of −250, Tianshou's test threshold, on
// Pendulum (continuous BCQ, CQL and TD3+BC from a noisy SAC's data).
var offlineBars = map[string]float64{offlineEnv: offlineThreshold, "Pendulum-v1": -250}

// offlineBarSource names where offline bars come from in the table.
const offlineBarSource = "issue 16 offline bar; steps = dataset size"

// offlineMatrixSets are --set overrides of an offline pair's settings:
// those of gorl bench offline-pendulum for continuous BCQ and TD3+BC (at
// most 20 epochs of 1,000 updates, more than Tianshou's tests).
var offlineMatrixSets = map[string][]string{
	"bcq-continuous": {"trainer.epochs=20", "trainer.step_per_epoch=1000"},
	"td3-bc":         {"trainer.epochs=20", "trainer.step_per_epoch=1000"},
}

// offlinePair returns the matrix pair of the offline algorithm algoName on
// envID, or why it does not apply: the env has no dataset in the matrix,
// or the algorithm refuses its spaces.
func offlinePair(algoName, envID string) (matrixPair, error) {
	spec, ok := matrixDatasets[envID]
	if !ok {
		return matrixPair{}, fmt.Errorf("offline, and the matrix gathers no dataset of %s (it has datasets of %s)",
			envID, strings.Join(slices.Sorted(maps.Keys(matrixDatasets)), ", "))
	}
	rc, acfg, err := resolve(algoName, envID, nil, offlineMatrixSets[algoName])
	if err != nil {
		return matrixPair{}, err
	}
	if _, err := newAlgorithm(rc, acfg); err != nil {
		return matrixPair{}, err
	}
	src := "defaults"
	if _, ok, _ := lookupPreset(algoName, envID); ok {
		src = "preset"
	}
	if sets := offlineMatrixSets[algoName]; len(sets) > 0 {
		src += ", " + strings.Join(sets, ", ")
	}
	return matrixPair{Algo: algoName, Env: envID, Preset: src, Data: &spec,
		Bar: matrixBar{Return: offlineBars[envID], Steps: spec.Steps, Source: offlineBarSource}}, nil
}

// matrixDataInfo is what the cache keeps beside a dataset file: how it was
// built.
type matrixDataInfo struct {
	Spec     DatasetSpec
	Seed     uint64
	Expert   trainer.Result
	Episodes int
	Return   float64
	Size     int64
}

// datasetPath returns the file of spec's dataset for seed under root, in a
// directory named by every setting that changes the data (env, expert, its
// threshold, steps, envs, noise, ε), so that no run reuses data built with
// other settings.
func datasetPath(root string, spec DatasetSpec, seed uint64) string {
	key := fmt.Sprintf("%s-%s-to%g-%dsteps-%denvs-noise%g-eps%g", spec.Env, spec.Expert, spec.Threshold, spec.Steps,
		spec.Envs, spec.Noise, spec.Epsilon)
	return filepath.Join(root, key, fmt.Sprintf("seed%d.buf", seed))
}

// datasetMu serializes the building of datasets within a process.
var datasetMu sync.Mutex

// matrixDataset returns the dataset of spec for seed, read from its file
// under root: built there by buildDataset the first time (the expert
// trained, the data collected by gorl collect's code path and saved), read
// back later. The file counts as built once its description (the .json
// beside it) is written, so a run cut short builds it again.
func matrixDataset(ctx context.Context, spec DatasetSpec, seed uint64, root string, log io.Writer) (buffer.Buffer, matrixDataInfo, error) {
	if root == "" {
		return nil, matrixDataInfo{}, fmt.Errorf("%s on %s: no work directory for its dataset", spec.Expert, spec.Env)
	}
	datasetMu.Lock()
	defer datasetMu.Unlock()
	path := datasetPath(root, spec, seed)
	infoPath := strings.TrimSuffix(path, ".buf") + ".json"
	if b, err := os.ReadFile(infoPath); err == nil {
		var info matrixDataInfo
		if err := json.Unmarshal(b, &info); err != nil {
			return nil, info, fmt.Errorf("dataset description %s: %w", infoPath, err)
		}
		if info.Spec != spec || info.Seed != seed {
			return nil, info, fmt.Errorf("dataset %s was built with %+v seed %d, not %+v seed %d", path, info.Spec, info.Seed, spec, seed)
		}
		obs, act, err := spaces(spec.Env)
		if err != nil {
			return nil, info, err
		}
		data, err := openDataset(path, spec.Env, obs, act)
		return data, info, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, matrixDataInfo{}, err
	}
	tmp, err := os.MkdirTemp(root, "building-*")
	if err != nil {
		return nil, matrixDataInfo{}, err
	}
	defer os.RemoveAll(tmp)
	data, bi, err := buildDataset(ctx, spec, seed, tmp, log)
	if err != nil {
		return nil, matrixDataInfo{}, fmt.Errorf("dataset of %s on %s, seed %d: %w", spec.Expert, spec.Env, seed, err)
	}
	info := matrixDataInfo{Spec: spec, Seed: seed, Expert: bi.Expert, Episodes: bi.Episodes, Return: bi.Return, Size: bi.Size}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, info, err
	}
	if err := os.Rename(bi.Path, path); err != nil {
		return nil, info, err
	}
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return nil, info, err
	}
	if err := os.WriteFile(infoPath, b, 0o644); err != nil {
		return nil, info, err
	}
	return data, info, nil
}

// prepareMatrixData builds, one after the other, the datasets that the
// offline pairs among pairs need for o's seeds, so that runs in parallel
// processes only read them.
func prepareMatrixData(ctx context.Context, pairs []matrixPair, o matrixOptions, log io.Writer) error {
	seen := map[string]bool{}
	for s := range o.Seeds {
		seed := o.FirstSeed + uint64(s)
		for _, p := range pairs {
			if p.Data == nil {
				continue
			}
			path := datasetPath(o.WorkDir, *p.Data, seed)
			if seen[path] {
				continue
			}
			seen[path] = true
			_, info, err := matrixDataset(ctx, *p.Data, seed, o.WorkDir, log)
			if err != nil {
				return err
			}
			fmt.Fprintf(log, "dataset %s: expert %.1f, data return %.1f over %d episodes\n", path,
				info.Expert.BestReturn, info.Return, info.Episodes)
		}
	}
	return nil
}

// runOfflineMatrixJob trains the offline pair of job from its dataset
// file: the pair's settings (registered defaults, preset, offlineMatrixSets)
// with the matrix's tests (deterministic, at least 10 episodes) and bar.
// Its env steps are the dataset's transitions.
func runOfflineMatrixJob(ctx context.Context, job matrixJob) matrixResult {
	data, info, err := matrixDataset(ctx, *job.Data, job.Seed, job.WorkDir, io.Discard)
	if err != nil {
		return matrixResult{Err: err.Error()}
	}
	rc, acfg, err := resolve(job.Algo, job.Env, nil, offlineMatrixSets[job.Algo])
	if err != nil {
		return matrixResult{Err: err.Error()}
	}
	rc.Seed, rc.Dataset = job.Seed, datasetPath(job.WorkDir, info.Spec, info.Seed)
	t := &rc.Trainer
	bar := job.Bar.Return
	t.RewardThreshold = &bar
	t.TestExploration = false
	t.TestEpisodes = max(t.TestEpisodes, 10)
	s, err := newSession(rc, acfg, data, trainer.Setup{})
	if err != nil {
		return matrixResult{Err: err.Error()}
	}
	defer s.tr.Close()
	res, err := s.tr.Run(ctx)
	if err != nil {
		return matrixResult{Err: err.Error()}
	}
	return matrixResult{Return: res.BestReturn, Std: res.BestStd, Reached: res.Solved, EnvSteps: int64(data.Len()),
		Wall: res.Duration.Seconds()}
}

// writeMatrixData writes the datasets the offline pairs learned from.
func writeMatrixData(w io.Writer, infos []matrixDataInfo) {
	if len(infos) == 0 {
		return
	}
	fmt.Fprintln(w, "\nDatasets of the offline pairs (an expert trained with its registered defaults to its threshold, then gorl collect's code path):")
	fmt.Fprintln(w)
	tb := newTable(w, "env", "seed", "expert", "expert test return", "expert env steps", "steps", "noise σ", "ε", "data episodes", "data return")
	for _, in := range infos {
		s := in.Spec
		tb.Row(s.Env, fmt.Sprint(in.Seed), fmt.Sprintf("%s to %g", s.Expert, s.Threshold), bestOf(in.Expert),
			fmt.Sprint(in.Expert.EnvSteps+in.Expert.PrefillSteps), fmt.Sprint(s.Steps), fmt.Sprint(s.Noise), fmt.Sprint(s.Epsilon),
			fmt.Sprint(in.Episodes), fmt.Sprintf("%.1f", in.Return))
	}
	tb.Flush()
}

// matrixDataInfos returns the descriptions of the datasets the offline
// pairs among pairs learned from over o's seeds, as the cache holds them.
func matrixDataInfos(pairs []matrixPair, o matrixOptions) []matrixDataInfo {
	var infos []matrixDataInfo
	seen := map[string]bool{}
	for _, p := range pairs {
		for s := range o.Seeds {
			if p.Data == nil {
				break
			}
			path := datasetPath(o.WorkDir, *p.Data, o.FirstSeed+uint64(s))
			if seen[path] {
				continue
			}
			seen[path] = true
			var info matrixDataInfo
			if b, err := os.ReadFile(strings.TrimSuffix(path, ".buf") + ".json"); err == nil && json.Unmarshal(b, &info) == nil {
				infos = append(infos, info)
			}
		}
	}
	return infos
}

// defaultMatrixWorkDir is the matrix's work directory unless --workdir
// names one: gorl's directory in the user's cache, else in the temporary
// directory.
func defaultMatrixWorkDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "gorl", "matrix")
	}
	return filepath.Join(os.TempDir(), "gorl-matrix")
}
