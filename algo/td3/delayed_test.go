package td3_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/td3"
	"github.com/gorl/gorl/nn"
)

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
