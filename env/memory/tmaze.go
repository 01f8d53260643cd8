package memory

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// The T-maze's actions.
const (
	// TMazeForward moves one cell along the corridor (a wall at the
	// junction: no move).
	TMazeForward = iota
	// TMazeUp turns up at the junction, ending the episode (a wall in the
	// corridor: no move).
	TMazeUp
	// TMazeDown turns down at the junction, ending the episode (a wall in
	// the corridor: no move).
	TMazeDown
)

// The elements of the T-maze's observation.
const (
	tmazeCueUp = iota
	tmazeCueDown
	tmazeJunction
	tmazeObsSize
)

const (
	// DefaultTMazeLength is the corridor length of TMaze-v0.
	DefaultTMazeLength = 10
	// TMazeRewardThreshold is the mean return at which TMaze-v0 counts as
	// solved: the right turn in 95% of the episodes.
	TMazeRewardThreshold = 0.9
	// tmazePrefix names the T-mazes of other lengths, "TMaze-v0:L".
	tmazePrefix = "TMaze-v0:"
)

func init() {
	ptr := func(v float64) *float64 { return &v }
	env.Register("TMaze-v0", env.Spec{
		New:             func() (env.Env, error) { return NewTMaze(DefaultTMazeLength) },
		RewardThreshold: ptr(TMazeRewardThreshold),
	})
	env.RegisterPrefix(tmazePrefix, func(name string) (env.Env, error) {
		l, err := strconv.Atoi(name)
		if err != nil {
			return nil, fmt.Errorf("%s%s: the corridor length must be an integer: %w", tmazePrefix, name, err)
		}
		return NewTMaze(l)
	})
}

// TMaze is the T-maze of Bakker ("Reinforcement Learning with Long
// Short-Term Memory", 2001) in a small form: the agent starts at cell 0 of
// a corridor whose junction is cell L, and only the first observation of an
// episode shows the cue, up or down, drawn with equal probability. At the
// junction turning the way the cue said earns +1 and the other way −1; both
// end the episode. Every other step earns 0, and an episode that has not
// ended after MaxSteps steps is truncated.
//
// The observation is a Box of 3 float32 values: cue up, cue down (1 on the
// first step only) and junction (1 at cell L); the corridor between shows
// zeros. The actions are Discrete(3): forward, up and down (TMazeForward,
// TMazeUp, TMazeDown); the corridor's walls and the junction's end wall
// leave the agent where it is.
//
// A feed-forward policy sees the same observation at the junction whatever
// the cue, so whatever it does there its expected return is 0; a policy
// that remembers the cue earns 1.
//
// The env draws the cue from its own PCG source, saves its whole state
// (env.Stater), and returns the same observation array from every call:
// stepping does not allocate.
type TMaze struct {
	length, steps, pos int
	up                 bool // the cue of this episode
	obsSpace           *env.Box
	actSpace           *env.Discrete
	obs                *nd.Array
	src                *rand.PCG
	rng                *rand.Rand
	seeded, running    bool
	hasState           bool // reset at least once
}

// NewTMaze returns a T-maze whose junction is length cells from the start.
// It returns an error for a length below 1.
func NewTMaze(length int) (*TMaze, error) {
	if length < 1 {
		return nil, fmt.Errorf("TMaze: corridor length %d; want ≥ 1", length)
	}
	obs, err := env.NewBox(0.0, 1.0, []int{tmazeObsSize}, nd.Float32)
	if err != nil {
		return nil, err
	}
	act, err := env.NewDiscrete(3, 0)
	if err != nil {
		return nil, err
	}
	src := rand.NewPCG(0, 0)
	return &TMaze{length: length, obsSpace: obs, actSpace: act, obs: nd.Zeros(nd.Float32, tmazeObsSize), src: src, rng: rand.New(src)}, nil
}

// Length returns the corridor length L.
func (e *TMaze) Length() int { return e.length }

// MaxSteps returns the steps after which an episode is truncated: four
// times the L + 1 steps of the shortest path.
func (e *TMaze) MaxSteps() int { return 4 * (e.length + 1) }

// ObservationSpace returns Box(0, 1, [3]).
func (e *TMaze) ObservationSpace() env.Space { return e.obsSpace }

// ActionSpace returns Discrete(3).
func (e *TMaze) ActionSpace() env.Space { return e.actSpace }

