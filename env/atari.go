package env

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/nd"
)

// The wrappers of this file are the usual preprocessing of Atari games for
// DQN (Mnih et al., 2015; Machado et al., 2018), Gymnasium's
// AtariPreprocessing and Stable-Baselines3's AtariWrapper taken apart:
// NoopReset, MaxAndSkip, EpisodicLife, GrayscaleResize and SignReward, put
// together with FrameStack by NewAtariPreprocessing. They work on any env
// with image observations, such as an Atari game through the Gymnasium
// bridge.

// noopStream is the second PCG seed word of NoopReset's source, so that its
// draws differ from those of an env seeded with the same value.
const noopStream = 0x6a09e667f3bcc909

// firstAction returns the 0-d int64 array of a Discrete space's first
// action (its start), the no-op of Atari's action sets.
func firstAction(name string, s Space) (*nd.Array, error) {
	d, ok := s.(*Discrete)
	if !ok {
		return nil, fmt.Errorf("%w: %s needs a Discrete action space, not %v", ErrSpace, name, s)
	}
	a := nd.Zeros(nd.Int64)
	nd.Data[int64](a)[0] = d.Start()
	return a, nil
}

// NoopReset starts each episode with a random number of no-op steps, 1 to
// max drawn uniformly, after the wrapped env's Reset, so that a
// deterministic game starts from varied states (Gymnasium's NoopResetEnv).
// The no-op is the first action of the Discrete action space, as in the
// Atari games. An episode that ends during the no-ops is reset again
// (without a seed). The draws come from the wrapper's own PCG stream,
// seeded by Reset's seed as env.Reseed seeds an env's, and saved with its
// state.
type NoopReset struct {
	wrapper
	max    int
	noop   *nd.Array
	src    *rand.PCG
	rng    *rand.Rand
	seeded bool
}

// NewNoopReset wraps e. It returns an error wrapping ErrSpace unless e's
// action space is Discrete, and an error if max < 1.
func NewNoopReset(e Env, max int) (*NoopReset, error) {
	noop, err := firstAction("NoopReset", e.ActionSpace())
	if err != nil {
		return nil, err
	}
	if max < 1 {
		return nil, fmt.Errorf("env: NoopReset with at most %d no-ops: want at least 1", max)
	}
	src := rand.NewPCG(0, 0)
	return &NoopReset{wrapper: wrapper{e}, max: max, noop: noop, src: src, rng: rand.New(src)}, nil
}

// Reset resets the wrapped env and takes the no-op steps.
func (n *NoopReset) Reset(seed Seed) (any, Info, error) {
	if v, ok := seed.Value(); ok {
		n.src.Seed(v, noopStream)
		n.seeded = true
	} else if !n.seeded {
		n.src.Seed(rand.Uint64(), noopStream)
		n.seeded = true
	}
	obs, info, err := n.inner.Reset(seed)
	if err != nil {
		return obs, info, err
	}
	for range 1 + n.rng.IntN(n.max) {
		var term, trunc bool
		if obs, _, term, trunc, info, err = n.inner.Step(n.noop); err != nil {
			return obs, info, err
		}
		if term || trunc {
			if obs, info, err = n.inner.Reset(NoSeed); err != nil {
				return obs, info, err
			}
		}
	}
	return obs, info, nil
}

const noopResetTag = "NoopReset/1"

// MarshalState returns the random stream and the wrapped env's state.
func (n *NoopReset) MarshalState() ([]byte, error) {
	src, err := n.src.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return marshalWrapper(noopResetTag, func(w *stateWriter) {
		w.bool(n.seeded)
		w.bytes(src)
	}, n.inner)
}

// UnmarshalState restores a state MarshalState returned.
func (n *NoopReset) UnmarshalState(data []byte) error {
	var seeded bool
	var src rand.PCG
	return unmarshalWrapper(data, noopResetTag, func(r *stateReader) {
		seeded = r.bool()
		if b := r.bytes(); r.err == nil {
			if err := src.UnmarshalBinary(b); err != nil {
				r.fail("random source: %v", err)
			}
		}
	}, n.inner, func() { n.seeded, *n.src = seeded, src })
}

