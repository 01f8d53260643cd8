package minatar

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// Size is the side of the square grid every game plays on.
const Size = 10

// The six actions of the full action set, in MinAtar's order. A game's
// minimal set is a subset of them (see Games).
const (
	NoOp = iota
	Left
	Up
	Right
	Down
	Fire
	numActions
)

// Games lists the five games in the order of the MinAtar paper's table,
// with the names New takes.
var Games = []string{"Asterix", "Breakout", "Freeway", "Seaquest", "SpaceInvaders"}

// DefaultStickyActionProb is the probability with which the previous action
// is repeated instead of the chosen one (Machado et al., 2018, as MinAtar
// uses).
const DefaultStickyActionProb = 0.1

func init() {
	for _, g := range Games {
		for v, minimal := range []bool{false, true} {
			id := fmt.Sprintf("%s-MinAtar-v%d", g, v)
			env.Register(id, env.Spec{New: func() (env.Env, error) {
				cfg := DefaultConfig()
				cfg.MinimalActions = minimal
				return New(g, cfg)
			}})
		}
	}
}

// Config selects the variations of a game that MinAtar offers.
type Config struct {
	// StickyActionProb is the probability, in [0, 1], that a step repeats
	// the previous action (NoOp at the start of an episode) instead of
	// the one given. Default 0.1; 0 makes the games deterministic given
	// their own random draws.
	StickyActionProb float64 `json:"sticky_action_prob"`
	// NoRamping turns the difficulty ramping off (MinAtar's
	// difficulty_ramping=False). Default false: the difficulty ramps.
	NoRamping bool `json:"no_ramping"`
	// MinimalActions restricts the action space to the actions that
	// change something in the game (MinAtar's v1 ids); false gives all six
	// actions, as in the MinAtar paper (the v0 ids).
	MinimalActions bool `json:"minimal_actions"`
}

// DefaultConfig returns MinAtar's defaults: sticky actions with
// probability 0.1, difficulty ramping, the full action set.
func DefaultConfig() Config { return Config{StickyActionProb: DefaultStickyActionProb} }

// ErrConfig is wrapped by the errors of New for an unknown game or an
// invalid Config.
var ErrConfig = errors.New("minatar: invalid configuration")

// random is what the games draw from: *rand.Rand, or a replay of recorded
// draws in the tests.
type random interface {
	Float64() float64
	IntN(n int) int
}

// game is the rules of one game on its own state.
type game interface {
	// channels returns the number of observation channels.
	channels() int
	// minimal returns the game's minimal action set.
	minimal() []int
	// reset starts an episode.
	reset(rng random)
	// step plays one frame with an action of the full set and returns
	// the reward and whether the game is over.
	step(a int, rng random) (reward float64, terminal bool)
	// observe sets the cells of the objects in obs, a zeroed
	// [channels][Size][Size] grid in C order.
	observe(obs []uint8)
	// redraw turns obs, the frame that observe or redraw drew last, into
	// the current frame, changing only what the frames since changed.
	redraw(obs []uint8)
	// difficulty returns how many times the difficulty has ramped up.
	difficulty() int
	// appendState appends the game's fields and readState reads them
	// back, checking every value against the game's invariants.
	appendState(w *writer)
	readState(r *reader)
}

func newGame(name string, ramping bool) (game, error) {
	switch name {
	case "Asterix":
		return &asterix{ramping: ramping}, nil
	case "Breakout":
		return &breakout{}, nil
	case "Freeway":
		return &freeway{}, nil
	case "Seaquest":
		return &seaquest{ramping: ramping}, nil
	case "SpaceInvaders":
		return &spaceInvaders{ramping: ramping}, nil
	}
	return nil, fmt.Errorf("%w: unknown game %q (want one of %v)", ErrConfig, name, Games)
}

