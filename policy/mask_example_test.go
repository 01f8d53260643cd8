package policy_test

import (
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// Masked logits: the forbidden actions get probability 0.
func ExampleMask() {
	obs := batch.MustNew(batch.KeyObs, batch.MustNew(
		batch.KeyObs, nd.MustNew([][]float32{{0}}),
		env.KeyActionMask, nd.MustNew([][]int8{{1, 0, 1}})))
	logits := tensor.MustFromSlice([]float32{0, 5, 0}, 1, 3)
	var m policy.Mask
	masked, err := m.Logits(nil, logits, obs)
	if err != nil {
		panic(err)
	}
	var d distribution.Categorical
	if err := d.SetLogits(nil, masked); err != nil {
		panic(err)
	}
	fmt.Printf("%.3f\n", d.Probs().Data())
	fmt.Println(policy.ArgMaxValid(logits.Data(), []float32{1, 0, 1}))
	// Output:
	// [0.500 0.000 0.500]
	// 0
}
