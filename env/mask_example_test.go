package env_test

import (
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// A masked observation space, and the masks of a batch of two
// observations read as float32.
func ExampleActionMask() {
	box, _ := env.NewBox(0.0, 1.0, []int{2}, nd.Float32)
	space, _ := env.NewMasked(box, 3)
	inner, n, ok := env.Unmasked(space)
	fmt.Println(space)
	fmt.Println(inner, n, ok)

	obs := batch.MustNew(batch.KeyObs, batch.MustNew(
		batch.KeyObs, nd.MustNew([][]float32{{0, 1}, {1, 0}}),
		env.KeyActionMask, nd.MustNew([][]int8{{1, 0, 1}, {0, 0, 1}})))
	var m env.ActionMask
	mask, err := m.Read(obs, 2, 3)
	fmt.Println(nd.ToSlice[float32](mask), err)
	fmt.Println(env.EmptyMaskRow(nd.Data[float32](mask), 3))
	// Output:
	// Dict('obs': Box(0.0, 1.0, (2,), float32), 'action_mask': MultiBinary(3))
	// Box(0.0, 1.0, (2,), float32) 3 true
	// [1 0 1 0 0 1] <nil>
	// -1
}
