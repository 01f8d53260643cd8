package dqn_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
)

// TestMaskedTargets checks that the bootstrap value ranges over the next
// observation's allowed actions only. The online network maps s = (x, y)
// to Q = (x, y, x + y), the target network to (2x, 2y, 0); for
// s′ = (1, 2), online Q = (1, 2, 3) and target Q = (2, 4, 0) (worked out by
// hand). Each case lists the mask of s′ and the expected value.
func TestMaskedTargets(t *testing.T) {
	box, err := env.NewBox(-10.0, 10.0, []int{2}, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	space, err := env.NewMasked(box, 3)
	if err != nil {
		t.Fatal(err)
	}
	online := [][]float32{{1, 0}, {0, 1}, {1, 1}}
	cases := []struct {
		mode dqn.Mode
		mask []int8
		want float32
	}{
		{dqn.Vanilla, []int8{1, 1, 1}, 3}, // max of online (1, 2, 3)
		{dqn.Vanilla, []int8{1, 1, 0}, 2}, // 3 is forbidden
		{dqn.Vanilla, []int8{1, 0, 0}, 1},
		{dqn.FixedTarget, []int8{1, 1, 1}, 4}, // max of target (2, 4, 0)
		{dqn.FixedTarget, []int8{1, 0, 1}, 2}, // 4 is forbidden
		{dqn.FixedTarget, []int8{0, 0, 1}, 0},
		{dqn.Double, []int8{1, 1, 1}, 0}, // online picks 2: target 0
		{dqn.Double, []int8{1, 1, 0}, 4}, // online picks 1: target 4
		{dqn.Double, []int8{1, 0, 0}, 2},
		{dqn.Vanilla, []int8{0, 0, 0}, 0}, // a last observation allowing nothing: 0
	}
	for _, c := range cases {
		cfg := dqn.DefaultConfig()
		cfg.TargetUpdateFreq = 0
		if err := cfg.ApplyMode(c.mode); err != nil {
			t.Fatal(err)
		}
		net := policy.NewObsNet(algotest.Linear(online...), space)
		var tgt policy.Network
		if c.mode != dqn.Vanilla {
			tgt = policy.NewObsNet(algotest.Linear(online...), space)
		}
		d, err := dqn.NewWithNetworks(cfg, net, tgt, algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if tgt != nil {
			copy(weights(tgt), []float32{2, 0, 0, 2, 0, 0}) // rows (2, 0), (0, 2), (0, 0)
		}
		next := batch.MustNew(batch.KeyObs, batch.MustNew(batch.KeyObs, nd.MustNew([][]float32{{1, 2}}), env.KeyActionMask, nd.MustNew([][]int8{c.mask})))
		dst := make([]float32, 1)
		if err := d.NextValues(dst, next); err != nil {
			t.Fatal(err)
		}
		if dst[0] != c.want {
			t.Errorf("%s, mask %v: target value %v; want %v", c.mode, c.mask, dst[0], c.want)
		}
	}
}
