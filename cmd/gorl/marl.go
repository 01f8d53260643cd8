package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gorl/gorl/env/multiagent"
	_ "github.com/gorl/gorl/env/multiagent/spread" // registers SimpleSpread-v0
	"github.com/gorl/gorl/env/multiagent/tictactoe"
	"github.com/gorl/gorl/marl"
	"github.com/gorl/gorl/nn"
)

// selfPlayRun is the configuration of gorl train --selfplay, written to the
// run directory's config.json.
type selfPlayRun struct {
	Algo string `json:"algo"`
	Env  string `json:"env"`
	Seed uint64 `json:"seed"`
	// EvalGames is the number of games against the random player, from
	// each seat, of the final evaluation.
	EvalGames int                 `json:"eval_games"`
	SelfPlay  marl.SelfPlayConfig `json:"selfplay"`
}

// selfPlayQFile is the learner's Q network in the run directory.
const selfPlayQFile = "q.safetensors"

// trainSelfPlay runs gorl train --selfplay: DQN on a two-player
// multi-agent env against the random player and its own past copies
// (marl.SelfPlay), then the evaluation against the random player from each
// seat. --set paths name fields of selfPlayRun (selfplay.games=5000,
// selfplay.dqn.gamma=0.95).
func trainSelfPlay(ctx context.Context, algoName, envID string, seed uint64, logdir string, sets []string, quiet bool, stdout, stderr io.Writer) error {
	if algoName != "dqn" {
		return fmt.Errorf("train: --selfplay trains dqn, not %q", algoName)
	}
	if _, err := multiagent.MakeAEC(envID); err != nil {
		return fmt.Errorf("train: --selfplay needs a two-player multi-agent env: %w", err)
	}
	run := selfPlayRun{Algo: algoName, Env: envID, Seed: seed, EvalGames: 1000, SelfPlay: marl.DefaultSelfPlayConfig()}
	if err := applySets(&run, sets); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	e, err := multiagent.MakeAEC(run.Env)
	if err != nil {
		return err
	}
	defer e.Close()
	sp, err := marl.NewSelfPlay(run.SelfPlay, e, rand.New(rand.NewPCG(run.Seed, 0x5e1f)))
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if logdir != "" {
		if err := os.MkdirAll(logdir, 0o755); err != nil {
			return err
		}
		cj, err := json.MarshalIndent(run, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(logdir, configFile), append(cj, '\n'), 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "self-play dqn on %s (seed %d): %d games, %.0f%% against the random player, the rest against the last %d copies of the learner\n",
		run.Env, run.Seed, run.SelfPlay.Games, 100*run.SelfPlay.RandomShare, run.SelfPlay.PoolSize)
	start := time.Now()
	every := max(1, run.SelfPlay.Games/10)
	var last marl.Progress
	for done := 0; done < run.SelfPlay.Games; done += every {
		n := min(every, run.SelfPlay.Games-done)
		if err := sp.Train(ctx, n, func(p marl.Progress) { last = p }); err != nil {
			return err
		}
		if quiet {
			continue
		}
		fmt.Fprintf(stderr, "games %d: %d moves, %d updates, loss %.4f, ε %.3f; best test return against the random player %.3f; %v\n",
			last.Games, last.Moves, last.Updates, last.Loss, last.Eps, last.BestReturn, time.Since(start).Round(time.Second))
	}
	best, ret := sp.Best()
	fmt.Fprintf(stdout, "trained in %v; the copy with the best test return (%.3f), %d games against the random player from each seat:\n",
		time.Since(start).Round(time.Second), ret, run.EvalGames)
	results := map[string]marl.Result{}
	for i, seat := range e.PossibleAgents() {
		r, err := versusRandom(run.Env, best, seat, run.EvalGames, run.Seed^0xe7a1+uint64(i))
		if err != nil {
			return err
		}
		results[seat] = r
		fmt.Fprintf(stdout, "  as %s: win %.3f, draw %.3f, loss %.3f\n", seat, r.WinRate(), r.DrawRate(), r.LossRate())
	}
	if logdir != "" {
		f, err := os.Create(filepath.Join(logdir, selfPlayQFile))
		if err != nil {
			return err
		}
		if err := nn.Save(f, sp.BestNetwork().Params(), map[string]string{"env": run.Env, "algo": "dqn-selfplay"}); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		rj, err := json.MarshalIndent(results, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(logdir, "eval.json"), append(rj, '\n'), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Q network: %s\n", filepath.Join(logdir, selfPlayQFile))
	}
	return nil
}

// versusRandom plays games games of envID, p greedy as seat against the
// random player.
func versusRandom(envID string, p marl.Actor, seat string, games int, seed uint64) (marl.Result, error) {
	e, err := multiagent.MakeAEC(envID)
	if err != nil {
		return marl.Result{}, err
	}
	defer e.Close()
	n := 9
	if envID != tictactoe.ID {
		return marl.Result{}, errors.New("only tic-tac-toe has a random player here")
	}
	r := &marl.Random{N: n, Rng: rand.New(rand.NewPCG(seed, 0x7a4d))}
	return marl.Evaluate(e, seat, p, r, games, seed)
}

// applySets applies --set path=value settings to v through its JSON form,
// refusing unknown fields.
func applySets(v any, sets []string) error {
	doc, err := toMap(v)
	if err != nil {
		return err
	}
	for _, s := range sets {
		path, val, ok := strings.Cut(s, "=")
		if !ok || path == "" {
			return fmt.Errorf("--set %q: want path=value", s)
		}
		var x any
		if err := json.Unmarshal([]byte(val), &x); err != nil {
			x = val // a bare string
		}
		if err := setPath(doc, strings.Split(path, "."), x); err != nil {
			return fmt.Errorf("--set %q: %w", s, err)
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	if err := strictDecode(b, v); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	return nil
}
