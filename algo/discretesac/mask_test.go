package discretesac_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/discretesac"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
)

// setConstant makes the MLPs whose parameters are named prefix + "…" ignore
// their input: every weight is 0 and each output bias (the last bias of
// each MLP, named with the largest layer index) is out.
func setConstant(t *testing.T, ps nn.Params, prefix string, out []float32) {
	t.Helper()
	last := map[string]nn.Param{} // per MLP (name up to the layer index): its last bias
	for _, p := range ps {
		if !strings.HasPrefix(p.Name, prefix) {
			continue
		}
		clear(p.Tensor.Data())
		if strings.HasSuffix(p.Name, ".bias") && len(p.Tensor.Data()) == len(out) {
			i := strings.LastIndex(strings.TrimSuffix(p.Name, ".bias"), ".")
			last[p.Name[:i]] = p
		}
	}
	if len(last) == 0 {
		t.Fatalf("no output bias of %d values under %q", len(out), prefix)
	}
	for _, p := range last {
		copy(p.Tensor.Data(), out)
	}
}

func maskedObs(mask []int8) *batch.Batch {
	return batch.MustNew(batch.KeyObs, nd.MustNew([]float32{0.5, -0.5}), env.KeyActionMask, nd.MustNew(mask))
}

// TestMaskedSoftValue checks the soft value of obs_next over its allowed
// actions: with the actor's logits all 0 (π uniform over the allowed
// actions), both target critics at (1, 4, 7), α = 0.5, γ = 1, one step and
// reward 0, the return is the mean of the allowed Q-values plus α·log(the
// number allowed) (worked out by hand), and 0 when none is allowed.
func TestMaskedSoftValue(t *testing.T) {
	const alpha = 0.5
	space, err := env.NewMasked(algotest.Box(t, -1, 1, 2), 3)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		mask []int8
		want float64
	}{
		{[]int8{1, 1, 1}, 4 + alpha*math.Log(3)},
		{[]int8{1, 1, 0}, 2.5 + alpha*math.Log(2)},
		{[]int8{0, 0, 1}, 7},
		{[]int8{0, 0, 0}, 0},
	}
	for _, c := range cases {
		cfg := discretesac.DefaultConfig()
		cfg.ActorHidden, cfg.CriticHidden = []int{2}, []int{2}
		cfg.Gamma, cfg.NStep = 1, 1
		cfg.Temperature.Alpha, cfg.Temperature.AutoAlpha = alpha, false
		s, err := discretesac.New(cfg, space, algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		setConstant(t, s.Params(), "actor.", []float32{0, 0, 0})
		setConstant(t, s.Params(), "critics_target.", []float32{1, 4, 7})
		buf, err := buffer.New(buffer.Config{Size: 4})
		if err != nil {
			t.Fatal(err)
		}
		tr := batch.MustNew("obs", maskedObs([]int8{1, 1, 1}), "act", int64(0), "rew", 0.0,
			"terminated", false, "truncated", false, "obs_next", maskedObs(c.mask))
		if _, err := buf.Add(tr, nil, nil); err != nil {
			t.Fatal(err)
		}
		idx := []int{0}
		b, err := buf.Take(idx)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Preprocess(b, buf, idx); err != nil {
			t.Fatal(err)
		}
		ret, err := batch.Values[float32](b, batch.KeyReturns)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(float64(ret[0])-c.want) > 1e-5 {
			t.Errorf("mask %v: return %v; want %v", c.mask, ret[0], c.want)
		}
	}
}

// TestMaskedActorUpdate: an update on observations that forbid action 2
// leaves the actor's output bias of action 2 as it was (no gradient reaches
// a forbidden logit) while those of the allowed actions move, and its
// losses stay finite.
func TestMaskedActorUpdate(t *testing.T) {
	space, err := env.NewMasked(algotest.Box(t, -1, 1, 2), 3)
	if err != nil {
		t.Fatal(err)
	}
	cfg := discretesac.DefaultConfig()
	cfg.ActorHidden, cfg.CriticHidden = []int{2}, []int{2}
	s, err := discretesac.New(cfg, space, algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	setConstant(t, s.Params(), "actor.", []float32{0.1, 0.2, 0.3})
	setConstant(t, s.Params(), "critics.", []float32{1, 4, 7})
	var bias []float32
	for _, p := range s.Params() {
		if strings.HasPrefix(p.Name, "actor.") && strings.HasSuffix(p.Name, ".bias") && len(p.Tensor.Data()) == 3 {
			bias = p.Tensor.Data()
		}
	}
	obs := batch.MustNew(batch.KeyObs, nd.MustNew([][]float32{{0.5, -0.5}, {0, 1}}),
		env.KeyActionMask, nd.MustNew([][]int8{{1, 1, 0}, {0, 1, 0}}))
	b := batch.MustNew(batch.KeyObs, obs, batch.KeyAct, nd.MustNew([]int64{0, 1}), batch.KeyReturns, nd.MustNew([]float32{1, 2}))
	stats, err := s.Update(b)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range stats {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("%s = %v; want a finite value", k, v)
		}
	}
	if bias[2] != 0.3 {
		t.Errorf("forbidden action's bias moved to %v; want 0.3", bias[2])
	}
	if bias[0] == 0.1 || bias[1] == 0.2 {
		t.Errorf("allowed actions' biases %v; want them moved from (0.1, 0.2)", bias[:2])
	}
}
