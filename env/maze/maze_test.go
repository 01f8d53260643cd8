package maze_test

import (
	"errors"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/maze"
	"github.com/gorl/gorl/nd"
)

func TestCheck(t *testing.T) {
	envtest.Check(t, maze.New())
	e, err := env.Make(maze.ID)
	if err != nil {
		t.Fatal(err)
	}
	envtest.Check(t, e)
	envtest.Check(t, maze.NewPlain())
}

func TestSpaces(t *testing.T) {
	e := maze.New()
	inner, n, ok := env.Unmasked(e.ObservationSpace())
	if !ok || n != maze.Actions || len(inner.Shape()) != 1 || inner.Shape()[0] != maze.Size*maze.Size {
		t.Fatalf("Unmasked(%v) = %v, %d, %v; want Box (25,), 4, true", e.ObservationSpace(), inner, n, ok)
	}
}

// step takes action a and returns the observation's position, mask, the
// reward and the terminated flag.
func step(t *testing.T, e *maze.Env, a int64) (int, []int8, float64, bool) {
	t.Helper()
	obs, rew, term, trunc, _, err := e.Step(nd.MustNew(a))
	if err != nil || trunc {
		t.Fatalf("Step(%d): truncated %v, %v", a, trunc, err)
	}
	pos, mask := read(t, obs)
	return pos, mask, rew, term
}

func read(t *testing.T, obs any) (int, []int8) {
	t.Helper()
	b := obs.(*batch.Batch)
	p, err := batch.Values[float32](b, batch.KeyObs)
	if err != nil {
		t.Fatal(err)
	}
	m, err := batch.Values[int8](b, env.KeyActionMask)
	if err != nil {
		t.Fatal(err)
	}
	pos := -1
	for i, v := range p {
		if v == 1 {
			pos = i
		}
	}
	return pos, append([]int8(nil), m...)
}

// TestShortestPath walks the maze's shortest path (worked out by hand on the
// layout: right, right, down, down, right, right, down, down) and checks
// every mask along it and the returns.
func TestShortestPath(t *testing.T) {
	e := maze.New()
	obs, _, err := e.Reset(env.SeedOf(1))
	if err != nil {
		t.Fatal(err)
	}
	pos, mask := read(t, obs)
	if pos != 0 || string(fmtMask(mask)) != "0100" {
		t.Fatalf("start: position %d, mask %s; want 0, 0100 (only right)", pos, fmtMask(mask))
	}
	// Moves 0 up, 1 right, 2 down, 3 left; masks listed as up, right,
	// down, left from the layout.
	path := []struct {
		a    int64
		pos  int
		mask string
	}{
		{1, 1, "0101"}, {1, 2, "0011"}, {2, 7, "1010"}, {2, 12, "1101"},
		{1, 13, "0101"}, {1, 14, "1011"}, {2, 19, "1010"}, {2, 24, "1000"},
	}
	ret := 0.0
	for i, s := range path {
		p, m, rew, term := step(t, e, s.a)
		ret += rew
		if p != s.pos || fmtMask(m) != s.mask {
			t.Errorf("move %d: position %d, mask %s; want %d, %s", i, p, fmtMask(m), s.pos, s.mask)
		}
		if term != (i == len(path)-1) {
			t.Errorf("move %d: terminated %v", i, term)
		}
	}
	if want := 1 - 7*0.01; ret < want-1e-9 || ret > want+1e-9 {
		t.Errorf("return %v; want %v", ret, want)
	}
}

func fmtMask(m []int8) string {
	b := make([]byte, len(m))
	for i, v := range m {
		b[i] = '0' + byte(v)
	}
	return string(b)
}

func TestInvalidMoveEnds(t *testing.T) {
	e := maze.New()
	if _, _, err := e.Reset(env.NoSeed); err != nil {
		t.Fatal(err)
	}
	for _, a := range []int64{0, 2, 3} { // every move but right is invalid at the start
		if _, _, err := e.Reset(env.NoSeed); err != nil {
			t.Fatal(err)
		}
		pos, _, rew, term := step(t, e, a)
		if !term || rew != maze.InvalidReward || pos != 0 {
			t.Errorf("action %d at the start: terminated %v, reward %v, position %d; want true, %v, 0", a, term, rew, pos, maze.InvalidReward)
		}
		if _, _, _, _, _, err := e.Step(nd.MustNew(int64(1))); !errors.Is(err, env.ErrNeedReset) {
			t.Errorf("Step after the invalid move: %v; want ErrNeedReset", err)
		}
	}
}

func TestStepAllocs(t *testing.T) {
	e := maze.New()
	right, left := nd.MustNew(int64(1)), nd.MustNew(int64(3))
	if _, _, err := e.Reset(env.NoSeed); err != nil {
		t.Fatal(err)
	}
	i := 0
	allocs := testing.AllocsPerRun(100, func() {
		a := right
		if i%2 == 1 {
			a = left
		}
		i++
		if _, _, _, _, _, err := e.Step(a); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Step allocates %v times; want 0", allocs)
	}
}
