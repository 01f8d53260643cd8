package wire

import (
	"fmt"
	"os"
	"os/exec"

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
	req, resp := os.NewFile(3, "requests"), os.NewFile(4, "replies")
	e, err := env.Make(id)
	if err != nil {
		var out enc
		out.errorFrame("exception", err.Error(), "")
		_, _ = resp.Write(out.finish())
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := Serve(e, id, req, resp); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
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
