// Command dqn-step-by-step trains DQN on CartPole without the trainer: the
// loop that package trainer runs, written out top to bottom in the shape of
// a CleanRL script, to read or to change.
//
//	go run ./examples/dqn-step-by-step
//
// Each iteration collects 10 env steps into the replay buffer, then makes
// one gradient step on 64 sampled transitions: Preprocess (n-step returns
// from the target network), Update (the TD loss and an Adam step),
// Postprocess (nothing for a uniform buffer; new priorities for a
// prioritized one). Every 2,000 env steps it tests the greedy policy. The
// settings are those of Tianshou's CartPole DQN test.
package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic" // registers CartPole-v1
	"github.com/gorl/gorl/env/vector"
)

// settings are what the smoke test shrinks.
type settings struct {
	totalSteps int // env steps of training at most
	testEvery  int // env steps between tests
}

func main() {
	if err := run(context.Background(), os.Stdout, settings{totalSteps: 100_000, testEvery: 2000}); err != nil {
		fmt.Fprintln(os.Stderr, "dqn-step-by-step:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer, s settings) error {
	const (
		seed           = 1
		trainEnvs      = 10
		testEpisodes   = 20
		bufferSize     = 20_000
		prefillSteps   = 640
		stepPerCollect = 10
		batchSize      = 64
		target         = 195.0 // mean test return that counts as solved
	)
	rng := rand.New(rand.NewPCG(seed, 0))

	// Envs: one vector of training envs, one of test envs.
	makeEnvs := func(n int) (*vector.Sync, error) {
		es := make([]env.Env, n)
		for i := range es {
			var err error
			if es[i], err = env.Make("CartPole-v1"); err != nil {
				return nil, err
			}
		}
		return vector.NewSync(es)
	}
	train, err := makeEnvs(trainEnvs)
	if err != nil {
		return err
	}
	defer train.Close()
	test, err := makeEnvs(testEpisodes)
	if err != nil {
		return err
	}
	defer test.Close()

	// The algorithm: a Q-network, its target network and its optimizer.
	// Its policy acts ε-greedily while the training-step flag is on.
	cfg := dqn.DefaultConfig()
	agent, err := dqn.New(cfg, train.ObservationSpace(), train.ActionSpace(), rng)
	if err != nil {
		return err
	}

	// The replay buffer, one ring per env so that episodes stay
	// contiguous, and the collectors that fill it and test.
	buf, err := buffer.NewVector(buffer.Config{Size: bufferSize}, trainEnvs)
	if err != nil {
		return err
	}
	trainC, err := collector.New(collector.Config{Env: train, Policy: agent.Policy(), Buffer: buf, Explore: true, Rand: rng})
	if err != nil {
		return err
	}
	testC, err := collector.New(collector.Config{Env: test, Policy: agent.Policy()})
	if err != nil {
		return err
	}
	seeds := make([]env.Seed, trainEnvs)
	for i := range seeds {
		seeds[i] = env.SeedOf(seed + uint64(i))
	}
	if err := trainC.Reset(ctx, seeds); err != nil {
		return err
	}

	// Fill the buffer with random actions before learning.
	if _, err := trainC.Collect(ctx, collector.Request{NStep: prefillSteps, Random: true}); err != nil {
		return err
	}

	var b batch.Batch // reused for every sampled batch
	envSteps, nextTest := 0, 0
	for envSteps < s.totalSteps {
		// Collect with exploration.
		agent.Policy().SetTrainingStep(true)
		st, err := trainC.Collect(ctx, collector.Request{NStep: stepPerCollect})
		if err != nil {
			return err
		}
		envSteps += st.Steps

		// One gradient step on a sampled batch.
		indices := buf.SampleIndices(batchSize, rng)
		if err := buf.TakeTo(&b, indices); err != nil {
			return err
		}
		if err := agent.Preprocess(&b, buf, indices); err != nil {
			return err
		}
		losses, err := agent.Update(&b)
		if err != nil {
			return err
		}
		if err := agent.Postprocess(&b, buf, indices); err != nil {
			return err
		}

		// Test the greedy policy now and then; stop when it is good enough.
		if envSteps < nextTest {
			continue
		}
		nextTest += s.testEvery
		agent.Policy().SetTrainingStep(false)
		testSeeds := make([]env.Seed, testEpisodes)
		for i := range testSeeds {
			testSeeds[i] = env.SeedOf(1_000_000 + uint64(envSteps+i))
		}
		if err := testC.Reset(ctx, testSeeds); err != nil {
			return err
		}
		ts, err := testC.Collect(ctx, collector.Request{NEpisode: testEpisodes})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "step %6d: test return %5.1f ± %4.1f, loss %.3f, %d updates\n",
			envSteps, ts.Return.Mean, ts.Return.Std, losses["loss"], agent.Updates())
		if ts.Return.Mean >= target {
			fmt.Fprintf(w, "solved after %d env steps\n", envSteps)
			return nil
		}
	}
	fmt.Fprintf(w, "not solved within %d env steps\n", s.totalSteps)
	return nil
}
