package minatar

import (
	"slices"
)

// MinAtar's Seaquest constants.
const (
	seaMaxOxygen    = 200
	seaSpawnSpeed   = 20 // initial frames between enemy spawns
	seaDiverSpawn   = 30 // frames between diver spawns
	seaMoveInterval = 5  // initial frames between enemy moves
	seaShotCoolDown = 5  // frames between the player's shots
	seaEnemyShot    = 10 // frames between an enemy sub's shots
	seaDiverMove    = 5  // frames between a diver's moves
	seaMaxDivers    = 6
	seaMinMove      = 2   // the ramp stops at this many frames per move
	seaMaxEntities  = 256 // more objects of a kind than a game can hold, for reading states
	seaMaxRampIndex = 1 << 20
)

// seaObj is an object that moves sideways along a row: a bullet, fish,
// enemy sub or diver. Bullets use only x, y and right, fish and divers
// also the move timer, enemy subs also the shot timer.
type seaObj struct {
	x, y              int
	right             bool
	moveTimer, shotTm int
}

// advance moves o one cell along its row, without a branch on its
// direction.
func (o *seaObj) advance() { o.x += 2*int(bit(o.right)) - 1 }

// on reports whether o is in the cell (x, y).
func (o *seaObj) on(x, y int) bool { return o.x == x && o.y == y }

// seaOnGrid reports whether column x is on the grid.
func seaOnGrid(x int) bool { return uint(x) < Size }

// seaquest: the player's submarine (two cells, front and back) moves in
// rows 0 to 8 and fires bullets from its front (at most one every 5
// frames), which move one cell per frame. Enemy fish and subs (1 in 3)
// enter rows 1 to 8 from a random side every spawn interval (not into a
// row where an enemy moves the other way) and move one cell every move
// interval + 1 frames (6 at first); subs fire a bullet every 11 frames.
// Divers enter every 30 frames and move every 6. Shooting an enemy is +1. Touching a diver picks
// it up (at most 6). Oxygen (200) falls by one per frame below the
// surface (row 0); surfacing with at least one diver refills it and drops
// one diver, or, with 6, all of them for a bonus of one point per tenth of
// oxygen left, and ramps the difficulty (spawn interval −1, and every
// second time move interval −1, down to 1 and 2). The game ends when the
// player is touched by an enemy or enemy bullet, runs out of oxygen, or
// surfaces with no diver.
//
// Channels: 0 sub front, 1 sub back, 2 player bullet, 3 trail, 4 enemy
// bullet, 5 fish, 6 enemy sub, 7 oxygen bar, 8 diver bar, 9 diver.
type seaquest struct {
	ramping bool

	x, y           int
	right          bool // the direction the sub faces
	oxygen, divers int
	shots, bombs   []seaObj // the player's bullets, the enemy subs'
	fish, subs     []seaObj
	swimmers       []seaObj // divers
	spawnSpeed     int
	spawnTimer     int
	diverTimer     int
	moveSpeed      int
	rampIndex      int
	shotTimer      int
	surfaced       bool

	// What the observation last drawn shows: the cells of the sub's front
	// and back, whether it has bullets of either side, and whether a fish,
	// enemy sub or diver has entered, moved or gone since.
	drawnFront, drawnBack  int
	shotsDrawn, bombsDrawn bool
	moversChanged          bool
	drawnBars              int // the oxygen bar's tenths and 16 × the divers, −1 for none
}

func (g *seaquest) channels() int   { return 10 }
func (g *seaquest) minimal() []int  { return []int{NoOp, Left, Up, Right, Down, Fire} }
func (g *seaquest) difficulty() int { return g.rampIndex }

func (g *seaquest) reset(random) {
	g.oxygen, g.divers = seaMaxOxygen, 0
	g.x, g.y, g.right = 5, 0, false
	g.shots, g.bombs = g.shots[:0], g.bombs[:0]
	g.fish, g.subs, g.swimmers = g.fish[:0], g.subs[:0], g.swimmers[:0]
	g.spawnSpeed, g.spawnTimer = seaSpawnSpeed, seaSpawnSpeed
	g.diverTimer = seaDiverSpawn
	g.moveSpeed = seaMoveInterval
	g.rampIndex, g.shotTimer = 0, 0
	g.surfaced = true
}

