package env_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
)

// arcade is a scripted Atari-like game: RGB frames [h, w, 3] that tell the
// frame number t (1 at the first step, 0 after Reset), rewards t (so that
// sums show which frames a step played), a life lost on each frame listed
// in lossAt, the game over with the last life. Pixel (y, x, c) of frame t
// is t + y + x + c, except pixel (0, 0, 0), which flickers: 200 on odd
// frames, 0 on even ones, as Atari sprites drawn every other frame.
type arcade struct {
	h, w     int
	lossAt   []int
	lives0   int
	obs      *env.Box
	act      *env.Discrete
	frame    *nd.Array
	t, lives int
	running  bool
	actions  []int64 // every action played, for the tests
	resets   int
	info     env.Info
}

func newArcade(h, w int, lives int, lossAt ...int) *arcade {
	a := &arcade{h: h, w: w, lossAt: lossAt, lives0: lives,
		obs: must(env.NewBox(0.0, 255.0, []int{h, w, 3}, nd.Uint8)), act: must(env.NewDiscrete(4, 0)),
		frame: nd.Zeros(nd.Uint8, h, w, 3), info: env.Info{}}
	return a
}

func (a *arcade) ObservationSpace() env.Space { return a.obs }
func (a *arcade) ActionSpace() env.Space      { return a.act }
func (a *arcade) Close() error                { return nil }

func (a *arcade) draw() *nd.Array {
	px := nd.Data[uint8](a.frame)
	for y := range a.h {
		for x := range a.w {
			for c := range 3 {
				px[(y*a.w+x)*3+c] = uint8(a.t + y + x + c)
			}
		}
	}
	px[0] = 0
	if a.t%2 == 1 {
		px[0] = 200
	}
	return a.frame
}

func (a *arcade) Reset(env.Seed) (any, env.Info, error) {
	a.t, a.lives, a.running = 0, a.lives0, true
	a.resets++
	a.info["lives"] = a.lives
	return a.draw(), a.info, nil
}

func (a *arcade) Step(action any) (any, float64, bool, bool, env.Info, error) {
	if !a.running {
		return nil, 0, false, false, nil, env.ErrNeedReset
	}
	v, err := a.act.Int(action)
	if err != nil {
		return nil, 0, false, false, nil, err
	}
	if len(a.actions) < 1<<16 {
		a.actions = append(a.actions, v)
	}
	a.t++
	if slices.Contains(a.lossAt, a.t) {
		a.lives--
	}
	a.running = a.lives > 0
	a.info["lives"] = a.lives
	return a.draw(), float64(a.t), !a.running, false, a.info, nil
}

