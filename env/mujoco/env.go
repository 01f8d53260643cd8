package mujoco

import (
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// ErrUnstable is wrapped by the error of a Step in which the simulation
// became unstable.
var ErrUnstable = errors.New("mujoco: the simulation became unstable and MuJoCo reset it")

//go:embed models/*.xml
var models embed.FS

func init() {
	for _, t := range tasks {
		env.Register(t.id, env.Spec{
			New:             func() (env.Env, error) { return New(t.id) },
			MaxEpisodeSteps: t.maxSteps,
			RewardThreshold: t.threshold,
		})
	}
}

// IDs returns the ids of the tasks this package registers, in the order of
// the package documentation.
func IDs() []string {
	ids := make([]string, len(tasks))
	for i, t := range tasks {
		ids[i] = t.id
	}
	return ids
}

// Env is one of Gymnasium's v4 MuJoCo tasks on the MuJoCo library, without
// time limit (env.Make adds Gymnasium's TimeLimit). Observations are
// float32 arrays in an unbounded Box; actions are float32 or float64
// arrays of the actuators' count, in a Box with the actuators' control
// ranges. An Env saves its whole state (see MarshalState), renders an
// orthographic view of its geoms, and steps without allocating.
type Env struct {
	t        *task
	s        *sim
	dt       float64 // seconds per Step: the model's timestep times the frame skip
	obsSpace *env.Box
	actSpace *env.Box
	obs      *nd.Array
	obsData  []float32
	act      []float64
	body     []int // ids of t.bodies
	site     []int // ids of t.sites
	terms    []float64
	src      *rand.PCG
	rng      *rand.Rand
	frame    *image.RGBA
	order    []int // geoms in drawing order

	seeded   bool // the source has been seeded
	hasState bool // Reset or a restored state has given the sim a state
	running  bool // an episode is running
}

// New returns the task registered as id, such as "HalfCheetah-v4", on a
// freshly compiled model. It returns an error wrapping ErrNoLibrary when
// libmujoco cannot be loaded, and one wrapping env.ErrNotRegistered for an
// id this package does not have.
func New(id string) (*Env, error) {
	var t *task
	for _, c := range tasks {
		if c.id == id {
			t = c
		}
	}
	if t == nil {
		return nil, fmt.Errorf("mujoco: %w: %q (have %v)", env.ErrNotRegistered, id, IDs())
	}
	xml, err := models.ReadFile("models/" + t.model)
	if err != nil {
		return nil, fmt.Errorf("mujoco: %s: %w", id, err)
	}
	s, err := newSim(xml)
	if err != nil {
		return nil, fmt.Errorf("mujoco: %s: %w", id, err)
	}
	e := &Env{t: t, s: s, dt: s.timestep * float64(t.frameSkip), act: make([]float64, s.nu), terms: make([]float64, len(t.terms))}
	fail := func(err error) (*Env, error) {
		s.close()
		return nil, fmt.Errorf("mujoco: %s: %w", id, err)
	}
	for _, name := range t.bodies {
		i, err := s.id(objBody, name)
		if err != nil {
			return fail(err)
		}
		e.body = append(e.body, i)
	}
	for _, name := range t.sites {
		i, err := s.id(objSite, name)
		if err != nil {
			return fail(err)
		}
		e.site = append(e.site, i)
	}
	if e.obsSpace, err = env.NewBox(math.Inf(-1), math.Inf(1), []int{t.obsDim}, nd.Float32); err != nil {
		return fail(err)
	}
	low, high := make([]float32, s.nu), make([]float32, s.nu)
	for i := range s.nu {
		low[i], high[i] = float32(s.ctrlRange[2*i]), float32(s.ctrlRange[2*i+1])
	}
	if e.actSpace, err = env.NewBox(low, high, []int{s.nu}, nd.Float32); err != nil {
		return fail(err)
	}
	e.obs = nd.Zeros(nd.Float32, t.obsDim)
	e.obsData = nd.Data[float32](e.obs)
	e.src = rand.NewPCG(0, 0)
	e.rng = rand.New(e.src)
	return e, nil
}

// ID returns the env's registered id, such as "HalfCheetah-v4".
func (e *Env) ID() string { return e.t.id }

// ObservationSpace returns the unbounded float32 Box of the observations.
func (e *Env) ObservationSpace() env.Space { return e.obsSpace }

// ActionSpace returns the float32 Box of the controls, one per actuator.
func (e *Env) ActionSpace() env.Space { return e.actSpace }

// Dt returns the simulated seconds of one Step: the model's timestep times
// the task's frame skip, Gymnasium's env.dt.
func (e *Env) Dt() float64 { return e.dt }

// Reset starts a new episode as Gymnasium's v4 tasks do: it resets the
// simulation to the model's initial pose (mj_resetData), adds the task's
// reset noise to the positions and velocities, and computes the derived
// quantities (mj_forward). A valid seed reseeds the random stream first.
func (e *Env) Reset(seed env.Seed) (any, env.Info, error) {
	if env.Reseed(e.src, seed, !e.seeded) {
		e.seeded = true
	}
	e.s.resetData()
	e.t.reset(e, e.rng)
	e.s.forward()
	e.t.observe(e, e.obsData)
	clear(e.terms)
	e.hasState, e.running = true, true
	return e.obs, nil, nil
}

// Step applies action as the controls for the task's frame skip and
// returns the observation, the reward and whether the episode terminated;
// it never truncates. Actions outside the control ranges are clamped by
// MuJoCo, while the control cost charges the action as given, as in
// Gymnasium. It returns an error naming the env and wrapping env.ErrAction
// for an action of the wrong dtype or shape, or with a NaN or infinite
// element, and env.ErrNeedReset outside an episode; the env is then
// unchanged. It returns an error wrapping ErrUnstable, with MuJoCo's
// warning, when the physics produced a NaN, infinite or huge value: MuJoCo
// has then reset the simulation, and the episode is over.
func (e *Env) Step(action any) (any, float64, bool, bool, env.Info, error) {
	if !e.running {
		return nil, 0, false, false, nil, fmt.Errorf("%s: Step with no episode running: %w", e.t.id, env.ErrNeedReset)
	}
	if err := e.readAction(action); err != nil {
		return nil, 0, false, false, nil, err
	}
	e.s.takeBad()
	r, term := e.t.step(e, e.act)
	if bad := e.s.takeBad(); bad != "" {
		e.running = false
		return nil, 0, false, false, nil, fmt.Errorf("%s: %w: a bad value in %s (MuJoCo: %q)", e.t.id, ErrUnstable, bad, warningText())
	}
	e.t.observe(e, e.obsData)
	e.running = !term
	return e.obs, r, term, false, nil, nil
}

// readAction copies a valid action into e.act.
func (e *Env) readAction(action any) error {
	a, ok := action.(*nd.Array)
	if ok && a.Ndim() == 1 && a.Dim(0) == len(e.act) && a.IsContiguous() {
		switch a.DType() {
		case nd.Float32:
			for i, x := range nd.Data[float32](a) {
				e.act[i] = float64(x)
			}
		case nd.Float64:
			copy(e.act, nd.Data[float64](a))
		default:
			ok = false
		}
	} else {
		ok = false
	}
	if !ok {
		return fmt.Errorf("%s: %w: want a float array of shape (%d,) in %v, got %v", e.t.id, env.ErrAction, len(e.act), e.actSpace, action)
	}
	if !allFinite(e.act) {
		return fmt.Errorf("%s: %w: action %v is not finite", e.t.id, env.ErrAction, e.act)
	}
	return nil
}

// simulate sets the controls to a and advances the physics by the frame
// skip, Gymnasium's do_simulation.
func (e *Env) simulate(a []float64) {
	copy(e.s.ctrl, a)
	e.s.step(e.t.frameSkip)
}

// RewardTerms returns the names of the terms of the last Step's reward, as
// Gymnasium's v4 tasks name them in their info (InvertedPendulum has
// none), and writes their values into dst, which must have their length.
// A cost is reported negative (reward_ctrl is −weight·‖a‖²).
func (e *Env) RewardTerms(dst []float64) []string {
	copy(dst, e.terms)
	return e.t.terms
}

// QPos returns a copy of the generalized positions (mjData.qpos).
func (e *Env) QPos() []float64 { return append([]float64(nil), e.s.qpos...) }

// QVel returns a copy of the generalized velocities (mjData.qvel).
func (e *Env) QVel() []float64 { return append([]float64(nil), e.s.qvel...) }

// SetState sets the positions and velocities, computes the derived
// quantities and the observation, as Gymnasium's set_state does, and
// starts an episode from there. It returns an error wrapping env.ErrState
// for slices of the wrong length or non-finite values.
func (e *Env) SetState(qpos, qvel []float64) error {
	if len(qpos) != e.s.nq || len(qvel) != e.s.nv || !allFinite(qpos) || !allFinite(qvel) {
		return fmt.Errorf("%s: %w: want %d finite positions and %d velocities", e.t.id, env.ErrState, e.s.nq, e.s.nv)
	}
	copy(e.s.qpos, qpos)
	copy(e.s.qvel, qvel)
	e.s.forward()
	e.t.observe(e, e.obsData)
	e.hasState, e.running = true, true
	return nil
}

// Close frees the MuJoCo model and data. Calling it again does nothing.
func (e *Env) Close() error {
	e.s.close()
	e.hasState, e.running = false, false
	return nil
}

// The saved state of an Env is env.EpisodeState's header with the tag
// "mujoco/1 " followed by the env's id, then
//
//	physics  little-endian float64s: time, qpos, qvel, qacc_warmstart, ctrl,
//	         xpos, xipos, then the observation's float32s (present with
//	         flag 2 only)
//
// The warm start of the constraint solver and the controls are saved with
// the positions and velocities because the next mj_step starts from them.
// The bodies' positions (xpos, xipos) and the observation are saved
// because MuJoCo computes them at the start of a physics step, before it
// integrates: after a step they lag the positions by one physics step, and
// the rewards of Reacher, Ant and Humanoid and Humanoid's observation read
// them as they are. Recomputing them from the positions would not give
// them back.
func (e *Env) stateTag() string { return "mujoco/1 " + e.t.id }

// physicsLen is the byte length of the physics part of a saved state.
func (e *Env) physicsLen() int {
	return 8*(1+e.s.nq+2*e.s.nv+e.s.nu+6*e.s.nbody) + 4*len(e.obsData)
}

// MarshalState returns the env's whole state: flags, random stream,
// simulation time, positions, velocities, solver warm start, controls and
// observation.
func (e *Env) MarshalState() ([]byte, error) {
	b, err := env.AppendEpisodeState(nil, e.stateTag(), &env.EpisodeState{Seeded: e.seeded, HasState: e.hasState, Running: e.running, Source: *e.src})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.t.id, err)
	}
	if e.hasState {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(*e.s.time))
		for _, p := range [][]float64{e.s.qpos, e.s.qvel, e.s.warm, e.s.ctrl, e.s.xpos, e.s.xipos} {
			for _, v := range p {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
			}
		}
		for _, v := range e.obsData {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		}
	}
	return b, nil
}