// hit removes the first object of list in the cell (x, y) and reports
// whether there was one.
func hit(list *[]seaObj, x, y int) bool {
	for j := range *list {
		if (*list)[j].on(x, y) {
			*list = slices.Delete(*list, j, j+1)
			return true
		}
	}
	return false
}

func (g *seaquest) step(a int, rng random) (float64, bool) {
	reward, terminal := 0.0, false
	if g.spawnTimer == 0 {
		g.spawnEnemy(rng)
		g.spawnTimer = g.spawnSpeed
	}
	if g.diverTimer == 0 {
		right := rng.Float64() < 0.5
		g.swimmers = append(g.swimmers, seaObj{x: edge(right), y: 1 + rng.IntN(8), right: right, moveTimer: seaDiverMove})
		g.moversChanged = true
		g.diverTimer = seaDiverSpawn
	}
	if a == Fire && g.shotTimer == 0 {
		g.shots = append(g.shots, seaObj{x: g.x, y: g.y, right: g.right})
		g.shotTimer = seaShotCoolDown
	} else {
		g.x = min(max(g.x+actionDX[a], 0), Size-1)
		g.y = min(max(g.y+actionDY[a], 0), Size-2)
		g.right = seaFacing[a][bit(g.right)]
	}
	px, py := g.x, g.y

	// Each list is walked from its last element to its first, so that
	// removing the current element leaves the rest of the walk as it was.
	for i := len(g.shots) - 1; i >= 0; i-- {
		b := &g.shots[i]
		b.advance()
		if !seaOnGrid(b.x) {
			g.shots = slices.Delete(g.shots, i, i+1)
		} else if len(g.fish)+len(g.subs) > 0 && (hit(&g.fish, b.x, b.y) || hit(&g.subs, b.x, b.y)) {
			reward++
			g.moversChanged = true
			g.shots = slices.Delete(g.shots, i, i+1)
		}
	}
	// At the start of a game, and often between waves, there are no
	// divers, enemies or enemy bullets: one test skips their walks.
	if len(g.swimmers)|len(g.subs)|len(g.bombs)|len(g.fish) != 0 {
		for i := len(g.swimmers) - 1; i >= 0; i-- {
			d := &g.swimmers[i]
			if d.on(px, py) && g.divers < seaMaxDivers {
				g.swimmers = slices.Delete(g.swimmers, i, i+1)
				g.divers++
				g.moversChanged = true
				continue
			}
			if d.moveTimer > 0 {
				d.moveTimer--
				continue
			}
			d.moveTimer = seaDiverMove
			g.moversChanged = true
			d.advance()
			if !seaOnGrid(d.x) {
				g.swimmers = slices.Delete(g.swimmers, i, i+1)
			} else if d.on(px, py) && g.divers < seaMaxDivers {
				g.swimmers = slices.Delete(g.swimmers, i, i+1)
				g.divers++
			}
		}
		// An enemy touching the player ends the game, before its move and
		// after it; on most frames its move is not due and only its timer
		// counts down, here, and moveEnemy plays the rest.
		for i := len(g.subs) - 1; i >= 0; i-- {
			// An enemy sub removed in this frame still fires if its shot is
			// due, from the cell where it was removed.
			s := &g.subs[i]
			terminal = terminal || s.on(px, py)
			removed := false
			if s.moveTimer > 0 {
				s.moveTimer--
			} else {
				removed = g.moveEnemy(s, px, py, &reward, &terminal)
			}
			if s.shotTm > 0 {
				s.shotTm--
			} else {
				s.shotTm = seaEnemyShot
				g.bombs = append(g.bombs, seaObj{x: s.x, y: s.y, right: s.right})
			}
			if removed {
				g.subs = slices.Delete(g.subs, i, i+1)
			}
		}
		for i := len(g.bombs) - 1; i >= 0; i-- {
			b := &g.bombs[i]
			terminal = terminal || b.on(px, py)
			b.advance()
			if !seaOnGrid(b.x) {
				g.bombs = slices.Delete(g.bombs, i, i+1)
			} else {
				terminal = terminal || b.on(px, py)
			}
		}
		for i := len(g.fish) - 1; i >= 0; i-- {
			f := &g.fish[i]
			terminal = terminal || f.on(px, py)
			if f.moveTimer > 0 {
				f.moveTimer--
			} else if g.moveEnemy(f, px, py, &reward, &terminal) {
				g.fish = slices.Delete(g.fish, i, i+1)
			}
		}
	}

	if g.spawnTimer > 0 {
		g.spawnTimer--
	}
	if g.diverTimer > 0 {
		g.diverTimer--
	}
	if g.shotTimer > 0 {
		g.shotTimer--
	}
	if g.oxygen <= 0 {
		terminal = true
	}
	switch {
	case g.y > 0:
		g.oxygen--
		g.surfaced = false
	case !g.surfaced:
		if g.divers == 0 {
			terminal = true
		} else {
			reward += g.surface()
		}
	}
	return reward, terminal
}

