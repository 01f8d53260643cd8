package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic" // registers the classic-control envs
	"github.com/gorl/gorl/env/gymbridge" // also registers gym: ids (Python Gymnasium envs)
	_ "github.com/gorl/gorl/env/mujoco"  // registers the MuJoCo locomotion tasks (libmujoco loaded at run time)
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/trainer"
)

// session is a run built from its configuration: the algorithm and its
// trainer.
type session struct {
	rc   RunConfig
	alg  algo.Algorithm
	tr   *trainer.Trainer
	norm *env.Normalizer // nil without normalization
}

// makeEnvs returns n new envs of id.
func makeEnvs(id string, n int) ([]env.Env, error) {
	es := make([]env.Env, 0, n)
	for range n {
		e, err := env.Make(id)
		if err != nil {
			closeEnvs(es)
			return nil, err
		}
		es = append(es, e)
	}
	return es, nil
}

// makeSharedEnvs is makeEnvs with gym: envs served over a shared memory
// region; other envs run in this process as with makeEnvs.
func makeSharedEnvs(id string, n int) ([]env.Env, error) {
	gymID, ok := strings.CutPrefix(id, "gym:")
	if !ok {
		return makeEnvs(id, n)
	}
	es := make([]env.Env, 0, n)
	for range n {
		e, err := gymbridge.Make(gymID, gymbridge.Config{SharedMemory: true})
		if err != nil {
			closeEnvs(es)
			return nil, err
		}
		es = append(es, e)
	}
	return es, nil
}

// envMaker returns the function that makes the run's envs: in this
// process, or each in a worker process when rc.Workers is "process".
func envMaker(rc RunConfig, timeout time.Duration) (func(id string, n int) ([]env.Env, error), error) {
	switch rc.Workers {
	case "", "goroutine":
		if rc.SharedMemory {
			return makeSharedEnvs, nil
		}
		return makeEnvs, nil
	case "process":
	default:
		return nil, fmt.Errorf("workers %q: want \"goroutine\" or \"process\"", rc.Workers)
	}
	pc := vector.ProcessConfig{Restart: rc.RestartWorkers, SharedMemory: rc.SharedMemory, OnLost: func(id int, err error) {
		what := "the run stops"
		if rc.RestartWorkers {
			what = "restarting it"
		}
		fmt.Fprintf(os.Stderr, "gorl: env %d: %v\ngorl: env %d: %s\n", id, err, id, what)
	}}
	return func(id string, n int) ([]env.Env, error) {
		if n == 0 {
			return nil, nil
		}
		return vector.ProcessEnvs(id, n, timeout, pc)
	}, nil
}

// spaces returns the observation and action spaces of the env id.
func spaces(id string) (obs, act env.Space, err error) {
	probe, err := env.Make(id)
	if err != nil {
		return nil, nil, err
	}
	defer probe.Close()
	return probe.ObservationSpace(), probe.ActionSpace(), nil
}

// newAlgorithm builds the algorithm of rc for the spaces of its env, with
// weights and seeds drawn from rc.Seed.
func newAlgorithm(rc RunConfig, acfg algoConfig) (algo.Algorithm, error) {
	obs, act, err := spaces(rc.Env)
	if err != nil {
		return nil, err
	}
	return acfg.build(obs, act, rand.New(rand.NewPCG(rc.Seed, 0xa160)))
}

