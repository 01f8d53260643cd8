package classic

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

func init() {
	register := func(id string, maxSteps int, threshold, test *float64, mk func() (*Env, error)) {
		env.Register(id, env.Spec{
			New:             func() (env.Env, error) { return mk() },
			MaxEpisodeSteps: maxSteps,
			RewardThreshold: threshold,
			TestThreshold:   test,
		})
	}
	ptr := func(v float64) *float64 { return &v }
	register("CartPole-v1", CartPoleMaxEpisodeSteps, ptr(CartPoleRewardThreshold), ptr(CartPoleTestThreshold),
		func() (*Env, error) { return NewCartPoleEnv(NewCartPole()) })
	register("MountainCar-v0", MountainCarMaxEpisodeSteps, ptr(MountainCarRewardThreshold), nil,
		func() (*Env, error) { return NewMountainCarEnv(NewMountainCar()) })
	register("MountainCarContinuous-v0", MountainCarContinuousMaxEpisodeSteps, ptr(MountainCarContinuousRewardThreshold), nil,
		func() (*Env, error) { return NewMountainCarContinuousEnv(NewMountainCarContinuous()) })
	register("Pendulum-v1", PendulumMaxEpisodeSteps, nil, ptr(PendulumTestThreshold),
		func() (*Env, error) { return NewPendulumEnv(NewPendulum()) })
	register("Acrobot-v1", AcrobotMaxEpisodeSteps, ptr(AcrobotRewardThreshold), nil,
		func() (*Env, error) { return NewAcrobotEnv(NewAcrobot()) })
}

// sim is the raw API the five envs share.
type sim interface {
	Reset(rng *rand.Rand)
	State() []float64
	SetState(s []float64) error
	Observe(dst []float32)
	Render() *image.RGBA
	RenderTo(dst *image.RGBA)
	ObservationBounds() (low, high []float32)
}

// discreteSim is a sim with an integer action.
type discreteSim interface {
	sim
	NumActions() int
	Step(action int) (reward float64, terminated bool, err error)
}

// continuousSim is a sim with a one-element float action.
type continuousSim interface {
	sim
	ActionBounds() (low, high float32)
	Step(action float32) (reward float64, terminated bool, err error)
}

// Env adapts one of the classic envs to env.Env, without time limit (Make
// adds Gymnasium's TimeLimit): observations are float32 arrays in a Box
// built from ObservationBounds, actions are 0-d integer arrays of a
// Discrete space (CartPole, MountainCar, Acrobot) or one-element float
// arrays of a Box (MountainCarContinuous, Pendulum; out-of-bounds values
// are clipped by the env, as in Gymnasium).
//
// The env's random stream is a PCG source seeded by env.Reseed, so an Env
// saves its whole state: physics, episode flags and random stream. It
// renders into one frame that each Render redraws, and returns the same
// observation array from every call: stepping does not allocate.
//
// As env.Env requires, Step after termination is an error (ErrNeedReset):
// CartPole's stepping on after a fall, with reward 0, is not reachable
// through an Env, which is also why the saved state can restore the raw
// env with SetState (which forgets the fall). SetState also forgets
// Pendulum's last torque, so a restored Pendulum draws no torque arrow
// until its next step; everything a step computes is restored exactly.
type Env struct {
	id       string
	sim      sim
	disc     discreteSim
	cont     continuousSim
	obsSpace *env.Box
	actSpace env.Space
	discrete *env.Discrete
	obs      *nd.Array
	obsData  []float32
	src      *rand.PCG
	rng      *rand.Rand
	frame    *image.RGBA

	seeded   bool // the source has been seeded
	hasState bool // Reset or a restored state has given the sim a state
	running  bool // an episode is running
}

// NewCartPoleEnv returns c as CartPole-v1. It returns an error if c's
// parameters give observation bounds a Box rejects (NaN).
func NewCartPoleEnv(c *CartPole) (*Env, error) { return newDiscrete("CartPole-v1", c) }

