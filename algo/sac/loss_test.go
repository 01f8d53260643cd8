package sac_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/sac"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// TestAlpha checks that a fixed α stays as configured, and that the first
// automatic step moves log α by Adam's first step, lr·g/(|g| + ε) ≈ ±lr
// (the bias-corrected moments of one gradient g), from log α₀ = 0.
func TestAlpha(t *testing.T) {
	for _, auto := range []bool{false, true} {
		cfg := small(8)
		cfg.AutoAlpha, cfg.Alpha = auto, 0.2
		if auto {
			cfg.Alpha = 1
		}
		s := algotest.Build(t, sac.New, cfg, algotest.Box(t, -2, 2, 2), rand.New(rand.NewPCG(1, 2)))
		if s.TargetEntropy() != -2 {
			t.Errorf("target entropy %v, want −dim(A) = −2", s.TargetEntropy())
		}
		buf := algotest.Collection(t, 4, 50, algotest.Box(t, -2, 2, 2), rand.New(rand.NewPCG(3, 4)))
		var l algo.Learner
		if _, err := l.Step(s, buf, 32, rand.New(rand.NewPCG(5, 6))); err != nil {
			t.Fatal(err)
		}
		got := math.Log(s.Alpha())
		if !auto && !scalar.EqualWithinAbs(got, math.Log(0.2), 1e-7) {
			t.Errorf("fixed α moved to %v", s.Alpha())
		}
		if auto && !scalar.EqualWithinAbs(math.Abs(got), 3e-4, 1e-6) {
			t.Errorf("log α after one step %v, want ±3e-4", got)
		}
	}
}

// TestDeterministicEval checks that outside a training step the policy acts
// with tanh of the mean, the same action every call, and samples inside one.
func TestDeterministicEval(t *testing.T) {
	s := algotest.Build(t, sac.New, small(8), algotest.Box(t, -2, 2, 2), rand.New(rand.NewPCG(1, 2)))
	p := s.Policy()
	obs := batch.MustNew("obs", nd.Zeros(nd.Float32, 3, 4))
	act := func() []float32 {
		var b batch.Batch
		if err := p.Act(&b, obs, nil, true); err != nil {
			t.Fatal(err)
		}
		a, _ := b.Array("act")
		return append([]float32(nil), nd.Data[float32](a)...)
	}
	a, b := act(), act()
	for i := range a {
		if a[i] != b[i] || !(a[i] > -1 && a[i] < 1) {
			t.Fatalf("evaluation actions %v then %v; want equal, in (−1, 1)", a, b)
		}
	}
	p.SetTrainingStep(true)
	c := act()
	if c[0] == a[0] {
		t.Error("a training step did not sample")
	}
}
