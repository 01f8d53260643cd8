package maze

import (
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// ID is the id the maze is registered under.
const ID = "MaskedMaze-v0"

// The registration's limits: Gymnasium-style episode length and the
// return at which the task counts as solved (the goal reached in at most
// 20 moves).
const (
	MaxEpisodeSteps = 50
	RewardThreshold = 0.8
)

// Rewards of the maze.
const (
	GoalReward    = 1.0   // reaching the goal
	InvalidReward = -1.0  // an invalid move, which ends the episode
	StepReward    = -0.01 // every other valid move
)

// PlainID is the id of the same maze with observations that do not show
// the mask: the baseline of an agent that must learn the walls itself.
const PlainID = "Maze-v0"

func init() {
	th := RewardThreshold
	env.Register(ID, env.Spec{
		New:             func() (env.Env, error) { return New(), nil },
		MaxEpisodeSteps: MaxEpisodeSteps, RewardThreshold: &th,
	})
	env.Register(PlainID, env.Spec{
		New:             func() (env.Env, error) { return NewPlain(), nil },
		MaxEpisodeSteps: MaxEpisodeSteps, RewardThreshold: &th,
	})
}

// layout is the maze: '#' a wall, 'S' the start, 'G' the goal. Its
// shortest path takes 8 moves; dead ends branch off at the top right and
// the bottom left.
var layout = [Size]string{
	"S..#.",
	"##.#.",
	".....",
	".###.",
	"...#G",
}

// Size is the side of the square maze, and Actions the number of moves.
const (
	Size    = 5
	Actions = 4
)

// The moves, in action order: up, right, down, left.
var moves = [Actions][2]int{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}

// Env is the maze. It is driven by one goroutine at a time.
type Env struct {
	obsSpace *env.Dict
	actSpace *env.Discrete
	obs      *batch.Batch
	pos      []float32 // the one-hot position, memory of obs
	mask     []int8    // the action mask, memory of obs
	r, c     int
	running  bool
}

// New returns the maze, before its first Reset.
func New() *Env {
	pos, mask := nd.Zeros(nd.Float32, Size*Size), nd.Zeros(nd.Int8, Actions)
	act, err := env.NewDiscrete(Actions, 0)
	if err != nil {
		panic(err) // a constant, valid space
	}
	box, err := env.NewBox(0.0, 1.0, []int{Size * Size}, nd.Float32)
	if err != nil {
		panic(err)
	}
	obsSpace, err := env.NewMasked(box, Actions)
	if err != nil {
		panic(err)
	}
	return &Env{
		obsSpace: obsSpace, actSpace: act,
		obs: batch.MustNew(batch.KeyObs, pos, env.KeyActionMask, mask),
		pos: nd.Data[float32](pos), mask: nd.Data[int8](mask),
	}
}

// ObservationSpace returns the masked observation space: one-hot positions
// Box(0, 1, (25,)) and MultiBinary(4).
func (e *Env) ObservationSpace() env.Space { return e.obsSpace }

// ActionSpace returns Discrete(4): up, right, down, left.
func (e *Env) ActionSpace() env.Space { return e.actSpace }

// Reset puts the agent on the start cell. The maze is deterministic, so
// seed changes nothing.
func (e *Env) Reset(env.Seed) (any, env.Info, error) {
	e.r, e.c, e.running = 0, 0, true
	e.observe()
	return e.obs, nil, nil
}

// Step moves the agent. A move into a wall or off the grid ends the
// episode (terminated) with InvalidReward and leaves the agent in place;
// reaching the goal ends it with GoalReward; any other move earns
// StepReward. Step returns an error wrapping env.ErrAction for an action
// outside the action space and env.ErrNeedReset outside an episode; the
// env is then unchanged.
func (e *Env) Step(action any) (any, float64, bool, bool, env.Info, error) {
	if !e.running {
		return nil, 0, false, false, nil, fmt.Errorf("%s: Step with no episode running: %w", ID, env.ErrNeedReset)
	}
	a, err := e.actSpace.Int(action)
	if err != nil {
		return nil, 0, false, false, nil, fmt.Errorf("%s: %w", ID, err)
	}
	if e.mask[a] == 0 {
		e.running = false
		return e.obs, InvalidReward, true, false, nil, nil
	}
	e.r += moves[a][0]
	e.c += moves[a][1]
	e.observe()
	if layout[e.r][e.c] == 'G' {
		e.running = false
		return e.obs, GoalReward, true, false, nil, nil
	}
	return e.obs, StepReward, false, false, nil, nil
}

// Close does nothing and returns nil.
func (e *Env) Close() error { return nil }

// open reports whether the cell (r, c) is inside the maze and not a wall.
func open(r, c int) bool {
	return r >= 0 && r < Size && c >= 0 && c < Size && layout[r][c] != '#'
}

// observe writes the position and the action mask of the agent's cell.
func (e *Env) observe() {
	clear(e.pos)
	e.pos[e.r*Size+e.c] = 1
	for a, m := range moves {
		e.mask[a] = 0
		if open(e.r+m[0], e.c+m[1]) {
			e.mask[a] = 1
		}
	}
}

// Plain is the maze with the one-hot position alone as observation (no
// action mask): the same episodes, for agents that do not see the mask.
type Plain struct {
	*Env
	space env.Space
}

// NewPlain returns the maze without the mask in its observations.
func NewPlain() *Plain {
	e := New()
	obs, _, _ := env.Unmasked(e.obsSpace)
	return &Plain{Env: e, space: obs}
}

// ObservationSpace returns Box(0, 1, (25,)).
func (p *Plain) ObservationSpace() env.Space { return p.space }

// Reset is Env's, returning the position alone.
func (p *Plain) Reset(seed env.Seed) (any, env.Info, error) {
	_, info, err := p.Env.Reset(seed)
	return p.position(), info, err
}

// Step is Env's, returning the position alone.
func (p *Plain) Step(action any) (any, float64, bool, bool, env.Info, error) {
	_, rew, term, trunc, info, err := p.Env.Step(action)
	if err != nil {
		return nil, 0, false, false, nil, err
	}
	return p.position(), rew, term, trunc, info, nil
}

func (p *Plain) position() any {
	v, _ := p.obs.Get(batch.KeyObs)
	return v
}