// NewMountainCarEnv returns m as MountainCar-v0. It returns an error if m's
// parameters give observation bounds a Box rejects.
func NewMountainCarEnv(m *MountainCar) (*Env, error) { return newDiscrete("MountainCar-v0", m) }

// NewAcrobotEnv returns a as Acrobot-v1. It returns an error if a's
// parameters give observation bounds a Box rejects.
func NewAcrobotEnv(a *Acrobot) (*Env, error) { return newDiscrete("Acrobot-v1", a) }

// NewMountainCarContinuousEnv returns m as MountainCarContinuous-v0. It
// returns an error if m's parameters give bounds a Box rejects.
func NewMountainCarContinuousEnv(m *MountainCarContinuous) (*Env, error) {
	return newContinuous("MountainCarContinuous-v0", m)
}

// NewPendulumEnv returns p as Pendulum-v1. It returns an error if p's
// parameters give bounds a Box rejects.
func NewPendulumEnv(p *Pendulum) (*Env, error) { return newContinuous("Pendulum-v1", p) }

func newEnv(id string, s sim) (*Env, error) {
	low, high := s.ObservationBounds()
	obsSpace, err := env.NewBox(low, high, nil, nd.Float32)
	if err != nil {
		return nil, fmt.Errorf("%s: observation space: %w", id, err)
	}
	obs := nd.Zeros(nd.Float32, len(low))
	src := rand.NewPCG(0, 0)
	return &Env{id: id, sim: s, obsSpace: obsSpace, obs: obs, obsData: nd.Data[float32](obs), src: src, rng: rand.New(src)}, nil
}

func newDiscrete(id string, s discreteSim) (*Env, error) {
	e, err := newEnv(id, s)
	if err != nil {
		return nil, err
	}
	if e.discrete, err = env.NewDiscrete(int64(s.NumActions()), 0); err != nil {
		return nil, fmt.Errorf("%s: action space: %w", id, err)
	}
	e.disc, e.actSpace = s, e.discrete
	return e, nil
}

func newContinuous(id string, s continuousSim) (*Env, error) {
	e, err := newEnv(id, s)
	if err != nil {
		return nil, err
	}
	low, high := s.ActionBounds()
	if e.actSpace, err = env.NewBox(low, high, []int{1}, nd.Float32); err != nil {
		return nil, fmt.Errorf("%s: action space: %w", id, err)
	}
	e.cont = s
	return e, nil
}

// ID returns the env's registered id, such as "CartPole-v1".
func (e *Env) ID() string { return e.id }

// ObservationSpace returns the float32 Box of the observations.
func (e *Env) ObservationSpace() env.Space { return e.obsSpace }

// ActionSpace returns Discrete(n) or the one-element float32 Box of forces
// or torques.
func (e *Env) ActionSpace() env.Space { return e.actSpace }

// Reset samples a new initial state, reseeding the random stream first
// when seed is valid (see env.Env.Reset), and returns the observation.
func (e *Env) Reset(seed env.Seed) (any, env.Info, error) {
	if env.Reseed(e.src, seed, !e.seeded) {
		e.seeded = true
	}
	e.sim.Reset(e.rng)
	e.sim.Observe(e.obsData)
	e.hasState, e.running = true, true
	return e.obs, nil, nil
}

