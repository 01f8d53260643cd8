package minatar

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// The expected values of these tests are worked out by hand from the rules
// in each game's comment (and MinAtar's description of them), frame by
// frame; the comments give the reasoning.

// play steps g with actions until the game is over and returns the reward
// of each step and the 1-based step that ended the game (0 if none did).
func play(g game, actions []int, rng random) (rewards []float64, end int) {
	for i, a := range actions {
		r, term := g.step(a, rng)
		rewards = append(rewards, r)
		if term {
			return rewards, i + 1
		}
	}
	return rewards, 0
}

// repeat returns n copies of a.
func repeat(a, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = a
	}
	return s
}

// rewardSteps returns the 1-based steps with a reward and the total.
func rewardSteps(rewards []float64) (steps []int, total float64) {
	for i, r := range rewards {
		if r != 0 {
			steps = append(steps, i+1)
			total += r
		}
	}
	return steps, total
}

func testRNG() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

func TestBreakoutRules(t *testing.T) {
	for _, tc := range []struct {
		name       string
		setup      func(g *breakout)
		actions    []int
		wantReward []int // steps with a reward of 1
		wantEnd    int
		check      func(t *testing.T, g *breakout)
	}{
		{
			// From (0, 3) down-right the ball reaches (5, 8) on step 5;
			// on step 6 it would enter (6, 9), and the paddle is at 4.
			name:    "start left, paddle still: lost",
			setup:   func(g *breakout) { g.ballX, g.dir, g.lastX = 0, 2, 0 },
			actions: repeat(NoOp, 20), wantEnd: 6,
		},
		{
			// From (9, 3) down-left: (4, 8) on step 5, above the paddle,
			// so step 6 bounces it up-left from (3, 8); it reaches (0, 5)
			// on step 9, bounces off the wall at (0, 4) on step 10 and
			// breaks the brick at (1, 3) on step 11, turning down-right
			// from (1, 4); it reaches (5, 8) on step 15 and misses the
			// paddle on step 16.
			name:    "start right, paddle still: one brick",
			setup:   func(g *breakout) { g.ballX, g.dir, g.lastX = 9, 3, 9 },
			actions: repeat(NoOp, 30), wantReward: []int{11}, wantEnd: 16,
			check: func(t *testing.T, g *breakout) {
				if g.bricks[3*Size+1] != 0 || g.bricks[3*Size+2] == 0 {
					t.Error("brick (1, 3) not the one broken")
				}
			},
		},
		{
			// The ball at (3, 8) going down-right enters the paddle's cell
			// (4, 9) from the side: it is deflected up-left and stays in
			// row 8, at column 4.
			name: "paddle edge",
			setup: func(g *breakout) {
				g.ballX, g.ballY, g.dir, g.pos = 3, 8, 2, 4
			},
			actions: []int{NoOp},
			check: func(t *testing.T, g *breakout) {
				if g.ballX != 4 || g.ballY != 8 || g.dir != 0 {
					t.Errorf("ball at (%d, %d) direction %d, want (4, 8) direction 0", g.ballX, g.ballY, g.dir)
				}
			},
		},
		{
			// The ball breaks (1, 3), bounces down to (1, 4), and on the
			// next frame enters the brick at (2, 5) without breaking it
			// (no two strikes in a row); a frame later it is free again.
			name: "no strike on two frames in a row",
			setup: func(g *breakout) {
				g.ballX, g.ballY, g.dir = 0, 4, 1
				g.bricks[5*Size+2] = 1
			},
			actions: repeat(NoOp, 3), wantReward: []int{1},
			check: func(t *testing.T, g *breakout) {
				if g.bricks[5*Size+2] == 0 || g.strike {
					t.Errorf("brick (2, 5) %v, strike %v: want the brick kept and the strike over", g.bricks[5*Size+2], g.strike)
				}
			},
		},
		{
			// With no brick left the rows come back when the ball reaches
			// the bottom row (here above the paddle, so it bounces).
			name: "refill",
			setup: func(g *breakout) {
				clear(g.bricks[:])
				g.ballX, g.ballY, g.dir, g.pos = 4, 8, 2, 4
			},
			actions: []int{NoOp},
			check: func(t *testing.T, g *breakout) {
				if g.bricks.count() != 30 || g.ballY != 8 || g.dir != 1 {
					t.Errorf("%d bricks, ball row %d direction %d; want 30, 8, 1", g.bricks.count(), g.ballY, g.dir)
				}
			},
		},
		{
			name:    "paddle stops at the walls",
			actions: repeat(Left, 5),
			check: func(t *testing.T, g *breakout) {
				if g.pos != 0 {
					t.Errorf("paddle at %d, want 0", g.pos)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &breakout{}
			g.reset(testRNG())
			if tc.setup != nil {
				tc.setup(g)
				g.lastX, g.lastY = g.ballX, g.ballY
			}
			rewards, end := play(g, tc.actions, testRNG())
			if steps, _ := rewardSteps(rewards); !slices.Equal(steps, tc.wantReward) || end != tc.wantEnd {
				t.Errorf("rewards on steps %v, end %d; want %v, %d", steps, end, tc.wantReward, tc.wantEnd)
			}
			if tc.check != nil {
				tc.check(t, g)
			}
		})
	}
}

func TestSpaceInvadersRules(t *testing.T) {
	for _, tc := range []struct {
		name       string
		setup      func(g *spaceInvaders)
		actions    []int
		wantReward []int
		wantEnd    int
		check      func(t *testing.T, g *spaceInvaders)
	}{
		{
			// A shot from column 5 on step 1 is in row 8 after that step
			// and reaches the wave's lowest row, 3, on step 6; the wave
			// has not moved yet (it moves on step 13).
			name: "shot", actions: append([]int{Fire}, repeat(NoOp, 5)...), wantReward: []int{6},
			check: func(t *testing.T, g *spaceInvaders) {
				if g.aliens[3*Size+5] != 0 || g.aliens.count() != 23 {
					t.Errorf("alien (5, 3) %v, %d aliens; want it gone and 23 left", g.aliens[3*Size+5], g.aliens.count())
				}
			},
		},
		{
			// The aliens first shoot on step 11, from the lowest alien of
			// the cannon's column, (5, 3); the bullet falls one row per
			// step and reaches the cannon in row 9 on step 17.
			name: "alien bullet", actions: repeat(NoOp, 30), wantEnd: 17,
		},
		{
			// The wave first moves on step 13, one column left.
			name: "wave moves", actions: repeat(Right, 13),
			check: func(t *testing.T, g *spaceInvaders) {
				if g.aliens[1] == 0 || g.aliens[7] != 0 || g.dir != -1 {
					t.Errorf("wave not moved left by one column: row 0 %v", g.aliens[:Size])
				}
			},
		},
		{
			// Three aliens left: the wave moves every min(3, 12) frames,
			// and at the left wall it turns and moves down.
			name: "speed-up and turn",
			setup: func(g *spaceInvaders) {
				clear(g.aliens[:])
				g.aliens[0*Size+0], g.aliens[0*Size+1], g.aliens[0*Size+2] = 1, 1, 1
				g.moveTimer, g.alienShotTimer = 0, 100
			},
			actions: repeat(NoOp, 4),
			check: func(t *testing.T, g *spaceInvaders) {
				// Step 1 turns the wave at the wall and moves it down
				// (timer 3); step 4 moves it right.
				if g.dir != 1 || g.aliens[1*Size+1] == 0 || g.aliens[1*Size+3] == 0 || g.aliens[1*Size+0] != 0 {
					t.Errorf("direction %d, row 1 %v; want 1 and the aliens in columns 1–3", g.dir, g.aliens[Size:2*Size])
				}
			},
		},
		{
			// Shooting the last alien: +1, a new wave, and the next wave
			// moves one frame faster.
			name: "wave cleared",
			setup: func(g *spaceInvaders) {
				clear(g.aliens[:])
				g.aliens[7*Size+5] = 1
			},
			actions: []int{Fire, NoOp}, wantReward: []int{2},
			check: func(t *testing.T, g *spaceInvaders) {
				if g.aliens.count() != 24 || g.interval != 11 || g.difficulty() != 1 {
					t.Errorf("%d aliens, interval %d, ramp %d; want 24, 11, 1", g.aliens.count(), g.interval, g.difficulty())
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &spaceInvaders{ramping: true}
			g.reset(nil)
			if tc.setup != nil {
				tc.setup(g)
			}
			rewards, end := play(g, tc.actions, nil)
			if steps, _ := rewardSteps(rewards); !slices.Equal(steps, tc.wantReward) || end != tc.wantEnd {
				t.Errorf("rewards on steps %v, end %d; want %v, %d", steps, end, tc.wantReward, tc.wantEnd)
			}
			if tc.check != nil {
				tc.check(t, g)
			}
		})
	}
}

func TestFreewayRules(t *testing.T) {
	// safe puts every car in column 5 moving right once every 6 frames:
	// none reaches the chicken's column 4 within 54 frames.
	safe := func(g *freeway) {
		for i := range g.carX {
			g.carX[i], g.carSpeed[i], g.carTimer[i] = 5, 5, 5
		}
	}
	for _, tc := range []struct {
		name       string
		setup      func(g *freeway)
		actions    []int
		wantReward []int
		wantEnd    int
		check      func(t *testing.T, g *freeway)
	}{
		{
			// The chicken may first move on step 4, then every 3 steps:
			// nine moves up reach row 0 on step 4 + 8·3 = 28.
			name: "crossing", setup: safe, actions: repeat(Up, 28), wantReward: []int{28},
			check: func(t *testing.T, g *freeway) {
				if g.pos != Size-1 {
					t.Errorf("chicken in row %d after scoring, want 9", g.pos)
				}
			},
		},
		{
			name: "one frame short", setup: safe, actions: repeat(Up, 27),
			check: func(t *testing.T, g *freeway) {
				if g.pos != 1 {
					t.Errorf("chicken in row %d, want 1", g.pos)
				}
			},
		},
		{
			// The car of lane 8 (row 8) at column 3 moves right on the
			// first frame into the chicken's cell: back to row 9.
			name: "hit",
			setup: func(g *freeway) {
				safe(g)
				g.pos = 8
				g.carX[7], g.carSpeed[7], g.carTimer[7] = 3, 1, 0
			},
			actions: []int{NoOp},
			check: func(t *testing.T, g *freeway) {
				if g.pos != Size-1 {
					t.Errorf("chicken in row %d, want 9", g.pos)
				}
			},
		},
		{
			// The game ends after 2500 frames, on step 2501.
			name: "time limit", actions: repeat(NoOp, 3000), wantEnd: 2501,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &freeway{}
			g.reset(testRNG())
			if tc.setup != nil {
				tc.setup(g)
			}
			rewards, end := play(g, tc.actions, testRNG())
			if steps, _ := rewardSteps(rewards); !slices.Equal(steps, tc.wantReward) || end != tc.wantEnd {
				t.Errorf("rewards on steps %v, end %d; want %v, %d", steps, end, tc.wantReward, tc.wantEnd)
			}
			if tc.check != nil {
				tc.check(t, g)
			}
		})
	}
}

func TestAsterixRules(t *testing.T) {
	// entity puts an entity in the player's row 5 (slot 4) at column 7,
	// moving left, due to move on the next frame.
	entity := func(gold bool) func(g *asterix) {
		return func(g *asterix) {
			g.active, g.gold, g.right, g.ex[4] = 1<<4, bit(gold)<<4, 0, 7
			g.moveTimer, g.spawnTimer = 0, 100
		}
	}
	for _, tc := range []struct {
		name       string
		setup      func(g *asterix)
		actions    []int
		wantReward []int
		wantEnd    int
	}{
		// The player at (5, 5) steps right to (6, 5) and the entity left
		// from (7, 5) into the same cell.
		{"gold", entity(true), []int{Right}, []int{1}, 0},
		{"enemy", entity(false), []int{Right}, nil, 1},
		// Standing still, the entity reaches column 5 two moves later;
		// the move timer is set to 5 and counted down in the same frame,
		// so moves come every 5 frames: steps 1 and 6.
		{"enemy later", entity(false), repeat(NoOp, 10), nil, 6},
		// Moving away, up into row 4, the entity passes below.
		{"dodge", entity(false), append([]int{Up}, repeat(NoOp, 20)...), nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &asterix{ramping: true}
			g.reset(nil)
			tc.setup(g)
			rewards, end := play(g, tc.actions, testRNG())
			if steps, _ := rewardSteps(rewards); !slices.Equal(steps, tc.wantReward) || end != tc.wantEnd {
				t.Errorf("rewards on steps %v, end %d; want %v, %d", steps, end, tc.wantReward, tc.wantEnd)
			}
		})
	}

	t.Run("spawn", func(t *testing.T) {
		// The first entity enters on step 11 at a side column and, its
		// move being due on that step too, moves one cell in; the next
		// enters on step 21.
		g := &asterix{ramping: true}
		g.reset(nil)
		rng := testRNG()
		for step := 1; step <= 21; step++ {
			g.step(NoOp, rng)
			n := 0
			for i := range asterixSlots {
				if g.active>>i&1 == 1 {
					n++
					if step == 11 && g.ex[i] != map[uint]int{1: 1, 0: Size - 2}[g.right>>i&1] {
						t.Errorf("entity entered at column %d", g.ex[i])
					}
				}
			}
			want := map[bool]int{true: 1, false: 0}[step >= 11]
			if step >= 21 {
				want = 2
			}
			if n != want {
				t.Fatalf("step %d: %d entities, want %d", step, n, want)
			}
		}
	})

	t.Run("ramping", func(t *testing.T) {
		// The ramp timer counts 100 down to −1 and ramps on the next
		// frame: every 102 frames. The spawn interval shrinks on every
		// ramp, the move interval on the second, fourth, …; ramping stops
		// once both are 1 (after 9 ramps). Entities are removed each
		// frame so that the player survives.
		for _, ramping := range []bool{true, false} {
			g := &asterix{ramping: ramping}
			g.reset(nil)
			rng := testRNG()
			type level struct{ step, spawn, move int }
			var got []level
			for step := 1; step <= 102*11; step++ {
				before := g.rampIndex
				g.step(NoOp, rng)
				g.active = 0
				if g.rampIndex != before {
					got = append(got, level{step, g.spawnSpeed, g.moveSpeed})
				}
			}
			var want []level
			if ramping {
				want = []level{{102, 9, 5}, {204, 8, 4}, {306, 7, 4}, {408, 6, 3}, {510, 5, 3}, {612, 4, 2}, {714, 3, 2}, {816, 2, 1}, {918, 1, 1}}
			}
			if !slices.Equal(got, want) {
				t.Errorf("ramping %v: ramps (step, spawn, move) %v, want %v", ramping, got, want)
			}
		}
	})
}

