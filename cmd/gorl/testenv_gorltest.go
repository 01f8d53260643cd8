//go:build gorltest

package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/gorl/gorl/env"
)

// Envs for the command's tests, built in with -tags gorltest.

func init() {
	// test/Stuck-v0 is CartPole whose Step never returns, an env that
	// hangs: only a second interrupt ends a run on it.
	env.Register("test/Stuck-v0", env.Spec{New: func() (env.Env, error) {
		e, err := env.Make("CartPole-v1")
		return stuck{e}, err
	}})
	// test/Crash-v0 is CartPole whose process exits in the 50th step of
	// its life: an env that crashes its worker.
	env.Register("test/Crash-v0", env.Spec{New: func() (env.Env, error) {
		e, err := env.Make("CartPole-v1")
		return &crash{Env: e}, err
	}})
}

type crash struct {
	env.Env
	steps int
}

func (c *crash) Step(a any) (any, float64, bool, bool, env.Info, error) {
	if c.steps++; c.steps == 50 {
		fmt.Fprintln(os.Stderr, "test/Crash-v0: exiting")
		os.Exit(3)
	}
	return c.Env.Step(a)
}

type stuck struct{ env.Env }

// Step says on stderr that it is stuck (a test waits for that before it
// interrupts), then sleeps.
func (stuck) Step(any) (any, float64, bool, bool, env.Info, error) {
	fmt.Fprintln(os.Stderr, "test/Stuck-v0: stuck in Step")
	time.Sleep(time.Hour)
	return nil, 0, false, false, nil, errors.New("stuck for an hour")
}