// Reset draws the cue, reseeding the random stream first when seed is
// valid (see env.Env.Reset), and returns the first observation, which shows
// it.
func (e *TMaze) Reset(seed env.Seed) (any, env.Info, error) {
	if env.Reseed(e.src, seed, !e.seeded) {
		e.seeded = true
	}
	e.up = e.rng.IntN(2) == 0
	e.pos, e.steps, e.running, e.hasState = 0, 0, true, true
	e.observe(true)
	return e.obs, nil, nil
}

// observe writes the observation of the current cell, with the cue when
// cue is set.
func (e *TMaze) observe(cue bool) {
	o := nd.Data[float32](e.obs)
	clear(o)
	if cue && e.up {
		o[tmazeCueUp] = 1
	} else if cue {
		o[tmazeCueDown] = 1
	}
	if e.pos == e.length {
		o[tmazeJunction] = 1
	}
}

// Step takes action and returns the next observation, the reward and
// whether the episode terminated (a turn at the junction) or was truncated
// (MaxSteps). It returns an error wrapping env.ErrAction for an action
// outside the action space and env.ErrNeedReset outside an episode; the
// env is then unchanged.
func (e *TMaze) Step(action any) (any, float64, bool, bool, env.Info, error) {
	if !e.running {
		return nil, 0, false, false, nil, fmt.Errorf("TMaze: Step with no episode running: %w", env.ErrNeedReset)
	}
	a, err := e.actSpace.Int(action)
	if err != nil {
		return nil, 0, false, false, nil, fmt.Errorf("TMaze: %w", err)
	}
	e.steps++
	reward, term := 0.0, false
	switch {
	case a == TMazeForward && e.pos < e.length:
		e.pos++
	case a != TMazeForward && e.pos == e.length:
		term = true
		reward = -1
		if (a == TMazeUp) == e.up {
			reward = 1
		}
	}
	trunc := !term && e.steps >= e.MaxSteps()
	e.running = !term && !trunc
	e.observe(false)
	return e.obs, reward, term, trunc, nil, nil
}

// Close does nothing and returns nil.
func (e *TMaze) Close() error { return nil }

// stateTag starts the saved state: env.EpisodeState's header with the
// kind, format version and corridor length.
func (e *TMaze) stateTag() string { return fmt.Sprintf("tmaze/1 %d ", e.length) }

// MarshalState returns the env's whole state: flags, random stream, cell,
// steps taken and cue. The saved state is env.EpisodeState's header, then
// the cell and the steps as uvarints and the cue as a byte (1: up).
func (e *TMaze) MarshalState() ([]byte, error) {
	b, err := env.AppendEpisodeState(nil, e.stateTag(), &env.EpisodeState{Seeded: e.seeded, HasState: e.hasState, Running: e.running, Source: *e.src})
	if err != nil {
		return nil, fmt.Errorf("TMaze: %w", err)
	}
	b = binary.AppendUvarint(binary.AppendUvarint(b, uint64(e.pos)), uint64(e.steps))
	up := byte(0)
	if e.up {
		up = 1
	}
	return append(b, up), nil
}

// UnmarshalState restores a state MarshalState returned for a T-maze of the
// same length. It returns an error wrapping env.ErrState, leaving the env
// unchanged, for anything else.
func (e *TMaze) UnmarshalState(data []byte) error {
	bad := func(what string) error { return fmt.Errorf("TMaze: %w: %s", env.ErrState, what) }
	h, data, err := env.ParseEpisodeState(data, e.stateTag())
	if err != nil {
		return bad(err.Error())
	}
	pos, k := binary.Uvarint(data)
	if k <= 0 || pos > uint64(e.length) {
		return bad("bad cell")
	}
	data = data[k:]
	steps, k := binary.Uvarint(data)
	if k <= 0 || steps > uint64(e.MaxSteps()) {
		return bad("bad step count")
	}
	data = data[k:]
	if len(data) != 1 || data[0] > 1 {
		return bad("bad cue")
	}
	*e.src = h.Source
	e.seeded, e.hasState, e.running = h.Seeded, h.HasState, h.Running
	e.pos, e.steps, e.up = int(pos), int(steps), data[0] == 1
	e.observe(e.hasState && e.steps == 0)
	return nil
}
