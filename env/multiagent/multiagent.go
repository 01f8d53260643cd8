package multiagent

import (
	"fmt"
	"sort"
	"sync"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// Spaces is what both forms of env say about their agents.
type Spaces interface {
	// PossibleAgents returns the ids of every agent the env can have, in
	// a fixed order (the same slice, not to be modified).
	PossibleAgents() []string
	// ObservationSpace and ActionSpace return the spaces of agent, nil
	// for an id the env does not have.
	ObservationSpace(agent string) env.Space
	ActionSpace(agent string) env.Space
}

// AEC is a turn-based multi-agent env, PettingZoo's AECEnv. An AEC is not
// safe for concurrent use.
type AEC interface {
	Spaces
	// Reset starts a new game; seed works as in env.Env.Reset.
	Reset(seed env.Seed) error
	// Agents returns the live agents in order (owned by the env).
	Agents() []string
	// AgentSelection returns the agent whose turn it is ("" when no agent
	// is left).
	AgentSelection() string
	// Observe returns agent's current observation, in its observation
	// space.
	Observe(agent string) any
	// Last returns, for the selected agent, its observation, the reward it
	// collected since it last acted (PettingZoo's cumulative reward), and
	// whether it is terminated or truncated.
	Last() (obs any, reward float64, terminated, truncated bool, info env.Info)
	// Step applies action for the selected agent and selects the next
	// one. A terminated or truncated agent takes its dead step with a nil
	// action, which removes it from Agents.
	Step(action any) error
	// Reward returns the reward agent got from the last Step, and
	// Terminated and Truncated its flags.
	Reward(agent string) float64
	Terminated(agent string) bool
	Truncated(agent string) bool
	// Close releases the env's resources; a second call does nothing.
	Close() error
}

// Parallel is a multi-agent env whose live agents all act at every step,
// PettingZoo's ParallelEnv. A Parallel is not safe for concurrent use.
type Parallel interface {
	Spaces
	// Reset starts a new episode and returns every agent's observation.
	Reset(seed env.Seed) (obs map[string]any, info map[string]env.Info, err error)
	// Step applies one action per live agent (a key for each, no other)
	// and returns, per agent that acted, its next observation, reward and
	// flags. Agents that are terminated or truncated leave Agents.
	Step(actions map[string]any) (obs map[string]any, reward map[string]float64,
		terminated, truncated map[string]bool, info map[string]env.Info, err error)
	// Agents returns the live agents in order (owned by the env).
	Agents() []string
	// Close releases the env's resources; a second call does nothing.
	Close() error
}

// Maker builds one kind of multi-agent env: exactly one of AEC and Parallel
// is set.
type Maker struct {
	AEC      func() (AEC, error)
	Parallel func() (Parallel, error)
}

var registry = struct {
	sync.Mutex
	m map[string]Maker
}{m: map[string]Maker{}}

// Register makes an env available to MakeAEC or MakeParallel under id. It
// panics if id is empty or taken, or if not exactly one constructor is set
// (programmer errors at init time).
func Register(id string, m Maker) {
	registry.Lock()
	defer registry.Unlock()
	if id == "" || (m.AEC == nil) == (m.Parallel == nil) {
		panic("multiagent: Register " + id + ": empty id or not exactly one constructor")
	}
	if _, dup := registry.m[id]; dup {
		panic("multiagent: " + id + " registered twice")
	}
	registry.m[id] = m
}

// IDs returns the registered ids, sorted.
func IDs() []string {
	registry.Lock()
	defer registry.Unlock()
	ids := make([]string, 0, len(registry.m))
	for id := range registry.m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Lookup returns the constructors registered under id.
func Lookup(id string) (Maker, bool) {
	registry.Lock()
	defer registry.Unlock()
	m, ok := registry.m[id]
	return m, ok
}

// MakeAEC returns a new AEC env registered under id. It returns an error
// wrapping env.ErrNotRegistered for an unknown id or a Parallel env.
func MakeAEC(id string) (AEC, error) {
	m, ok := Lookup(id)
	if !ok || m.AEC == nil {
		return nil, fmt.Errorf("%w: no turn-based multi-agent env %q (have %q)", env.ErrNotRegistered, id, IDs())
	}
	return m.AEC()
}

// MakeParallel returns a new Parallel env registered under id. It returns an
// error wrapping env.ErrNotRegistered for an unknown id or an AEC env.
func MakeParallel(id string) (Parallel, error) {
	m, ok := Lookup(id)
	if !ok || m.Parallel == nil {
		return nil, fmt.Errorf("%w: no parallel multi-agent env %q (have %q)", env.ErrNotRegistered, id, IDs())
	}
	return m.Parallel()
}

// Mask returns the action mask of a masked observation (a Batch with
// "action_mask", an int8 array) as a slice of its data, and whether obs has
// one. A mask of another dtype or layout is not a mask.
func Mask(obs any) ([]int8, bool) {
	b, ok := obs.(*batch.Batch)
	if !ok {
		return nil, false
	}
	v, ok := b.Get(KeyActionMask)
	if !ok {
		return nil, false
	}
	a, ok := v.(*nd.Array)
	if !ok || a.DType() != nd.Int8 || !a.IsContiguous() {
		return nil, false
	}
	return nd.Data[int8](a), true
}

// Keys of masked observations.
const (
	KeyObs        = "obs"
	KeyActionMask = "action_mask"
)
