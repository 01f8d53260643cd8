package actorcritic_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/algo/actorcritic"
)

// TestSmoothClip checks the target policy smoothing noise: with σ = 1 and
// clip 0.5 every draw lies in [−0.5, 0.5] and many sit on the bounds (about
// 62% of N(0, 1) lies beyond ±0.5); clip 0 leaves the draws unclipped; σ 0
// adds nothing.
func TestSmoothClip(t *testing.T) {
	for _, tc := range []struct {
		sigma, clip float64
		wantMax     float64 // bound on |noise|; 0 for none
	}{{1, 0.5, 0.5}, {0.2, 0.1, 0.1}, {1, 0, 0}, {0, 0.5, 0}} {
		act := make([]float32, 10_000)
		actorcritic.Smooth(act, tc.sigma, tc.clip, rand.New(rand.NewPCG(1, 2)))
		var onBound, beyond int
		for _, v := range act {
			a := float64(max(v, -v))
			if tc.wantMax > 0 && a > tc.wantMax+1e-7 {
				t.Fatalf("σ %v clip %v: noise %v beyond the clip", tc.sigma, tc.clip, v)
			}
			if tc.wantMax > 0 && a >= tc.wantMax-1e-7 {
				onBound++
			}
			if a > 1 {
				beyond++
			}
		}
		switch {
		case tc.sigma == 0 && slices.ContainsFunc(act, func(v float32) bool { return v != 0 }):
			t.Error("σ 0 added noise")
		case tc.sigma == 1 && tc.clip == 0.5 && (onBound < 5500 || onBound > 6900):
			t.Errorf("%d of 10,000 draws on the bounds; want about 6,170", onBound)
		case tc.sigma == 1 && tc.clip == 0 && beyond < 2800:
			t.Errorf("%d of 10,000 unclipped draws beyond ±1; want about 3,170", beyond)
		}
	}
}
