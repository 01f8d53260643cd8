package minatar_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/minatar"
	"github.com/gorl/gorl/nd"
)

// TestCheck runs the conformance checker on every registered id.
func TestCheck(t *testing.T) {
	for _, g := range minatar.Games {
		for _, v := range []string{"v0", "v1"} {
			id := g + "-MinAtar-" + v
			t.Run(id, func(t *testing.T) {
				e, err := env.Make(id)
				if err != nil {
					t.Fatal(err)
				}
				envtest.Check(t, e)
			})
		}
	}
}

// stepper steps an env with int actions through one reused 0-d array.
type stepper struct {
	e   *minatar.Env
	act *nd.Array
}

func newStepper(t testing.TB, game string, cfg minatar.Config) *stepper {
	t.Helper()
	e, err := minatar.New(game, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &stepper{e: e, act: nd.Zeros(nd.Int64)}
}

func (s *stepper) step(t testing.TB, a int) (obs []uint8, r float64, term bool) {
	nd.Data[int64](s.act)[0] = int64(a)
	o, r, term, trunc, _, err := s.e.Step(s.act)
	if err != nil || trunc {
		t.Fatalf("Step: %v, truncated %v", err, trunc)
	}
	return nd.Data[uint8](o.(*nd.Array)), r, term
}

// trajectory plays episodes from seed with actions drawn from rng for n
// steps (resetting after each end) and returns the observations and
// rewards, concatenated.
func trajectory(t testing.TB, s *stepper, seed uint64, n int, rng *rand.Rand) (obs []uint8, rewards []float64) {
	o, _, err := s.e.Reset(env.SeedOf(seed))
	if err != nil {
		t.Fatal(err)
	}
	obs = append(obs, nd.Data[uint8](o.(*nd.Array))...)
	k := int(s.e.ActionSpace().(*env.Discrete).N())
	for range n {
		o, r, term := s.step(t, rng.IntN(k))
		obs, rewards = append(obs, o...), append(rewards, r)
		if term {
			o, _, _ := s.e.Reset(env.NoSeed)
			obs = append(obs, nd.Data[uint8](o.(*nd.Array))...)
		}
	}
	return obs, rewards
}

// TestDeterminism checks that a seed and the actions fix the episodes,
// sticky actions included, and that another seed gives others.
func TestDeterminism(t *testing.T) {
	for _, g := range minatar.Games {
		a, b := newStepper(t, g, minatar.DefaultConfig()), newStepper(t, g, minatar.DefaultConfig())
		obs1, rew1 := trajectory(t, a, 7, 3000, rand.New(rand.NewPCG(1, 1)))
		obs2, rew2 := trajectory(t, b, 7, 3000, rand.New(rand.NewPCG(1, 1)))
		if !bytes.Equal(obs1, obs2) || !slices.Equal(rew1, rew2) {
			t.Errorf("%s: two runs from seed 7 differ", g)
		}
		obs3, _ := trajectory(t, b, 8, 3000, rand.New(rand.NewPCG(1, 1)))
		if bytes.Equal(obs1, obs3) {
			t.Errorf("%s: seeds 7 and 8 give the same run", g)
		}
	}
}

// TestResume saves each game in the middle of a long run of random play,
// lets it go on, restores the state into a fresh env and checks that the
// same actions give the same frames again, sticky actions and spawns
// included.
func TestResume(t *testing.T) {
	for _, g := range minatar.Games {
		s := newStepper(t, g, minatar.DefaultConfig())
		trajectory(t, s, 3, 500, rand.New(rand.NewPCG(2, 2)))
		state, err := s.e.MarshalState()
		if err != nil {
			t.Fatal(err)
		}
		rest := func(s *stepper) ([]uint8, []float64) {
			rng := rand.New(rand.NewPCG(5, 5))
			var obs []uint8
			var rews []float64
			for range 1000 {
				o, r, term := s.step(t, rng.IntN(6))
				obs, rews = append(obs, o...), append(rews, r)
				if term {
					o, _, _ := s.e.Reset(env.NoSeed)
					obs = append(obs, nd.Data[uint8](o.(*nd.Array))...)
				}
			}
			return obs, rews
		}
		if _, _, err := s.e.Reset(env.NoSeed); err != nil { // make sure an episode runs
			t.Fatal(err)
		}
		state, _ = s.e.MarshalState()
		obs1, rew1 := rest(s)
		s2 := newStepper(t, g, minatar.DefaultConfig())
		if err := s2.e.UnmarshalState(state); err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		obs2, rew2 := rest(s2)
		if !bytes.Equal(obs1, obs2) || !slices.Equal(rew1, rew2) {
			t.Errorf("%s: the restored env plays differently", g)
		}
		other := newStepper(t, "Breakout", minatar.Config{MinimalActions: true})
		if g != "Breakout" {
			if err := other.e.UnmarshalState(state); !errors.Is(err, env.ErrState) {
				t.Errorf("%s state into Breakout-MinAtar-v1: %v, want ErrState", g, err)
			}
		}
	}
}

// TestConfig checks the action sets and the errors of New.
func TestConfig(t *testing.T) {
	want := map[string][]int{
		"Asterix":       {minatar.NoOp, minatar.Left, minatar.Up, minatar.Right, minatar.Down},
		"Breakout":      {minatar.NoOp, minatar.Left, minatar.Right},
		"Freeway":       {minatar.NoOp, minatar.Up, minatar.Down},
		"Seaquest":      {minatar.NoOp, minatar.Left, minatar.Up, minatar.Right, minatar.Down, minatar.Fire},
		"SpaceInvaders": {minatar.NoOp, minatar.Left, minatar.Right, minatar.Fire},
	}
	channels := map[string]int{"Asterix": 4, "Breakout": 4, "Freeway": 7, "Seaquest": 10, "SpaceInvaders": 6}
	for _, g := range minatar.Games {
		e, err := minatar.New(g, minatar.Config{MinimalActions: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Actions(); !slices.Equal(got, want[g]) {
			t.Errorf("%s: minimal actions %v, want %v", g, got, want[g])
		}
		if got := e.ObservationSpace().(*env.Box).Shape(); !slices.Equal(got, []int{channels[g], 10, 10}) {
			t.Errorf("%s: observation shape %v", g, got)
		}
		if e.ID() != g+"-MinAtar-v1" {
			t.Errorf("ID %q", e.ID())
		}
	}
	for _, tc := range []struct {
		game string
		cfg  minatar.Config
	}{
		{"Pong", minatar.DefaultConfig()},
		{"Breakout", minatar.Config{StickyActionProb: 1.5}},
		{"Breakout", minatar.Config{StickyActionProb: -0.1}},
	} {
		if _, err := minatar.New(tc.game, tc.cfg); !errors.Is(err, minatar.ErrConfig) {
			t.Errorf("New(%q, %+v): %v, want ErrConfig", tc.game, tc.cfg, err)
		}
	}
}

// TestRender checks the frame's size and the colours of Breakout's first
// frame: the paddle's cell differs from an empty cell, which is black.
func TestRender(t *testing.T) {
	e, _ := minatar.New("Breakout", minatar.DefaultConfig())
	if _, err := e.Render(); !errors.Is(err, env.ErrNeedReset) {
		t.Errorf("Render before Reset: %v, want ErrNeedReset", err)
	}
	e.Reset(env.SeedOf(1))
	img, err := e.Render()
	if err != nil {
		t.Fatal(err)
	}
	const c = minatar.CellPixels
	if img.Bounds() != image.Rect(0, 0, 10*c, 10*c) {
		t.Fatalf("bounds %v", img.Bounds())
	}
	black := color.RGBAModel.Convert(color.Black)
	if got := img.At(c/2, 8*c+c/2); got != black {
		t.Errorf("empty cell (0, 8) is %v, want black", got)
	}
	paddle := img.At(4*c+c/2, 9*c+c/2)
	if paddle == black || img.At(4*c, 9*c) != paddle || img.At(5*c-1, 10*c-1) != paddle {
		t.Errorf("paddle cell (4, 9) not drawn in one colour: %v", paddle)
	}
	if brick := img.At(c/2, 2*c+c/2); brick == black || brick == paddle {
		t.Errorf("brick cell (0, 2) is %v", brick)
	}
}

// TestStepAllocs locks the zero-allocation step of every game.
func TestStepAllocs(t *testing.T) {
	for _, g := range minatar.Games {
		s := newStepper(t, g, minatar.DefaultConfig())
		rng := rand.New(rand.NewPCG(1, 1))
		trajectory(t, s, 1, 2000, rng) // let Seaquest's lists grow
		allocs := testing.AllocsPerRun(1000, func() {
			if _, _, term := s.step(t, rng.IntN(6)); term {
				s.e.Reset(env.NoSeed)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per step, want 0", g, allocs)
		}
	}
}

// FuzzUnmarshalState feeds arbitrary bytes, and mutations of real saved
// states, to UnmarshalState: it must never panic, and a state it accepts
// must play and render.
func FuzzUnmarshalState(f *testing.F) {
	for i, g := range minatar.Games {
		s := newStepper(f, g, minatar.DefaultConfig())
		trajectory(f, s, uint64(i), 300, rand.New(rand.NewPCG(1, 1)))
		state, err := s.e.MarshalState()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(i, state)
	}
	f.Fuzz(func(t *testing.T, game int, data []byte) {
		g := minatar.Games[uint(game)%uint(len(minatar.Games))]
		e, _ := minatar.New(g, minatar.DefaultConfig())
		if err := e.UnmarshalState(data); err != nil {
			if !errors.Is(err, env.ErrState) {
				t.Fatalf("error %v does not wrap ErrState", err)
			}
			return
		}
		if _, err := e.Render(); err != nil && !errors.Is(err, env.ErrNeedReset) {
			t.Fatal(err)
		}
		act := nd.Zeros(nd.Int64)
		for a := range 200 {
			nd.Data[int64](act)[0] = int64(a % 6)
			if _, _, term, _, _, err := e.Step(act); err != nil || term {
				return
			}
		}
	})
}
