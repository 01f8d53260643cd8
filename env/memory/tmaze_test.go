package memory_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/memory"
	"github.com/gorl/gorl/nd"
)

func TestCheck(t *testing.T) {
	for _, id := range []string{"TMaze-v0", "TMaze-v0:1", "TMaze-v0:25"} {
		e, err := env.Make(id)
		if err != nil {
			t.Fatal(err)
		}
		envtest.Check(t, e)
	}
}

func TestMakeRefuses(t *testing.T) {
	for _, id := range []string{"TMaze-v0:0", "TMaze-v0:-3", "TMaze-v0:x"} {
		if _, err := env.Make(id); err == nil {
			t.Errorf("Make(%q): no error", id)
		}
	}
}

// act returns action a as the 0-d int64 array a Discrete space holds.
func act(a int) *nd.Array {
	x := nd.Zeros(nd.Int64)
	nd.Data[int64](x)[0] = int64(a)
	return x
}

// obs returns a copy of the observation o.
func obs(t *testing.T, o any) []float32 {
	t.Helper()
	return append([]float32(nil), nd.Data[float32](o.(*nd.Array))...)
}

// TestEpisodes plays scripted episodes and checks every observation, the
// rewards and the flags against the rules stated on TMaze: the cue only in
// the first observation, zeros along the corridor, the junction flag at
// cell L, walls that leave the agent in place, +1 for the cued turn, −1 for
// the other, truncation after 4(L + 1) steps.
func TestEpisodes(t *testing.T) {
	const L = 3
	fw, up, down := memory.TMazeForward, memory.TMazeUp, memory.TMazeDown
	cases := []struct {
		name       string
		actions    func(cueUp bool) []int
		wantReward float64 // the return
		wantTerm   bool
		wantSteps  int
	}{
		{"cued turn", func(u bool) []int {
			return []int{fw, fw, fw, map[bool]int{true: up, false: down}[u]}
		}, 1, true, L + 1},
		{"other turn", func(u bool) []int {
			return []int{fw, fw, fw, map[bool]int{true: down, false: up}[u]}
		}, -1, true, L + 1},
		{"walls first", func(u bool) []int {
			return []int{up, down, fw, fw, fw, fw, fw, map[bool]int{true: up, false: down}[u]}
		}, 1, true, L + 5},
		{"never turns", func(bool) []int {
			a := make([]int, 4*(L+1))
			return a
		}, 0, false, 4 * (L + 1)},
	}
	for _, c := range cases {
		for seed := range uint64(6) {
			e, err := memory.NewTMaze(L)
			if err != nil {
				t.Fatal(err)
			}
			o, _, err := e.Reset(env.SeedOf(seed))
			if err != nil {
				t.Fatal(err)
			}
			first := obs(t, o)
			cueUp := first[0] == 1
			if first[0]+first[1] != 1 || first[2] != 0 {
				t.Fatalf("%s: first observation %v; want one cue and no junction", c.name, first)
			}
			pos, ret, steps := 0, 0.0, 0
			var term, trunc bool
			for _, a := range c.actions(cueUp) {
				o, r, te, tr, _, err := e.Step(act(a))
				if err != nil {
					t.Fatalf("%s: step %d: %v", c.name, steps, err)
				}
				steps++
				if a == fw && pos < L {
					pos++
				}
				want := []float32{0, 0, 0}
				if pos == L {
					want[2] = 1
				}
				if got := obs(t, o); got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
					t.Fatalf("%s: step %d at cell %d: observation %v; want %v", c.name, steps, pos, got, want)
				}
				ret += r
				term, trunc = te, tr
				if te || tr {
					break
				}
			}
			if ret != c.wantReward || term != c.wantTerm || trunc == c.wantTerm || steps != c.wantSteps {
				t.Errorf("%s (cue up %v): return %v term %v trunc %v after %d steps; want %v, term %v, %d steps",
					c.name, cueUp, ret, term, trunc, steps, c.wantReward, c.wantTerm, c.wantSteps)
			}
			if _, _, _, _, _, err := e.Step(act(fw)); !errors.Is(err, env.ErrNeedReset) {
				t.Errorf("%s: Step after the end: %v; want ErrNeedReset", c.name, err)
			}
		}
	}
}

// TestFeedForwardAtChance checks the claim that makes the T-maze a memory
// task: a policy that acts on the current observation only (here: forward
// in the corridor, up at the junction with probability p) earns 0 in
// expectation whatever p, while the cue-following policy earns 1. Over
// 4,000 episodes the mean of a ±1 return has a standard error of at most
// 0.016, so |mean| < 0.08 is a five-sigma bound; the cues are balanced
// to that precision too.
func TestFeedForwardAtChance(t *testing.T) {
	const episodes = 4000
	rng := rand.New(rand.NewPCG(7, 8))
	for _, p := range []float64{0, 0.3, 1} {
		e, err := memory.NewTMaze(memory.DefaultTMazeLength)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for i := range episodes {
			o, _, err := e.Reset(env.SeedOf(uint64(i)))
			if err != nil {
				t.Fatal(err)
			}
			for {
				a := int64(memory.TMazeForward)
				if obs(t, o)[2] == 1 {
					a = memory.TMazeDown
					if rng.Float64() < p {
						a = memory.TMazeUp
					}
				}
				var r float64
				var term, trunc bool
				o, r, term, trunc, _, err = e.Step(act(int(a)))
				if err != nil {
					t.Fatal(err)
				}
				sum += r
				if term || trunc {
					break
				}
			}
		}
		if m := sum / episodes; m < -0.08 || m > 0.08 {
			t.Errorf("feed-forward policy with p(up) = %v: mean return %v; want 0 ± 0.08", p, m)
		}
	}
}
