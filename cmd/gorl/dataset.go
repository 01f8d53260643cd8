package main

import (
	"fmt"
	"os"
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
// one) and checks that its observations and actions fit the spaces of the
// run's env.
func loadDataset(rc RunConfig, acfg algoConfig) (buffer.Buffer, error) {
	if err := checkDataset(rc, acfg); err != nil || !acfg.offline() {
		return nil, err
	}
	f, err := os.Open(rc.Dataset)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	data, err := buffer.Load(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", rc.Dataset, err)
	}
	if data.Len() == 0 {
		return nil, fmt.Errorf("dataset %s holds no transitions", rc.Dataset)
	}
	obs, act, err := spaces(rc.Env)
	if err != nil {
		return nil, err
	}
	if err := fitSpaces(data, obs, act); err != nil {
		return nil, fmt.Errorf("dataset %s does not fit %s: %w", rc.Dataset, rc.Env, err)
	}
	return data, nil
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