// MaxAndSkip repeats each action skip times and returns the sum of the
// rewards and the elementwise maximum of the last two observations
// (Gymnasium's MaxAndSkipObservation, the frame skip of Mnih et al.: Atari
// draws some objects only on every other frame). A step stops early when
// the episode ends; with one frame in it, that frame is returned. The info
// is the last step's. Observations must be uint8, float32 or float64 Boxes.
//
// The observation is the wrapper's own array, overwritten by its next call;
// stepping copies each frame once and does not allocate.
type MaxAndSkip struct {
	wrapper
	skip   int
	frames [2]*nd.Array
	out    *nd.Array
	box    *Box
}

// NewMaxAndSkip wraps e. It returns an error wrapping ErrSpace unless e's
// observation space is a Box of one of the dtypes above, and an error if
// skip < 1.
func NewMaxAndSkip(e Env, skip int) (*MaxAndSkip, error) {
	box, ok := e.ObservationSpace().(*Box)
	if !ok || (box.dt != nd.Uint8 && box.dt != nd.Float32 && box.dt != nd.Float64) {
		return nil, fmt.Errorf("%w: MaxAndSkip needs a uint8, float32 or float64 Box, not %v", ErrSpace, e.ObservationSpace())
	}
	if skip < 1 {
		return nil, fmt.Errorf("env: MaxAndSkip of %d frames: want at least 1", skip)
	}
	m := &MaxAndSkip{wrapper: wrapper{e}, skip: skip, box: box, out: nd.Zeros(box.dt, box.shape...)}
	for i := range m.frames {
		m.frames[i] = nd.Zeros(box.dt, box.shape...)
	}
	return m, nil
}

// Reset resets the wrapped env; its observation is returned as it is.
func (m *MaxAndSkip) Reset(seed Seed) (any, Info, error) { return m.inner.Reset(seed) }

// Step plays action up to skip times.
func (m *MaxAndSkip) Step(action any) (any, float64, bool, bool, Info, error) {
	total := 0.0
	var term, trunc bool
	var info Info
	n := 0
	for n < m.skip && !term && !trunc {
		obs, r, te, tr, inf, err := m.inner.Step(action)
		if err != nil {
			return nil, total, false, false, inf, err
		}
		a, ok := obs.(*nd.Array)
		if !ok || !shapeEqual(a, m.box.shape) || a.DType() != m.box.dt {
			return nil, total, false, false, inf, fmt.Errorf("env: MaxAndSkip: the wrapped env returned %s, not an array in %v", describe(obs), m.box)
		}
		if err := nd.CopyTo(m.frames[n%2], a); err != nil {
			return nil, total, false, false, inf, fmt.Errorf("env: MaxAndSkip: %w", err)
		}
		total += r
		term, trunc, info = te, tr, inf
		n++
	}
	if n == 1 {
		nd.CopyTo(m.out, m.frames[0])
	} else {
		maxInto(m.out, m.frames[0], m.frames[1])
	}
	return m.out, total, term, trunc, info, nil
}

// maxInto sets dst to the elementwise maximum of a and b, contiguous
// arrays of dst's dtype and shape (NaN wins, as numpy's maximum).
func maxInto(dst, a, b *nd.Array) {
	switch dst.DType() {
	case nd.Uint8:
		d, x, y := nd.Data[uint8](dst), nd.Data[uint8](a), nd.Data[uint8](b)
		for i := range d {
			d[i] = max(x[i], y[i])
		}
	case nd.Float32:
		d, x, y := nd.Data[float32](dst), nd.Data[float32](a), nd.Data[float32](b)
		for i := range d {
			d[i] = max(x[i], y[i])
		}
	case nd.Float64:
		d, x, y := nd.Data[float64](dst), nd.Data[float64](a), nd.Data[float64](b)
		for i := range d {
			d[i] = max(x[i], y[i])
		}
	}
}

