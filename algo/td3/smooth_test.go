package td3_test

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/td3"
	"github.com/gorl/gorl/nn"
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
		td3.Smooth(act, tc.sigma, tc.clip, rand.New(rand.NewPCG(1, 2)))
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

// TestDelayedUpdates checks that with UpdateActorFreq 3 the actor and the
// targets change on updates 1, 4, 7 (counting from 1) only, while the
// critics change on every update.
func TestDelayedUpdates(t *testing.T) {
	cfg := td3.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden, cfg.UpdateActorFreq = []int{8}, []int{8}, 3
	d, err := td3.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Box(t, -2, 2, 2), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	buf := algotest.Collection(t, 4, 50, algotest.Box(t, -2, 2, 2), rand.New(rand.NewPCG(3, 4)))
	rng := rand.New(rand.NewPCG(5, 6))
	var l algo.Learner
	snap := func() (actor, critics []byte) {
		var a, c bytes.Buffer
		ps := d.Params()
		if err := nn.Save(&a, ps[:len(ps)-len(d.Critics().Params())*2], nil); err != nil {
			t.Fatal(err)
		}
		if err := nn.Save(&c, d.Critics().Params(), nil); err != nil {
			t.Fatal(err)
		}
		return a.Bytes(), c.Bytes()
	}
	for u := 1; u <= 8; u++ {
		a0, c0 := snap()
		if _, err := l.Step(d, buf, 16, rng); err != nil {
			t.Fatal(err)
		}
		a1, c1 := snap()
		wantActor := u%3 == 1
		if changed := !bytes.Equal(a0, a1); changed != wantActor {
			t.Errorf("update %d: actor and targets changed %v, want %v", u, changed, wantActor)
		}
		if bytes.Equal(c0, c1) {
			t.Errorf("update %d: the critics did not change", u)
		}
	}
	if d.Updates() != 8 || d.ActorUpdates() != 3 {
		t.Errorf("%d updates, %d actor updates; want 8, 3", d.Updates(), d.ActorUpdates())
	}
}
