package main

import (
	"context"
	"testing"

	"github.com/gorl/gorl/env/maze"
)

// TestMaskRun trains PPO and DQN on the masked maze through gorl train's
// session, as gorl bench mask-maze does for one seed: the mask is used with
// no setting, and both solve the maze (seed 0 took 8,000 and 1,020 env
// steps when the bench was recorded in LEARNING.md).
func TestMaskRun(t *testing.T) {
	if testing.Short() {
		t.Skip("a learning run")
	}
	for _, a := range []string{"ppo", "dqn"} {
		r, err := maskRun(context.Background(), a, maze.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !r.solved {
			t.Errorf("%s on %s: not solved in %.0f env steps", a, maze.ID, r.steps)
		}
	}
}
