package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/gorl/gorl/algo/maddpg"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent/spread"
)

// The MADDPG run on SimpleSpread-v0 (N = 3): episodes of training per
// seed, and greedy test episodes on fixed seeds after training.
const (
	spreadTrainEpisodes = 500
	spreadTestEpisodes  = 50
)

func init() {
	RegisterBench("maddpg-spread", BenchRun{
		Doc: "MADDPG on SimpleSpread-v0 (3 agents, 500 training episodes, batches of 128), mean test return over 50 episodes against the random policy's and independent DDPG's: MADDPG must beat the random policy on 4 of 5 seeds",
		Run: maddpgSpreadRuns,
	})
}

// spreadRandom returns the mean over test episodes of the per-agent return
// of uniform random actions.
func spreadRandom(e *spread.Env, episodes int, testSeed uint64, rng *rand.Rand) (float64, error) {
	var sum float64
	acts := map[string]any{}
	for ep := range episodes {
		if _, _, err := e.Reset(env.SeedOf(testSeed + uint64(ep))); err != nil {
			return 0, err
		}
		var ret float64
		for len(e.Agents()) > 0 {
			for _, id := range e.Agents() {
				acts[id] = e.ActionSpace(id).Sample(rng)
			}
			_, rew, _, _, _, err := e.Step(acts)
			if err != nil {
				return 0, err
			}
			for _, r := range rew {
				ret += r
			}
		}
		sum += ret / float64(len(e.PossibleAgents()))
	}
	return sum / float64(episodes), nil
}

// spreadTrain trains cfg for spreadTrainEpisodes episodes from seed and
// returns its greedy mean test return.
func spreadTrain(ctx context.Context, cfg maddpg.Config, seed, testSeed uint64) (float64, error) {
	e, err := spread.New(spread.DefaultConfig())
	if err != nil {
		return 0, err
	}
	m, err := maddpg.New(cfg, e, rand.New(rand.NewPCG(seed, 0x3add)))
	if err != nil {
		return 0, err
	}
	for ep := range spreadTrainEpisodes {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if _, err := m.Episode(e, env.SeedOf(seed*1_000_003+uint64(ep)), true, true); err != nil {
			return 0, err
		}
	}
	var sum float64
	for ep := range spreadTestEpisodes {
		r, err := m.Episode(e, env.SeedOf(testSeed+uint64(ep)), false, false)
		if err != nil {
			return 0, err
		}
		sum += r
	}
	return sum / spreadTestEpisodes, nil
}

// maddpgSpreadRuns trains MADDPG and independent DDPG (the same learners
// with critics of their own agent only) once per seed and tests both, and
// the random policy, on the same test episodes.
func maddpgSpreadRuns(ctx context.Context, o BenchOptions, w io.Writer) error {
	cfg := maddpg.DefaultConfig()
	cfg.BatchSize = 128
	ind := cfg
	ind.Independent = true
	fmt.Fprintf(w, "MADDPG on %s (3 agents, 25 steps an episode): %d training episodes (batches of %d), then the mean per-agent return of %d greedy test episodes;\n"+
		"the random policy and independent DDPG (critics of their own agent only, the same settings otherwise) on the same test episodes. Bar: MADDPG above the random policy.\n\n",
		spread.ID, spreadTrainEpisodes, cfg.BatchSize, spreadTestEpisodes)
	tb := newTable(w, "seed", "random", "independent DDPG", "MADDPG", "train time (MADDPG)", "bar")
	met := 0
	for i := range o.Seeds {
		seed := o.FirstSeed + uint64(i)
		testSeed := 1<<40 + seed*10_007
		e, err := spread.New(spread.DefaultConfig())
		if err != nil {
			return err
		}
		rnd, err := spreadRandom(e, spreadTestEpisodes, testSeed, rand.New(rand.NewPCG(seed, 0xba5e)))
		if err != nil {
			return err
		}
		start := time.Now()
		mad, err := spreadTrain(ctx, cfg, seed, testSeed)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		took := time.Since(start)
		idp, err := spreadTrain(ctx, ind, seed, testSeed)
		if err != nil {
			return fmt.Errorf("seed %d: independent: %w", seed, err)
		}
		ok := mad > rnd
		if ok {
			met++
		}
		tb.Row(fmt.Sprint(seed), fmt.Sprintf("%.1f", rnd), fmt.Sprintf("%.1f", idp), fmt.Sprintf("%.1f", mad),
			took.Round(time.Second).String(), map[bool]string{true: "met", false: "missed"}[ok])
		fmt.Fprintf(o.Log, "maddpg-spread seed %d: random %.1f, independent %.1f, maddpg %.1f\n", seed, rnd, idp, mad)
	}
	if err := tb.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nMADDPG beat the random policy on %d of %d seeds.\n", met, o.Seeds)
	return nil
}