// EpisodicLife ends an episode when a life is lost (DeepMind's
// terminal-on-life-loss, Stable-Baselines3's EpisodicLifeEnv), reading the
// number of lives from the "lives" entry of the wrapped env's Info (an
// integer or float, as Gymnasium's Atari envs give it). Step reports
// terminated when the count falls and stays above 0; the next Reset then
// continues the game with a no-op step (the Discrete space's first action)
// instead of resetting it, unless the game really ended or Reset is given
// a seed. The life count and whether the game ended are saved with the
// wrapped env's state.
type EpisodicLife struct {
	wrapper
	noop     *nd.Array
	lives    int
	gameOver bool // the wrapped env's episode has ended (or never started)
	running  bool // an episode of this wrapper is running
}

// NewEpisodicLife wraps e. It returns an error wrapping ErrSpace unless
// e's action space is Discrete.
func NewEpisodicLife(e Env) (*EpisodicLife, error) {
	noop, err := firstAction("EpisodicLife", e.ActionSpace())
	if err != nil {
		return nil, err
	}
	return &EpisodicLife{wrapper: wrapper{e}, noop: noop, gameOver: true}, nil
}

// Lives returns the number of lives left at the last step.
func (l *EpisodicLife) Lives() int { return l.lives }

func livesOf(info Info) (int, error) {
	switch v := info["lives"].(type) {
	case int:
		return v, nil
	case int64:
		return int(v), nil
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<31 {
			return int(v), nil
		}
	}
	return 0, fmt.Errorf("env: EpisodicLife: the wrapped env's info has no integer \"lives\" (got %v)", info["lives"])
}

// Reset resets the wrapped env after a game over (or with a seed), and
// otherwise plays a no-op step to start the next life.
func (l *EpisodicLife) Reset(seed Seed) (any, Info, error) {
	l.running = false
	var obs any
	var info Info
	var err error
	if _, ok := seed.Value(); ok || l.gameOver {
		obs, info, err = l.inner.Reset(seed)
	} else {
		var term, trunc bool
		obs, _, term, trunc, info, err = l.inner.Step(l.noop)
		if err == nil && (term || trunc) {
			obs, info, err = l.inner.Reset(NoSeed)
		}
	}
	if err != nil {
		return obs, info, err
	}
	if l.lives, err = livesOf(info); err != nil {
		return nil, info, err
	}
	l.gameOver, l.running = false, true
	return obs, info, nil
}

// Step steps the wrapped env and reports the loss of a life as the end of
// the episode.
func (l *EpisodicLife) Step(action any) (any, float64, bool, bool, Info, error) {
	if !l.running {
		return nil, 0, false, false, nil, fmt.Errorf("env: EpisodicLife: Step with no episode running: %w", ErrNeedReset)
	}
	obs, r, term, trunc, info, err := l.inner.Step(action)
	if err != nil {
		return obs, r, term, trunc, info, err
	}
	lives, err := livesOf(info)
	if err != nil {
		return nil, r, term, trunc, info, err
	}
	l.gameOver = term || trunc
	if lives < l.lives && lives > 0 {
		term = true
	}
	l.lives = lives
	l.running = !(term || trunc)
	return obs, r, term, trunc, info, nil
}

const episodicLifeTag = "EpisodicLife/1"

// MarshalState returns the life count, the flags and the wrapped env's
// state.
func (l *EpisodicLife) MarshalState() ([]byte, error) {
	return marshalWrapper(episodicLifeTag, func(w *stateWriter) {
		w.uint(uint64(l.lives))
		w.bool(l.gameOver)
		w.bool(l.running)
	}, l.inner)
}

// UnmarshalState restores a state MarshalState returned.
func (l *EpisodicLife) UnmarshalState(data []byte) error {
	var lives uint64
	var gameOver, running bool
	return unmarshalWrapper(data, episodicLifeTag, func(r *stateReader) {
		lives, gameOver, running = r.uint(), r.bool(), r.bool()
		if r.err == nil && lives >= 1<<31 {
			r.fail("%d lives", lives)
		}
	}, l.inner, func() { l.lives, l.gameOver, l.running = int(lives), gameOver, running })
}

