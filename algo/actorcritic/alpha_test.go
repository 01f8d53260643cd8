package actorcritic_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/tensor"
)

// TestAlphaLoss checks L_α = −log α·mean(log π + H̄) against float64
// arithmetic and its gradient against a central difference of that formula.
func TestAlphaLoss(t *testing.T) {
	for _, tc := range []struct {
		logAlpha float64
		logp     []float32
		h        float64
	}{
		{0, []float32{-1.5, 0.2, 0.7}, -1},
		{-2.3, []float32{3, 2.5}, -2},
		{0.4, []float32{-0.1}, 0.5},
	} {
		f := func(la float64) float64 {
			var m float64
			for _, v := range tc.logp {
				m += float64(v) + tc.h
			}
			return -la * m / float64(len(tc.logp))
		}
		var tp tensor.Tape
		la := tensor.MustFromSlice([]float32{float32(tc.logAlpha)}, 1).SetRequiresGrad(true)
		loss := actorcritic.AlphaLoss(&tp, la, tc.logp, tc.h)
		if !scalar.EqualWithinAbsOrRel(float64(loss.Item()), f(tc.logAlpha), 1e-6, 1e-6) {
			t.Errorf("%+v: loss %v, want %v", tc, loss.Item(), f(tc.logAlpha))
		}
		tp.Backward(loss)
		const h = 1e-6
		want := (f(tc.logAlpha+h) - f(tc.logAlpha-h)) / (2 * h)
		if got := float64(la.Grad()[0]); !scalar.EqualWithinAbsOrRel(got, want, 1e-5, 1e-5) {
			t.Errorf("%+v: gradient %v, central difference %v", tc, got, want)
		}
	}
}

// TestAlphaStep checks that a fixed α does not move, that a tuned one
// moves by Adam's first step, lr·g/(|g| + ε) ≈ lr against the sign of the
// gradient g = −mean(log π + H̄), and that invalid settings are refused
// naming the field.
func TestAlphaStep(t *testing.T) {
	logp := []float32{-0.5, 0.25} // mean log π + H̄ = −0.125 − 1 < 0: g > 0, α falls
	for _, auto := range []bool{false, true} {
		c := actorcritic.DefaultTemperature()
		c.AutoAlpha, c.Alpha = auto, 0.2
		a, err := actorcritic.NewAlpha(c, -1)
		if err != nil {
			t.Fatal(err)
		}
		loss := a.Step(logp)
		got := math.Log(a.Value())
		want := math.Log(0.2)
		if auto {
			want -= 3e-4
			if wl := -math.Log(0.2) * (-0.125 - 1); !scalar.EqualWithinAbsOrRel(loss, wl, 1e-6, 1e-6) {
				t.Errorf("loss %v, want %v", loss, wl)
			}
		} else if loss != 0 {
			t.Errorf("fixed α: loss %v, want 0", loss)
		}
		if !scalar.EqualWithinAbs(got, want, 1e-6) {
			t.Errorf("auto %v: log α %v after one step, want %v", auto, got, want)
		}
	}
	for _, tc := range []struct {
		edit   func(*actorcritic.Temperature)
		target float64
		want   string
	}{
		{func(c *actorcritic.Temperature) { c.Alpha = 0 }, -1, "alpha"},
		{func(c *actorcritic.Temperature) { c.Alpha = math.Inf(1) }, -1, "alpha"},
		{func(c *actorcritic.Temperature) { c.AlphaOptim.LR = -1 }, -1, "alpha_optim"},
		{func(*actorcritic.Temperature) {}, math.NaN(), "target entropy"},
	} {
		c := actorcritic.DefaultTemperature()
		tc.edit(&c)
		_, err := actorcritic.NewAlpha(c, tc.target)
		if !errors.Is(err, actorcritic.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewAlpha: %v; want ErrConfig naming %q", err, tc.want)
		}
	}
}
