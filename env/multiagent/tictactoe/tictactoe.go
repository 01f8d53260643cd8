// Package tictactoe is tic-tac-toe as a turn-based multi-agent env with
// action masks, PettingZoo's tictactoe_v3 (registered as TicTacToe-v0).
//
// # Overview
//
// Agents "player_1" (who moves first, X) and "player_2" take turns placing
// a mark with an action in Discrete(9). Action k is the cell in row k mod 3
// and column k div 3, PettingZoo's numbering:
//
//	0 | 3 | 6
//	1 | 4 | 7
//	2 | 5 | 8
//
// Each agent observes a Dict: "obs", int8 [3, 3, 2] with plane 0 its own
// marks and plane 1 its opponent's (each agent sees the board from its own
// side), and "action_mask", int8 [9], 1 for the empty cells when it is that
// agent's turn and the game goes on (all 0 otherwise), as PettingZoo's
// observe does.
//
// Three in a row wins: the winner gets +1, the loser −1, and both are
// terminated; a full board without a line is a draw, 0 each.
//
// # Decisions
//
// An illegal move (a cell already taken) ends the game as PettingZoo's
// tictactoe_v3.env() does with its TerminateIllegalWrapper: the agent that
// made it gets −1, the other 0, and both are terminated. An action outside
// Discrete(9) is an error wrapping env.ErrAction and changes nothing. The
// game has no randomness: seeds are accepted and ignored.
package tictactoe

import (
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent"
	"github.com/gorl/gorl/nd"
)

// ID is the registered id.
const ID = "TicTacToe-v0"

func init() {
	multiagent.Register(ID, multiagent.Maker{AEC: func() (multiagent.AEC, error) { return New(), nil }})
}

// IllegalReward is the reward of an agent that plays on a taken cell.
const IllegalReward = -1

var agents = []string{"player_1", "player_2"}

// Env is the tic-tac-toe game. Its observations are owned by the env and
// rewritten by its next Step or Reset.
type Env struct {
	board  [9]int8 // 0 empty, 1 player_1, 2 player_2
	live   []string
	sel    int // index of the selected agent in agents
	rew    [2]float64
	cum    [2]float64
	term   [2]bool
	dead   [2]bool
	moves  int
	reset  bool
	closed bool

	obsSpace *env.Dict
	actSpace *env.Discrete
	obs      [2]*batch.Batch
	planes   [2][]int8
	masks    [2][]int8
}

// New returns a game; Reset starts it.
func New() *Env {
	e := &Env{}
	box, err := env.NewBox(0, 1, []int{3, 3, 2}, nd.Int8)
	if err != nil {
		panic(err)
	}
	mb, err := env.NewMultiBinary(9)
	if err != nil {
		panic(err)
	}
	if e.obsSpace, err = env.NewDict(env.DictEntry{Key: multiagent.KeyObs, Space: box},
		env.DictEntry{Key: multiagent.KeyActionMask, Space: mb}); err != nil {
		panic(err)
	}
	if e.actSpace, err = env.NewDiscrete(9, 0); err != nil {
		panic(err)
	}
	for i := range e.obs {
		p, m := nd.Zeros(nd.Int8, 3, 3, 2), nd.Zeros(nd.Int8, 9)
		e.obs[i] = batch.MustNew(multiagent.KeyObs, p, multiagent.KeyActionMask, m)
		e.planes[i], e.masks[i] = nd.Data[int8](p), nd.Data[int8](m)
	}
	return e
}

// PossibleAgents returns player_1 and player_2.
func (e *Env) PossibleAgents() []string { return agents }

func index(agent string) int {
	for i, a := range agents {
		if a == agent {
			return i
		}
	}
	return -1
}

// ObservationSpace returns the Dict of "obs" (Box(0, 1, (3, 3, 2), int8))
// and "action_mask" (MultiBinary(9)) for both agents.
func (e *Env) ObservationSpace(agent string) env.Space {
	if index(agent) < 0 {
		return nil
	}
	return e.obsSpace
}

// ActionSpace returns Discrete(9) for both agents.
func (e *Env) ActionSpace(agent string) env.Space {
	if index(agent) < 0 {
		return nil
	}
	return e.actSpace
}

// Reset clears the board and selects player_1.
func (e *Env) Reset(env.Seed) error {
	*e = Env{obsSpace: e.obsSpace, actSpace: e.actSpace, obs: e.obs, planes: e.planes, masks: e.masks, live: e.live[:0]}
	e.live = append(e.live, agents...)
	e.reset = true
	return nil
}

// Agents returns the agents that have not taken their dead step.
func (e *Env) Agents() []string { return e.live }

// AgentSelection returns the agent to act, "" once both have left.
func (e *Env) AgentSelection() string {
	if !e.reset || len(e.live) == 0 {
		return ""
	}
	return agents[e.sel]
}

// over reports whether the game has ended.
func (e *Env) over() bool { return e.term[0] }

