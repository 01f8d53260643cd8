package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/trainer"
)

// expertEpisodes is the number of expert episodes GAIL imitates.
const expertEpisodes = 20

// expertData trains PPO (its registered defaults) on envID until its mean
// test return reaches threshold, collects expertEpisodes episodes with the
// trained policy acting greedily, and writes them to a buffer file in dir,
// whose path it returns with the episodes' mean return. It is the one
// source of GAIL's expert data in gorl bench; a dataset written by gorl
// collect is a file of the same format.
func expertData(ctx context.Context, envID string, threshold float64, seed uint64, dir string) (string, float64, error) {
	rc, acfg, err := resolveDefaults("ppo", envID, []string{fmt.Sprintf("trainer.reward_threshold=%v", threshold)})
	if err != nil {
		return "", 0, err
	}
	rc.Seed = seed
	s, err := newSession(rc, acfg, nil, trainer.Setup{})
	if err != nil {
		return "", 0, err
	}
	res, err := s.tr.Run(ctx)
	s.tr.Close()
	if err != nil {
		return "", 0, fmt.Errorf("expert PPO: %w", err)
	}
	if !res.Solved {
		return "", 0, fmt.Errorf("expert PPO reached %.1f, not %v", res.BestReturn, threshold)
	}
	pol := s.alg.Policy()
	pol.SetTrainingStep(false)
	es, err := makeEnvs(envID, 10)
	if err != nil {
		return "", 0, err
	}
	vec, err := vector.NewSync(es)
	if err != nil {
		return "", 0, err
	}
	defer vec.Close()
	data, err := buffer.NewVector(buffer.Config{Size: 20_000}, 10)
	if err != nil {
		return "", 0, err
	}
	c, err := collector.New(collector.Config{Env: vec, Policy: pol, Buffer: data, Rand: rand.New(rand.NewPCG(seed, 0xe1))})
	if err != nil {
		return "", 0, err
	}
	seeds := make([]env.Seed, 10)
	for i := range seeds {
		seeds[i] = env.SeedOf(seed + 2_000_000 + uint64(i))
	}
	if err := c.Reset(ctx, seeds); err != nil {
		return "", 0, err
	}
	cs, err := c.Collect(ctx, collector.Request{NEpisode: expertEpisodes})
	if err != nil {
		return "", 0, err
	}
	f, err := os.CreateTemp(dir, "expert-*.buf")
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	if err := data.Save(f); err != nil {
		return "", 0, err
	}
	return f.Name(), cs.Return.Mean, nil
}

// gailRuns runs, for each seed, expertData on envID and GAIL trained on
// its file with the registered defaults until the mean test return reaches
// threshold.
func gailRuns(ctx context.Context, o BenchOptions, w io.Writer, envID string, expertBar, threshold float64) error {
	dir, err := os.MkdirTemp("", "gorl-gail-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fmt.Fprintf(w, "PPO expert trained on %s to a mean test return ≥ %v, %d greedy episodes of it saved as a buffer file;\n"+
		"GAIL (gorl's defaults) trained on them, stopping at a mean test return ≥ %v.\n\n", envID, expertBar, expertEpisodes, threshold)
	tb := newTable(w, "seed", "expert return", "GAIL best test return", "env steps", "updates", "wall s")
	solved := 0
	for i := range o.Seeds {
		seed := o.FirstSeed + uint64(i)
		path, expRet, err := expertData(ctx, envID, expertBar, seed, dir)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		rc, acfg, err := resolveDefaults("gail", envID, []string{
			fmt.Sprintf("trainer.reward_threshold=%v", threshold), fmt.Sprintf("algorithm.expert=%q", path)})
		if err != nil {
			return err
		}
		rc.Seed = seed
		s, err := newSession(rc, acfg, nil, trainer.Setup{})
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		res, err := s.tr.Run(ctx)
		s.tr.Close()
		if err != nil {
			return fmt.Errorf("seed %d: GAIL: %w", seed, err)
		}
		if res.Solved {
			solved++
		}
		tb.Row(fmt.Sprint(seed), fmt.Sprintf("%.1f", expRet), bestOf(res), fmt.Sprint(res.EnvSteps), fmt.Sprint(res.GradientSteps),
			fmt.Sprintf("%.1f", res.Duration.Seconds()))
		fmt.Fprintf(o.Log, "gail %s seed %d: expert %.1f, GAIL %.1f\n", envID, seed, expRet, res.BestReturn)
	}
	tb.Flush()
	need := (4*o.Seeds + 4) / 5
	fmt.Fprintf(w, "\nGAIL reached %v on %d of %d seeds (need %d): %s\n", threshold, solved, o.Seeds, need, verdict(solved >= need))
	if solved < need {
		return fmt.Errorf("%w: GAIL on %s reached %v on %d of %d seeds", errNotLearned, envID, threshold, solved, o.Seeds)
	}
	return nil
}

func init() {
	RegisterBench("gail-cartpole", BenchRun{
		Doc: "GAIL on CartPole-v1 from 20 episodes of a PPO expert (≥ 195 on 4 of 5 seeds)",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			return gailRuns(ctx, o, w, "CartPole-v1", 450, 195)
		},
	})
	RegisterBench("gail-pendulum", BenchRun{
		Doc: "GAIL on Pendulum-v1 from 20 episodes of a PPO expert (≥ −250 on 4 of 5 seeds)",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			return gailRuns(ctx, o, w, "Pendulum-v1", -200, -250)
		},
	})
}