// moveEnemy moves the enemy *e, whose move is due, in the player's row and
// column (px, py): it leaves the grid, touches the player (the game ends),
// or runs into one of the player's bullets (the bullet removed, +1). It
// reports whether the caller must remove e from its list.
func (g *seaquest) moveEnemy(e *seaObj, px, py int, reward *float64, terminal *bool) bool {
	e.moveTimer = g.moveSpeed
	g.moversChanged = true
	e.advance()
	switch {
	case !seaOnGrid(e.x):
	case e.on(px, py):
		*terminal = true
		return false
	case len(g.shots) > 0 && hit(&g.shots, e.x, e.y):
		*reward++
	default:
		return false
	}
	return true
}

// spawnEnemy draws a side, a kind (a sub with probability 1/3) and a row
// 1–8, and adds the enemy unless an enemy in that row moves the other way.
func (g *seaquest) spawnEnemy(rng random) {
	right := rng.Float64() < 0.5
	sub := rng.Float64() < 1.0/3
	y := 1 + rng.IntN(8)
	for _, l := range [2][]seaObj{g.subs, g.fish} {
		for _, e := range l {
			if e.y == y && e.right != right {
				return
			}
		}
	}
	e := seaObj{x: edge(right), y: y, right: right, moveTimer: g.moveSpeed}
	g.moversChanged = true
	if sub {
		e.shotTm = seaEnemyShot
		g.subs = append(g.subs, e)
	} else {
		g.fish = append(g.fish, e)
	}
}

// seaFacing[a][r] is whether the sub faces right after the move a when it
// faced right before if r is 1: Left and Right turn it, the others keep
// its direction.
var seaFacing = [numActions][2]bool{NoOp: {false, true}, Up: {false, true}, Right: {true, true}, Down: {false, true}, Fire: {false, true}}

// edge returns the column an object moving right (or left) enters at.
func edge(right bool) int {
	if right {
		return 0
	}
	return Size - 1
}

// surface refills the oxygen, drops one diver (all six, for a bonus, when
// the sub is full) and ramps the difficulty; it returns the bonus.
func (g *seaquest) surface() float64 {
	g.surfaced = true
	bonus := 0.0
	if g.divers == seaMaxDivers {
		bonus = float64(g.oxygen * 10 / seaMaxOxygen)
		g.divers = 0
	} else {
		g.divers--
	}
	g.oxygen = seaMaxOxygen
	if g.ramping && (g.spawnSpeed > 1 || g.moveSpeed > seaMinMove) {
		if g.moveSpeed > seaMinMove && g.rampIndex%2 == 1 {
			g.moveSpeed--
		}
		if g.spawnSpeed > 1 {
			g.spawnSpeed--
		}
		g.rampIndex++
	}
	return bonus
}

// seaOxygenBars holds the bottom row of the oxygen bar (channel 7) with n tenths
// of oxygen left, and seaDiverBars that of the diver bar (channel 8) with n
// divers, so that observe draws each bar as one copy.
var seaOxygenBars, seaDiverBars = func() (o [Size + 1][Size]uint8, d [seaMaxDivers + 1][Size]uint8) {
	for n := range o {
		for x := range n {
			o[n][x] = 1
		}
	}
	for n := range d {
		for x := Size - 1 - n; x < Size-1; x++ {
			d[n][x] = 1
		}
	}
	return o, d
}()

func (g *seaquest) observe(obs []uint8) {
	g.shotsDrawn, g.bombsDrawn, g.moversChanged = true, true, true
	g.drawnBars = -1
	g.redraw(obs)
}

