package rainbow_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/rainbow"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
)

// TestConvNet checks Rainbow's network on MinAtar-sized observations
// [4, 10, 10] with one 3×3 convolution of 16 channels (16·8·8 = 1024
// features) and a hidden layer of 128: the noisy dueling streams follow the
// hidden layer (each noisy layer holds μ and σ of its weights and biases, then its noise
// buffers),
// and a convolution on flat observations is refused.
func TestConvNet(t *testing.T) {
	grid, err := env.NewBox(0.0, 1.0, []int{4, 10, 10}, nd.Uint8)
	if err != nil {
		t.Fatal(err)
	}
	act := algotest.Discrete(t, 6, 0)
	cfg := rainbow.DefaultConfig()
	cfg.Conv, cfg.Hidden, cfg.NumAtoms = []nn.ConvSpec{{Out: 16, Kernel: 3}}, []int{128}, 11
	r, err := rainbow.New(cfg, grid, act, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	var got [][]int
	for _, p := range r.Network().Params() {
		got = append(got, p.Tensor.Shape())
	}
	want := [][]int{{16, 4, 3, 3}, {16}, {128, 1024}, {128},
		{11, 128}, {11, 128}, {11}, {11}, {11, 128}, {11}, // value stream: μ, σ of W and b, noise of W and b
		{66, 128}, {66, 128}, {66}, {66}, {66, 128}, {66}} // advantage stream: 6 actions × 11 atoms
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("parameter shapes %v, want %v", got, want)
	}
	if _, err := rainbow.New(cfg, algotest.Box(t, -1, 1, 4), act, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, rainbow.ErrConfig) {
		t.Errorf("conv on flat observations: %v, want ErrConfig", err)
	}
	bad := cfg
	bad.CNN = true
	if _, err := rainbow.New(bad, grid, act, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, rainbow.ErrConfig) {
		t.Errorf("conv with cnn: %v, want ErrConfig", err)
	}
}
