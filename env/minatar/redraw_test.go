package minatar

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// TestRedraw checks the frames that Step brings from one to the next
// against the same frames drawn whole: after every step of random play, the
// env's state is restored into a new env, whose observation is drawn
// whole, and the two must be equal. (TestReference draws each frame whole
// between its redraws, which makes every game draw its next frame in full.)
func TestRedraw(t *testing.T) {
	for _, name := range Games {
		t.Run(name, func(t *testing.T) {
			e, err := New(name, DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			e.Reset(env.SeedOf(3))
			rng := rand.New(rand.NewPCG(3, 3))
			a := nd.Zeros(nd.Int64)
			for step := 1; step <= 2000; step++ {
				nd.Data[int64](a)[0] = int64(rng.IntN(numActions))
				_, _, term, _, _, err := e.Step(a)
				if err != nil {
					t.Fatal(err)
				}
				state, err := e.MarshalState()
				if err != nil {
					t.Fatal(err)
				}
				whole, _ := New(name, DefaultConfig())
				if err := whole.UnmarshalState(state); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(e.obsData, whole.obsData) {
					t.Fatalf("step %d: redrawn frame differs from the frame drawn whole:\n%v\n%v", step, e.obsData, whole.obsData)
				}
				if term {
					e.Reset(env.NoSeed)
				}
			}
		})
	}
	t.Run("Seaquest crowded", func(t *testing.T) {
		// At the ramp's limits (an enemy every frame, a move every third
		// frame) with the sub safe at the surface, the grid fills up:
		// movers share cells and trails, which stay shown while one of
		// them is there.
		e, err := New("Seaquest", DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		e.Reset(env.SeedOf(5))
		g := e.g.(*seaquest)
		g.spawnSpeed, g.moveSpeed = 1, seaMinMove
		rng := rand.New(rand.NewPCG(5, 5))
		a := nd.Zeros(nd.Int64)
		whole := make([]uint8, len(e.obsData))
		most := 0
		for step := 1; step <= 500; step++ {
			nd.Data[int64](a)[0] = int64([]int{NoOp, Left, Right}[rng.IntN(3)])
			if _, _, term, _, _, err := e.Step(a); err != nil || term {
				t.Fatalf("step %d: game over %v, error %v", step, term, err)
			}
			for _, plane := range g.count {
				most = max(most, int(slices.Max(plane[:])))
			}
			h := *g
			clear(whole)
			h.observe(whole)
			if !slices.Equal(e.obsData, whole) {
				t.Fatalf("step %d: redrawn frame differs from the frame drawn whole:\n%v\n%v", step, e.obsData, whole)
			}
		}
		if most < 2 {
			t.Errorf("at most %d movers or trails in a cell, want 2 or more", most)
		}
	})
}