// redraw moves the sub's two cells and copies the bars; it redraws the
// bullets' channels only when there are bullets now or were before, and
// the channels of the fish, enemy subs, divers and trails only when one of
// them has changed: most of them move once every few frames.
func (g *seaquest) redraw(obs []uint8) {
	const plane, bottom = Size * Size, (Size - 1) * Size
	obs = obs[:10*plane]
	obs[g.drawnFront], obs[g.drawnBack] = 0, 0
	g.drawnFront, g.drawnBack = g.y*Size+g.x, plane+g.y*Size+move(g.x, !g.right)
	obs[g.drawnFront], obs[g.drawnBack] = 1, 1
	if tenths := max(0, g.oxygen) * 10 / seaMaxOxygen; tenths+16*g.divers != g.drawnBars {
		*(*[Size]uint8)(obs[7*plane+bottom:]) = seaOxygenBars[tenths]
		*(*[Size]uint8)(obs[8*plane+bottom:]) = seaDiverBars[g.divers]
		g.drawnBars = tenths + 16*g.divers
	}
	if g.shotsDrawn || len(g.shots) > 0 {
		*(*[plane]uint8)(obs[2*plane:]) = [plane]uint8{}
		for _, b := range g.shots {
			obs[2*plane+b.y*Size+b.x] = 1
		}
		g.shotsDrawn = len(g.shots) > 0
	}
	if g.bombsDrawn || len(g.bombs) > 0 {
		*(*[plane]uint8)(obs[4*plane:]) = [plane]uint8{}
		for _, b := range g.bombs {
			obs[4*plane+b.y*Size+b.x] = 1
		}
		g.bombsDrawn = len(g.bombs) > 0
	}
	if g.moversChanged {
		*(*[plane]uint8)(obs[3*plane:]) = [plane]uint8{}
		*(*[2 * plane]uint8)(obs[5*plane:]) = [2 * plane]uint8{}
		*(*[plane]uint8)(obs[9*plane:]) = [plane]uint8{}
		drawMovers(obs[5*plane:6*plane], obs, g.fish)
		drawMovers(obs[6*plane:7*plane], obs, g.subs)
		drawMovers(obs[9*plane:10*plane], obs, g.swimmers)
		g.moversChanged = false
	}
}

// drawMovers sets the cells of objs in the channel ch and their trails
// (the cells they came from) in channel 3 of obs.
func drawMovers(ch, obs []uint8, objs []seaObj) {
	const plane = Size * Size
	trail := obs[3*plane : 4*plane]
	for _, o := range objs {
		i := o.y*Size + o.x
		ch[i] = 1
		if back := move(o.x, !o.right); onGrid(back) {
			trail[i+back-o.x] = 1
		}
	}
}

func (g *seaquest) appendState(w *writer) {
	for _, v := range [...]int{g.x, g.y, g.oxygen, g.divers, g.spawnSpeed, g.spawnTimer, g.diverTimer, g.moveSpeed, g.rampIndex, g.shotTimer} {
		w.int(v)
	}
	w.bool(g.right)
	w.bool(g.surfaced)
	for _, l := range [...][]seaObj{g.shots, g.bombs, g.fish, g.subs, g.swimmers} {
		w.int(len(l))
		for _, o := range l {
			w.int(o.x)
			w.int(o.y)
			w.bool(o.right)
			w.int(o.moveTimer)
			w.int(o.shotTm)
		}
	}
}

func (g *seaquest) readState(r *reader) {
	g.x, g.y = r.int(0, Size-1), r.int(0, Size-2)
	g.oxygen = r.int(-1, seaMaxOxygen)
	g.divers = r.int(0, seaMaxDivers)
	g.spawnSpeed = r.int(1, seaSpawnSpeed)
	g.spawnTimer = r.int(0, seaSpawnSpeed)
	g.diverTimer = r.int(0, seaDiverSpawn)
	g.moveSpeed = r.int(1, seaMoveInterval)
	g.rampIndex = r.int(0, seaMaxRampIndex)
	g.shotTimer = r.int(0, seaShotCoolDown)
	g.right, g.surfaced = r.bool(), r.bool()
	if back := move(g.x, !g.right); !onGrid(back) {
		r.fail("the sub's back at column %d", back)
	}
	for _, l := range [...]*[]seaObj{&g.shots, &g.bombs, &g.fish, &g.subs, &g.swimmers} {
		n := r.count(seaMaxEntities, 5)
		*l = (*l)[:0]
		for range n {
			o := seaObj{x: r.int(0, Size-1), y: r.int(0, Size-1), right: r.bool(), moveTimer: r.int(0, seaMoveInterval), shotTm: r.int(0, seaEnemyShot)}
			*l = append(*l, o)
		}
	}
}
