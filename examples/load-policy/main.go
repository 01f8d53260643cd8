// Command load-policy loads a policy that gorl train saved and acts with
// it, one observation at a time, for a few episodes of its env:
//
//	go run ./cmd/gorl train --algo ppo --env CartPole-v1 --logdir runs/ppo
//	go run ./examples/load-policy runs/ppo/best.gorl
//
// A policy file holds the run's configuration and the policy's weights
// (package policyfile). The program builds the same algorithm from that
// configuration, which policyfile.Load fills with the weights, so it must
// know the algorithms it may meet: here PPO and DQN.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic" // registers CartPole-v1 and the other classic-control envs
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/policyfile"
)

func main() {
	episodes := flag.Int("episodes", 3, "number of episodes")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: load-policy [--episodes N] POLICY_FILE_OR_RUN_DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(os.Stdout, flag.Arg(0), *episodes); err != nil {
		fmt.Fprintln(os.Stderr, "load-policy:", err)
		os.Exit(1)
	}
}

// build returns a policy of the algorithm and configuration a policy
// file's header names, for its env; its weights are replaced by the
// file's.
func build(h policyfile.Header) (policy.Policy, error) {
	probe, err := env.Make(h.Env)
	if err != nil {
		return nil, err
	}
	defer probe.Close()
	obs, act := probe.ObservationSpace(), probe.ActionSpace()
	rng := rand.New(rand.NewPCG(0, 0))
	switch h.Algo {
	case "ppo":
		cfg := ppo.DefaultConfig()
		if err := json.Unmarshal(h.Algorithm, &cfg); err != nil {
			return nil, err
		}
		a, err := ppo.New(cfg, obs, act, rng)
		if err != nil {
			return nil, err
		}
		return a.Policy(), nil
	case "dqn":
		cfg := dqn.DefaultConfig()
		if err := json.Unmarshal(h.Algorithm, &cfg); err != nil {
			return nil, err
		}
		a, err := dqn.New(cfg, obs, act, rng)
		if err != nil {
			return nil, err
		}
		return a.Policy(), nil
	}
	return nil, fmt.Errorf("this program knows ppo and dqn, not %q", h.Algo)
}

func run(w io.Writer, path string, episodes int) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "best.gorl")
	}
	f, err := policyfile.LoadFile(path, build)
	if err != nil {
		return err
	}
	p := f.Policy
	p.SetTrainingStep(false) // act with the most likely action

	e, err := env.Make(f.Env)
	if err != nil {
		return err
	}
	// A run trained with normalized observations acts on observations
	// normalized with its saved statistics, frozen.
	n, err := f.Normalizer(nd.Zeros(nd.Float32, e.ObservationSpace().Shape()...).Size())
	if err != nil {
		return err
	}
	if n != nil {
		if e, err = n.Wrap(e, false); err != nil {
			return err
		}
	}
	defer e.Close()

	fmt.Fprintf(w, "%s policy for %s, trained with seed %d\n", f.Algo, f.Env, f.Seed)
	for ep := range episodes {
		obs, _, err := e.Reset(env.SeedOf(uint64(ep)))
		if err != nil {
			return err
		}
		ret, steps := 0.0, 0
		for {
			act, err := policy.ComputeAction(p, obs.(*nd.Array))
			if err != nil {
				return err
			}
			var rew float64
			var terminated, truncated bool
			if obs, rew, terminated, truncated, _, err = e.Step(act); err != nil {
				return err
			}
			ret += rew
			steps++
			if terminated || truncated {
				break
			}
		}
		fmt.Fprintf(w, "episode %d: return %.1f in %d steps\n", ep+1, ret, steps)
	}
	return nil
}
