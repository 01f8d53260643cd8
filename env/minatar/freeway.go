package minatar

// MinAtar's Freeway constants: frames between the chicken's moves and the
// length of a game in frames.
const (
	freewayMoveInterval = 3
	freewayTimeLimit    = 2500
	freewayCars         = 8 // one per lane, rows 1 to 8
	freewayColumn       = 4 // the chicken's column
)

// freeway: a chicken in column 4 crosses eight lanes of traffic from the
// bottom row to the top, moving at most once every 3 frames. Reaching row
// 0 is +1, sends the chicken back to the bottom and gives the cars new
// random speeds (1 to 5 frames per move) and directions; a car hitting the
// chicken sends it back to the bottom. Cars wrap around at the sides. The
// game ends after 2500 frames (2501 steps). Freeway has no ramping.
//
// Channels: 0 chicken, 1 car, 2–6 the trail behind a car moving once
// every 1 to 5 frames.
type freeway struct {
	pos       int // the chicken's row
	moveTimer int
	timeLeft  int
	carX      [freewayCars]int
	carTimer  [freewayCars]int
	carSpeed  [freewayCars]int // frames per move, signed: > 0 moves right
}

func (g *freeway) channels() int   { return 7 }
func (g *freeway) minimal() []int  { return []int{NoOp, Up, Down} }
func (g *freeway) difficulty() int { return 0 }

func (g *freeway) reset(rng random) {
	g.randomizeCars(rng)
	clear(g.carX[:])
	g.pos = Size - 1
	g.moveTimer = freewayMoveInterval
	g.timeLeft = freewayTimeLimit
}

// randomizeCars draws the eight speeds, then the eight directions.
func (g *freeway) randomizeCars(rng random) {
	for i := range g.carSpeed {
		g.carSpeed[i] = 1 + rng.IntN(5)
	}
	for i := range g.carSpeed {
		if rng.Float64() < 0.5 {
			g.carSpeed[i] = -g.carSpeed[i]
		}
		g.carTimer[i] = abs(g.carSpeed[i])
	}
}

func (g *freeway) step(a int, rng random) (float64, bool) {
	if g.moveTimer == 0 && (a == Up || a == Down) {
		g.moveTimer = freewayMoveInterval
		if a == Up {
			g.pos = max(0, g.pos-1)
		} else {
			g.pos = min(Size-1, g.pos+1)
		}
	}
	reward := 0.0
	if g.pos == 0 {
		reward++
		g.randomizeCars(rng)
		g.pos = Size - 1
	}
	// Car i drives in row i+1, so only the car of the chicken's row can
	// hit it, before its move or after; a hit sends the chicken to the
	// bottom row, where no car drives.
	lane := g.pos - 1
	if uint(lane) < freewayCars && g.carX[lane] == freewayColumn {
		g.pos = Size - 1
	}
	// Each car's timer counts down to 0, then the car moves one cell and
	// the timer restarts; computed without a branch on the timers.
	for i, s := range g.carSpeed {
		due := int(bit(g.carTimer[i] == 0))
		g.carTimer[i] += due*(abs(s)+1) - 1
		g.carX[i] = wrap(g.carX[i] + due*sign(s))
	}
	if uint(lane) < freewayCars && g.pos == lane+1 && g.carX[lane] == freewayColumn {
		g.pos = Size - 1
	}
	if g.moveTimer > 0 {
		g.moveTimer--
	}
	g.timeLeft--
	return reward, g.timeLeft < 0
}

func (g *freeway) observe(obs []uint8) {
	const plane = Size * Size
	obs = obs[:7*plane]
	set(obs, 0, g.pos, freewayColumn)
	for i, x := range g.carX {
		row := (i + 1) * Size
		obs[plane+row+x] = 1
		obs[row+int(freewayTrails[g.carSpeed[i]+5][x])] = 1
	}
}

// freewayTrails holds, for each speed s + 5 and column x of a car, the
// position of its trail in its row: channel 1 + |s|, the column behind x,
// wrapped.
var freewayTrails = func() (t [11][Size]uint16) {
	for s := -5; s <= 5; s++ {
		for x := range Size {
			if s != 0 {
				t[s+5][x] = uint16((1+abs(s))*Size*Size + wrap(x-sign(s)))
			}
		}
	}
	return t
}()

// wrapped holds the column x + 1 brought back on the grid for x from −1 to
// Size, so that wrap takes no division.
var wrapped = func() (w [16]int) {
	for x := -1; x <= Size; x++ {
		w[x+1] = (x + Size) % Size
	}
	return w
}()

// wrap returns a column at most one cell off the grid brought back on the
// other side.
func wrap(x int) int { return wrapped[(x+1)&15] }

// sign returns +1 for v > 0 and -1 for v < 0.
func sign(v int) int { return v>>63 | 1 }

func (g *freeway) appendState(w *writer) {
	w.int(g.pos)
	w.int(g.moveTimer)
	w.int(g.timeLeft)
	for i := range g.carX {
		w.int(g.carX[i])
		w.int(g.carTimer[i])
		w.int(g.carSpeed[i])
	}
}

func (g *freeway) readState(r *reader) {
	g.pos = r.int(0, Size-1)
	g.moveTimer = r.int(0, freewayMoveInterval)
	g.timeLeft = r.int(-1, freewayTimeLimit)
	for i := range g.carX {
		g.carX[i] = r.int(0, Size-1)
		g.carTimer[i] = r.int(0, 5)
		if g.carSpeed[i] = r.int(-5, 5); g.carSpeed[i] == 0 {
			r.fail("car %d has speed 0", i)
		}
	}
}

// abs returns |v|, without a branch on v's sign.
func abs(v int) int {
	m := v >> 63
	return v ^ m - m
}

func (g *freeway) redraw(obs []uint8) {
	clear(obs)
	g.observe(obs)
}