func TestSeaquestRules(t *testing.T) {
	// calm removes every enemy and diver and keeps new ones from coming,
	// after each frame.
	calm := func(g *seaquest) {
		g.clearMovers()
		g.nextSpawn, g.nextDiverSpawn = g.frame+100, g.frame+100
	}
	t.Run("oxygen", func(t *testing.T) {
		// Below the surface the oxygen falls by one per frame from 200;
		// the frame that finds it at 0, the 201st, ends the game.
		g := &seaquest{ramping: true}
		g.reset(nil)
		for step := 1; step <= 300; step++ {
			calm(g)
			if _, term := g.step(Down, testRNG()); term {
				if step != 201 {
					t.Errorf("game over on step %d, want 201", step)
				}
				return
			}
		}
		t.Error("no end in 300 frames")
	})
	t.Run("surfacing without divers", func(t *testing.T) {
		g := &seaquest{ramping: true}
		g.reset(nil)
		calm(g)
		if _, end := play(g, []int{Down, Up}, testRNG()); end != 2 {
			t.Errorf("end %d, want 2", end)
		}
	})
	for _, tc := range []struct {
		divers, oxygen        int
		wantBonus, wantDivers int
	}{
		// With fewer than six divers one is dropped and nothing paid;
		// with six all are dropped and each tenth of oxygen left pays 1
		// (150·10/200 = 7 after the frame's own use of oxygen: 151 → 150).
		{1, 100, 0, 0},
		{3, 100, 0, 2},
		{6, 151, 7, 0},
	} {
		g := &seaquest{ramping: true}
		g.reset(nil)
		calm(g)
		g.y, g.surfaced, g.divers, g.oxygen = 1, false, tc.divers, tc.oxygen
		r, term := g.step(Up, testRNG())
		if r != float64(tc.wantBonus) || term || g.divers != tc.wantDivers || g.oxygen != seaMaxOxygen {
			t.Errorf("%d divers: reward %v, over %v, %d divers, oxygen %d; want %d, false, %d, 200",
				tc.divers, r, term, g.divers, g.oxygen, tc.wantBonus, tc.wantDivers)
		}
		if g.rampIndex != 1 || g.spawnSpeed != seaSpawnSpeed-1 || g.moveSpeed != seaMoveInterval {
			t.Errorf("%d divers: ramp %d, spawn %d, move %d; want 1, 19, 5", tc.divers, g.rampIndex, g.spawnSpeed, g.moveSpeed)
		}
	}
	t.Run("ramping", func(t *testing.T) {
		// Each surfacing ramps: spawn interval −1, move interval −1 on
		// the second, fourth, … surfacing down to 2; it stops once the
		// spawn interval is 1 and the move interval 2.
		g := &seaquest{ramping: true}
		g.reset(nil)
		var moves []int
		for range 25 {
			g.divers = 1
			g.surface()
			moves = append(moves, g.moveSpeed)
		}
		want := []int{5, 4, 4, 3, 3, 2}
		if !slices.Equal(moves[:6], want) || g.spawnSpeed != 1 || g.rampIndex != 19 {
			t.Errorf("move intervals %v, spawn %d, ramps %d; want %v…, 1, 19", moves[:6], g.spawnSpeed, g.rampIndex, want)
		}
	})
	t.Run("shooting", func(t *testing.T) {
		// The sub at (5, 4) faces right; a fish at (8, 4) moves left
		// every 6 frames. The shot is at (6, 4) after step 1, (7, 4)
		// after step 2, and meets the fish, not yet moved, on step 3.
		g := &seaquest{ramping: true}
		g.reset(nil)
		calm(g)
		g.x, g.y, g.right, g.surfaced = 5, 4, true, false
		g.put(seaFish, 8, 4, false, 5, 0)
		rewards, end := play(g, []int{Fire, NoOp, NoOp}, testRNG())
		if steps, _ := rewardSteps(rewards); !slices.Equal(steps, []int{3}) || end != 0 || g.fish.n != 0 || g.shots.n != 0 {
			t.Errorf("rewards on steps %v, end %d, %d fish, %d shots; want [3], 0, 0, 0", steps, end, g.fish.n, g.shots.n)
		}
	})
	t.Run("enemy sub fires", func(t *testing.T) {
		// An enemy sub at (9, 6) moving left, move and shot due: it moves
		// to (8, 6), fires from there, and its bullet moves on in the
		// same frame, to (7, 6). (Enemy timers are set after a move and
		// counted down from the next frame: a move every 6 frames.)
		g := &seaquest{ramping: true}
		g.reset(nil)
		calm(g)
		g.put(seaSub, 9, 6, false, 0, 0)
		g.step(NoOp, testRNG())
		var left seaBoard
		left.set(6*Size + 7)
		s := g.subs.o[0]
		if g.bombs != [2]seaBoard{left} || g.subs.n != 1 || s.x != 8 || s.shotAt-g.frame != seaEnemyShot {
			t.Errorf("enemy bullets %x, %d subs, the first at column %d, shot timer %d; want %x, 1, 8, %d",
				g.bombs, g.subs.n, s.x, s.shotAt-g.frame, [2]seaBoard{left}, seaEnemyShot)
		}
	})
	t.Run("diver", func(t *testing.T) {
		// A diver at (4, 1) moving right, due to move, swims into the
		// sub's cell (5, 1): picked up.
		g := &seaquest{ramping: true}
		g.reset(nil)
		calm(g)
		g.y, g.surfaced = 1, false
		g.put(seaDiver, 4, 1, true, 0, 0)
		g.step(NoOp, testRNG())
		if g.divers != 1 || g.swimmers.n != 0 {
			t.Errorf("%d divers aboard, %d swimming; want 1, 0", g.divers, g.swimmers.n)
		}
	})
}