// Env is one MinAtar game as an env.Env. Observations are uint8 arrays
// [channels, 10, 10] of 0 and 1 (channels first, the layout of gorl's
// convolutions); actions are 0-d integers of a Discrete space of the full
// six actions or the game's minimal set. Episodes end by the game's own
// termination only (Freeway's after 2500 frames), as in MinAtar.
//
// The env returns the same observation array from every call and steps
// without allocating. Its whole state, random stream included, is saved by
// MarshalState.
type Env struct {
	name    string
	id      string
	cfg     Config
	g       game
	actions []int // env action → full-set action
	actSp   *env.Discrete
	obsSp   *env.Box
	obs     *nd.Array
	obsData []uint8
	src     *rand.PCG
	rng     *rand.Rand
	sticky  uint64 // stickyThreshold(cfg.StickyActionProb)
	frame   *image.RGBA
	last    int // the previous full-set action, for sticky actions

	seeded, hasState, running bool
}

// New returns the game name (one of Games) with the variations cfg sets.
// It returns an error wrapping ErrConfig for an unknown game or a sticky
// probability outside [0, 1].
func New(name string, cfg Config) (*Env, error) {
	if !(cfg.StickyActionProb >= 0 && cfg.StickyActionProb <= 1) {
		return nil, fmt.Errorf("%w: sticky_action_prob %v outside [0, 1]", ErrConfig, cfg.StickyActionProb)
	}
	g, err := newGame(name, !cfg.NoRamping)
	if err != nil {
		return nil, err
	}
	v := 0
	actions := []int{NoOp, Left, Up, Right, Down, Fire}
	if cfg.MinimalActions {
		v, actions = 1, slices.Clone(g.minimal())
	}
	actSp, err := env.NewDiscrete(int64(len(actions)), 0)
	if err != nil {
		return nil, err
	}
	shape := []int{g.channels(), Size, Size}
	obsSp, err := env.NewBox(0.0, 1.0, shape, nd.Uint8)
	if err != nil {
		return nil, err
	}
	obs := nd.Zeros(nd.Uint8, shape...)
	src := rand.NewPCG(0, 0)
	return &Env{
		name: name, id: fmt.Sprintf("%s-MinAtar-v%d", name, v), cfg: cfg, g: g, actions: actions,
		actSp: actSp, obsSp: obsSp, obs: obs, obsData: nd.Data[uint8](obs), src: src, rng: rand.New(src),
		sticky: stickyThreshold(cfg.StickyActionProb),
	}, nil
}

// ID returns the env's id, such as "Breakout-MinAtar-v0" (its registered id
// when cfg has the defaults).
func (e *Env) ID() string { return e.id }

// Game returns the game's name, such as "Breakout".
func (e *Env) Game() string { return e.name }

// Actions returns the full-set action (NoOp … Fire) of each action of the
// action space.
func (e *Env) Actions() []int { return slices.Clone(e.actions) }

// Difficulty returns how many times the game's difficulty has ramped up in
// this episode (MinAtar's difficulty_ramp); 0 for Breakout and Freeway,
// which do not ramp.
func (e *Env) Difficulty() int { return e.g.difficulty() }

// ObservationSpace returns the uint8 Box [channels, 10, 10] of 0 and 1.
func (e *Env) ObservationSpace() env.Space { return e.obsSp }

// ActionSpace returns Discrete(6), or the size of the minimal set.
func (e *Env) ActionSpace() env.Space { return e.actSp }

// Reset starts a new episode, reseeding the random stream first when seed is
// valid, and returns the first observation.
func (e *Env) Reset(seed env.Seed) (any, env.Info, error) {
	if env.Reseed(e.src, seed, !e.seeded) {
		e.seeded = true
	}
	e.g.reset(e.rng)
	e.last = NoOp
	e.hasState, e.running = true, true
	e.observe()
	return e.obs, nil, nil
}

// Step plays one frame. With probability StickyActionProb the previous
// action is played instead of action. It returns an error wrapping
// env.ErrAction for an action outside the action space and env.ErrNeedReset
// outside an episode; the env is then unchanged.
func (e *Env) Step(action any) (any, float64, bool, bool, env.Info, error) {
	if !e.running {
		return nil, 0, false, false, nil, fmt.Errorf("%s: Step with no episode running: %w", e.id, env.ErrNeedReset)
	}
	i, ok := e.actionIndex(action)
	if !ok {
		var err error
		if i, err = e.action(action); err != nil {
			return nil, 0, false, false, nil, fmt.Errorf("%s: %w", e.id, err)
		}
	}
	a := e.actions[i]
	if e.sticky > 0 {
		// Written so that the compiler selects the action instead of
		// branching on the random draw.
		last := e.last
		if e.src.Uint64()&(1<<53-1) < e.sticky {
			a = last
		}
	}
	e.last = a
	r, term := e.g.step(a, e.rng)
	e.running = !term
	e.g.redraw(e.obsData)
	return e.obs, r, term, false, nil, nil
}