func (a *arcade) MarshalState() ([]byte, error) {
	b := binary.AppendUvarint(nil, uint64(a.t))
	b = binary.AppendUvarint(b, uint64(a.lives))
	if a.running {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	return b, nil
}

func (a *arcade) UnmarshalState(data []byte) error {
	t, n := binary.Uvarint(data)
	if n <= 0 {
		return env.ErrState
	}
	lives, m := binary.Uvarint(data[n:])
	if m <= 0 || len(data) != n+m+1 || data[n+m] > 1 {
		return env.ErrState
	}
	a.t, a.lives, a.running = int(t), int(lives), data[n+m] == 1
	a.draw()
	return nil
}

func act(v int64) *nd.Array { return nd.MustNew(v) }

func TestNoopReset(t *testing.T) {
	const max = 5
	a := newArcade(2, 2, 1)
	n := must(env.NewNoopReset(a, max))
	counts := make([]int, max+1)
	const resets = 5000
	for i := range resets {
		seed := env.NoSeed
		if i == 0 {
			seed = env.SeedOf(1)
		}
		a.actions = a.actions[:0]
		resetOK(t, n, seed)
		if a.t != len(a.actions) || a.t < 1 || a.t > max {
			t.Fatalf("reset %d: %d no-ops, frame %d; want 1 to %d", i, len(a.actions), a.t, max)
		}
		for _, v := range a.actions {
			if v != 0 {
				t.Fatalf("no-op action %d, want 0", v)
			}
		}
		counts[a.t]++
	}
	// Each count is drawn with probability 1/5: 1000 ± 4.5 standard
	// deviations (28.3) of 5000 draws.
	for k := 1; k <= max; k++ {
		if counts[k] < 873 || counts[k] > 1127 {
			t.Errorf("%d no-ops %d times in %d resets, want about 1000", k, counts[k], resets)
		}
	}
	// The same seed gives the same number of no-ops.
	resetOK(t, n, env.SeedOf(9))
	first := a.t
	for range 5 {
		resetOK(t, n, env.SeedOf(9))
		if a.t != first {
			t.Fatalf("seed 9 gave %d and %d no-ops", first, a.t)
		}
	}
	// A game that ends during the no-ops is reset again: with its only life
	// lost on frame 1, every Reset ends on a fresh game after one or more
	// resets.
	short := newArcade(2, 2, 1, 1)
	ns := must(env.NewNoopReset(short, max))
	for range 20 {
		short.resets = 0
		resetOK(t, ns, env.NoSeed)
		if short.t != 0 || !short.running || short.resets < 1 {
			t.Fatalf("after Reset: frame %d, running %v, %d resets", short.t, short.running, short.resets)
		}
	}
	if _, err := env.NewNoopReset(newEcho(t, -1.0, 1.0, []int{1}), 30); !errors.Is(err, env.ErrSpace) {
		t.Errorf("Box action space: %v, want ErrSpace", err)
	}
}

func TestMaxAndSkip(t *testing.T) {
	for _, tc := range []struct {
		name       string
		skip       int
		lossAt     []int
		lives      int
		wantFrame  int // frame whose pixels other than (0, 0, 0) are returned
		wantFlick  uint8
		wantReward float64
		wantTerm   bool
	}{
		// Frames 1–4: rewards 1+2+3+4; the maximum of frames 3 and 4 has
		// frame 4's ramp and frame 3's flickering 200.
		{"skip 4", 4, nil, 1, 4, 200, 10, false},
		// Frames 1–3: the maximum of frames 2 and 3.
		{"skip 3", 3, nil, 1, 3, 200, 6, false},
		// The game ends on frame 2: frames 1 and 2 only.
		{"early end", 4, []int{2}, 1, 2, 200, 3, true},
		// The game ends on frame 1: that frame alone.
		{"one frame", 4, []int{1}, 1, 1, 200, 1, true},
		// No skip: frame 1 alone.
		{"skip 1", 1, nil, 1, 1, 200, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newArcade(3, 2, tc.lives, tc.lossAt...)
			m := must(env.NewMaxAndSkip(a, tc.skip))
			resetOK(t, m, env.SeedOf(1))
			obs, r, term, _, _ := stepOK(t, m, act(2))
			px := nd.Data[uint8](obs)
			if px[0] != tc.wantFlick || px[1] != uint8(tc.wantFrame+1) || px[17] != uint8(tc.wantFrame+2+1+2) {
				t.Errorf("pixels %v, want frame %d with flicker %d", px, tc.wantFrame, tc.wantFlick)
			}
			if r != tc.wantReward || term != tc.wantTerm {
				t.Errorf("reward %v, terminated %v; want %v, %v", r, term, tc.wantReward, tc.wantTerm)
			}
			if !slices.Equal(a.actions, slices.Repeat([]int64{2}, a.t)) {
				t.Errorf("actions played %v", a.actions)
			}
		})
	}
	// A second step plays frames 5–8: rewards 26, frame 8 (even) with
	// frame 7's flicker.
	a := newArcade(3, 2, 1)
	m := must(env.NewMaxAndSkip(a, 4))
	resetOK(t, m, env.NoSeed)
	stepOK(t, m, act(0))
	obs, r, _, _, _ := stepOK(t, m, act(0))
	if px := nd.Data[uint8](obs); r != 26 || px[0] != 200 || px[1] != 9 {
		t.Errorf("second step: reward %v, pixels %v", r, px[:2])
	}
	if _, err := env.NewMaxAndSkip(a, 0); err == nil {
		t.Error("skip 0 accepted")
	}
}

