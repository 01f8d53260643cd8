package c51_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/c51"
	"github.com/gorl/gorl/algo/categorical"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
)

// pointMasses makes the network of ps ignore its input and put (up to e⁻⁵⁰)
// all the mass of action a on atom at[a]: every weight is 0 and the output
// bias is 50 on those atoms, 0 elsewhere.
func pointMasses(t *testing.T, ps nn.Params, atoms int, at []int) {
	t.Helper()
	for _, p := range ps {
		clear(p.Tensor.Data())
	}
	bias := ps[len(ps)-1].Tensor.Data()
	if len(bias) != len(at)*atoms {
		t.Fatalf("output bias of %d values; want %d", len(bias), len(at)*atoms)
	}
	for a, j := range at {
		bias[a*atoms+j] = 50
	}
}

// TestMaskedTarget checks that the next action of the categorical target
// (C51's and Rainbow's shared code) is the online network's best allowed
// one. Over the atoms (−10, 0, 10), the online network's expected returns
// are (10, 0, −10) for actions (0, 1, 2) and the target network's
// (0, 10, −10); with γ = 1, one step and reward 0, the return is the target
// network's value of the best allowed action of the online network (worked
// out by hand), and 0 when the next observation allows none.
func TestMaskedTarget(t *testing.T) {
	const atoms = 3
	space, err := env.NewMasked(algotest.Box(t, -1, 1, 2), 3)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		mask []int8
		want float64
		atom int // the atom of the projected target's mass
	}{
		{[]int8{1, 1, 1}, 0, 1},   // online picks 0: target 0
		{[]int8{0, 1, 1}, 10, 2},  // online picks 1: target 10
		{[]int8{0, 0, 1}, -10, 0}, // only 2 allowed: target −10
		{[]int8{1, 0, 1}, 0, 1},
		{[]int8{0, 0, 0}, 0, 1}, // nothing allowed: all mass at 0
	}
	for _, c := range cases {
		cfg := c51.DefaultConfig()
		cfg.Hidden, cfg.NumAtoms, cfg.VMin, cfg.VMax = []int{2}, atoms, -10, 10
		cfg.Gamma, cfg.NStep = 1, 1
		a, err := c51.New(cfg, space, algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		pointMasses(t, a.Network().Params(), atoms, []int{2, 1, 0})
		pointMasses(t, a.Target().Params(), atoms, []int{1, 2, 0})
		obs := func(mask []int8) *batch.Batch {
			return batch.MustNew(batch.KeyObs, nd.MustNew([]float32{0.5, -0.5}), env.KeyActionMask, nd.MustNew(mask))
		}
		buf, err := buffer.New(buffer.Config{Size: 4})
		if err != nil {
			t.Fatal(err)
		}
		tr := batch.MustNew("obs", obs([]int8{1, 1, 1}), "act", int64(0), "rew", 0.0,
			"terminated", false, "truncated", false, "obs_next", obs(c.mask))
		if _, err := buf.Add(tr, nil, nil); err != nil {
			t.Fatal(err)
		}
		idx := []int{0}
		b, err := buf.Take(idx)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Preprocess(b, buf, idx); err != nil {
			t.Fatal(err)
		}
		ret, err := batch.Values[float32](b, batch.KeyReturns)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(float64(ret[0])-c.want) > 1e-4 {
			t.Errorf("mask %v: return %v; want %v", c.mask, ret[0], c.want)
		}
		dist, err := b.Array(categorical.KeyTargetDist)
		if err != nil {
			t.Fatal(err)
		}
		if p := nd.Data[float32](dist); math.Abs(float64(p[c.atom])-1) > 1e-4 {
			t.Errorf("mask %v: target distribution %v; want all mass on atom %d", c.mask, p, c.atom)
		}
	}
}
