package marl_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent/spread"
	"github.com/gorl/gorl/env/multiagent/tictactoe"
	"github.com/gorl/gorl/marl"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
)

// scripted plays a fixed list of discrete actions.
type scripted struct {
	moves []int64
	next  int
}

func (s *scripted) Act(dst, obs *batch.Batch, _ any, _ bool) error {
	policy.DiscreteActTo(dst, 1)[0] = s.moves[s.next]
	s.next++
	return nil
}

// constant plays the same Box action every step.
type constant struct{ a []float32 }

func (c constant) Act(dst, obs *batch.Batch, _ any, _ bool) error {
	copy(policy.BoxActTo(dst, 1, len(c.a)), c.a)
	return nil
}

func newBuffer(t *testing.T) *buffer.Replay {
	t.Helper()
	b, err := buffer.New(buffer.Config{Size: 100})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// planesAt returns the planes of cell k (row k mod 3, column k div 3) in a
// tic-tac-toe observation [3, 3, 2] stored at row i of a sampled batch.
func planesAt(t *testing.T, b *batch.Batch, key string, i, k int) (own, theirs int8) {
	t.Helper()
	a, err := b.Array(key)
	if err != nil {
		t.Fatal(err)
	}
	return a.At(i, k%3, k/3, 0).(int8), a.At(i, k%3, k/3, 1).(int8)
}

// TestAECRouting plays a scripted game of tic-tac-toe: player_1 takes cells
// 0, 1, 2 (the first column, a win on its third move), player_2 takes 3
// and 4. Each player's buffer must hold exactly its own moves, with the
// rewards PettingZoo gives (0 until the end, then +1 for player_1 and −1
// for player_2), and the next observation of each transition taken at that
// player's next turn.
func TestAECRouting(t *testing.T) {
	p1, p2 := &scripted{moves: []int64{0, 1, 2}}, &scripted{moves: []int64{3, 4}}
	d, err := marl.NewDispatcher([]string{"player_1", "player_2"}, map[string]marl.Actor{"player_1": p1, "player_2": p2})
	if err != nil {
		t.Fatal(err)
	}
	b1, b2 := newBuffer(t), newBuffer(t)
	c := marl.NewAECCollector(tictactoe.New(), d, map[string]marl.Store{"player_1": b1, "player_2": b2}, env.SeedOf(1))
	eps, err := c.Collect(1, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(eps) != 1 || eps[0].Steps != 5 || eps[0].Returns["player_1"] != 1 || eps[0].Returns["player_2"] != -1 {
		t.Fatalf("episodes %+v; want one of 5 steps with returns +1 and −1", eps)
	}
	for _, c := range []struct {
		name  string
		buf   *buffer.Replay
		acts  []int64
		rews  []float64
		terms []bool
	}{
		{"player_1", b1, []int64{0, 1, 2}, []float64{0, 0, 1}, []bool{false, false, true}},
		{"player_2", b2, []int64{3, 4}, []float64{0, -1}, []bool{false, true}},
	} {
		if c.buf.Len() != len(c.acts) {
			t.Fatalf("%s's buffer holds %d transitions; want %d", c.name, c.buf.Len(), len(c.acts))
		}
		var got batch.Batch
		if err := c.buf.TakeTo(&got, []int{0, 1, 2}[:len(c.acts)]); err != nil {
			t.Fatal(err)
		}
		acts, _ := batch.Values[int64](&got, batch.KeyAct)
		for i, want := range c.acts {
			if acts[i] != want {
				t.Errorf("%s transition %d: act %d; want %d", c.name, i, acts[i], want)
			}
			if r := c.buf.Rew()[i]; r != c.rews[i] {
				t.Errorf("%s transition %d: rew %v; want %v", c.name, i, r, c.rews[i])
			}
			if te := c.buf.Terminated()[i]; te != c.terms[i] {
				t.Errorf("%s transition %d: terminated %v; want %v", c.name, i, te, c.terms[i])
			}
			// The agent's own move is empty in obs and its own mark in
			// obs_next, seen from its side (plane 0).
			if own, theirs := planesAt(t, &got, "obs.obs", i, int(want)); own != 0 || theirs != 0 {
				t.Errorf("%s transition %d: cell %d already taken in obs", c.name, i, want)
			}
			if own, _ := planesAt(t, &got, "obs_next.obs", i, int(want)); own != 1 {
				t.Errorf("%s transition %d: cell %d not its own in obs_next", c.name, i, want)
			}
		}
	}
	// player_2's first obs_next also shows player_1's reply (cell 1), as
	// the opponent's mark: the transition spans the opponent's move.
	var got batch.Batch
	if err := b2.TakeTo(&got, []int{0}); err != nil {
		t.Fatal(err)
	}
	if own, theirs := planesAt(t, &got, "obs_next.obs", 0, 1); own != 0 || theirs != 1 {
		t.Errorf("player_2's obs_next: cell 1 planes %d, %d; want 0, 1", own, theirs)
	}
}

// TestAECSharedPolicy gives both players one Random policy and one buffer:
// every move of the game lands in it.
func TestAECSharedPolicy(t *testing.T) {
	r := &marl.Random{N: 9, Rng: rand.New(rand.NewPCG(1, 1))}
	d, err := marl.NewDispatcher([]string{"player_1", "player_2"}, map[string]marl.Actor{"player_1": r, "player_2": r})
	if err != nil {
		t.Fatal(err)
	}
	b := newBuffer(t)
	c := marl.NewAECCollector(tictactoe.New(), d, map[string]marl.Store{"player_1": b, "player_2": b}, env.SeedOf(1))
	eps, err := c.Collect(5, true)
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	for _, ep := range eps {
		steps += ep.Steps
		if s := ep.Returns["player_1"] + ep.Returns["player_2"]; s != 0 {
			t.Errorf("returns %v do not sum to 0: a random player never plays an illegal move", ep.Returns)
		}
	}
	if b.Len() != steps {
		t.Errorf("buffer holds %d transitions of %d moves", b.Len(), steps)
	}
}

// TestParallelRouting gives each of simple_spread's three agents a
// different constant action: each buffer holds its agent's action and
// reward at every step.
func TestParallelRouting(t *testing.T) {
	e, err := spread.New(spread.Config{N: 3, LocalRatio: 0.5, MaxCycles: 5})
	if err != nil {
		t.Fatal(err)
	}
	acts := map[string][]float32{"agent_0": {0, 1, 0, 0, 0}, "agent_1": {0, 0, 1, 0, 0}, "agent_2": {0, 0, 0, 0, 1}}
	pols, bufs := map[string]marl.Actor{}, map[string]marl.Store{}
	raw := map[string]*buffer.Replay{}
	for a, v := range acts {
		pols[a] = constant{v}
		raw[a] = newBuffer(t)
		bufs[a] = raw[a]
	}
	d, err := marl.NewDispatcher(e.PossibleAgents(), pols)
	if err != nil {
		t.Fatal(err)
	}
	eps, err := marl.NewParallelCollector(e, d, bufs, env.SeedOf(9)).Collect(2, false)
	if err != nil {
		t.Fatal(err)
	}
	for a, want := range acts {
		b := raw[a]
		if b.Len() != 10 {
			t.Fatalf("%s: %d transitions; want 10 (2 episodes of 5 steps)", a, b.Len())
		}
		var got batch.Batch
		if err := b.TakeTo(&got, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}); err != nil {
			t.Fatal(err)
		}
		stored, _ := batch.Values[float32](&got, batch.KeyAct)
		for i := range 10 {
			for k := range 5 {
				if stored[i*5+k] != want[k] {
					t.Fatalf("%s transition %d: act %v; want %v", a, i, stored[i*5:i*5+5], want)
				}
			}
		}
		sum := 0.0
		for _, r := range b.Rew()[:5] {
			sum += r
		}
		if math.Abs(sum-eps[0].Returns[a]) > 1e-12 {
			t.Errorf("%s: stored rewards of episode 1 sum to %v; the episode's return is %v", a, sum, eps[0].Returns[a])
		}
		if !b.Truncated()[4] || b.Truncated()[3] {
			t.Errorf("%s: truncation flags %v", a, b.Truncated()[:5])
		}
	}
}

func TestDispatcherErrors(t *testing.T) {
	r := &marl.Random{N: 9, Rng: rand.New(rand.NewPCG(1, 1))}
	if _, err := marl.NewDispatcher([]string{"a", "b"}, map[string]marl.Actor{"a": r}); err == nil {
		t.Error("no policy for b: no error")
	}
	if _, err := marl.NewDispatcher([]string{"a"}, map[string]marl.Actor{"a": r, "c": r}); err == nil {
		t.Error("a policy for an unknown agent: no error")
	}
	d, err := marl.NewDispatcher([]string{"a"}, map[string]marl.Actor{"a": r})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Set("z", r); err == nil {
		t.Error("Set of an unknown agent: no error")
	}
	if _, err := d.Act("z", nd.Zeros(nd.Float32, 2), false); err == nil {
		t.Error("Act of an unknown agent: no error")
	}
}

// BenchmarkDispatcherAct is one masked greedy move of a Q network on a
// tic-tac-toe board, the step of every collected turn.
func BenchmarkDispatcherAct(b *testing.B) {
	net, err := marl.NewQNet(18, []int{128, 128}, 9, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		b.Fatal(err)
	}
	q := marl.NewMaskedQ(net, 9, rand.New(rand.NewPCG(2, 2)))
	d, err := marl.NewDispatcher([]string{"player_1", "player_2"}, map[string]marl.Actor{"player_1": q, "player_2": q})
	if err != nil {
		b.Fatal(err)
	}
	e := tictactoe.New()
	if err := e.Reset(env.NoSeed); err != nil {
		b.Fatal(err)
	}
	obs := e.Observe("player_1")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.Act("player_1", obs, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAECGame is one game of random players, both recorded.
func BenchmarkAECGame(b *testing.B) {
	r := &marl.Random{N: 9, Rng: rand.New(rand.NewPCG(1, 1))}
	d, err := marl.NewDispatcher([]string{"player_1", "player_2"}, map[string]marl.Actor{"player_1": r, "player_2": r})
	if err != nil {
		b.Fatal(err)
	}
	buf, err := buffer.New(buffer.Config{Size: 10_000})
	if err != nil {
		b.Fatal(err)
	}
	c := marl.NewAECCollector(tictactoe.New(), d, map[string]marl.Store{"player_1": buf, "player_2": buf}, env.SeedOf(1))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Collect(1, true); err != nil {
			b.Fatal(err)
		}
	}
}
