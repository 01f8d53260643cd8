package tabular

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

func init() {
	ptr := func(v float64) *float64 { return &v }
	// Gymnasium registers FrozenLake-v1 with 100 steps and threshold 0.70.
	env.Register("FrozenLake-v1", env.Spec{
		New:             func() (env.Env, error) { return NewEnv(FrozenLake()) },
		MaxEpisodeSteps: 100, RewardThreshold: ptr(0.70),
	})
	// Gym's NChain-v0 had 1,000 steps and no threshold; Tianshou's PSRL
	// test stops at 3,400.
	env.Register("NChain-v0", env.Spec{
		New: func() (env.Env, error) {
			m, err := NChain(5, 0.2, 2, 10)
			if err != nil {
				return nil, err
			}
			return NewEnv(m)
		},
		MaxEpisodeSteps: 1000, TestThreshold: ptr(3400),
	})
}

// Env runs an MDP as an env.Env, without time limit (Make adds the
// registered one). It draws the first state and every step's outcome from
// its own PCG source, saves its whole state (env.Stater), and returns the
// same observation array from every call: stepping does not allocate.
type Env struct {
	m        *MDP
	obsSpace *env.Discrete
	actSpace *env.Discrete
	obs      *nd.Array
	state    int
	src      *rand.PCG
	rng      *rand.Rand

	seeded, hasState, running bool
}

// NewEnv returns an env running m, with observation space Discrete(m.States)
// and action space Discrete(m.Actions).
func NewEnv(m *MDP) (*Env, error) {
	obs, err := env.NewDiscrete(int64(m.States), 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.ID, err)
	}
	act, err := env.NewDiscrete(int64(m.Actions), 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.ID, err)
	}
	src := rand.NewPCG(0, 0)
	return &Env{m: m, obsSpace: obs, actSpace: act, obs: nd.Zeros(nd.Int64), src: src, rng: rand.New(src)}, nil
}

// MDP returns the MDP the env runs.
func (e *Env) MDP() *MDP { return e.m }

// ObservationSpace returns Discrete(States).
func (e *Env) ObservationSpace() env.Space { return e.obsSpace }

// ActionSpace returns Discrete(Actions).
func (e *Env) ActionSpace() env.Space { return e.actSpace }

// Reset draws the first state, reseeding the random stream first when seed
// is valid (see env.Env.Reset), and returns it.
func (e *Env) Reset(seed env.Seed) (any, env.Info, error) {
	if env.Reseed(e.src, seed, !e.seeded) {
		e.seeded = true
	}
	e.state = draw(e.rng.Float64(), len(e.m.Start), func(i int) float64 { return e.m.Start[i] })
	e.hasState, e.running = true, true
	nd.Data[int64](e.obs)[0] = int64(e.state)
	return e.obs, nil, nil
}

// draw returns the index the uniform number u falls on among n
// probabilities p(i) (the last one for rounding beyond the sum).
func draw(u float64, n int, p func(int) float64) int {
	for i := range n - 1 {
		if u -= p(i); u < 0 {
			return i
		}
	}
	return n - 1
}

// Step takes action and returns the next state, the reward and whether the
// episode terminated; it never truncates. It returns an error wrapping
// env.ErrAction for an action outside the action space and
// env.ErrNeedReset outside an episode; the env is then unchanged.
func (e *Env) Step(action any) (any, float64, bool, bool, env.Info, error) {
	if !e.running {
		return nil, 0, false, false, nil, fmt.Errorf("%s: Step with no episode running: %w", e.m.ID, env.ErrNeedReset)
	}
	a, err := e.actSpace.Int(action)
	if err != nil {
		return nil, 0, false, false, nil, fmt.Errorf("%s: %w", e.m.ID, err)
	}
	outs := e.m.Trans[e.state][a]
	o := outs[draw(e.rng.Float64(), len(outs), func(i int) float64 { return outs[i].P })]
	e.state = o.Next
	e.running = !o.Terminal
	nd.Data[int64](e.obs)[0] = int64(e.state)
	return e.obs, o.Reward, o.Terminal, false, nil, nil
}

// Close does nothing and returns nil.
func (e *Env) Close() error { return nil }

// The saved state is env.EpisodeState's header with the tag "tabular/1 "
// and the MDP's id, then the state as a uvarint.
func (e *Env) stateTag() string { return "tabular/1 " + e.m.ID }

// MarshalState returns the env's whole state: flags, random stream and
// current state.
func (e *Env) MarshalState() ([]byte, error) {
	b, err := env.AppendEpisodeState(nil, e.stateTag(), &env.EpisodeState{Seeded: e.seeded, HasState: e.hasState, Running: e.running, Source: *e.src})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.m.ID, err)
	}
	return binary.AppendUvarint(b, uint64(e.state)), nil
}

// UnmarshalState restores a state MarshalState returned for an env of the
// same MDP id. It returns an error wrapping env.ErrState, leaving the env
// unchanged, for anything else.
func (e *Env) UnmarshalState(data []byte) error {
	bad := func(what string) error { return fmt.Errorf("%s: %w: %s", e.m.ID, env.ErrState, what) }
	h, data, err := env.ParseEpisodeState(data, e.stateTag())
	if err != nil {
		return bad(err.Error())
	}
	s, k := binary.Uvarint(data)
	if k <= 0 || k != len(data) || s >= uint64(e.m.States) {
		return bad("bad state")
	}
	*e.src = h.Source
	e.seeded, e.hasState, e.running, e.state = h.Seeded, h.HasState, h.Running, int(s)
	nd.Data[int64](e.obs)[0] = int64(e.state)
	return nil
}