// SignReward returns the sign of r (−1, 0 or +1; 0 for NaN), the reward
// clipping of Mnih et al. (2015), for NewTransformReward.
func SignReward(r float64) float64 {
	switch {
	case r > 0:
		return 1
	case r < 0:
		return -1
	}
	return 0
}

// AtariConfig selects the steps of NewAtariPreprocessing; a zero field
// leaves its step out.
type AtariConfig struct {
	// NoopMax is the largest number of no-ops NoopReset takes at the start
	// of an episode. Default 30.
	NoopMax int `json:"noop_max"`
	// FrameSkip is the number of frames MaxAndSkip repeats each action
	// for, returning the maximum of the last two; 1 repeats nothing.
	// Default 4.
	FrameSkip int `json:"frame_skip"`
	// TerminalOnLifeLoss ends an episode at the loss of a life
	// (EpisodicLife). Default true.
	TerminalOnLifeLoss bool `json:"terminal_on_life_loss"`
	// ScreenSize is the side of the square grayscale frame
	// GrayscaleResize makes. Default 84.
	ScreenSize int `json:"screen_size"`
	// ClipReward replaces each reward by its sign (SignReward). Default
	// true.
	ClipReward bool `json:"clip_reward"`
	// FrameStack is the number of frames FrameStack stacks along a first
	// axis, the channels of a convolutional network; 1 stacks nothing.
	// Default 4.
	FrameStack int `json:"frame_stack"`
}

// DefaultAtariConfig returns Stable-Baselines3's AtariWrapper settings
// with its usual stack of 4 frames: 30 no-ops, a frame skip of 4, the end
// of an episode at a lost life, 84×84 grayscale frames and clipped rewards.
func DefaultAtariConfig() AtariConfig {
	return AtariConfig{NoopMax: 30, FrameSkip: 4, TerminalOnLifeLoss: true, ScreenSize: 84, ClipReward: true, FrameStack: 4}
}

// NewAtariPreprocessing wraps e in the steps cfg selects, innermost first:
// NoopReset, MaxAndSkip, EpisodicLife, GrayscaleResize, SignReward and
// FrameStack, the order of Stable-Baselines3's AtariWrapper followed by a
// frame stack. With the defaults an Atari game's [210, 160, 3] RGB frames
// become observations [4, 84, 84] for nn.NatureCNN. It returns the error of
// the first step that cannot wrap what it is given, and an error for a
// negative field.
func NewAtariPreprocessing(e Env, cfg AtariConfig) (Env, error) {
	if cfg.NoopMax < 0 || cfg.FrameSkip < 0 || cfg.ScreenSize < 0 || cfg.FrameStack < 0 {
		return nil, fmt.Errorf("env: AtariPreprocessing with %+v: negative setting", cfg)
	}
	var err error
	steps := []struct {
		on   bool
		wrap func(Env) (Env, error)
	}{
		{cfg.NoopMax > 0, func(e Env) (Env, error) { return NewNoopReset(e, cfg.NoopMax) }},
		{cfg.FrameSkip > 1, func(e Env) (Env, error) { return NewMaxAndSkip(e, cfg.FrameSkip) }},
		{cfg.TerminalOnLifeLoss, func(e Env) (Env, error) { return NewEpisodicLife(e) }},
		{cfg.ScreenSize > 0, func(e Env) (Env, error) { return NewGrayscaleResize(e, cfg.ScreenSize, cfg.ScreenSize) }},
		{cfg.ClipReward, func(e Env) (Env, error) { return NewTransformReward(e, SignReward) }},
		{cfg.FrameStack > 1, func(e Env) (Env, error) { return NewFrameStack(e, cfg.FrameStack) }},
	}
	for _, s := range steps {
		if s.on {
			if e, err = s.wrap(e); err != nil {
				return nil, err
			}
		}
	}
	return e, nil
}
