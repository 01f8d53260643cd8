// Package gymbridge runs Python envs with Gymnasium's interface from Go:
// each env is served by a Python worker process running the module
// gorl_gymbridge.py of this package (standard library and numpy only),
// over the protocol of package wire.
//
// # Overview
//
// Importing the package registers the id prefix "gym:" with package env,
// so that env.Make("gym:LunarLander-v3") starts a worker that makes the
// env with gymnasium.make and returns it as an env.Env; `gorl train --env
// gym:LunarLander-v3` starts one worker per env of the vector env. That
// needs gymnasium (and the env's own dependencies) installed for the
// Python interpreter in $GORL_PYTHON, or python3 on the PATH:
//
//	pip install "gymnasium[box2d]"
//	gorl train --env gym:LunarLander-v3 --algo ppo
//
// Any other Python object with Gymnasium's reset(seed=, options=) and
// step(action) methods and observation_space and action_space attributes
// is served by Serve, given "module:callable"; gymnasium is then not
// needed at all.
//
// # Errors
//
// A missing interpreter, a failed import, an unknown env id or an exception
// while making the env fail Make with the Python traceback. An exception
// inside step or reset fails that call with a *wire.RemoteError holding the
// traceback; the worker goes on. A worker that dies fails the call with an
// error wrapping wire.ErrExited and the worker's last output; one that
// does not answer within Config.Timeout is killed and the call fails with
// an error wrapping wire.ErrTimeout. Close ends the worker; on Linux the
// worker also dies with the Go process (see wire.Start).
//
// # Decisions
//
// The module is embedded in the Go binary and passed to the interpreter
// with -c, so nothing is installed or written to disk. Gymnasium's spaces
// are read by their class names, so the module does not import gymnasium
// unless asked to make an env by id. With Config.SharedMemory the module
// maps the region that package wire offers with Python's mmap module and
// writes each observation into it through a numpy view, with no bytes
// object in between; the pipes then only wake a side that sleeps.
package gymbridge

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/wire"
)

//go:embed gorl_gymbridge.py
var module string

// Module returns the source of the Python module the workers run, to
// save and run by hand (python3 gorl_gymbridge.py --help).
func Module() string { return module }

// PythonVar is the environment variable naming the Python interpreter;
// python3 on the PATH when it is empty.
const PythonVar = "GORL_PYTHON"

// Config configures the worker of one Python env. The zero Config is
// valid.
type Config struct {
	// Python is the interpreter; "" means $GORL_PYTHON, or python3.
	Python string `json:"python"`
	// Dir is the worker's working directory, which Python puts first on
	// its module path; "" means this process's.
	Dir string `json:"dir"`
	// Kwargs are the keyword arguments of gymnasium.make or of the
	// factory (JSON values).
	Kwargs map[string]any `json:"kwargs"`
	// Render makes the env with render_mode="rgb_array", so that Render
	// returns its frames.
	Render bool `json:"render"`
	// Timeout bounds each reset, step and render (zero: no bound); a
	// worker that runs longer is killed.
	Timeout time.Duration `json:"timeout"`
	// StartTimeout bounds the worker's start, imports included; zero
	// means one minute.
	StartTimeout time.Duration `json:"start_timeout"`
	// Restart turns a worker lost in a step into a truncated step and
	// restarts it at the next reset (wire.Options.Restart).
	Restart bool `json:"restart"`
	// SharedMemory passes requests and replies through a memory region
	// shared with the worker, the pipes only waking a side that sleeps
	// (wire.Options.SharedMemory); observations are written into it by
	// numpy with no copy in between.
	SharedMemory bool `json:"shared_memory"`
	// Spin is how long each side spins on the shared region before it
	// sleeps (wire.Options.Spin); zero means wire.DefaultSpin.
	Spin time.Duration `json:"spin"`
}

// python returns the interpreter of c.
func (c Config) python() string {
	switch {
	case c.Python != "":
		return c.Python
	case os.Getenv(PythonVar) != "":
		return os.Getenv(PythonVar)
	}
	return "python3"
}

// Make starts a worker serving the Gymnasium env id, made with
// gymnasium.make(id, **cfg.Kwargs), and returns it.
func Make(id string, cfg Config) (*wire.Env, error) {
	return start("gym:"+id, cfg, "--env", id)
}

// Serve starts a worker serving the env returned by a Python callable,
// named "module:callable" (module importable from cfg.Dir or the Python
// path), called with cfg.Kwargs, and returns it.
func Serve(factory string, cfg Config) (*wire.Env, error) {
	return start(factory, cfg, "--factory", factory)
}

// ErrNoPython is wrapped by the error of Make and Serve when the Python
// interpreter cannot be found.
var ErrNoPython = errors.New("gymbridge: Python interpreter not found")

func start(name string, cfg Config, args ...string) (*wire.Env, error) {
	py := cfg.python()
	if _, err := exec.LookPath(py); err != nil {
		return nil, fmt.Errorf("%w: %q (set %s to one with numpy): %v", ErrNoPython, py, PythonVar, err)
	}
	args = append([]string{"-c", module}, args...)
	if len(cfg.Kwargs) > 0 {
		js, err := json.Marshal(cfg.Kwargs)
		if err != nil {
			return nil, fmt.Errorf("gymbridge: kwargs of %s: %w", name, err)
		}
		args = append(args, "--kwargs", string(js))
	}
	if cfg.Render {
		args = append(args, "--render")
	}
	newCmd := func() *exec.Cmd {
		cmd := exec.Command(py, args...)
		cmd.Dir = cfg.Dir
		return cmd
	}
	e, err := wire.Start(newCmd, wire.Options{
		Name: name, Timeout: cfg.Timeout, StartTimeout: cfg.StartTimeout, Restart: cfg.Restart,
		SharedMemory: cfg.SharedMemory, Spin: cfg.Spin,
	})
	if err != nil {
		return nil, fmt.Errorf("gymbridge: %w", err)
	}
	return e, nil
}

func init() {
	env.RegisterPrefix("gym:", func(id string) (env.Env, error) { return Make(id, Config{}) })
}