func TestEpisodicLife(t *testing.T) {
	// Three lives, lost on frames 2, 5 and 7.
	a := newArcade(2, 2, 3, 2, 5, 7)
	l := must(env.NewEpisodicLife(a))
	type step struct {
		frame, lives int
		term         bool
	}
	var got []step
	record := func(term bool) { got = append(got, step{a.t, l.Lives(), term}) }
	resetOK(t, l, env.SeedOf(1))
	record(false)
	for range 3 {
		for {
			_, _, term, _, _ := stepOK(t, l, act(3))
			record(term)
			if term {
				break
			}
		}
		if _, _, _, _, _, err := l.Step(act(3)); !errors.Is(err, env.ErrNeedReset) {
			t.Fatalf("Step after a lost life: %v, want ErrNeedReset", err)
		}
		resetOK(t, l, env.NoSeed)
		record(false)
	}
	// Frame 2 ends the first episode; Reset continues with a no-op
	// (frame 3); frame 5 ends the second, the no-op is frame 6; frame 7
	// ends the game and the last Reset restarts it (frame 0, 3 lives).
	want := []step{{0, 3, false}, {1, 3, false}, {2, 2, true}, {3, 2, false}, {4, 2, false}, {5, 1, true},
		{6, 1, false}, {7, 0, true}, {0, 3, false}}
	if !slices.Equal(got, want) {
		t.Errorf("(frame, lives, terminated) %v\nwant %v", got, want)
	}
	if a.resets != 2 || a.actions[2] != 0 || a.actions[5] != 0 {
		t.Errorf("%d resets, actions %v: want 2 resets and no-ops on frames 3 and 6", a.resets, a.actions)
	}
	// A seeded Reset restarts the game even with lives left.
	resetOK(t, l, env.NoSeed)
	stepOK(t, l, act(1))
	resetOK(t, l, env.SeedOf(2))
	if a.t != 0 || a.resets != 3 {
		t.Errorf("seeded Reset: frame %d, %d resets; want 0, 3", a.t, a.resets)
	}
	// An env without lives in its info is an error.
	noLives := must(env.NewEpisodicLife(fake(t, envtest.Config{Lengths: []int{3}})))
	if _, _, err := noLives.Reset(env.SeedOf(1)); err == nil {
		t.Error("Reset of an env without lives succeeded")
	}
}

