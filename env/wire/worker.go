package wire

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/gorl/gorl/env"
)

// WorkerVar is the environment variable that makes a process started by
// SelfCommand a worker: it holds the id of the env to serve.
const WorkerVar = "GORL_ENV_WORKER"

// ServeWorker makes the process a worker when it was started by
// SelfCommand: it makes the env registered under the id in WorkerVar,
// serves it on fds 3 and 4 and exits (status 0 after a close, 1 after an
// error, printed on stderr). Otherwise it returns at once. Programs that
// run Go envs in worker processes call it first thing in main, and test
// binaries in TestMain, before flags are parsed.
func ServeWorker() {
	id, ok := os.LookupEnv(WorkerVar)
	if !ok {
		return
	}
	os.Unsetenv(WorkerVar)
	spin, shared := os.LookupEnv(SharedVar)
	os.Unsetenv(SharedVar)
	if shared {
		// Pollable, so that reads of the request pipe take deadlines.
		setNonblock(3)
	}
	req, resp := os.NewFile(3, "requests"), os.NewFile(4, "replies")
	fail := func(err error) {
		var out enc
		out.errorFrame("exception", err.Error(), "")
		_, _ = resp.Write(out.finish())
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	e, err := env.Make(id)
	if err != nil {
		fail(err)
	}
	var sc conn
	if shared {
		if sc, err = workerShm(spin, req, resp); err != nil {
			fail(err)
		}
	}
	if err := serve(e, id, newPipeConn(req, resp), sc); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// workerShm maps the shared region the parent passed as fd 5, for a
// worker that spins for spin nanoseconds.
func workerShm(spin string, req, resp *os.File) (conn, error) {
	ns, err := strconv.ParseInt(spin, 10, 64)
	if err != nil || ns < 0 {
		return nil, fmt.Errorf("wire: %s=%q is not a spin time in nanoseconds", SharedVar, spin)
	}
	f := os.NewFile(5, "region")
	if f == nil {
		return nil, fmt.Errorf("wire: %s set without a shared region on fd 5", SharedVar)
	}
	defer f.Close()
	mem, err := mapRegion(int(f.Fd()))
	if err != nil {
		return nil, fmt.Errorf("wire: mapping the shared region: %w", err)
	}
	return newShmConn(mem, false, time.Duration(ns), req, resp), nil
}

// SelfCommand returns a command factory for Start that runs this program
// again as a worker of the env registered under id (see ServeWorker). It
// returns an error if the program's path cannot be found.
func SelfCommand(id string) (func() *exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("wire: finding this program to start a worker: %w", err)
	}
	return func() *exec.Cmd {
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), WorkerVar+"="+id)
		return cmd
	}, nil
}
