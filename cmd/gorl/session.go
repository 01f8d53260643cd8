package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic" // registers the classic-control envs
	"github.com/gorl/gorl/trainer"
)

// session is a run built from its configuration: the algorithm and its
// trainer.
type session struct {
	rc  RunConfig
	alg algo.Algorithm
	tr  *trainer.Trainer
}

// makeEnvs returns n new envs of id.
func makeEnvs(id string, n int) ([]env.Env, error) {
	es := make([]env.Env, 0, n)
	for range n {
		e, err := env.Make(id)
		if err != nil {
			for _, e := range es {
				e.Close()
			}
			return nil, err
		}
		es = append(es, e)
	}
	return es, nil
}

// newAlgorithm builds the algorithm of rc for the spaces of its env, with
// weights and seeds drawn from rc.Seed.
func newAlgorithm(rc RunConfig, a Algorithm, acfg any) (algo.Algorithm, error) {
	probe, err := env.Make(rc.Env)
	if err != nil {
		return nil, err
	}
	defer probe.Close()
	return a.New(acfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(rc.Seed, 0xa160)))
}

// newSession builds the algorithm, envs, buffer and trainer of rc; setup
// holds the trainer's hooks and outputs (its envs, buffer and seed are
// filled in here).
func newSession(rc RunConfig, acfg any, setup trainer.Setup) (*session, error) {
	a := algorithms[rc.Algo]
	alg, err := newAlgorithm(rc, a, acfg)
	if err != nil {
		return nil, err
	}
	if rc.TrainEnvs < 0 || rc.TestEnvs < 0 {
		return nil, fmt.Errorf("negative number of envs")
	}
	train, err := makeEnvs(rc.Env, rc.TrainEnvs)
	if err != nil {
		return nil, err
	}
	test, err := makeEnvs(rc.Env, rc.TestEnvs)
	if err != nil {
		return nil, err
	}
	setup.TrainEnvs, setup.TestEnvs, setup.Seed, setup.Async = train, test, rc.Seed, rc.Async
	_, onPolicy := alg.(algo.OnPolicy)
	switch {
	case a.Buffer != nil:
		setup.Buffer, err = a.Buffer(acfg, rc.BufferSize, max(1, rc.TrainEnvs))
	case onPolicy && rc.Trainer.StepPerCollect > 0:
		// The trainer sizes the collection buffer.
	default:
		setup.Buffer, err = buffer.NewVector(buffer.Config{Size: rc.BufferSize}, max(1, rc.TrainEnvs))
	}
	if err != nil {
		return nil, fmt.Errorf("buffer: %w", err)
	}
	tr, err := trainer.New(alg, rc.Trainer, setup)
	if err != nil {
		for _, e := range append(train, test...) {
			e.Close()
		}
		return nil, err
	}
	return &session{rc: rc, alg: alg, tr: tr}, nil
}
