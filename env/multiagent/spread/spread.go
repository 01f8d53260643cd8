// Package spread is a cooperative particle env after the multi-agent
// particle environments' simple_spread (PettingZoo's simple_spread_v3), in
// the Parallel form with continuous actions: N agents must cover N
// landmarks without bumping into each other. It is registered as
// SimpleSpread-v0 (three agents).
//
// # Overview
//
// Agents are discs of radius 0.15 on a plane, each starting at a uniform
// position in [−1, 1]², at rest; landmarks are fixed points drawn in
// [−0.95, 0.95]². Each step every agent gives an action in Box(0, 1, (5,)):
// [no-op, left, right, down, up]; its force is 5·(right − left, up − down).
// The world then moves as the particle environments' World.step does, with
// time step 0.1 and damping 0.25: agents closer than the sum of their radii
// push each other apart with the soft contact force 100·δ/|δ|·k·log(1 +
// exp(−(|δ| − r)/k)), k = 0.001; v ← (1 − 0.25)·v + F·0.1 (mass 1), x ← x
// + 0.1·v.
//
// Agent i observes, as float32 [4 + 2N + 4(N − 1)]: its velocity, its
// position, each landmark's position relative to it, each other agent's
// position relative to it, and each other agent's communication (always
// zero: the agents are silent), in that order.
//
// The shared reward is g = −Σₗ minᵢ |xᵢ − pₗ|, the distance from each
// landmark to the nearest agent; agent i's own reward cᵢ is −1 for every
// other agent it overlaps. Agent i gets (1 − LocalRatio)·g + LocalRatio·cᵢ,
// LocalRatio 0.5 by default. Episodes never terminate; every agent is
// truncated after MaxCycles (25) steps.
package spread

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent"
	"github.com/gorl/gorl/nd"
)

// ID is the registered id: three agents and three landmarks.
const ID = "SimpleSpread-v0"

func init() {
	multiagent.Register(ID, multiagent.Maker{Parallel: func() (multiagent.Parallel, error) {
		return New(DefaultConfig())
	}})
}

// Config holds the env's settings.
type Config struct {
	// N is the number of agents and of landmarks, at least 1. Default 3.
	N int `json:"n"`
	// LocalRatio weighs each agent's own collision penalty against the
	// shared coverage reward, in [0, 1]. Default 0.5.
	LocalRatio float64 `json:"local_ratio"`
	// MaxCycles is the episode length in steps, at least 1. Default 25.
	MaxCycles int `json:"max_cycles"`
}

// DefaultConfig returns simple_spread_v3's defaults.
func DefaultConfig() Config { return Config{N: 3, LocalRatio: 0.5, MaxCycles: 25} }

// The particle environments' physical constants.
const (
	agentSize     = 0.15
	dt            = 0.1
	damping       = 0.25
	contactForce  = 100
	contactMargin = 1e-3
	sensitivity   = 5
)

// Env is the particle world. Maps, observations and infos it returns are
// owned by the env and rewritten by its next Step or Reset.
type Env struct {
	cfg       Config
	ids       []string
	live      []string
	pos, vel  [][2]float64
	landmarks [][2]float64
	force     [][2]float64
	steps     int
	started   bool
	src       *rand.PCG
	rng       *rand.Rand
	fresh     bool

	obsSpace, actSpace *env.Box
	obsArr             []*nd.Array
	obs                map[string]any
	rew                map[string]float64
	term, trunc        map[string]bool
	info               map[string]env.Info
	resetInfo          map[string]env.Info
	act                [][5]float64
}

