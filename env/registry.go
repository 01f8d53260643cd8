package env

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Spec describes a registered env, Gymnasium's EnvSpec.
type Spec struct {
	// New makes a new, unwrapped instance of the env.
	New func() (Env, error)
	// MaxEpisodeSteps, when positive, makes Make wrap the env in a
	// TimeLimit of that many steps. Zero means no time limit.
	MaxEpisodeSteps int
	// RewardThreshold is the average return at which the task counts as
	// solved, or nil when the task has none (Gymnasium's None).
	RewardThreshold *float64
	// TestThreshold, when set, is the mean test return at which Tianshou's
	// tests of this env stop training, where it differs from
	// RewardThreshold: 195 on CartPole-v1 (Gymnasium registers 475) and
	// −250 on Pendulum-v1 (Gymnasium registers none). nil means
	// RewardThreshold. See StopThreshold.
	TestThreshold *float64
}

// StopThreshold returns the mean test return at which a training run on the
// env stops by default: TestThreshold if set, else RewardThreshold (nil:
// none, the run trains for all its epochs).
func (s Spec) StopThreshold() *float64 {
	if s.TestThreshold != nil {
		return s.TestThreshold
	}
	return s.RewardThreshold
}

// ErrRegister is wrapped by the value Register panics with.
var ErrRegister = errors.New("env: invalid registration")

var registry struct {
	sync.RWMutex
	specs    map[string]Spec
	prefixes map[string]func(name string) (Env, error)
}

// Register makes the env id available to Make. Packages of envs call it
// from their init functions, as database drivers register themselves.
// Register panics with an error wrapping ErrRegister if id is empty or
// already registered, spec.New is nil or spec.MaxEpisodeSteps is negative:
// programmer errors found at start-up.
func Register(id string, spec Spec) {
	registry.Lock()
	defer registry.Unlock()
	_, dup := registry.specs[id]
	switch {
	case id == "":
		panic(fmt.Errorf("%w: empty id", ErrRegister))
	case spec.New == nil:
		panic(fmt.Errorf("%w: %s has a nil New", ErrRegister, id))
	case spec.MaxEpisodeSteps < 0:
		panic(fmt.Errorf("%w: %s has MaxEpisodeSteps %d", ErrRegister, id, spec.MaxEpisodeSteps))
	case dup:
		panic(fmt.Errorf("%w: %s is already registered", ErrRegister, id))
	}
	if registry.specs == nil {
		registry.specs = map[string]Spec{}
	}
	registry.specs[id] = spec
}

// RegisterPrefix makes Make hand every id that starts with prefix and is
// not registered itself to makeEnv, with the rest of the id: a package that
// makes envs from outside the registry (Python Gymnasium envs for the
// prefix "gym:") registers itself this way. Make wraps no TimeLimit around
// what makeEnv returns. RegisterPrefix panics with an error wrapping
// ErrRegister if prefix is empty or already registered, or makeEnv is nil.
func RegisterPrefix(prefix string, makeEnv func(name string) (Env, error)) {
	registry.Lock()
	defer registry.Unlock()
	switch _, dup := registry.prefixes[prefix]; {
	case prefix == "":
		panic(fmt.Errorf("%w: empty prefix", ErrRegister))
	case makeEnv == nil:
		panic(fmt.Errorf("%w: prefix %s has a nil func", ErrRegister, prefix))
	case dup:
		panic(fmt.Errorf("%w: prefix %s is already registered", ErrRegister, prefix))
	}
	if registry.prefixes == nil {
		registry.prefixes = map[string]func(string) (Env, error){}
	}
	registry.prefixes[prefix] = makeEnv
}

// byPrefix returns the func registered for the longest prefix of id.
func byPrefix(id string) (func(string) (Env, error), string, bool) {
	registry.RLock()
	defer registry.RUnlock()
	best := ""
	for p := range registry.prefixes {
		if strings.HasPrefix(id, p) && len(p) > len(best) {
			best = p
		}
	}
	return registry.prefixes[best], best, best != ""
}

// Lookup returns the spec registered under id.
func Lookup(id string) (Spec, bool) {
	registry.RLock()
	defer registry.RUnlock()
	s, ok := registry.specs[id]
	return s, ok
}

// IDs returns the registered ids in sorted order.
func IDs() []string {
	registry.RLock()
	defer registry.RUnlock()
	ids := make([]string, 0, len(registry.specs))
	for id := range registry.specs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Make returns a new instance of the env registered under id, wrapped in a
// TimeLimit of its spec's MaxEpisodeSteps when that is positive, as
// gym.make does. An env package must be imported for its ids to be
// registered (import _ "github.com/gorl/gorl/env/classic"). Make returns an
// error wrapping ErrNotRegistered, listing the known ids, for an unknown id,
// and the error of the spec's New. An unregistered id that starts with a
// prefix given to RegisterPrefix is made by that prefix's func.
func Make(id string) (Env, error) {
	spec, ok := Lookup(id)
	if !ok {
		if makeEnv, prefix, ok := byPrefix(id); ok {
			e, err := makeEnv(id[len(prefix):])
			if err != nil {
				return nil, fmt.Errorf("env: making %s: %w", id, err)
			}
			return e, nil
		}
		known := IDs()
		list := "none; import a package of envs such as github.com/gorl/gorl/env/classic"
		if len(known) > 0 {
			list = strings.Join(known, ", ")
		}
		return nil, fmt.Errorf("%w: %q (registered: %s)", ErrNotRegistered, id, list)
	}
	e, err := spec.New()
	if err != nil {
		return nil, fmt.Errorf("env: making %s: %w", id, err)
	}
	if spec.MaxEpisodeSteps > 0 {
		return NewTimeLimit(e, spec.MaxEpisodeSteps)
	}
	return e, nil
}