// newSession builds the algorithm, envs, buffer and trainer of rc; setup
// holds the trainer's hooks and outputs (its envs, buffer and seed are
// filled in here). data is the dataset of an offline algorithm (see
// loadDataset), nil for the others.
func newSession(rc RunConfig, acfg algoConfig, data buffer.Buffer, setup trainer.Setup) (*session, error) {
	if err := checkDataset(rc, acfg); err != nil {
		return nil, err
	}
	if acfg.offline() && data == nil {
		return nil, fmt.Errorf("%s: no dataset loaded", rc.Algo)
	}
	if rc.TrainEnvs < 0 || rc.TestEnvs < 0 {
		return nil, fmt.Errorf("train_envs %d, test_envs %d: the numbers of envs cannot be negative", rc.TrainEnvs, rc.TestEnvs)
	}
	timeout, err := stepTimeout(rc)
	if err != nil {
		return nil, err
	}
	alg, err := newAlgorithm(rc, acfg)
	if err != nil {
		return nil, err
	}
	if setup.Buffer, err = trainBuffer(rc, acfg, alg, data); err != nil {
		return nil, err
	}
	norm, err := newNormalizer(rc)
	if err != nil {
		return nil, err
	}
	makeEnvs, err := envMaker(rc, timeout)
	if err != nil {
		return nil, err
	}
	train, err := makeEnvs(rc.Env, rc.TrainEnvs)
	if err == nil {
		train, err = normalizeEnvs(norm, train, true)
	}
	if err != nil {
		return nil, err
	}
	nTest := rc.TestEnvs
	if rc.Trainer.TestEpisodes == 0 {
		nTest = 0 // no tests: the trainer runs none without test envs
	}
	test, err := makeEnvs(rc.Env, nTest)
	if err == nil {
		test, err = normalizeEnvs(norm, test, false)
	}
	if err != nil {
		closeEnvs(train)
		return nil, err
	}
	if rc.Trainer.Overlap {
		// The overlapped mode collects with a second algorithm of the same
		// configuration, whose policy takes the trained one's parameters.
		if setup.Actor, err = newAlgorithm(rc, acfg); err != nil {
			closeEnvs(append(train, test...))
			return nil, err
		}
	}
	setup.TrainEnvs, setup.TestEnvs, setup.Seed = train, test, rc.Seed
	setup.Vector = vector.Config{Async: rc.Async, StepTimeout: timeout, AllowNonFinite: rc.AllowNonFinite}
	if rc.Workers == "process" || strings.HasPrefix(rc.Env, "gym:") {
		// Workers block on their pipes: step them side by side. A process
		// worker's own timeout kills it and leaves the vector env usable.
		setup.Vector.Async = true
		if rc.Workers == "process" {
			setup.Vector.StepTimeout = 0
		}
	}
	tr, err := trainer.New(alg, rc.Trainer, setup)
	if err != nil {
		closeEnvs(append(train, test...))
		return nil, err
	}
	return &session{rc: rc, alg: alg, tr: tr, norm: norm}, nil
}

// trainBuffer returns the buffer the trainer of rc starts with: the dataset
// of an offline algorithm, the one the algorithm builds, none for an
// on-policy collection of steps (the trainer sizes it), else a
// buffer.Vector of rc.BufferSize.
func trainBuffer(rc RunConfig, acfg algoConfig, alg algo.Algorithm, data buffer.Buffer) (buffer.Buffer, error) {
	if data != nil {
		return data, nil
	}
	n := max(1, rc.TrainEnvs)
	b, err := acfg.buffer(rc.BufferSize, n)
	if err == nil && b == nil {
		if _, onPolicy := alg.(algo.OnPolicy); onPolicy && rc.Trainer.StepPerCollect > 0 {
			return nil, nil
		}
		b, err = buffer.NewVector(buffer.Config{Size: rc.BufferSize}, n)
	}
	if err != nil {
		return nil, fmt.Errorf("buffer_size %d: %w", rc.BufferSize, err) // err says "buffer: …"
	}
	return b, nil
}

func closeEnvs(es []env.Env) {
	for _, e := range es {
		e.Close()
	}
}

// stepTimeout parses rc's step_timeout: "" is no bound.
func stepTimeout(rc RunConfig) (time.Duration, error) {
	if rc.StepTimeout == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(rc.StepTimeout)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("step_timeout %q: want a positive duration such as \"30s\", or \"\" for none", rc.StepTimeout)
	}
	return d, nil
}