// New returns an env for cfg. It returns an error wrapping env.ErrSpace for
// an invalid cfg.
func New(cfg Config) (*Env, error) {
	if cfg.N < 1 || !(cfg.LocalRatio >= 0 && cfg.LocalRatio <= 1) || cfg.MaxCycles < 1 {
		return nil, fmt.Errorf("%w: spread config %+v", env.ErrSpace, cfg)
	}
	n := cfg.N
	dim := 4 + 2*n + 4*(n-1)
	obsSpace, err := env.NewBox(math.Inf(-1), math.Inf(1), []int{dim}, nd.Float32)
	if err != nil {
		return nil, err
	}
	actSpace, err := env.NewBox(0, 1, []int{5}, nd.Float32)
	if err != nil {
		return nil, err
	}
	e := &Env{cfg: cfg, obsSpace: obsSpace, actSpace: actSpace,
		pos: make([][2]float64, n), vel: make([][2]float64, n), landmarks: make([][2]float64, n),
		force: make([][2]float64, n), act: make([][5]float64, n),
		src: rand.NewPCG(0, 0), fresh: true,
		obs: map[string]any{}, rew: map[string]float64{}, term: map[string]bool{}, trunc: map[string]bool{},
		info: map[string]env.Info{}, resetInfo: map[string]env.Info{}}
	e.rng = rand.New(e.src)
	for i := range n {
		id := fmt.Sprintf("agent_%d", i)
		e.ids = append(e.ids, id)
		e.obsArr = append(e.obsArr, nd.Zeros(nd.Float32, dim))
	}
	return e, nil
}

// PossibleAgents returns agent_0 … agent_{N−1}.
func (e *Env) PossibleAgents() []string { return e.ids }

func (e *Env) index(agent string) int {
	for i, a := range e.ids {
		if a == agent {
			return i
		}
	}
	return -1
}

// ObservationSpace returns Box(−inf, inf, (4 + 2N + 4(N − 1),), float32).
func (e *Env) ObservationSpace(agent string) env.Space {
	if e.index(agent) < 0 {
		return nil
	}
	return e.obsSpace
}

// ActionSpace returns Box(0, 1, (5,), float32).
func (e *Env) ActionSpace(agent string) env.Space {
	if e.index(agent) < 0 {
		return nil
	}
	return e.actSpace
}

// Agents returns the live agents: all of them during an episode, none
// after its last step.
func (e *Env) Agents() []string { return e.live }

// Config returns the configuration.
func (e *Env) Config() Config { return e.cfg }

// Reset places the agents and landmarks at random.
func (e *Env) Reset(seed env.Seed) (map[string]any, map[string]env.Info, error) {
	env.Reseed(e.src, seed, e.fresh)
	e.fresh = false
	for i := range e.pos {
		e.pos[i] = [2]float64{e.rng.Float64()*2 - 1, e.rng.Float64()*2 - 1}
		e.vel[i] = [2]float64{}
	}
	for l := range e.landmarks {
		e.landmarks[l] = [2]float64{0.95 * (e.rng.Float64()*2 - 1), 0.95 * (e.rng.Float64()*2 - 1)}
	}
	e.steps, e.started = 0, true
	e.live = append(e.live[:0], e.ids...)
	e.observe()
	return e.obs, e.resetInfo, nil
}

// Step moves the world one step with every agent's action.
func (e *Env) Step(actions map[string]any) (map[string]any, map[string]float64, map[string]bool, map[string]bool, map[string]env.Info, error) {
	if !e.started || len(e.live) == 0 {
		return nil, nil, nil, nil, nil, fmt.Errorf("spread: Step: %w", env.ErrNeedReset)
	}
	if len(actions) != len(e.live) {
		return nil, nil, nil, nil, nil, fmt.Errorf("spread: %w: %d actions for %d agents", env.ErrAction, len(actions), len(e.live))
	}
	for i, id := range e.ids {
		a, ok := actions[id]
		if !ok {
			return nil, nil, nil, nil, nil, fmt.Errorf("spread: %w: no action for %s", env.ErrAction, id)
		}
		arr, ok := a.(*nd.Array)
		if !ok || !e.actSpace.Contains(arr) {
			return nil, nil, nil, nil, nil, fmt.Errorf("spread: %w: %s's action %v is not in %v", env.ErrAction, id, a, e.actSpace)
		}
		if arr.DType() == nd.Float32 && arr.IsContiguous() {
			for k, v := range nd.Data[float32](arr) {
				e.act[i][k] = float64(v)
			}
			continue
		}
		for k := range 5 {
			e.act[i][k] = toFloat(arr.At(k))
		}
	}
	e.physics()
	e.steps++
	e.rewards()
	done := e.steps >= e.cfg.MaxCycles
	for _, id := range e.ids {
		e.term[id], e.trunc[id] = false, done
	}
	e.observe()
	if done {
		e.live = e.live[:0]
	}
	return e.obs, e.rew, e.term, e.trunc, e.info, nil
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case float32:
		return float64(x)
	case float64:
		return x
	}
	return math.NaN()
}