// Step applies action and returns the observation, the reward and whether
// the episode terminated; it never truncates. It returns an error naming
// the env and wrapping env.ErrAction for an action outside the action space
// (a continuous one may exceed its bounds, and is clipped, but must be a
// finite float of shape (1,)), env.ErrNeedReset outside an episode, and
// ErrState if the step would leave the state non-finite; the env is then
// unchanged.
func (e *Env) Step(action any) (any, float64, bool, bool, env.Info, error) {
	if !e.running {
		return nil, 0, false, false, nil, fmt.Errorf("%s: Step with no episode running: %w", e.id, env.ErrNeedReset)
	}
	var r float64
	var term bool
	var err error
	if e.disc != nil {
		a, aerr := e.discrete.Int(action)
		if aerr != nil {
			return nil, 0, false, false, nil, fmt.Errorf("%s: %w", e.id, aerr)
		}
		r, term, err = e.disc.Step(int(a))
	} else {
		a, aerr := e.force(action)
		if aerr != nil {
			return nil, 0, false, false, nil, aerr
		}
		r, term, err = e.cont.Step(a)
	}
	if err != nil {
		if errors.Is(err, ErrAction) {
			return nil, 0, false, false, nil, fmt.Errorf("%s: %w: %w", e.id, env.ErrAction, err)
		}
		return nil, 0, false, false, nil, fmt.Errorf("%s: %w", e.id, err)
	}
	e.sim.Observe(e.obsData)
	e.running = !term
	return e.obs, r, term, false, nil, nil
}

// force reads a continuous action: a float32 or float64 array of shape (1,).
func (e *Env) force(action any) (float32, error) {
	if a, ok := action.(*nd.Array); ok && a.Ndim() == 1 && a.Dim(0) == 1 && a.IsContiguous() {
		switch a.DType() {
		case nd.Float32:
			return nd.Data[float32](a)[0], nil
		case nd.Float64:
			return float32(nd.Data[float64](a)[0]), nil
		}
	}
	return 0, fmt.Errorf("%s: %w: want a float array of shape (1,) in %v, got %v", e.id, env.ErrAction, e.actSpace, action)
}

// Render draws the current state into the env's frame and returns it; the
// frame is redrawn by the next Render. It returns an error wrapping
// env.ErrNeedReset before the first Reset.
func (e *Env) Render() (image.Image, error) {
	if !e.hasState {
		return nil, fmt.Errorf("%s: Render: %w", e.id, env.ErrNeedReset)
	}
	if e.frame == nil {
		e.frame = e.sim.Render()
	} else {
		e.sim.RenderTo(e.frame)
	}
	return e.frame, nil
}

// Close does nothing: a classic env holds no resource. It returns nil.
func (e *Env) Close() error { return nil }

// The saved state of an Env is env.EpisodeState's header with the tag
// "classic/1 " followed by the env's id, then
//
//	state    uvarint count + little-endian float64s of State()
func (e *Env) stateTag() string { return "classic/1 " + e.id }

// MarshalState returns the env's whole state: flags, random stream and
// physical state.
func (e *Env) MarshalState() ([]byte, error) {
	b, err := env.AppendEpisodeState(nil, e.stateTag(), &env.EpisodeState{Seeded: e.seeded, HasState: e.hasState, Running: e.running, Source: *e.src})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.id, err)
	}
	var state []float64
	if e.hasState {
		state = e.sim.State()
	}
	b = binary.AppendUvarint(b, uint64(len(state)))
	for _, v := range state {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b, nil
}

// UnmarshalState restores a state MarshalState returned for an env of the
// same id. It returns an error wrapping env.ErrState, leaving the env
// unchanged, for anything else.
func (e *Env) UnmarshalState(data []byte) error {
	bad := func(what string) error { return fmt.Errorf("%s: %w: %s", e.id, env.ErrState, what) }
	h, data, err := env.ParseEpisodeState(data, e.stateTag())
	if err != nil {
		return bad(err.Error())
	}
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)-k)/8 || uint64(len(data)-k) != 8*n {
		return bad("truncated physical state")
	}
	data = data[k:]
	state := make([]float64, n)
	for i := range state {
		state[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
	}
	if h.HasState {
		if err := e.sim.SetState(state); err != nil {
			return bad(err.Error())
		}
	} else if n != 0 {
		return bad("a physical state without the flag")
	}
	*e.src = h.Source
	e.seeded, e.hasState, e.running = h.Seeded, h.HasState, h.Running
	if e.hasState {
		e.sim.Observe(e.obsData)
	}
	return nil
}
