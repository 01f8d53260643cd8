package tictactoe_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent"
	"github.com/gorl/gorl/env/multiagent/multiagenttest"
	"github.com/gorl/gorl/env/multiagent/tictactoe"
	"github.com/gorl/gorl/nd"
)

func TestConforms(t *testing.T) {
	e, err := multiagent.MakeAEC(tictactoe.ID)
	if err != nil {
		t.Fatal(err)
	}
	multiagenttest.CheckAEC(t, e)
}

// play makes the moves in turn and returns the env.
func play(t *testing.T, moves ...int64) *tictactoe.Env {
	t.Helper()
	e := tictactoe.New()
	if err := e.Reset(env.NoSeed); err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		if err := e.Step(nd.MustNew(m)); err != nil {
			t.Fatalf("move %d: %v", m, err)
		}
	}
	return e
}

// The expected outcomes follow PettingZoo's tictactoe_v3 rules: a line of
// three wins (+1, and −1 for the other), a full board draws (0, 0), and a
// move on a taken cell ends the game with −1 for the mover and 0 for the
// other (its TerminateIllegalWrapper).
func TestOutcomes(t *testing.T) {
	for _, c := range []struct {
		name   string
		moves  []int64
		r1, r2 float64
		over   bool
	}{
		{"player_1 wins the first column", []int64{0, 3, 1, 4, 2}, 1, -1, true},
		{"player_2 wins the diagonal", []int64{1, 0, 2, 4, 3, 8}, -1, 1, true},
		{"draw on a full board", []int64{0, 4, 8, 1, 7, 6, 2, 5, 3}, 0, 0, true},
		{"player_2 plays on a taken cell", []int64{4, 4}, 0, -1, true},
		{"player_1 plays on a taken cell", []int64{4, 0, 0}, -1, 0, true},
		{"game goes on", []int64{4, 0}, 0, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := play(t, c.moves...)
			if r1, r2 := e.Reward("player_1"), e.Reward("player_2"); r1 != c.r1 || r2 != c.r2 {
				t.Errorf("rewards %v, %v; want %v, %v", r1, r2, c.r1, c.r2)
			}
			if e.Terminated("player_1") != c.over || e.Terminated("player_2") != c.over {
				t.Errorf("terminated %v, %v; want %v", e.Terminated("player_1"), e.Terminated("player_2"), c.over)
			}
			if !c.over {
				return
			}
			// Both agents see their reward in Last, then take their dead step.
			seen := map[string]float64{}
			for len(e.Agents()) > 0 {
				a := e.AgentSelection()
				_, r, term, _, _ := e.Last()
				if !term {
					t.Fatalf("%s not terminated after the game", a)
				}
				seen[a] = r
				if err := e.Step(nd.MustNew(int64(0))); !errors.Is(err, env.ErrAction) {
					t.Errorf("a move after the game: %v, want ErrAction", err)
				}
				if err := e.Step(nil); err != nil {
					t.Fatal(err)
				}
			}
			if seen["player_1"] != c.r1 || seen["player_2"] != c.r2 {
				t.Errorf("Last rewards %v; want %v, %v", seen, c.r1, c.r2)
			}
		})
	}
}

// TestObservation checks each agent's planes and mask after X at 0 (row 0,
// column 0) and O at 4 (the centre), with player_1 to move.
func TestObservation(t *testing.T) {
	e := play(t, 0, 4)
	if e.AgentSelection() != "player_1" {
		t.Fatalf("selection %q", e.AgentSelection())
	}
	for _, c := range []struct {
		agent       string
		own, theirs int // cell of the agent's and the opponent's mark
		mask        []int8
	}{
		{"player_1", 0, 4, []int8{0, 1, 1, 1, 0, 1, 1, 1, 1}},
		{"player_2", 4, 0, []int8{0, 0, 0, 0, 0, 0, 0, 0, 0}},
	} {
		obs := e.Observe(c.agent)
		mask, ok := multiagent.Mask(obs)
		if !ok {
			t.Fatalf("%s: no mask in %v", c.agent, obs)
		}
		if string(toBytes(mask)) != string(toBytes(c.mask)) {
			t.Errorf("%s: mask %v; want %v", c.agent, mask, c.mask)
		}
		planes, _ := obs.(interface{ Get(string) (any, bool) }).Get("obs")
		p := nd.Data[int8](planes.(*nd.Array))
		for k := range 9 {
			at := ((k%3)*3 + k/3) * 2
			wantOwn, wantTheirs := b(k == c.own), b(k == c.theirs)
			if p[at] != wantOwn || p[at+1] != wantTheirs {
				t.Errorf("%s: cell %d planes %d, %d; want %d, %d", c.agent, k, p[at], p[at+1], wantOwn, wantTheirs)
			}
		}
	}
}

func b(x bool) int8 {
	if x {
		return 1
	}
	return 0
}

func toBytes(m []int8) []byte {
	out := make([]byte, len(m))
	for i, v := range m {
		out[i] = byte(v)
	}
	return out
}

func TestStepBeforeReset(t *testing.T) {
	e := tictactoe.New()
	if err := e.Step(nd.MustNew(int64(0))); !errors.Is(err, env.ErrNeedReset) {
		t.Errorf("Step before Reset: %v", err)
	}
}

// TestSymmetries: each symmetry maps the board of a game to the board of
// the game played with the mapped moves, seen by both players, and the
// eight are distinct.
func TestSymmetries(t *testing.T) {
	e := tictactoe.New()
	obsPerm, actPerm := e.Symmetries()
	if len(obsPerm) != 8 || len(actPerm) != 8 {
		t.Fatalf("%d and %d symmetries; want 8", len(obsPerm), len(actPerm))
	}
	moves := []int64{0, 4, 5}
	seen := map[string]bool{}
	for s := range 8 {
		mapped := make([]int64, len(moves))
		for i, m := range moves {
			mapped[i] = int64(actPerm[s][m])
		}
		a, b := play(t, moves...), play(t, mapped...)
		for _, agent := range a.PossibleAgents() {
			oa, _ := a.Observe(agent).(interface{ Get(string) (any, bool) }).Get("obs")
			ob, _ := b.Observe(agent).(interface{ Get(string) (any, bool) }).Get("obs")
			pa, pb := nd.Data[int8](oa.(*nd.Array)), nd.Data[int8](ob.(*nd.Array))
			for i, j := range obsPerm[s] {
				if pa[i] != pb[j] {
					t.Fatalf("symmetry %d, %s: obs[%d] = %d but the mapped game has obs[%d] = %d", s, agent, i, pa[i], j, pb[j])
				}
			}
		}
		seen[fmt.Sprint(actPerm[s])] = true
	}
	if len(seen) != 8 {
		t.Errorf("%d distinct symmetries; want 8", len(seen))
	}
}
