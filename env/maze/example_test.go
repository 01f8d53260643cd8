package maze_test

import (
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/maze"
	"github.com/gorl/gorl/nd"
)

// The maze's first observation allows only a move right; a move down runs
// into a wall and ends the episode.
func ExampleEnv() {
	e := maze.New()
	obs, _, _ := e.Reset(env.NoSeed)
	mask, _ := obs.(*batch.Batch).Array(env.KeyActionMask)
	fmt.Println(e.ObservationSpace())
	fmt.Println(nd.ToSlice[int8](mask))
	_, rew, term, _, _, _ := e.Step(nd.MustNew(int64(2)))
	fmt.Println(rew, term)
	// Output:
	// Dict('obs': Box(0.0, 1.0, (25,), float32), 'action_mask': MultiBinary(4))
	// [0 1 0 0]
	// -1 true
}