// physics applies the actions' forces and the contact forces and
// integrates one time step.
func (e *Env) physics() {
	n := len(e.pos)
	for i := range n {
		a := e.act[i]
		e.force[i] = [2]float64{sensitivity * (a[2] - a[1]), sensitivity * (a[4] - a[3])}
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			dx, dy := e.pos[i][0]-e.pos[j][0], e.pos[i][1]-e.pos[j][1]
			dist := math.Hypot(dx, dy)
			if dist == 0 {
				continue // the particle environments divide by zero here; two discs never coincide exactly
			}
			pen := logAddExp0(-(dist-2*agentSize)/contactMargin) * contactMargin
			fx, fy := contactForce*dx/dist*pen, contactForce*dy/dist*pen
			e.force[i][0] += fx
			e.force[i][1] += fy
			e.force[j][0] -= fx
			e.force[j][1] -= fy
		}
	}
	for i := range n {
		for k := range 2 {
			e.vel[i][k] = e.vel[i][k]*(1-damping) + e.force[i][k]*dt
			e.pos[i][k] += e.vel[i][k] * dt
		}
	}
}

// logAddExp0 is log(1 + eˣ) without overflow (numpy's logaddexp(0, x)).
func logAddExp0(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// rewards computes every agent's reward at the current positions.
func (e *Env) rewards() {
	g := 0.0
	for _, l := range e.landmarks {
		m := math.Inf(1)
		for _, p := range e.pos {
			m = min(m, math.Hypot(p[0]-l[0], p[1]-l[1]))
		}
		g -= m
	}
	r := e.cfg.LocalRatio
	for i, id := range e.ids {
		c := 0.0
		for j, p := range e.pos {
			if j != i && math.Hypot(p[0]-e.pos[i][0], p[1]-e.pos[i][1]) < 2*agentSize {
				c--
			}
		}
		e.rew[id] = (1-r)*g + r*c
	}
}

// observe writes every agent's observation.
func (e *Env) observe() {
	for i, id := range e.ids {
		o := nd.Data[float32](e.obsArr[i])
		k := 0
		put := func(x, y float64) {
			o[k], o[k+1] = float32(x), float32(y)
			k += 2
		}
		put(e.vel[i][0], e.vel[i][1])
		put(e.pos[i][0], e.pos[i][1])
		for _, l := range e.landmarks {
			put(l[0]-e.pos[i][0], l[1]-e.pos[i][1])
		}
		for j, p := range e.pos {
			if j != i {
				put(p[0]-e.pos[i][0], p[1]-e.pos[i][1])
			}
		}
		for j := range e.pos {
			if j != i {
				put(0, 0) // silent agents' communication
			}
		}
		e.obs[id] = e.obsArr[i]
	}
}

// Close does nothing.
func (e *Env) Close() error { return nil }

// Positions returns the agents' and landmarks' positions (copies).
func (e *Env) Positions() (agents, landmarks [][2]float64) {
	return append([][2]float64(nil), e.pos...), append([][2]float64(nil), e.landmarks...)
}