// UnmarshalState restores a state MarshalState returned for an env of the
// same id. It returns an error wrapping env.ErrState, leaving the env
// unchanged, for anything else.
func (e *Env) UnmarshalState(data []byte) error {
	bad := func(what string) error { return fmt.Errorf("%s: %w: %s", e.t.id, env.ErrState, what) }
	h, data, err := env.ParseEpisodeState(data, e.stateTag())
	if err != nil {
		return bad(err.Error())
	}
	hasState := h.HasState
	want := 0
	if hasState {
		want = e.physicsLen()
	}
	if len(data) != want {
		return bad(fmt.Sprintf("%d bytes of physics, want %d", len(data), want))
	}
	if hasState {
		f := func() float64 {
			v := math.Float64frombits(binary.LittleEndian.Uint64(data))
			data = data[8:]
			return v
		}
		vals := make([]float64, 1+e.s.nq+2*e.s.nv+e.s.nu+6*e.s.nbody)
		for i := range vals {
			vals[i] = f()
		}
		if !allFinite(vals) {
			return bad("a non-finite physical state")
		}
		// mj_forward computes the geoms' positions for Render from the
		// positions and velocities. It also normalizes the quaternions
		// in qpos in place, which may change their last bits, so every
		// saved value is set again after it.
		copy(e.s.qpos, vals[1:])
		copy(e.s.qvel, vals[1+e.s.nq:])
		e.s.forward()
		*e.s.time = vals[0]
		vals = vals[1:]
		for _, p := range [][]float64{e.s.qpos, e.s.qvel, e.s.warm, e.s.ctrl, e.s.xpos, e.s.xipos} {
			vals = vals[copy(p, vals):]
		}
		for i := range e.obsData {
			e.obsData[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
	}
	*e.src = h.Source
	e.seeded, e.hasState, e.running = h.Seeded, hasState, h.Running
	return nil
}
