package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/gorl/gorl/env/multiagent/tictactoe"
	"github.com/gorl/gorl/marl"
)

// The tic-tac-toe bar of the multi-agent issue: against the random player,
// a win rate of at least 0.9 and a loss rate of at most 0.02 over 1,000
// games.
const (
	tttGames   = 1000
	tttWin     = 0.9
	tttMaxLoss = 0.02
)

func init() {
	RegisterBench("tictactoe-selfplay", BenchRun{
		Doc: "self-play DQN on TicTacToe-v0 (gorl train --selfplay's settings), 1,000 games against the random player from each seat: win ≥ 0.9 and loss ≤ 0.02 from both seats on 4 of 5 seeds",
		Run: tttRuns,
	})
}

// tttRuns trains marl.SelfPlay with its default settings once per seed and
// plays the greedy learner against the random player, tttGames games from
// each seat; the random player against itself is the baseline.
func tttRuns(ctx context.Context, o BenchOptions, w io.Writer) error {
	cfg := marl.DefaultSelfPlayConfig()
	fmt.Fprintf(w, "Self-play DQN on %s: %d games, %.0f%% against the random player and the rest against the last %d copies of the learner;\n"+
		"then %d games against the random player from each seat by the greedy copy with the best test return (500 games a seat every 500 games). Bar: win ≥ %.2f and loss ≤ %.2f from both seats.\n\n",
		tictactoe.ID, cfg.Games, 100*cfg.RandomShare, cfg.PoolSize, tttGames, tttWin, tttMaxLoss)
	tb := newTable(w, "seed", "as player_1: win / draw / loss", "as player_2: win / draw / loss", "train time", "bar")
	met := 0
	var seatMet [2]int
	for i := range o.Seeds {
		seed := o.FirstSeed + uint64(i)
		start := time.Now()
		sp, err := marl.NewSelfPlay(cfg, tictactoe.New(), rand.New(rand.NewPCG(seed, 0x5e1f)))
		if err != nil {
			return err
		}
		if err := sp.Train(ctx, cfg.Games, nil); err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		took := time.Since(start)
		best, _ := sp.Best()
		var cells []string
		ok := true
		for j, seat := range []string{"player_1", "player_2"} {
			r, err := versusRandom(tictactoe.ID, best, seat, tttGames, seed*7919+uint64(j))
			if err != nil {
				return err
			}
			seatOK := r.WinRate() >= tttWin && r.LossRate() <= tttMaxLoss
			if seatOK {
				seatMet[j]++
			}
			ok = ok && seatOK
			cells = append(cells, fmt.Sprintf("%.3f / %.3f / %.3f", r.WinRate(), r.DrawRate(), r.LossRate()))
		}
		if ok {
			met++
		}
		tb.Row(fmt.Sprint(seed), cells[0], cells[1], took.Round(time.Second).String(), map[bool]string{true: "met", false: "missed"}[ok])
		fmt.Fprintf(o.Log, "tictactoe seed %d: %s, %s\n", seed, cells[0], cells[1])
	}
	// The baseline: the random player in the learner's place.
	var cells []string
	for j, seat := range []string{"player_1", "player_2"} {
		r, err := versusRandom(tictactoe.ID, &marl.Random{N: 9, Rng: rand.New(rand.NewPCG(o.FirstSeed, 0xba5e))}, seat, tttGames, o.FirstSeed+uint64(j))
		if err != nil {
			return err
		}
		cells = append(cells, fmt.Sprintf("%.3f / %.3f / %.3f", r.WinRate(), r.DrawRate(), r.LossRate()))
	}
	tb.Row("random player", cells[0], cells[1], "", "")
	tb.Flush()
	need := (4*o.Seeds + 4) / 5
	fmt.Fprintf(w, "\nbar met from both seats on %d of %d seeds (need %d); as player_1 on %d, as player_2 on %d\n",
		met, o.Seeds, need, seatMet[0], seatMet[1])
	if met < need {
		return fmt.Errorf("%w: tic-tac-toe bar met on %d of %d seeds", errNotLearned, met, o.Seeds)
	}
	return nil
}
