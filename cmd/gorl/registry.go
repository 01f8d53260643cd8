package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// Algorithm is how the command builds an algorithm whose configuration
// has type C. Each algorithm registers one from an init function in a file
// of its own (algo_<name>.go), so adding an algorithm to the command
// touches no other file.
type Algorithm[C any] struct {
	// Doc is a one-line description for gorl list.
	Doc string
	// Offline marks an algorithm that learns from a dataset (gorl train
	// --dataset FILE, a buffer saved by buffer.Save) instead of from
	// training envs.
	Offline bool
	// Defaults returns the defaults of a run on the env id: the algorithm's
	// configuration (a struct with JSON tags, which a configuration file
	// and --set override) and the run's settings (trainer configuration,
	// numbers of envs, buffer size). A trainer configuration without a
	// reward threshold stops at the env's registered one
	// (env.Spec.StopThreshold).
	Defaults func(envID string) (*C, RunDefaults)
	// New builds the algorithm from its configuration (after overrides)
	// for an env with the given spaces, drawing its initial weights and
	// random seeds from rng.
	New func(c *C, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error)
	// Buffer, if set, builds the training buffer for n envs from the run's
	// buffer size and the algorithm's configuration (a prioritized buffer,
	// say); nil means a buffer.Vector of that size (none for on-policy
	// algorithms with a step-counted collection, which the trainer sizes,
	// and for offline ones, which learn from the dataset).
	Buffer func(c *C, size, n int) (buffer.Buffer, error)
}

// registered is an Algorithm[C] as the registry holds it, its
// configuration type hidden behind algoConfig.
type registered interface {
	doc() string
	defaults(envID string) (algoConfig, RunDefaults)
}

// algoConfig is an algorithm's configuration bound to its registration:
// what a run holds between resolving its settings and building the
// algorithm.
type algoConfig interface {
	// MarshalJSON encodes the configuration.
	json.Marshaler
	// decode overrides the configuration with JSON; an unknown field is an
	// error.
	decode(b []byte) error
	// offline reports whether the algorithm learns from a dataset.
	offline() bool
	// build builds the algorithm (Algorithm.New).
	build(obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error)
	// buffer builds the training buffer (Algorithm.Buffer); nil, nil when
	// the algorithm registers none.
	buffer(size, n int) (buffer.Buffer, error)
}

func (a *Algorithm[C]) doc() string { return a.Doc }

func (a *Algorithm[C]) defaults(envID string) (algoConfig, RunDefaults) {
	c, rd := a.Defaults(envID)
	return &bound[C]{a: a, c: c}, rd
}

// bound is the algoConfig of an Algorithm[C].
type bound[C any] struct {
	a *Algorithm[C]
	c *C
}

func (b *bound[C]) MarshalJSON() ([]byte, error) { return json.Marshal(b.c) }
func (b *bound[C]) decode(data []byte) error     { return strictDecode(data, b.c) }
func (b *bound[C]) offline() bool                { return b.a.Offline }

func (b *bound[C]) build(obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
	return b.a.New(b.c, obs, act, rng)
}

func (b *bound[C]) buffer(size, n int) (buffer.Buffer, error) {
	if b.a.Buffer == nil {
		return nil, nil
	}
	return b.a.Buffer(b.c, size, n)
}

// RunDefaults are the per-algorithm defaults of a run's settings.
type RunDefaults struct {
	Trainer    trainer.Config
	TrainEnvs  int
	TestEnvs   int
	BufferSize int
}

var algorithms = map[string]registered{}

// Register makes an algorithm available to the command under name. It
// panics if name is empty or taken, or a function is missing (programmer
// errors found at start-up).
func Register[C any](name string, a Algorithm[C]) {
	if name == "" || a.Defaults == nil || a.New == nil {
		panic("gorl: Register(" + strconv.Quote(name) + "): empty name or missing function")
	}
	if _, dup := algorithms[name]; dup {
		panic("gorl: algorithm " + strconv.Quote(name) + " registered twice")
	}
	algorithms[name] = &a
}