// TestSticky checks how often Step plays the previous action instead of
// the one given, with alternating actions: a sticky step shows as a
// repeat unless the step before was sticky too (it then played the action
// given now), so repeats show with probability p·(1 − p).
func TestSticky(t *testing.T) {
	for _, tc := range []struct {
		p        float64
		min, max float64
	}{
		{0, 0, 0},
		{0.1, 0.0697, 0.1103}, // 0.09 ± 4.5 standard deviations of 4000 draws
		{1, 1, 1},
	} {
		e, err := New("Freeway", Config{StickyActionProb: tc.p})
		if err != nil {
			t.Fatal(err)
		}
		e.Reset(env.SeedOf(1))
		act := nd.Zeros(nd.Int64)
		repeats := 0
		const n = 4000
		for i := range n {
			a := []int{Up, Down}[i%2]
			nd.Data[int64](act)[0] = int64(a)
			_, _, term, _, _, err := e.Step(act)
			if err != nil {
				t.Fatal(err)
			}
			if e.last != a {
				repeats++
			}
			if term {
				e.Reset(env.NoSeed)
			}
		}
		if f := float64(repeats) / n; f < tc.min || f > tc.max {
			t.Errorf("p = %v: %.4f of the steps repeated the previous action, want [%v, %v]", tc.p, f, tc.min, tc.max)
		}
	}
}

