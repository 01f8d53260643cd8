package nn_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/nn"
)

// TestNewConvStack checks the layers and the feature count of a few stacks
// against the output size ⌊(side − kernel)/stride⌋ + 1 worked out by hand,
// and the errors for inputs it cannot take.
func TestNewConvStack(t *testing.T) {
	for _, tc := range []struct {
		name     string
		specs    []nn.ConvSpec
		shape    []int
		features int // channels × height × width of the last layer
		params   [][]int
	}{
		// MinAtar's DQN: 10×10 → 8×8 of 16 channels.
		{"minatar", []nn.ConvSpec{{Out: 16, Kernel: 3}}, []int{4, 10, 10}, 16 * 8 * 8, [][]int{{16, 4, 3, 3}, {16}}},
		// 12×9 → (12−4)/2+1 = 5 by (9−4)/2+1 = 3 → 3×1.
		{"two layers, strides", []nn.ConvSpec{{Out: 8, Kernel: 4, Stride: 2}, {Out: 2, Kernel: 3}}, []int{1, 12, 9}, 2 * 3 * 1,
			[][]int{{8, 1, 4, 4}, {8}, {2, 8, 3, 3}, {2}}},
		{"none: a flattening only", nil, []int{2, 3, 4}, 24, nil},
	} {
		body, features, err := nn.NewConvStack(tc.specs, tc.shape, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if features != tc.features {
			t.Errorf("%s: %d features, want %d", tc.name, features, tc.features)
		}
		var got [][]int
		for _, p := range body.Params() {
			got = append(got, p.Tensor.Shape())
		}
		if !slices.EqualFunc(got, tc.params, slices.Equal) {
			t.Errorf("%s: parameter shapes %v, want %v", tc.name, got, tc.params)
		}
	}
	for _, tc := range []struct {
		name  string
		specs []nn.ConvSpec
		shape []int
	}{
		{"flat input", []nn.ConvSpec{{Out: 1, Kernel: 1}}, []int{10}},
		{"out 0", []nn.ConvSpec{{Out: 0, Kernel: 1}}, []int{1, 4, 4}},
		{"kernel 0", []nn.ConvSpec{{Out: 1, Kernel: 0}}, []int{1, 4, 4}},
		{"negative stride", []nn.ConvSpec{{Out: 1, Kernel: 1, Stride: -1}}, []int{1, 4, 4}},
		{"filter larger than the input", []nn.ConvSpec{{Out: 1, Kernel: 3}, {Out: 1, Kernel: 3}}, []int{1, 4, 4}},
	} {
		if _, _, err := nn.NewConvStack(tc.specs, tc.shape, rand.New(rand.NewPCG(1, 2))); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