func TestGrayscaleResize(t *testing.T) {
	for _, tc := range []struct {
		name   string
		shape  []int
		pixels []uint8
		h, w   int
		want   []uint8
	}{
		// OpenCV's RGB2GRAY: (r·4899 + g·9617 + b·1868 + 8192) >> 14:
		// red 255 → 76, green 255 → 150, blue 255 → 29, white → 255.
		{"gray", []int{1, 4, 3}, []uint8{255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255}, 1, 4, []uint8{76, 150, 29, 255}},
		// 1×3 → 1×2: each output covers 1.5 inputs: (0·1 + 90·0.5)/1.5 =
		// 30 and (90·0.5 + 180·1)/1.5 = 150.
		{"area 3→2", []int{1, 3}, []uint8{0, 90, 180}, 1, 2, []uint8{30, 150}},
		// 2×2 → 1×1: the mean 2.5 rounds half to even, to 2.
		{"mean", []int{2, 2, 1}, []uint8{1, 2, 3, 4}, 1, 1, []uint8{2}},
		// 4×2 → 2×1: row pairs averaged: (10+20+30+40)/4 = 25, (50+60+70+80)/4 = 65.
		{"rows", []int{4, 2}, []uint8{10, 20, 30, 40, 50, 60, 70, 80}, 2, 1, []uint8{25, 65}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img := nd.MustNew(tc.pixels)
			img = must(img.Reshape(tc.shape...))
			e := &still{obs: must(env.NewBox(0.0, 255.0, tc.shape, nd.Uint8)), img: img}
			g := must(env.NewGrayscaleResize(e, tc.h, tc.w))
			if got := g.ObservationSpace().(*env.Box).Shape(); !slices.Equal(got, []int{tc.h, tc.w}) {
				t.Errorf("space shape %v", got)
			}
			if got := nd.Data[uint8](resetOK(t, g, env.SeedOf(1))); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	for _, shape := range [][]int{{4}, {2, 2, 2}, {2, 2, 3, 1}} {
		e := &still{obs: must(env.NewBox(0.0, 255.0, shape, nd.Uint8))}
		if _, err := env.NewGrayscaleResize(e, 2, 2); !errors.Is(err, env.ErrSpace) {
			t.Errorf("shape %v: %v, want ErrSpace", shape, err)
		}
	}
}

// still is an env whose observation is always img.
type still struct {
	obs *env.Box
	img *nd.Array
}

func (s *still) ObservationSpace() env.Space { return s.obs }
func (s *still) ActionSpace() env.Space      { return must(env.NewDiscrete(2, 0)) }
func (s *still) Close() error                { return nil }
func (s *still) Reset(env.Seed) (any, env.Info, error) {
	return s.img, nil, nil
}
func (s *still) Step(any) (any, float64, bool, bool, env.Info, error) {
	return s.img, 0, false, false, nil, nil
}

func TestSignReward(t *testing.T) {
	for _, tc := range [][2]float64{{3.5, 1}, {-0.1, -1}, {0, 0}, {1e-300, 1}} {
		if got := env.SignReward(tc[0]); got != tc[1] {
			t.Errorf("SignReward(%v) = %v, want %v", tc[0], got, tc[1])
		}
	}
}

// TestAtariPreprocessing checks the whole stack on a 210×160 arcade game:
// the observation shape, conformance (state included), a restored state
// that continues exactly, and stepping without allocation.
func TestAtariPreprocessing(t *testing.T) {
	mk := func() env.Env {
		return must(env.NewAtariPreprocessing(newArcade(210, 160, 3, 200, 400, 600), env.DefaultAtariConfig()))
	}
	e := mk()
	if got := e.ObservationSpace().(*env.Box).Shape(); !slices.Equal(got, []int{4, 84, 84}) {
		t.Errorf("observation shape %v, want [4 84 84]", got)
	}
	envtest.Check(t, mk())

	a := mk()
	resetOK(t, a, env.SeedOf(3))
	for range 3 {
		stepOK(t, a, act(1))
	}
	saved := must(env.MarshalState(a))
	run := func(e env.Env) string {
		s := ""
		for range 12 {
			obs, r, term, _, _ := stepOK(t, e, act(1))
			s += fmt.Sprint(nd.Data[uint8](obs)[:8], r, term)
			if term {
				resetOK(t, e, env.NoSeed)
			}
		}
		return s
	}
	want := run(a)
	b := mk()
	if err := env.UnmarshalState(b, saved); err != nil {
		t.Fatal(err)
	}
	if got := run(b); got != want {
		t.Errorf("restored stack plays\n%s\nwant\n%s", got, want)
	}

	arc := newArcade(210, 160, 1)
	c := must(env.NewAtariPreprocessing(arc, env.DefaultAtariConfig()))
	resetOK(t, c, env.SeedOf(1))
	stepOK(t, c, act(1))
	arc.actions = make([]int64, 0, 10000)
	one := act(1)
	if n := testing.AllocsPerRun(50, func() { stepOK(t, c, one) }); n != 0 {
		t.Errorf("%v allocations per step, want 0", n)
	}
}

// FuzzAtariState feeds arbitrary bytes to the UnmarshalState of the Atari
// stack (on a small arcade game): it must never panic, and a state it
// accepts must leave an env that resets and steps.
func FuzzAtariState(f *testing.F) {
	mk := func() env.Env {
		cfg := env.DefaultAtariConfig()
		cfg.ScreenSize = 4
		return must(env.NewAtariPreprocessing(newArcade(8, 8, 2, 9), cfg))
	}
	e := mk()
	f.Add(must(env.MarshalState(e)))
	resetOK(f, e, env.SeedOf(1))
	stepOK(f, e, act(1))
	f.Add(must(env.MarshalState(e)))
	f.Fuzz(func(t *testing.T, data []byte) {
		e := mk()
		if err := env.UnmarshalState(e, data); err != nil {
			return
		}
		if _, _, _, _, _, err := e.Step(act(1)); err != nil {
			resetOK(t, e, env.NoSeed)
		}
		if _, err := env.MarshalState(e); err != nil {
			t.Fatalf("MarshalState after restoring: %v", err)
		}
	})
}

// BenchmarkAtariPreprocessing times one step of the default stack on a
// 210×160 RGB arcade game (the Atari screen): four frames played, each
// copied, the maximum of two, a grayscale 84×84 resize and the frame
// stack's copies. The arcade's drawing of its frames is included.
func BenchmarkAtariPreprocessing(b *testing.B) {
	e := must(env.NewAtariPreprocessing(newArcade(210, 160, 1), env.DefaultAtariConfig()))
	resetOK(b, e, env.SeedOf(1))
	a := act(1)
	cputime.Measure(b, func() {
		if _, _, _, _, _, err := e.Step(a); err != nil {
			b.Fatal(err)
		}
	})
}
