package marl_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/env/multiagent/tictactoe"
	"github.com/gorl/gorl/marl"
	"github.com/gorl/gorl/nn"
)

func smallConfig() marl.SelfPlayConfig {
	c := marl.DefaultSelfPlayConfig()
	c.Hidden, c.Games, c.BatchSize, c.SnapshotEvery, c.PoolSize = []int{16}, 40, 8, 10, 2
	c.DQN.EpsDecaySteps = 50
	c.TestEvery, c.TestGames = 20, 5
	return c
}

func weights(t *testing.T, s *marl.SelfPlay) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := nn.Save(&b, s.Network().Params(), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSelfPlayDeterminism trains twice with one seed (equal weights) and
// once with another (different weights), and checks the counters: every
// game adds the learner's moves, and one gradient step follows each move
// once the buffer holds a batch.
func TestSelfPlayDeterminism(t *testing.T) {
	run := func(seed uint64) (*marl.SelfPlay, marl.Progress) {
		s, err := marl.NewSelfPlay(smallConfig(), tictactoe.New(), rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		var last marl.Progress
		if err := s.Train(context.Background(), 40, func(p marl.Progress) { last = p }); err != nil {
			t.Fatal(err)
		}
		return s, last
	}
	a, pa := run(1)
	b, pb := run(1)
	c, _ := run(2)
	if pa != pb || !bytes.Equal(weights(t, a), weights(t, b)) {
		t.Errorf("two runs with seed 1 differ: %+v and %+v", pa, pb)
	}
	if bytes.Equal(weights(t, a), weights(t, c)) {
		t.Error("seeds 1 and 2 give the same weights")
	}
	// 40 games of at least 2 and at most 5 moves of the learner.
	if pa.Games != 40 || pa.Moves < 80 || pa.Moves > 200 {
		t.Errorf("progress %+v: want 40 games of 2 to 5 learner moves", pa)
	}
	// Updates start once 8 moves are stored, one per move after that.
	if pa.Updates < pa.Moves-8-5 || pa.Updates > pa.Moves {
		t.Errorf("%d updates for %d moves", pa.Updates, pa.Moves)
	}
}

func TestSelfPlayConfigErrors(t *testing.T) {
	for name, edit := range map[string]func(*marl.SelfPlayConfig){
		"n_step 3":        func(c *marl.SelfPlayConfig) { c.DQN.NStep = 3 },
		"no hidden":       func(c *marl.SelfPlayConfig) { c.Hidden = nil },
		"random share 2":  func(c *marl.SelfPlayConfig) { c.RandomShare = 2 },
		"no games":        func(c *marl.SelfPlayConfig) { c.Games = 0 },
		"pool 0":          func(c *marl.SelfPlayConfig) { c.PoolSize = 0 },
		"updates 0":       func(c *marl.SelfPlayConfig) { c.UpdatesPerMove = 0 },
		"dqn gamma 2":     func(c *marl.SelfPlayConfig) { c.DQN.Gamma = 2 },
		"opponent eps -1": func(c *marl.SelfPlayConfig) { c.OpponentEps = -1 },
	} {
		c := smallConfig()
		edit(&c)
		if _, err := marl.NewSelfPlay(c, tictactoe.New(), rand.New(rand.NewPCG(1, 1))); !errors.Is(err, marl.ErrConfig) {
			t.Errorf("%s: error %v, want one wrapping ErrConfig", name, err)
		}
	}
}

// TestEvaluateRandom plays the random player against itself: over 2,000
// games the first player wins 0.585, the second 0.288 and 0.127 are drawn
// (exact values by enumerating every game of uniformly random moves:
// 0.5849, 0.2881, 0.1270); the tolerance 0.035 is about three standard
// errors.
func TestEvaluateRandom(t *testing.T) {
	r := &marl.Random{N: 9, Rng: rand.New(rand.NewPCG(3, 3))}
	res, err := marl.Evaluate(tictactoe.New(), "player_1", r, r, 2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"win", res.WinRate(), 0.5849}, {"loss", res.LossRate(), 0.2881}, {"draw", res.DrawRate(), 0.1270}} {
		if d := c.got - c.want; d > 0.035 || d < -0.035 {
			t.Errorf("%s rate %.3f; want %.3f ± 0.035", c.name, c.got, c.want)
		}
	}
}

func BenchmarkSelfPlayGame(b *testing.B) {
	c := smallConfig()
	c.Hidden = []int{128, 128}
	c.BatchSize = 64
	s, err := marl.NewSelfPlay(c, tictactoe.New(), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Train(context.Background(), 40, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Train(context.Background(), 1, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAugment stores every move of the learner eight times, mapped by the
// board's symmetries: the buffer holds 8 transitions per move, and the
// first eight hold the eight images of the first move.
func TestAugment(t *testing.T) {
	c := smallConfig()
	c.Augment, c.TestEvery, c.Warmup = true, 0, 1_000_000
	s, err := marl.NewSelfPlay(c, tictactoe.New(), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	var last marl.Progress
	if err := s.Train(context.Background(), 3, func(p marl.Progress) { last = p }); err != nil {
		t.Fatal(err)
	}
	if got := s.BufferLen(); got != 8*int(last.Moves) {
		t.Errorf("%d transitions stored for %d moves; want 8 per move", got, last.Moves)
	}
	_, act := tictactoe.New().Symmetries()
	acts := s.BufferActs(8)
	for k := range 8 {
		if acts[k] != int64(act[k][acts[0]]) {
			t.Errorf("image %d of move %d is %d; want %d", k, acts[0], acts[k], act[k][acts[0]])
		}
	}
}