// Observe returns agent's view of the board (nil for an unknown agent).
func (e *Env) Observe(agent string) any {
	i := index(agent)
	if i < 0 {
		return nil
	}
	p, m := e.planes[i], e.masks[i]
	me, other := int8(i+1), int8(2-i)
	for k, c := range e.board {
		row, col := k%3, k/3
		at := (row*3 + col) * 2
		p[at], p[at+1] = b2i(c == me), b2i(c == other)
		m[k] = b2i(c == 0 && i == e.sel && !e.over())
	}
	return e.obs[i]
}

// Last returns the selected agent's observation, its reward since it last
// acted and its flags.
func (e *Env) Last() (any, float64, bool, bool, env.Info) {
	a := e.AgentSelection()
	if a == "" {
		return nil, 0, false, false, nil
	}
	return e.Observe(a), e.cum[e.sel], e.term[e.sel], false, nil
}

// Reward returns agent's reward from the last Step.
func (e *Env) Reward(agent string) float64 {
	if i := index(agent); i >= 0 {
		return e.rew[i]
	}
	return 0
}

// Terminated reports whether agent's game is over.
func (e *Env) Terminated(agent string) bool {
	i := index(agent)
	return i >= 0 && e.term[i]
}

// Truncated is always false: the game has no time limit.
func (e *Env) Truncated(string) bool { return false }

// Step places the selected agent's mark at action (a 0-d integer array in
// Discrete(9)), or, once the game is over, takes the
// selected agent's dead step with a nil action.
func (e *Env) Step(action any) error {
	if !e.reset || len(e.live) == 0 {
		return fmt.Errorf("tictactoe: Step: %w", env.ErrNeedReset)
	}
	i := e.sel
	if e.over() {
		if action != nil {
			return fmt.Errorf("tictactoe: %w: %s's game is over; its dead step takes a nil action, not %v", env.ErrAction, agents[i], action)
		}
		e.dead[i] = true
		for k, a := range e.live {
			if a == agents[i] {
				e.live = append(e.live[:k], e.live[k+1:]...)
				break
			}
		}
		e.rew = [2]float64{}
		e.cum[i] = 0
		e.sel = 1 - i
		return nil
	}
	k, err := e.actSpace.Int(action)
	if err != nil {
		return fmt.Errorf("tictactoe: %s: %w", agents[i], err)
	}
	e.cum[i] = 0
	e.rew = [2]float64{}
	switch {
	case e.board[k] != 0:
		e.rew[i] = IllegalReward
		e.term = [2]bool{true, true}
	default:
		e.board[k] = int8(i + 1)
		e.moves++
		if e.won(int8(i + 1)) {
			e.rew[i], e.rew[1-i] = 1, -1
			e.term = [2]bool{true, true}
		} else if e.moves == 9 {
			e.term = [2]bool{true, true}
		}
	}
	e.cum[0] += e.rew[0]
	e.cum[1] += e.rew[1]
	e.sel = 1 - i
	return nil
}

// lines are the eight rows, columns and diagonals, by cell index.
var lines = [8][3]int{{0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 4, 8}, {2, 4, 6}}

func (e *Env) won(p int8) bool {
	for _, l := range lines {
		if e.board[l[0]] == p && e.board[l[1]] == p && e.board[l[2]] == p {
			return true
		}
	}
	return false
}

// Close does nothing.
func (e *Env) Close() error {
	e.closed = true
	return nil
}

// Board returns the cells, 0 empty, 1 player_1's mark, 2 player_2's, by
// action index.
func (e *Env) Board() [9]int8 { return e.board }

func b2i(b bool) int8 {
	if b {
		return 1
	}
	return 0
}

// Symmetries returns the board's eight symmetries (rotations and
// reflections) as permutations: for symmetry s, action k maps to
// act[s][k], and element i of the flattened "obs" (and of "action_mask",
// which is act) to obs[s][i]. The first is the identity. Learners use them
// to augment their data.
func (e *Env) Symmetries() (obs, act [][]int) {
	// A cell (row r, column c) maps to one of the eight images of the
	// square [0, 2]².
	maps := []func(r, c int) (int, int){
		func(r, c int) (int, int) { return r, c },
		func(r, c int) (int, int) { return c, 2 - r },
		func(r, c int) (int, int) { return 2 - r, 2 - c },
		func(r, c int) (int, int) { return 2 - c, r },
		func(r, c int) (int, int) { return r, 2 - c },
		func(r, c int) (int, int) { return 2 - r, c },
		func(r, c int) (int, int) { return c, r },
		func(r, c int) (int, int) { return 2 - c, 2 - r },
	}
	for _, m := range maps {
		a, o := make([]int, 9), make([]int, 18)
		for k := range 9 {
			r, c := m(k%3, k/3)
			a[k] = c*3 + r
			for p := range 2 {
				o[(k%3*3+k/3)*2+p] = (r*3+c)*2 + p
			}
		}
		act, obs = append(act, a), append(obs, o)
	}
	return obs, act
}
