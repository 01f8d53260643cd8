package minatar

// MinAtar's Space Invaders constants: frames between the cannon's shots,
// the aliens' initial frames per move, and frames between alien shots.
const (
	invShotCoolDown  = 5
	invMoveInterval  = 12
	invShotInterval  = 10
	invMinInterval   = 6 // the ramp stops at this many frames per move
	invWaveRows      = 4 // a wave fills rows 0 to 3 ...
	invAlienColFirst = 2 // ... and columns 2 to 7
	invAlienColEnd   = 8
)

// spaceInvaders: a cannon on the bottom row fires bullets upwards (one
// cell per frame, at most one shot every 5 frames) at a block of aliens
// that moves sideways, and one row down (changing direction) when it
// reaches a side. The block moves every min(aliens left, interval) frames,
// so it speeds up as it thins out; each cleared wave is replaced by a new
// one whose interval is one frame shorter (difficulty ramping, down to 6).
// Every 10 frames the lowest alien of the column nearest the cannon shoots
// a bullet downwards. An alien shot is +1; an alien or bullet reaching the
// cannon ends the game, as does the block moving down from the bottom row.
//
// Channels: 0 cannon, 1 alien, 2 alien moving left, 3 alien moving right,
// 4 cannon bullet, 5 alien bullet.
type spaceInvaders struct {
	ramping bool

	pos                       int
	aliens, shots, bombs      grid // shots: the cannon's bullets; bombs: the aliens'
	dir                       int  // −1 left, +1 right
	interval, moveTimer       int
	shotTimer, alienShotTimer int
	rampIndex                 int
}

func (g *spaceInvaders) channels() int   { return 6 }
func (g *spaceInvaders) minimal() []int  { return []int{NoOp, Left, Right, Fire} }
func (g *spaceInvaders) difficulty() int { return g.rampIndex }

func (g *spaceInvaders) reset(random) {
	g.pos = 5
	clear(g.shots[:])
	clear(g.bombs[:])
	clear(g.aliens[:])
	g.newWave()
	g.dir = -1
	g.interval = invMoveInterval
	g.moveTimer = g.interval
	g.alienShotTimer = invShotInterval
	g.rampIndex, g.shotTimer = 0, 0
}

func (g *spaceInvaders) newWave() {
	for y := range invWaveRows {
		for x := invAlienColFirst; x < invAlienColEnd; x++ {
			g.aliens[y*Size+x] = 1
		}
	}
}

func (g *spaceInvaders) step(a int, _ random) (float64, bool) {
	terminal := false
	switch {
	case a == Fire && g.shotTimer == 0:
		g.shots[(Size-1)*Size+g.pos] = 1
		g.shotTimer = invShotCoolDown
	case a == Left:
		g.pos = max(0, g.pos-1)
	case a == Right:
		g.pos = min(Size-1, g.pos+1)
	}
	// The cannon's bullets move up and leave the grid from row 0; the
	// aliens' move down and leave it from row 9.
	copy(g.shots[:], g.shots[Size:])
	clear(g.shots[(Size-1)*Size:])
	copy(g.bombs[Size:], g.bombs[:(Size-1)*Size])
	clear(g.bombs[:Size])
	cannon := (Size-1)*Size + g.pos
	if g.bombs[cannon]|g.aliens[cannon] != 0 {
		terminal = true
	}
	if g.moveTimer == 0 {
		g.moveTimer = min(g.aliens.count(), g.interval)
		if g.dir < 0 && colAny(&g.aliens, 0) || g.dir > 0 && colAny(&g.aliens, Size-1) {
			g.dir = -g.dir
			if rowAny(&g.aliens, Size-1) {
				terminal = true
			}
			rollDown(&g.aliens)
		} else {
			rollSide(&g.aliens, g.dir)
		}
		if g.aliens[cannon] != 0 {
			terminal = true
		}
	}
	if g.alienShotTimer == 0 {
		g.alienShotTimer = invShotInterval
		if y, x, ok := g.nearestAlien(); ok {
			g.bombs[y*Size+x] = 1
		}
	}
	reward := 0.0
	for i, a := range g.aliens {
		if a&g.shots[i] != 0 {
			reward++
			g.aliens[i], g.shots[i] = 0, 0
		}
	}
	if g.shotTimer > 0 {
		g.shotTimer--
	}
	g.moveTimer--
	g.alienShotTimer--
	if g.aliens == (grid{}) {
		if g.ramping && g.interval > invMinInterval {
			g.interval--
			g.rampIndex++
		}
		g.newWave()
	}
	return reward, terminal
}