// lookupAlgorithm returns the algorithm registered as name, or an error
// listing the registered ones.
func lookupAlgorithm(name string) (registered, error) {
	a, ok := algorithms[name]
	if !ok {
		return nil, fmt.Errorf("unknown algorithm %q (known: %s)", name, strings.Join(algorithmNames(), ", "))
	}
	return a, nil
}

// algorithmNames lists the registered algorithms in sorted order.
func algorithmNames() []string { return slices.Sorted(maps.Keys(algorithms)) }

// RunConfig is the full configuration of a run, written as config.json next
// to its logs and read back by --config, gorl eval and --resume.
type RunConfig struct {
	Algo       string `json:"algo"`
	Env        string `json:"env"`
	Seed       uint64 `json:"seed"`
	TrainEnvs  int    `json:"train_envs"`
	TestEnvs   int    `json:"test_envs"`
	BufferSize int    `json:"buffer_size"`
	Async      bool   `json:"async"`
	// StepTimeout bounds every env call (a Go duration such as "30s"; ""
	// means no bound): an env that does not return fails the run with an
	// error naming it and its step.
	StepTimeout string `json:"step_timeout"`
	// AllowNonFinite accepts NaN and ±Inf rewards and observations from
	// the envs, which otherwise fail the run naming the env and step.
	AllowNonFinite bool `json:"allow_non_finite"`
	// Workers is where the envs run: "" or "goroutine" in this process,
	// "process" each in a worker process of its own (gorl started again),
	// so that an env that crashes takes down only its worker and the run
	// fails naming it, or, with RestartWorkers, goes on with a new worker.
	// Process workers and gym: envs (one Python worker each) always step
	// concurrently, as with async.
	Workers string `json:"workers"`
	// RestartWorkers restarts a process worker lost in a step: its episode
	// ends truncated and a warning names the env.
	RestartWorkers bool `json:"restart_workers"`
	// SharedMemory passes the requests and replies of process workers and
	// gym: envs through a memory region shared with the worker, each side
	// spinning briefly before it sleeps (wire.Options.SharedMemory): faster
	// when every worker has a core to itself, slower on a machine with
	// fewer free cores than workers.
	SharedMemory bool           `json:"shared_memory"`
	Trainer      trainer.Config `json:"trainer"`
	// Normalize, when set, normalizes observations and rewards with
	// statistics saved with the policy (rl-baselines3-zoo's normalize).
	Normalize *env.NormalizeConfig `json:"normalize"`
	// Dataset is the buffer file an offline algorithm learns from.
	Dataset   string          `json:"dataset,omitempty"`
	Algorithm json.RawMessage `json:"algorithm"`
}

// resolve builds the run configuration for algo and envID from the
// registered defaults, then the pair's preset if it has one, then the JSON
// of a configuration file (file, may be nil), then --set assignments
// ("path=value", the path's keys separated by dots, the value JSON or else
// a string). Every level must name existing fields: unknown keys are
// errors. An assignment to algo or env chooses the algorithm or env whose
// defaults the others override. It returns the configuration and the
// algorithm's configuration.
func resolve(algoName, envID string, file []byte, sets []string) (RunConfig, algoConfig, error) {
	return resolveFrom(algoName, envID, true, file, sets)
}

// resolveDefaults is resolve without the pair's preset: the registered
// defaults (Tianshou's test settings) with the --set assignments, which
// gorl bench's speed runs compare with Tianshou's times.
func resolveDefaults(algoName, envID string, sets []string) (RunConfig, algoConfig, error) {
	return resolveFrom(algoName, envID, false, nil, sets)
}

