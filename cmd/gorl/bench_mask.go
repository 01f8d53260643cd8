package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gorl/gorl/env/maze" // registers MaskedMaze-v0 and Maze-v0
	"github.com/gorl/gorl/trainer"
)

// maskBenchSets are the settings of the masking comparison beside each
// algorithm's registered defaults (Tianshou's CartPole settings): a fixed
// budget, and fewer test episodes (the maze is deterministic).
var maskBenchSets = map[string][]string{
	"ppo": {"trainer.epochs=4", "test_envs=10", "trainer.test_episodes=20"},
	"dqn": {"trainer.epochs=10", "test_envs=10", "trainer.test_episodes=20"},
}

// maskResult is one seed's run.
type maskResult struct {
	solved bool
	steps  float64 // env steps, prefill included
	wall   float64 // seconds
}

func init() {
	RegisterBench("mask-maze", BenchRun{
		Doc: "PPO and DQN with action masks (MaskedMaze-v0) against the same maze without them (Maze-v0): masked must solve (≥ 0.8) on at least as many seeds in fewer env steps",
		Run: maskRuns,
	})
}

// maskRuns trains PPO and DQN over o's seeds on the masked maze and on the
// plain one, stopping at the maze's threshold, and writes a table of solved
// seeds, env steps and wall time per pair.
func maskRuns(ctx context.Context, o BenchOptions, w io.Writer) error {
	fmt.Fprintf(w, "Stop at a mean test return ≥ %v (the goal in at most 20 moves); an unsolved run counts its whole budget.\n\n", maze.RewardThreshold)
	tb := newTable(w, "algo", "env", "solved", "median env steps", "env steps per seed", "median wall s")
	met := true
	for _, algoName := range []string{"ppo", "dqn"} {
		var res [2][]maskResult
		for v, envID := range []string{maze.ID, maze.PlainID} {
			for i := range o.Seeds {
				seed := o.FirstSeed + uint64(i)
				r, err := maskRun(ctx, algoName, envID, seed)
				if err != nil {
					return err
				}
				fmt.Fprintf(o.Log, "%s %s seed %d: solved %v in %.0f env steps, %v\n", algoName, envID, seed, r.solved, r.steps,
					time.Duration(r.wall*float64(time.Second)).Round(time.Millisecond))
				res[v] = append(res[v], r)
			}
			solved, steps, walls := 0, []float64{}, []float64{}
			perSeed := ""
			for i, r := range res[v] {
				if r.solved {
					solved++
				}
				steps, walls = append(steps, r.steps), append(walls, r.wall)
				if i > 0 {
					perSeed += ", "
				}
				perSeed += fmtSteps(int(r.steps))
			}
			tb.Row(algoName, envID, fmt.Sprintf("%d/%d", solved, o.Seeds), fmtSteps(int(median(steps))), perSeed,
				fmt.Sprintf("%.2f", median(walls)))
		}
		m, p := maskSummary(res[0]), maskSummary(res[1])
		met = met && m.solved >= p.solved && m.steps < p.steps
	}
	tb.Flush()
	fmt.Fprintf(w, "\nmasked solves on at least as many seeds in fewer median env steps, for PPO and DQN: %s\n", verdict(met))
	if !met {
		return fmt.Errorf("%w: masking did not speed up learning on the maze", errNotLearned)
	}
	return nil
}

// maskSummary returns the solved count and the median env steps of runs.
func maskSummary(runs []maskResult) (s struct {
	solved int
	steps  float64
}) {
	steps := make([]float64, 0, len(runs))
	for _, r := range runs {
		if r.solved {
			s.solved++
		}
		steps = append(steps, r.steps)
	}
	s.steps = median(steps)
	return s
}

// maskRun trains algoName on envID with seed, as gorl train does with the
// comparison's settings.
func maskRun(ctx context.Context, algoName, envID string, seed uint64) (maskResult, error) {
	sets := append([]string{fmt.Sprintf("trainer.reward_threshold=%v", maze.RewardThreshold)}, maskBenchSets[algoName]...)
	rc, acfg, err := resolveDefaults(algoName, envID, sets)
	if err != nil {
		return maskResult{}, err
	}
	rc.Seed = seed
	s, err := newSession(rc, acfg, nil, trainer.Setup{})
	if err != nil {
		return maskResult{}, err
	}
	defer s.tr.Close()
	res, err := s.tr.Run(ctx)
	if err != nil {
		return maskResult{}, err
	}
	return maskResult{solved: res.Solved, steps: float64(res.EnvSteps + res.PrefillSteps), wall: res.Duration.Seconds()}, nil
}