// nearestAlien returns the lowest alien of the column nearest the cannon
// (the left one of two at the same distance).
func (g *spaceInvaders) nearestAlien() (y, x int, ok bool) {
	for d := range Size {
		for k, x := range [2]int{g.pos - d, g.pos + d} {
			if k == 1 && d == 0 || !onGrid(x) {
				continue
			}
			for y := Size - 1; y >= 0; y-- {
				if g.aliens[y*Size+x] != 0 {
					return y, x, true
				}
			}
		}
	}
	return 0, 0, false
}

func colAny(g *grid, x int) bool {
	for y := range Size {
		if g[y*Size+x] != 0 {
			return true
		}
	}
	return false
}

func rowAny(g *grid, y int) bool {
	for _, v := range g[y*Size : (y+1)*Size] {
		if v != 0 {
			return true
		}
	}
	return false
}

// rollDown moves every row down by one, the bottom row to the top.
func rollDown(g *grid) {
	var bottom [Size]uint8
	copy(bottom[:], g[(Size-1)*Size:])
	copy(g[Size:], g[:(Size-1)*Size])
	copy(g[:Size], bottom[:])
}

// rollSide moves every column by d (±1), cyclically.
func rollSide(g *grid, d int) {
	for y := range Size {
		row := g[y*Size : (y+1)*Size]
		if d > 0 {
			last := row[Size-1]
			copy(row[1:], row[:Size-1])
			row[0] = last
		} else {
			first := row[0]
			copy(row, row[1:])
			row[Size-1] = first
		}
	}
}

func (g *spaceInvaders) observe(obs []uint8) {
	set(obs, 0, Size-1, g.pos)
	dirCh := 2
	if g.dir > 0 {
		dirCh = 3
	}
	copy(obs[1*Size*Size:], g.aliens[:])
	copy(obs[dirCh*Size*Size:], g.aliens[:])
	copy(obs[4*Size*Size:], g.shots[:])
	copy(obs[5*Size*Size:], g.bombs[:])
}

func (g *spaceInvaders) appendState(w *writer) {
	for _, v := range [...]int{g.pos, g.dir, g.interval, g.moveTimer, g.shotTimer, g.alienShotTimer, g.rampIndex} {
		w.int(v)
	}
	w.grid(&g.aliens)
	w.grid(&g.shots)
	w.grid(&g.bombs)
}

func (g *spaceInvaders) readState(r *reader) {
	g.pos = r.int(0, Size-1)
	if g.dir = r.int(-1, 1); g.dir == 0 {
		r.fail("alien direction 0")
	}
	g.interval = r.int(1, invMoveInterval)
	g.moveTimer = r.int(0, invMoveInterval)
	g.shotTimer = r.int(0, invShotCoolDown)
	g.alienShotTimer = r.int(0, invShotInterval)
	g.rampIndex = r.int(0, invMoveInterval)
	r.grid(&g.aliens)
	r.grid(&g.shots)
	r.grid(&g.bombs)
	if r.err == nil && g.aliens == (grid{}) {
		r.fail("no aliens")
	}
}

func (g *spaceInvaders) redraw(obs []uint8) {
	clear(obs)
	g.observe(obs)
}