// resolveFrom is resolve, applying the pair's preset only when withPreset
// is set.
func resolveFrom(algoName, envID string, withPreset bool, file []byte, sets []string) (RunConfig, algoConfig, error) {
	for _, s := range sets {
		path, val, _ := strings.Cut(s, "=")
		if path != "algo" && path != "env" {
			continue
		}
		var name string
		if err := json.Unmarshal([]byte(val), &name); err != nil {
			name = val // a bare string
		}
		if path == "algo" {
			algoName = name
		} else {
			envID = name
		}
	}
	a, err := lookupAlgorithm(algoName)
	if err != nil {
		return RunConfig{}, nil, err
	}
	acfg, rd := a.defaults(envID)
	if rd.Trainer.RewardThreshold == nil {
		if spec, ok := env.Lookup(envID); ok && spec.StopThreshold() != nil {
			t := *spec.StopThreshold()
			rd.Trainer.RewardThreshold = &t
		}
	}
	rc := RunConfig{Algo: algoName, Env: envID, TrainEnvs: rd.TrainEnvs, TestEnvs: rd.TestEnvs,
		BufferSize: rd.BufferSize, Trainer: rd.Trainer}
	raw, err := json.Marshal(acfg)
	if err != nil {
		return RunConfig{}, nil, err
	}
	rc.Algorithm = raw
	doc, err := toMap(rc)
	if err != nil {
		return RunConfig{}, nil, err
	}
	if withPreset {
		if err := applyPreset(doc, algoName, envID); err != nil {
			return RunConfig{}, nil, err
		}
	}
	known, err := json.Marshal(doc)
	if err != nil {
		return RunConfig{}, nil, err
	}
	if err := override(doc, file, sets); err != nil {
		return RunConfig{}, nil, err
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return RunConfig{}, nil, err
	}
	rc = RunConfig{}
	if err := strictDecode(b, &rc); err != nil {
		return RunConfig{}, nil, settingError("", b, known, err)
	}
	if err := acfg.decode(rc.Algorithm); err != nil {
		return RunConfig{}, nil, algorithmError(algoName, envID, rc.Algorithm, raw, err)
	}
	if rc.Algorithm, err = json.Marshal(acfg); err != nil {
		return RunConfig{}, nil, err
	}
	return rc, acfg, nil
}

// override merges a configuration file (nil for none) into doc, then
// applies the --set assignments path=value (value as JSON, or a bare
// string). The file's algo and env are left out: they were chosen before,
// and the file must agree.
func override(doc map[string]any, file []byte, sets []string) error {
	if file != nil {
		var over map[string]any
		if err := json.Unmarshal(file, &over); err != nil {
			return fmt.Errorf("configuration file: %w", err)
		}
		delete(over, "algo")
		delete(over, "env")
		merge(doc, over)
	}
	for _, s := range sets {
		path, val, ok := strings.Cut(s, "=")
		if !ok || path == "" {
			return fmt.Errorf("--set %q: want path=value", s)
		}
		var v any
		if err := json.Unmarshal([]byte(val), &v); err != nil {
			v = val // a bare string
		}
		if err := setPath(doc, strings.Split(path, "."), v); err != nil {
			return fmt.Errorf("--set %s: %w", path, err)
		}
	}
	return nil
}

// configOf decodes the algorithm configuration of a written RunConfig.
func configOf(rc RunConfig) (algoConfig, error) {
	a, err := lookupAlgorithm(rc.Algo)
	if err != nil {
		return nil, err
	}
	acfg, _ := a.defaults(rc.Env)
	if err := acfg.decode(rc.Algorithm); err != nil {
		known, _ := json.Marshal(acfg)
		return nil, algorithmError(rc.Algo, rc.Env, rc.Algorithm, known, err)
	}
	return acfg, nil
}

func strictDecode(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

func toMap(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(b, &m)
}

// merge copies src into dst, recursing into objects present in both.
func merge(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				merge(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

// setPath sets the value at path in doc; every key but the last must name
// an object (or null, for an optional section, which becomes an object).
// Whether the last key names a field is checked when the document is
// decoded.
func setPath(doc map[string]any, path []string, v any) error {
	cur := doc
	for i, k := range path[:len(path)-1] {
		next, ok := cur[k]
		if !ok {
			return fmt.Errorf("no field %q", strings.Join(path[:i+1], "."))
		}
		m, ok := next.(map[string]any)
		if !ok {
			if next != nil {
				return fmt.Errorf("%q is not an object", strings.Join(path[:i+1], "."))
			}
			m = map[string]any{}
			cur[k] = m
		}
		cur = m
	}
	cur[path[len(path)-1]] = v
	return nil
}
