package minatar

import (
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// testdata/reference.json.gz, written by testdata/reference.py, holds 3000
// frames of each game played by the MinAtar package itself (its raw games,
// difficulty ramping on, no sticky actions) under uniformly random actions,
// and of Breakout, Freeway and Space Invaders under policies that score
// more (following the ball, mostly up, mostly firing), resetting after each
// game over:
// the actions, rewards and game-over flags, every frame (channels first,
// packed 8 cells to a byte, MSB first) and every random draw the game made,
// in order: a float in [0, 1) ("f") or an integer in [0, n) ("i", n, k).
// TestReference replays the draws into our games and compares every frame,
// drawn whole (observe) and brought from the previous one (redraw) as
// Env.Step does.

type reference struct {
	Actions []int     `json:"actions"`
	Rewards []float64 `json:"rewards"`
	Ends    []bool    `json:"ends"`
	Frames  []string  `json:"frames"`
	Draws   [][]any   `json:"draws"`
}

// replay is a random source that returns recorded draws and records the
// first mismatch of kind or range.
type replay struct {
	draws [][]any
	err   error
}

func (r *replay) next(kind string) []any {
	if len(r.draws) == 0 {
		if r.err == nil {
			r.err = fmt.Errorf("more draws than recorded")
		}
		return nil
	}
	d := r.draws[0]
	r.draws = r.draws[1:]
	if d[0] != kind && r.err == nil {
		r.err = fmt.Errorf("drew %s, recorded %v", kind, d)
	}
	return d
}

func (r *replay) Float64() float64 {
	if d := r.next("f"); len(d) == 2 {
		return d[1].(float64)
	}
	return 0
}

func (r *replay) IntN(n int) int {
	if d := r.next("i"); len(d) == 3 {
		if int(d[1].(float64)) != n && r.err == nil {
			r.err = fmt.Errorf("drew an integer below %d, recorded %v", n, d)
		}
		return int(d[2].(float64))
	}
	return 0
}

func loadReference(t *testing.T) map[string]reference {
	f, err := os.Open("testdata/reference.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var ref map[string]reference
	if err := json.NewDecoder(z).Decode(&ref); err != nil {
		t.Fatal(err)
	}
	return ref
}

// packed returns obs packed as the reference file's frames.
func packed(obs []uint8) string {
	p := make([]byte, (len(obs)+7)/8)
	for i, v := range obs {
		if v != 0 {
			p[i/8] |= 0x80 >> (i % 8)
		}
	}
	return hex.EncodeToString(p)
}

func TestReference(t *testing.T) {
	for name, ref := range loadReference(t) {
		t.Run(name, func(t *testing.T) {
			g, err := newGame(strings.Split(name, "/")[0], true)
			if err != nil {
				t.Fatal(err)
			}
			rng := &replay{draws: ref.Draws}
			obs := make([]uint8, g.channels()*Size*Size)
			inc := make([]uint8, len(obs)) // redrawn after each step
			frame := 0
			check := func(step int, reset bool) bool {
				t.Helper()
				if reset {
					clear(inc)
					g.observe(inc)
				} else {
					g.redraw(inc)
				}
				clear(obs)
				g.observe(obs)
				for _, f := range []struct {
					how string
					obs []uint8
				}{{"drawn whole", obs}, {"redrawn", inc}} {
					if got := packed(f.obs); got != ref.Frames[frame] {
						t.Errorf("step %d: frame %d %s differs:\n%s", step, frame, f.how, diffFrames(g.channels(), f.obs, ref.Frames[frame]))
						return false
					}
				}
				frame++
				return true
			}
			g.reset(rng)
			if !check(0, true) {
				return
			}
			for i, a := range ref.Actions {
				r, end := g.step(a, rng)
				if rng.err != nil {
					t.Fatalf("step %d: %v", i+1, rng.err)
				}
				if r != ref.Rewards[i] || end != ref.Ends[i] {
					t.Fatalf("step %d: reward %v, end %v; want %v, %v", i+1, r, end, ref.Rewards[i], ref.Ends[i])
				}
				if !check(i+1, false) {
					return
				}
				if end {
					g.reset(rng)
					if !check(i+1, true) {
						return
					}
				}
			}
			if len(rng.draws) != 0 {
				t.Errorf("%d recorded draws left", len(rng.draws))
			}
		})
	}
}

// diffFrames lists the channels and cells where obs and the packed frame
// want differ.
func diffFrames(channels int, obs []uint8, want string) string {
	p, _ := hex.DecodeString(want)
	s := ""
	for i := range channels * Size * Size {
		w := p[i/8]&(0x80>>(i%8)) != 0
		if w != (obs[i] != 0) {
			s += fmt.Sprintf("channel %d row %d column %d: got %d, want %v\n", i/(Size*Size), i/Size%Size, i%Size, obs[i], w)
		}
	}
	return s
}