// action returns the index of action in the action space: directly for
// the 0-d int64 array that samplers and vector envs pass, through the
// space's checks for anything else.
func (e *Env) action(action any) (int, error) {
	if i, ok := e.actionIndex(action); ok {
		return i, nil
	}
	i, err := e.actSp.Int(action)
	return int(i), err
}

// actionIndex returns the index in the action space of a valid 0-d int64
// array, the action that samplers and vector envs pass, and true; false
// for anything else. It is small enough for the compiler to inline into
// Step, which calls action only when it reports false.
func (e *Env) actionIndex(action any) (int, bool) {
	if a, ok := action.(*nd.Array); ok && a.Ndim() == 0 {
		if v, ok := a.Int64Item(); ok && uint64(v) < uint64(len(e.actions)) {
			return int(v), true
		}
	}
	return 0, false
}

// stickyThreshold returns the integer t for which a draw u from the random
// stream falls below t in its low 53 bits exactly when rand.Rand.Float64,
// which divides those bits by 2^53, returns a value below p. Step compares
// integers instead of converting, and takes from the stream what Float64
// would, so that the games' draws see the same stream. 0 for p = 0: no
// draw is made.
func stickyThreshold(p float64) uint64 { return uint64(math.Ceil(p * (1 << 53))) }

func (e *Env) observe() {
	clear(e.obsData)
	e.g.observe(e.obsData)
}

// Close does nothing and returns nil.
func (e *Env) Close() error { return nil }

// CellPixels is the side, in pixels, of one grid cell in a rendered frame.
const CellPixels = 16

// palette holds the colour of each channel; a cell takes the colour of the
// highest channel set in it, black when none is, as MinAtar's display does.
var palette = [...]color.RGBA{
	{230, 230, 230, 255}, {231, 76, 60, 255}, {241, 196, 15, 255}, {46, 204, 113, 255},
	{52, 152, 219, 255}, {155, 89, 182, 255}, {230, 126, 34, 255}, {26, 188, 156, 255},
	{236, 112, 160, 255}, {149, 165, 166, 255},
}

// Render draws the grid, CellPixels per cell, into a frame the env owns
// and returns it; the next Render redraws it. It returns an error wrapping
// env.ErrNeedReset before the first Reset.
func (e *Env) Render() (image.Image, error) {
	if !e.hasState {
		return nil, fmt.Errorf("%s: Render: %w", e.id, env.ErrNeedReset)
	}
	if e.frame == nil {
		e.frame = image.NewRGBA(image.Rect(0, 0, Size*CellPixels, Size*CellPixels))
	}
	n := e.g.channels()
	for y := range Size {
		for x := range Size {
			c := color.RGBA{0, 0, 0, 255}
			for ch := n - 1; ch >= 0; ch-- {
				if e.obsData[(ch*Size+y)*Size+x] != 0 {
					c = palette[ch]
					break
				}
			}
			for py := y * CellPixels; py < (y+1)*CellPixels; py++ {
				row := e.frame.Pix[py*e.frame.Stride:]
				for px := x * CellPixels; px < (x+1)*CellPixels; px++ {
					row[4*px], row[4*px+1], row[4*px+2], row[4*px+3] = c.R, c.G, c.B, c.A
				}
			}
		}
	}
	return e.frame, nil
}

// The saved state of an Env is env.EpisodeState's header with the tag
// "minatar/1 " followed by the env's id, then, as signed varints, the
// previous action and, with a state, the game's fields.
func (e *Env) stateTag() string { return "minatar/1 " + e.id }

// MarshalState returns the env's whole state: flags, random stream,
// previous action and the game's state.
func (e *Env) MarshalState() ([]byte, error) {
	b, err := env.AppendEpisodeState(nil, e.stateTag(), &env.EpisodeState{Seeded: e.seeded, HasState: e.hasState, Running: e.running, Source: *e.src})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.id, err)
	}
	w := &writer{b: b}
	w.int(e.last)
	if e.hasState {
		e.g.appendState(w)
	}
	return w.b, nil
}

