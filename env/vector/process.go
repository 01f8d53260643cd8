package vector

import (
	"fmt"
	"time"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/wire"
)

// ProcessConfig configures envs that run in worker processes (see
// NewProcess).
type ProcessConfig struct {
	// Restart makes a worker that is lost during a step (it crashed,
	// exited, or ran past the step timeout and was killed) end its env's
	// episode rather than fail the call: the step returns the last
	// observation, a zero reward and truncated, with the error in the
	// Info's "worker_error" key, and the env's next Reset starts a new
	// worker. Without Restart the call fails with an error naming the env,
	// and so does every later call of that env.
	Restart bool `json:"restart"`
	// OnLost, when set, is called with the env's id and the error each
	// time a worker is lost, from the goroutine that steps that env.
	OnLost func(id int, err error) `json:"-"`
	// SharedMemory passes requests and replies through a memory region
	// shared with each worker, which spins briefly waiting for them
	// (wire.Options.SharedMemory); false keeps the pipes.
	SharedMemory bool `json:"shared_memory"`
}

// ProcessEnvs returns n envs registered under id, each served by a worker
// process: this program started again (wire.SelfCommand), which must call
// wire.ServeWorker first thing in main (or in TestMain). timeout bounds
// every call of an env (zero: no bound); a worker that runs past it is
// killed. The envs' errors name the env id and index. On error, the envs
// already started are closed.
func ProcessEnvs(id string, n int, timeout time.Duration, pc ProcessConfig) ([]env.Env, error) {
	newCmd, err := wire.SelfCommand(id)
	if err != nil {
		return nil, err
	}
	envs := make([]env.Env, 0, n)
	for i := range n {
		opts := wire.Options{Name: fmt.Sprintf("%s worker %d", id, i), Timeout: timeout, Restart: pc.Restart, SharedMemory: pc.SharedMemory}
		if pc.OnLost != nil {
			opts.OnLost = func(err error) { pc.OnLost(i, err) }
		}
		e, err := wire.Start(newCmd, opts)
		if err != nil {
			for _, e := range envs {
				e.Close()
			}
			return nil, envError(i, err)
		}
		envs = append(envs, e)
	}
	return envs, nil
}

// NewProcess returns a vector env of n envs registered under id, each in a
// worker process of its own (ProcessEnvs), stepped concurrently, as
// Tianshou's SubprocVectorEnv: an env that crashes the process it runs in
// (a panic, os.Exit, log.Fatal, a fault in C code) takes only its worker
// down, and the vector env reports which env it was or, with
// pc.Restart, restarts it (see ProcessConfig). cfg.StepTimeout bounds each
// call of a worker, which is killed past it: unlike the timeout of envs in
// goroutines, the vector env stays usable. cfg.Async is implied.
func NewProcess(id string, n int, cfg Config, pc ProcessConfig) (Env, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, fmt.Errorf("vector: NewProcess with %d envs", n)
	}
	envs, err := ProcessEnvs(id, n, cfg.StepTimeout, pc)
	if err != nil {
		return nil, err
	}
	cfg.Async, cfg.StepTimeout = true, 0
	v, err := New(envs, cfg)
	if err != nil {
		for _, e := range envs {
			e.Close()
		}
		return nil, err
	}
	return v, nil
}
