package quantile_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/fqf"
	"github.com/gorl/gorl/algo/iqn"
	"github.com/gorl/gorl/algo/qrdqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
)

// constant makes the quantile network of ps ignore its input and its
// fractions: every weight is 0, and the output bias gives every quantile
// of action a the value q[a] (the output layer is the last parameter; per
// quantile the A biases repeat).
func constant(t *testing.T, ps nn.Params, q []float32) {
	t.Helper()
	for _, p := range ps {
		clear(p.Tensor.Data())
	}
	bias := ps[len(ps)-1].Tensor.Data()
	if len(bias)%len(q) != 0 {
		t.Fatalf("output bias of %d values for %d actions", len(bias), len(q))
	}
	for i := range bias {
		bias[i] = q[i%len(q)]
	}
}

// TestMaskedTargets checks that QR-DQN's, IQN's and FQF's target quantiles
// are those of the best allowed next action (quantile.Core.GreedyNext).
// With Double, the online network (quantiles all (2, 10, −10) for actions
// (0, 1, 2)) chooses and the target network (all (20, 30, 40)) values; with
// reward 1, γ = 1 and one step, every target quantile is 1 + the target's
// value of the online network's best allowed action (worked out by hand),
// and 1 when the next observation allows none.
func TestMaskedTargets(t *testing.T) {
	space, err := env.NewMasked(algotest.Box(t, -1, 1, 2), 3)
	if err != nil {
		t.Fatal(err)
	}
	act := algotest.Discrete(t, 3, 0)
	online, target := []float32{2, 10, -10}, []float32{20, 30, 40}
	type nets struct {
		a              algo.OffPolicy
		online, target nn.Params
	}
	build := map[string]func(t *testing.T) nets{
		"qrdqn": func(t *testing.T) nets {
			cfg := qrdqn.DefaultConfig()
			cfg.Hidden, cfg.NumQuantiles, cfg.Gamma, cfg.NStep = []int{2}, 4, 1, 1
			a, err := qrdqn.New(cfg, space, act, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			return nets{a, a.Network().Params(), a.Target().Params()}
		},
		"iqn": func(t *testing.T) nets {
			cfg := iqn.DefaultConfig()
			cfg.Hidden, cfg.Cosines, cfg.HeadHidden, cfg.Gamma, cfg.NStep = []int{2}, 4, nil, 1, 1
			a, err := iqn.New(cfg, space, act, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			return nets{a, a.Network().Params(), a.Target().Params()}
		},
		"fqf": func(t *testing.T) nets {
			cfg := fqf.DefaultConfig()
			cfg.Hidden, cfg.Cosines, cfg.HeadHidden, cfg.NumFractions, cfg.Gamma, cfg.NStep = []int{2}, 4, nil, 4, 1, 1
			a, err := fqf.New(cfg, space, act, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			return nets{a, a.Network().Params(), a.Target().Params()}
		},
	}
	cases := []struct {
		mask []int8
		want float32
	}{
		{[]int8{1, 1, 1}, 31}, // online picks 1
		{[]int8{1, 0, 1}, 21}, // 1 forbidden: online picks 0
		{[]int8{0, 0, 1}, 41},
		{[]int8{0, 0, 0}, 1}, // nothing allowed: the reward alone
	}
	obs := func(mask []int8) *batch.Batch {
		return batch.MustNew(batch.KeyObs, nd.MustNew([]float32{0.5, -0.5}), env.KeyActionMask, nd.MustNew(mask))
	}
	for name, mk := range build {
		for _, c := range cases {
			n := mk(t)
			constant(t, n.online, online)
			constant(t, n.target, target)
			buf, err := buffer.New(buffer.Config{Size: 4})
			if err != nil {
				t.Fatal(err)
			}
			tr := batch.MustNew("obs", obs([]int8{1, 1, 1}), "act", int64(0), "rew", 1.0,
				"terminated", false, "truncated", false, "obs_next", obs(c.mask))
			if _, err := buf.Add(tr, nil, nil); err != nil {
				t.Fatal(err)
			}
			idx := []int{0}
			b, err := buf.Take(idx)
			if err != nil {
				t.Fatal(err)
			}
			if err := n.a.Preprocess(b, buf, idx); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			ret, err := b.Array(batch.KeyReturns)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range nd.Data[float32](ret) {
				if math.Abs(float64(x-c.want)) > 1e-4 {
					t.Errorf("%s, mask %v: target quantiles %v; want all %v", name, c.mask, nd.Data[float32](ret), c.want)
					break
				}
			}
		}
	}
}
