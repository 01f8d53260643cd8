package main

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/trainer"
)

// maxEnvs bounds train_envs and test_envs: a vector env steps its envs one
// after another or with a goroutine each, and more than this many is a
// typing mistake rather than a run.
const maxEnvs = 10_000

// maxBufferSize is the largest buffer_size a buffer accepts (2^40).
const maxBufferSize = 1 << 40

// validateRun checks the whole configuration of a run, before anything
// is written or any env built: the numbers of envs, the trainer's settings
// for the kind of loop the algorithm runs, the algorithm's settings (by
// building it, once its networks are known to fit), and the memory the
// run will take (see memoryEstimate). data is the dataset of an offline
// algorithm, nil for the others. Each error names the setting at fault.
func validateRun(rc RunConfig, acfg algoConfig, data buffer.Buffer) error {
	obs, act, err := spaces(rc.Env)
	if err != nil {
		return err
	}
	for _, n := range []struct {
		setting string
		v       int
	}{{"train_envs", rc.TrainEnvs}, {"test_envs", rc.TestEnvs}} {
		if n.v < 0 || n.v > maxEnvs {
			return fmt.Errorf("%s %d: the number of envs must be in [0, %d]", n.setting, n.v, maxEnvs)
		}
	}
	if err := checkDataset(rc, acfg); err != nil {
		return err
	}
	if _, err := stepTimeout(rc); err != nil {
		return err
	}
	if !acfg.offline() && rc.TrainEnvs < 1 {
		return fmt.Errorf("train_envs %d: %s is an online algorithm that collects its own data and needs train_envs ≥ 1 (only the offline algorithms, %s, train without envs, from --dataset)",
			rc.TrainEnvs, rc.Algo, strings.Join(offlineNames(), " and "))
	}
	tc := rc.Trainer
	if err := tc.Validate(); err != nil {
		return fmt.Errorf("trainer settings: %s", strings.TrimPrefix(err.Error(), trainer.ErrConfig.Error()+": "))
	}
	if tc.TestEpisodes > 0 && rc.TestEnvs == 0 {
		return fmt.Errorf("trainer.test_episodes %d: test episodes need test_envs ≥ 1 (trainer.test_episodes=0 runs no tests)", tc.TestEpisodes)
	}

	// The networks first: building the algorithm allocates them.
	var est memoryEstimate
	nets := hiddenLayers(rc.Algorithm)
	var perSample float64 // activations of one sample through every network
	for _, path := range slices.Sorted(maps.Keys(nets)) {
		params, acts := networkBytes(spaceDim(obs), nets[path], spaceDim(act))
		est.add(path, params)
		perSample += acts
	}
	if err := est.check(); err != nil {
		return err
	}
	alg, err := newAlgorithm(rc, acfg)
	if err != nil && acfg.offline() {
		return fmt.Errorf("%s settings: %w (dataset %s: observations %v, actions %v, those of %s)", rc.Algo, err, rc.Dataset, obs, act, rc.Env)
	}
	if err != nil {
		return fmt.Errorf("%s settings: %w", rc.Algo, err)
	}
	_, onPolicy := alg.(algo.OnPolicy)

	if !acfg.offline() && (tc.StepPerCollect > 0) == (tc.EpisodePerCollect > 0) {
		return fmt.Errorf("trainer.step_per_collect %d, trainer.episode_per_collect %d: set exactly one of them",
			tc.StepPerCollect, tc.EpisodePerCollect)
	}
	if !onPolicy && tc.BatchSize < 1 {
		return fmt.Errorf("trainer.batch_size %d: %s samples batches of at least 1 transition", tc.BatchSize, rc.Algo)
	}
	slot := 2*spaceBytes(obs) + spaceBytes(act) + bytesPerSlot // obs, obs_next, act and the rest
	slots := 0.0
	switch {
	case acfg.offline():
		if tc.BatchSize > data.Len() {
			return fmt.Errorf("trainer.batch_size %d is larger than the dataset's %d transitions", tc.BatchSize, data.Len())
		}
	case onPolicy && tc.StepPerCollect > 0:
		slots = float64(tc.StepPerCollect + rc.TrainEnvs)
	default:
		if rc.BufferSize < 1 || rc.BufferSize > maxBufferSize {
			return fmt.Errorf("buffer_size %d: the buffer's capacity must be in [1, 2^40] transitions", rc.BufferSize)
		}
		if !onPolicy && tc.BatchSize > rc.BufferSize {
			return fmt.Errorf("trainer.batch_size %d is larger than buffer_size %d: batches are sampled from the buffer",
				tc.BatchSize, rc.BufferSize)
		}
		slots = float64(rc.BufferSize)
	}
	if slots > 0 {
		setting := "buffer_size"
		if onPolicy && tc.StepPerCollect > 0 {
			setting = "trainer.step_per_collect"
		}
		est.add(setting, slots*slot)
	}
	batch := float64(tc.BatchSize)
	if onPolicy {
		// An on-policy update runs its networks over the whole collection
		// (advantages) and then over minibatches.
		batch = max(batch, slots)
	}
	est.add("trainer.batch_size", batch*(slot+perSample))
	est.add("train_envs", float64(rc.TrainEnvs)*bytesPerEnv)
	est.add("test_envs", float64(rc.TestEnvs)*bytesPerEnv)
	return est.check()
}

// checkFinite returns an error naming the file and the first parameter of
// ps that holds a NaN or an infinity: a policy trained into NaN acts on
// garbage, and its returns mean nothing.
func checkFinite(file string, ps nn.Params) error {
	for name, t := range ps.All() {
		for i, v := range t.Data() {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("%s: parameter %s holds %v at index %d: the policy's weights are not finite (its training diverged)",
					file, name, v, i)
			}
		}
	}
	return nil
}