// TestSeaquestStateLimit checks the bound on the objects of one kind in a
// saved Seaquest state: 64 fish are read back and written out unchanged,
// 65 (which earlier versions accepted) are an error that says so.
func TestSeaquestStateLimit(t *testing.T) {
	state := func(fish int) []byte {
		w := &writer{}
		// x, y, oxygen, divers, spawn speed and timer, diver timer, move
		// speed, ramps, shot timer; facing right, surfaced.
		for _, v := range []int{5, 3, 150, 2, 20, 7, 12, 5, 0, 0, 1, 0} {
			w.int(v)
		}
		for k := range seaKinds {
			n := 0
			if k == seaFish {
				n = fish
			}
			w.int(n)
			for i := range n {
				for _, v := range []int{i % Size, 1 + i%8, i % 2, i % 6, 0} {
					w.int(v)
				}
			}
		}
		return w.b
	}
	for _, tc := range []struct {
		fish    int
		wantErr string
	}{
		{64, ""},
		{65, "65 fish, more than the 64 a state may hold"},
	} {
		in := state(tc.fish)
		g := &seaquest{ramping: true}
		r := &reader{b: in}
		g.readState(r)
		r.end()
		if tc.wantErr != "" {
			if r.err == nil || r.err.Error() != tc.wantErr {
				t.Errorf("%d fish: error %v, want %q", tc.fish, r.err, tc.wantErr)
			}
			continue
		}
		w := &writer{}
		if g.appendState(w); r.err != nil || !slices.Equal(w.b, in) {
			t.Errorf("%d fish: error %v, state written back equal %v", tc.fish, r.err, slices.Equal(w.b, in))
		}
	}
}
