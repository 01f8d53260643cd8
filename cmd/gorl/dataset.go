package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/trainer"
)

// offlineTrainer is the offline trainer's configuration of BC and BCQ,
// that of Tianshou's discrete BCQ test on CartPole: at most 5 epochs of
// 2,000 updates of 64 transitions, 100 test episodes after each. BCQ tests
// with its ε-greedy exploration (explore, Tianshou's eval_eps), BC acts
// greedily.
func offlineTrainer(explore bool) trainer.Config {
	return trainer.Config{Epochs: 5, StepPerEpoch: 2000, BatchSize: 64, TestEpisodes: 100, TestExploration: explore}
}

// offlineNames lists the registered offline algorithms in sorted order.
func offlineNames() []string {
	var names []string
	for _, name := range algorithmNames() {
		if acfg, _ := algorithms[name].defaults(""); acfg.offline() {
			names = append(names, name)
		}
	}
	return names
}

// checkDataset checks that rc names a dataset exactly when its algorithm
// learns from one, and that an offline run has no training envs.
func checkDataset(rc RunConfig, acfg algoConfig) error {
	switch {
	case acfg.offline() && rc.Dataset == "":
		return fmt.Errorf("%s learns from a dataset: give --dataset FILE (a buffer file written by buffer's Save)", rc.Algo)
	case !acfg.offline() && rc.Dataset != "":
		return fmt.Errorf("--dataset %s: %s collects its own data; a dataset is for the offline algorithms (%s)",
			rc.Dataset, rc.Algo, strings.Join(offlineNames(), ", "))
	case acfg.offline() && rc.TrainEnvs != 0:
		return fmt.Errorf("train_envs %d: %s learns from its dataset and has no training envs", rc.TrainEnvs, rc.Algo)
	}
	return nil
}

// loadDataset reads the dataset of an offline run rc (nil for an online
// one) with openDataset, for the spaces of the run's env.
func loadDataset(rc RunConfig, acfg algoConfig) (buffer.Buffer, error) {
	if err := checkDataset(rc, acfg); err != nil || !acfg.offline() {
		return nil, err
	}
	obs, act, err := spaces(rc.Env)
	if err != nil {
		return nil, err
	}
	return openDataset(rc.Dataset, rc.Env, obs, act)
}

// openDataset reads the dataset file at path for training in the env envID
// with the spaces obs and act: a buffer file (buffer.Save), or an HDF5 file
// (build tag hdf5) in the D4RL layout (buffer.LoadD4RL) or written by
// buffer's SaveHDF5. It checks that the data holds transitions, that their
// observations and actions fit the spaces (an error names both shapes) and
// that every number is finite (an error names the key and the row). It is
// the one way a dataset enters gorl train and gorl bench.
func openDataset(path, envID string, obs, act env.Space) (buffer.Buffer, error) {
	data, err := readDataset(path)
	if err != nil {
		return nil, err
	}
	if data.Len() == 0 {
		return nil, fmt.Errorf("dataset %s holds no transitions", path)
	}
	if err := fitSpaces(data, obs, act); err != nil {
		return nil, fmt.Errorf("dataset %s does not fit %s: %w", path, envID, err)
	}
	if err := finiteData(data); err != nil {
		return nil, fmt.Errorf("dataset %s: %w", path, err)
	}
	return data, nil
}

// hdf5Signature starts every HDF5 file.
const hdf5Signature = "\x89HDF\r\n\x1a\n"

// readDataset reads a dataset file, choosing the reader by the file's
// first bytes.
func readDataset(path string) (buffer.Buffer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	head := make([]byte, len(hdf5Signature))
	if n, _ := io.ReadFull(f, head); n == len(head) && string(head) == hdf5Signature {
		data, err := buffer.LoadD4RL(path)
		if errors.Is(err, buffer.ErrNoHDF5) {
			return nil, fmt.Errorf("dataset %s is an HDF5 file, and this gorl was built without HDF5 support: build it with cgo and the tag hdf5 (go build -tags hdf5 ./cmd/gorl, with libhdf5-dev installed), or convert the file to the buffer format with such a build", path)
		}
		if err != nil {
			return nil, fmt.Errorf("dataset %s: %w", path, err)
		}
		return data, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	data, err := buffer.Load(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", path, err)
	}
	return data, nil
}

// saveDataset writes data to path: in the D4RL layout for a name ending in
// .h5 or .hdf5 (buffer.SaveD4RL, build tag hdf5), in the buffer format
// otherwise. The file is replaced atomically.
func saveDataset(path string, data buffer.Buffer) error {
	if ext := strings.ToLower(filepath.Ext(path)); ext == ".h5" || ext == ".hdf5" {
		if err := buffer.SaveD4RL(path, data); err != nil {
			if errors.Is(err, buffer.ErrNoHDF5) {
				return fmt.Errorf("%s: writing HDF5 needs a gorl built with cgo and the tag hdf5 (go build -tags hdf5 ./cmd/gorl); or name the file .buf for the buffer format", path)
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		return nil
	}
	return writeAtomic(path, data.Save)
}

// finiteData returns an error naming the key and the row (in the order of
// the dataset's transitions) of the first NaN or ±Inf among the float
// columns obs, act, rew and obs_next.
func finiteData(data buffer.Buffer) error {
	var b batch.Batch
	if err := data.TakeTo(&b, data.SampleIndices(0, nil)); err != nil {
		return err
	}
	for _, key := range []string{batch.KeyObs, batch.KeyAct, batch.KeyRew, batch.KeyObsNext} {
		a, err := b.Array(key)
		if err != nil || !a.DType().IsFloat() {
			continue
		}
		f, err := a.AsType(nd.Float64)
		if err != nil {
			return err
		}
		vals := nd.Data[float64](f.Copy())
		per := max(1, len(vals)/max(1, a.Dim(0)))
		for i, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s, row %d: %v (a dataset must hold finite numbers)", key, i/per, v)
			}
		}
	}
	return nil
}

// fitSpaces checks that every transition of data has an observation (and
// next observation, if stored) of obs's dtype and shape and an action of
// act's, in range for a Discrete act.
func fitSpaces(data buffer.Buffer, obs, act env.Space) error {
	var b batch.Batch
	if err := data.TakeTo(&b, data.SampleIndices(0, nil)); err != nil {
		return err
	}
	for _, c := range []struct {
		key   string
		space env.Space
	}{{batch.KeyObs, obs}, {batch.KeyAct, act}, {batch.KeyObsNext, obs}} {
		if c.key == batch.KeyObsNext && !b.Has(c.key) {
			continue
		}
		a, err := b.Array(c.key)
		if err != nil {
			return err
		}
		if err := fits(a, c.space); err != nil {
			return fmt.Errorf("%s: %w", c.key, err)
		}
	}
	return nil
}

// fits checks that the rows of a are values of s: same dtype and shape,
// and in range for a Discrete space.
func fits(a *nd.Array, s env.Space) error {
	if a.Ndim() == 0 {
		return fmt.Errorf("a 0-d array, not one row per transition")
	}
	if shape := a.Shape()[1:]; a.DType() != s.DType() || !slices.Equal(shape, s.Shape()) {
		return fmt.Errorf("values of dtype %v and shape %v, the space %v wants dtype %v and shape %v",
			a.DType(), shape, s, s.DType(), s.Shape())
	}
	if d, ok := s.(*env.Discrete); ok {
		for i := range a.Dim(0) {
			if v := a.Index(nd.I(i)); !d.Contains(v) {
				return fmt.Errorf("transition %d: %v is not in %v", i, v, s)
			}
		}
	}
	return nil
}