// UnmarshalState restores a state MarshalState returned for an env with the
// same id. It returns an error wrapping env.ErrState, leaving the env
// unchanged, for anything else.
func (e *Env) UnmarshalState(data []byte) error {
	bad := func(err error) error { return fmt.Errorf("%s: %w: %v", e.id, env.ErrState, err) }
	h, data, err := env.ParseEpisodeState(data, e.stateTag())
	if err != nil {
		return bad(err)
	}
	r := &reader{b: data}
	last := r.int(0, numActions-1)
	g, _ := newGame(e.name, !e.cfg.NoRamping)
	if h.HasState {
		g.readState(r)
	}
	r.end()
	if r.err != nil {
		return bad(r.err)
	}
	*e.src = h.Source
	e.g, e.last = g, last
	e.seeded, e.hasState, e.running = h.Seeded, h.HasState, h.Running
	if e.hasState {
		e.observe()
	}
	return nil
}

// writer appends signed varints.
type writer struct{ b []byte }

func (w *writer) int(v int) { w.b = binary.AppendVarint(w.b, int64(v)) }

func (w *writer) bool(v bool) {
	if v {
		w.int(1)
	} else {
		w.int(0)
	}
}

// grid appends a grid of booleans as 100 bits in 13 bytes.
func (w *writer) grid(g *grid) {
	var p [(Size*Size + 7) / 8]byte
	for i, v := range g {
		p[i/8] |= v << (i % 8)
	}
	w.b = append(w.b, p[:]...)
}

// reader reads what a writer wrote; the first problem is kept in err and
// later reads return zero values.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

// int reads a value and checks that it lies in [lo, hi].
func (r *reader) int(lo, hi int) int {
	if r.err != nil {
		return lo
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail("truncated or overlong integer")
		return lo
	}
	r.b = r.b[n:]
	if v < int64(lo) || v > int64(hi) || v > math.MaxInt32 {
		r.fail("value %d outside [%d, %d]", v, lo, hi)
		return lo
	}
	return int(v)
}

func (r *reader) bool() bool { return r.int(0, 1) == 1 }

func (r *reader) grid(g *grid) {
	const n = (Size*Size + 7) / 8
	if r.err != nil {
		return
	}
	if len(r.b) < n {
		r.fail("truncated grid")
		return
	}
	for i := range g {
		g[i] = r.b[i/8] >> (i % 8) & 1
	}
	if r.b[n-1]>>(Size*Size%8) != 0 {
		r.fail("grid padding bits set")
	}
	r.b = r.b[n:]
}

// count reads a number of list elements, each taking at least minBytes
// bytes, so that no more is allocated than the input can hold.
func (r *reader) count(max, minBytes int) int {
	n := r.int(0, max)
	if n*minBytes > len(r.b) {
		r.fail("%d elements in %d bytes", n, len(r.b))
		return 0
	}
	return n
}

func (r *reader) end() {
	if r.err == nil && len(r.b) != 0 {
		r.fail("%d bytes left over", len(r.b))
	}
}

// grid is a 10×10 grid of cells, 1 where an object is and 0 elsewhere,
// row by row: the layout of an observation channel, so that a channel is
// one copy.
type grid [Size * Size]uint8

// count returns the number of cells set.
func (g *grid) count() int {
	n := 0
	for _, v := range g {
		n += int(v)
	}
	return n
}

// set sets cell (y, x) of channel ch in obs.
func set(obs []uint8, ch, y, x int) { obs[(ch*Size+y)*Size+x] = 1 }

// move returns x moved one cell right if right, else left.
func move(x int, right bool) int {
	if right {
		return x + 1
	}
	return x - 1
}

// actionDX and actionDY are the moves of the full-set actions along x and
// y (y growing downwards), for the games that move their player one cell
// per action: a table lookup and a clamp take no branch on the action.
var (
	actionDX = [numActions]int{Left: -1, Right: 1}
	actionDY = [numActions]int{Up: -1, Down: 1}
)

// bit returns 1 for true and 0 for false.
func bit(b bool) uint {
	if b {
		return 1
	}
	return 0
}

// onGrid reports whether 0 ≤ v < Size.
func onGrid(v int) bool { return uint(v) < Size }
