package dqn_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// TestConvNet checks the network Config.Conv builds for MinAtar-sized
// observations [4, 10, 10]: the MinAtar paper's layer sizes (one 3×3
// convolution of 16 channels, 16·8·8 = 1024 features, a hidden layer of
// 128), with and without a dueling head, and the errors for shapes it
// cannot take.
func TestConvNet(t *testing.T) {
	grid, err := env.NewBox(0.0, 1.0, []int{4, 10, 10}, nd.Uint8)
	if err != nil {
		t.Fatal(err)
	}
	act := algotest.Discrete(t, 6, 0)
	cfg := dqn.DefaultConfig()
	cfg.Conv, cfg.Hidden = []dqn.ConvLayer{{Out: 16, Kernel: 3}}, []int{128}
	for _, tc := range []struct {
		name    string
		dueling *dqn.DuelingConfig
		want    [][]int
	}{
		{"plain", nil, [][]int{{16, 4, 3, 3}, {16}, {128, 1024}, {128}, {6, 128}, {6}}},
		{"dueling", &dqn.DuelingConfig{}, [][]int{{16, 4, 3, 3}, {16}, {128, 1024}, {128}, {1, 128}, {1}, {6, 128}, {6}}},
	} {
		c := cfg
		c.Dueling = tc.dueling
		d, err := dqn.New(c, grid, act, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got [][]int
		for _, p := range d.Network().Params() {
			got = append(got, p.Tensor.Shape())
		}
		if !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("%s: parameter shapes %v, want %v", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		name  string
		edit  func(*dqn.Config)
		space env.Space
	}{
		{"kernel 0", func(c *dqn.Config) { c.Conv[0].Kernel = 0 }, grid},
		{"negative stride", func(c *dqn.Config) { c.Conv[0].Stride = -1 }, grid},
		{"with cnn", func(c *dqn.Config) { c.CNN = true }, grid},
		{"kernel larger than the grid", func(c *dqn.Config) { c.Conv[0].Kernel = 11 }, grid},
		{"flat observations", func(*dqn.Config) {}, algotest.Box(t, -1, 1, 4)},
	} {
		c := cfg
		c.Conv = slices.Clone(cfg.Conv)
		tc.edit(&c)
		if _, err := dqn.New(c, tc.space, act, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, dqn.ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", tc.name, err)
		}
	}
}
