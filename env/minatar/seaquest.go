package minatar

import (
	"math"
	"math/bits"
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
	seaMinMove      = 2 // the ramp stops at this many frames per move
	seaMaxRampIndex = 1 << 20
	// seaMaxEntities bounds the objects of one kind a saved state may
	// hold, far above what a game holds (about 31 enemies of a kind at
	// the highest difficulty); seaSlots leaves room for those of a
	// loaded state and for all the spawns of an object's lifetime
	// (at most 60 frames, one spawn per frame).
	seaMaxEntities    = 64
	seaOldMaxEntities = 256 // the bound of earlier versions, read to give a clear error
	seaSlots          = 2 * seaMaxEntities
	seaCells          = Size * Size
	seaHalf           = seaCells / 2 // the cells of one word of a bit board
)

// The kinds of objects, in the order of the saved state.
const (
	seaShot  = iota // the player's bullets
	seaBomb         // the enemy subs' bullets
	seaFish         // enemy fish
	seaSub          // enemy subs
	seaDiver        // divers
	seaKinds
)

// The planes of the movers' counts and channels (seaquest.count and
// shown), in the order of the observation's channels 3, 5, 6 and 9.
const (
	seaTrailPlane = iota
	seaFishPlane
	seaSubPlane
	seaDiverPlane
)

// seaPlane returns the plane of the fish, enemy subs or divers (k is
// seaFish, seaSub or seaDiver).
func seaPlane(k int) int { return k - seaFish + seaFishPlane }

// seaObj is an object that moves sideways along a row: a bullet, fish,
// enemy sub or diver. Bullets use only x, y and right; fish, enemy subs
// and divers also moveAt, the frame (counted from the game's creation or
// from the restore of a saved state) on which they move next, and enemy
// subs shotAt, that on which they fire next. MinAtar counts these down
// every frame; absolute frames change only when the move or shot is made.
type seaObj struct {
	x, y           int
	right          bool
	moveAt, shotAt int
}

// advance moves o one cell along its row, without a branch on its
// direction.
func (o *seaObj) advance() { o.x += 2*int(bit(o.right)) - 1 }

// on reports whether o is in the cell (x, y).
func (o *seaObj) on(x, y int) bool { return o.x == x && o.y == y }

// cell returns the index of o's cell, y·Size + x.
func (o *seaObj) cell() int { return o.y*Size + o.x }

// seaOnGrid reports whether column x is on the grid.
func seaOnGrid(x int) bool { return uint(x) < Size }

// seaList holds the objects of one kind in a fixed array, in the order in
// which they appeared, oldest first: the order decides which of two
// objects in one cell a bullet or an enemy takes, and which of them moves
// first.
type seaList struct {
	n int
	o [seaSlots]seaObj
}

func (l *seaList) add(o seaObj) {
	l.o[l.n] = o
	l.n++
}

// del removes the i-th object, keeping the order of the others.
func (l *seaList) del(i int) {
	copy(l.o[i:l.n], l.o[i+1:l.n])
	l.n--
}

// hit removes the oldest object in cell c and returns it, with whether
// there was one.
func (l *seaList) hit(c int) (seaObj, bool) {
	for j := range l.n {
		if o := l.o[j]; o.cell() == c {
			l.del(j)
			return o, true
		}
	}
	return seaObj{}, false
}

// trail returns the cell of o, the cell behind it (its trail, the cell it
// came from) and 1 when that cell is on the grid, else o's own cell and 0:
// adding 0 to a count changes nothing, without a branch.
func (o *seaObj) trail() (c, t int, on uint8) {
	c = o.cell()
	back := o.x + 1 - 2*int(bit(o.right))
	on = uint8(bit(onGrid(back)))
	return c, c + int(on)*(back-o.x), on
}

// seaBoard is a set of cells, 50 cells per word: cell c is bit c%50 of
// word c/50, so that a row's ten cells are consecutive bits and a shift
// by one moves every object of the set one cell along its row.
type seaBoard [2]uint64

const (
	seaWord  = 1<<seaHalf - 1
	seaCol0  = 1 | 1<<10 | 1<<20 | 1<<30 | 1<<40 // the cells of column 0 in a word
	seaCol9  = seaCol0 << (Size - 1)
	seaNotC0 = seaWord &^ seaCol0 // cells a right move can reach
	seaNotC9 = seaWord &^ seaCol9 // cells a left move can reach
)

func (b *seaBoard) set(c int) { b[c/seaHalf] |= 1 << (c % seaHalf) }

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
	spawnSpeed     int
	moveSpeed      int
	rampIndex      int
	surfaced       bool

	// frame is the number of the next frame to play. MinAtar's timers,
	// which count down every frame, are kept as the frames on which they
	// run out: the next enemy and diver spawns, the first frame on which
	// the sub may fire. The fish, enemy subs and divers do nothing but
	// count down between their moves and shots, so step walks them only
	// on the frame nextEnemy or nextDiver names (the earliest move or shot
	// due), or when a diver is in the player's cell.
	frame                                int
	nextSpawn, nextDiverSpawn, shotReady int
	shots, fish, subs                    seaList
	swimmers                             seaList // divers
	nextEnemy, nextDiver                 int
	// count holds, in four planes of 100 cells, the number of trails,
	// fish, enemy subs and divers in each cell, and shown the movers'
	// channels of the observation (trail, fish, enemy sub, diver): 1
	// where the count is not 0. place and lift keep both; the collisions
	// with the player and the bullets read count, and redraw copies shown.
	count, shown [4][seaCells]uint8
	// nextDue is at most the earliest of nextSpawn, nextDiverSpawn,
	// nextEnemy and nextDiver, so that a frame before it, most frames,
	// looks at none of them.
	nextDue int
	// The enemy subs' bullets: cells of those moving left, then right. Two
	// in one cell moving the same way act as one: they touch only the
	// player. bombsAny says whether there are any, without a look at the
	// four words.
	bombs    [2]seaBoard
	bombsAny bool

	// What the observation last drawn shows: the cells of the sub's front
	// and back, whether it has bullets of either side, and whether shown
	// changed since.
	drawnFront, drawnBack  uint8 // cells in channels 0 and 1
	shotsDrawn, bombsDrawn bool
	moversChanged          bool
	// barsFrom is barsKey's value at the lowest oxygen that the bars drawn
	// show: they stay right while barsKey is in [barsFrom, barsFrom + 20).
	barsFrom int
}

func (g *seaquest) channels() int   { return 10 }
func (g *seaquest) minimal() []int  { return []int{NoOp, Left, Up, Right, Down, Fire} }
func (g *seaquest) difficulty() int { return g.rampIndex }

func (g *seaquest) reset(random) {
	g.oxygen, g.divers = seaMaxOxygen, 0
	g.x, g.y, g.right = 5, 0, false
	g.shots.n = 0
	g.clearMovers()
	g.spawnSpeed, g.nextSpawn = seaSpawnSpeed, g.frame+seaSpawnSpeed
	g.nextDiverSpawn = g.frame + seaDiverSpawn
	g.moveSpeed = seaMoveInterval
	g.rampIndex, g.shotReady = 0, g.frame
	g.surfaced = true
	g.nextDue = min(g.nextSpawn, g.nextDiverSpawn)
}

// clearMovers removes every fish, enemy sub, diver and enemy bullet.
func (g *seaquest) clearMovers() {
	g.fish.n, g.subs.n, g.swimmers.n = 0, 0, 0
	g.bombs, g.bombsAny = [2]seaBoard{}, false
	g.count, g.shown = [4][seaCells]uint8{}, [4][seaCells]uint8{}
	g.nextEnemy, g.nextDiver = math.MaxInt, math.MaxInt
	g.moversChanged = true
}

// put adds an object of kind k in the cell (x, y) moving right or left,
// with MinAtar's timers: the frames left before its next move (fish,
// enemy subs, divers) and shot (enemy subs). readState and the tests
// build states with it.
func (g *seaquest) put(k, x, y int, right bool, moveTimer, shotTimer int) {
	o := seaObj{x: x, y: y, right: right}
	switch k {
	case seaShot:
		g.shots.add(o)
	case seaBomb:
		g.bombs[bit(right)].set(o.cell())
		g.bombsAny = true
	case seaFish, seaSub:
		o.moveAt = g.frame + moveTimer
		g.nextEnemy = min(g.nextEnemy, o.moveAt)
		if k == seaFish {
			g.fish.add(o)
		} else {
			o.shotAt = g.frame + shotTimer
			g.nextEnemy = min(g.nextEnemy, o.shotAt)
			g.subs.add(o)
		}
		g.place(k, &o)
	case seaDiver:
		o.moveAt = g.frame + moveTimer
		g.nextDiver = min(g.nextDiver, o.moveAt)
		g.swimmers.add(o)
		g.place(k, &o)
	}
	g.nextDue = min(g.nextDue, g.nextEnemy, g.nextDiver)
}

// place counts the mover o of kind k (seaFish, seaSub or seaDiver) in its
// cell and its trail's, and shows both. Every mover on the grid is counted
// once.
func (g *seaquest) place(k int, o *seaObj) {
	c, t, on := o.trail()
	n, tn := &g.count[seaPlane(k)][c], &g.count[seaTrailPlane][t]
	*n++
	*tn += on
	g.shown[seaPlane(k)][c], g.shown[seaTrailPlane][t] = 1, min(*tn, 1)
	g.moversChanged = true
}

// lift undoes place, before o moves or goes: a cell stays shown while
// another mover of the kind (a trail: any trail) is counted there.
func (g *seaquest) lift(k int, o *seaObj) {
	c, t, on := o.trail()
	n, tn := &g.count[seaPlane(k)][c], &g.count[seaTrailPlane][t]
	*n--
	*tn -= on
	g.shown[seaPlane(k)][c], g.shown[seaTrailPlane][t] = min(*n, 1), min(*tn, 1)
	g.moversChanged = true
}

// enemyAt reports whether a fish or an enemy sub is in cell c.
func (g *seaquest) enemyAt(c int) bool {
	return g.count[seaFishPlane][c]|g.count[seaSubPlane][c] != 0
}

func (g *seaquest) step(a int, rng random) (float64, bool) {
	reward := 0.0
	t := g.frame
	g.frame++
	due := t >= g.nextDue
	if due {
		g.spawn(t, rng)
	}
	// Fire neither moves nor turns the sub: the move is played on every
	// frame, without a branch on the action.
	g.x = min(max(g.x+actionDX[a], 0), Size-1)
	g.y = min(max(g.y+actionDY[a], 0), Size-2)
	g.right = seaFacing[a][bit(g.right)]
	if a == Fire && t >= g.shotReady {
		g.shots.add(seaObj{x: g.x, y: g.y, right: g.right})
		g.shotReady = t + seaShotCoolDown
	}
	px, py := g.x, g.y
	p := py*Size + px

	// The bullets are walked from the last to the first, so that removing
	// the current one leaves the rest of the walk as it was. A bullet
	// takes the oldest fish in its cell, else the oldest enemy sub.
	for i := g.shots.n - 1; i >= 0; i-- {
		b := &g.shots.o[i]
		b.advance()
		if !seaOnGrid(b.x) {
			g.shots.del(i)
		} else if c := b.cell(); g.enemyAt(c) {
			if e, ok := g.fish.hit(c); ok {
				g.lift(seaFish, &e)
			} else {
				e, _ = g.subs.hit(c)
				g.lift(seaSub, &e)
			}
			reward++
			g.shots.del(i)
		}
	}
	// An enemy in the player's cell ends the game, before its move (here)
	// and after it (moveEnemy).
	terminal := g.enemyAt(p)
	pickUp := g.count[seaDiverPlane][p] != 0 && g.divers < seaMaxDivers
	if due {
		if t >= g.nextDiver || pickUp {
			g.moveDivers(t, px, py)
		}
		if t >= g.nextEnemy {
			g.moveEnemies(t, px, py, &reward, &terminal)
		}
		g.nextDue = min(g.nextSpawn, g.nextDiverSpawn, g.nextDiver, g.nextEnemy)
	} else if pickUp {
		g.moveDivers(t, px, py)
	}
	// The enemy bullets touch the player before their move and after it;
	// all of them move at once, as two bit boards.
	if g.bombsAny {
		b := &g.bombs
		w, s := p/seaHalf, uint(p%seaHalf)
		touch := (b[0][w] | b[1][w]) >> s
		b[0][0], b[0][1] = b[0][0]>>1&seaNotC9, b[0][1]>>1&seaNotC9
		b[1][0], b[1][1] = b[1][0]<<1&seaNotC0, b[1][1]<<1&seaNotC0
		touch |= (b[0][w] | b[1][w]) >> s
		terminal = terminal || touch&1 == 1
		g.bombsAny = b[0][0]|b[0][1]|b[1][0]|b[1][1] != 0
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

// spawn adds the enemy and the diver due on frame t, if any.
func (g *seaquest) spawn(t int, rng random) {
	if t == g.nextSpawn {
		g.spawnEnemy(rng, t)
		g.nextSpawn = t + g.spawnSpeed
	}
	if t == g.nextDiverSpawn {
		right := rng.Float64() < 0.5
		d := seaObj{x: edge(right), y: 1 + rng.IntN(8), right: right, moveAt: t + seaDiverMove}
		g.swimmers.add(d)
		g.place(seaDiver, &d)
		g.nextDiver = min(g.nextDiver, d.moveAt)
		g.nextDiverSpawn = t + seaDiverSpawn
	}
}

// moveDivers plays the divers' frame t with the player in (px, py): from
// the newest to the oldest, a diver in the player's cell is picked up
// (while there is room), else it moves if its move is due, leaving the
// grid or swimming into the player's cell.
func (g *seaquest) moveDivers(t, px, py int) {
	next := math.MaxInt
	for i := g.swimmers.n - 1; i >= 0; i-- {
		d := &g.swimmers.o[i]
		if d.on(px, py) && g.divers < seaMaxDivers {
			g.lift(seaDiver, d)
			g.swimmers.del(i)
			g.divers++
			continue
		}
		if d.moveAt != t {
			next = min(next, d.moveAt)
			continue
		}
		d.moveAt = t + seaDiverMove + 1
		g.lift(seaDiver, d)
		d.advance()
		switch {
		case !seaOnGrid(d.x):
			g.swimmers.del(i)
		case d.on(px, py) && g.divers < seaMaxDivers:
			g.swimmers.del(i)
			g.divers++
		default:
			g.place(seaDiver, d)
			next = min(next, d.moveAt)
		}
	}
	g.nextDiver = next
}

// moveEnemies plays the moves and shots due on frame t, the enemy subs'
// from the newest to the oldest, then the fish's. An enemy sub removed in
// this frame still fires if its shot is due, from the cell where it was
// removed (a bullet off the grid is gone at once).
func (g *seaquest) moveEnemies(t, px, py int, reward *float64, terminal *bool) {
	next := math.MaxInt
	for i := g.subs.n - 1; i >= 0; i-- {
		s := &g.subs.o[i]
		removed := s.moveAt == t && g.moveEnemy(seaSub, s, t, px, py, reward, terminal)
		if s.shotAt == t {
			s.shotAt = t + seaEnemyShot + 1
			if seaOnGrid(s.x) {
				g.bombs[bit(s.right)].set(s.cell())
				g.bombsAny = true
			}
		}
		if removed {
			g.subs.del(i)
		} else {
			next = min(next, s.moveAt, s.shotAt)
		}
	}
	for i := g.fish.n - 1; i >= 0; i-- {
		f := &g.fish.o[i]
		if f.moveAt == t && g.moveEnemy(seaFish, f, t, px, py, reward, terminal) {
			g.fish.del(i)
		} else {
			next = min(next, f.moveAt)
		}
	}
	g.nextEnemy = next
}

// moveEnemy moves the enemy *e of kind k on frame t, its move being due,
// with the player in (px, py): it leaves the grid, touches the player (the
// game ends), or runs into the oldest of the player's bullets in its new
// cell (the bullet removed, +1). It reports whether the caller must remove
// e from its list.
func (g *seaquest) moveEnemy(k int, e *seaObj, t, px, py int, reward *float64, terminal *bool) bool {
	e.moveAt = t + g.moveSpeed + 1
	g.lift(k, e)
	e.advance()
	switch {
	case !seaOnGrid(e.x):
		return true
	case e.on(px, py):
		*terminal = true
	case g.shots.n > 0:
		if _, hit := g.shots.hit(e.cell()); hit {
			*reward++
			return true
		}
	}
	g.place(k, e)
	return false
}

// spawnEnemy draws a side, a kind (a sub with probability 1/3) and a row
// 1–8, and adds the enemy on frame t unless an enemy in that row moves the
// other way.
func (g *seaquest) spawnEnemy(rng random, t int) {
	right := rng.Float64() < 0.5
	sub := rng.Float64() < 1.0/3
	y := 1 + rng.IntN(8)
	for _, l := range [2]*seaList{&g.subs, &g.fish} {
		for j := range l.n {
			if e := &l.o[j]; e.y == y && e.right != right {
				return
			}
		}
	}
	e := seaObj{x: edge(right), y: y, right: right, moveAt: t + g.moveSpeed}
	if sub {
		e.shotAt = t + seaEnemyShot
		g.subs.add(e)
		g.place(seaSub, &e)
		g.nextEnemy = min(g.nextEnemy, e.moveAt, e.shotAt)
	} else {
		g.fish.add(e)
		g.place(seaFish, &e)
		g.nextEnemy = min(g.nextEnemy, e.moveAt)
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

// barsKey changes with the diver count and the oxygen, in runs of 20 (a
// tenth of the bar) for one diver count. It lets redraw see whether the
// bars changed with one subtraction and one comparison, instead of a
// division.
func (g *seaquest) barsKey() int { return g.divers<<10 + g.oxygen }

func (g *seaquest) observe(obs []uint8) {
	g.shotsDrawn, g.bombsDrawn, g.moversChanged = true, true, true
	g.barsFrom = math.MinInt / 2
	g.redraw(obs)
}

// redraw moves the sub's two cells and copies the bars when they changed;
// it redraws the bullets' channels only when there are bullets now or were
// before, and copies the channels of the fish, enemy subs, divers and
// trails only when one of them has changed: most of them move once every
// few frames.
func (g *seaquest) redraw(obs []uint8) {
	const plane, bottom, tenth = Size * Size, (Size - 1) * Size, seaMaxOxygen / 10
	o := (*[10 * plane]uint8)(obs)
	// The sub's cells are kept as bytes, which index the frame without a
	// bounds check.
	o[g.drawnFront], o[plane+int(g.drawnBack)] = 0, 0
	g.drawnFront = uint8(g.y*Size + g.x)
	g.drawnBack = g.drawnFront + 1 - 2*uint8(bit(g.right))
	o[g.drawnFront], o[plane+int(g.drawnBack)] = 1, 1
	if uint(g.barsKey()-g.barsFrom) >= tenth {
		tenths := max(0, g.oxygen) / tenth
		*(*[Size]uint8)(o[7*plane+bottom:]) = seaOxygenBars[tenths]
		*(*[Size]uint8)(o[8*plane+bottom:]) = seaDiverBars[g.divers]
		g.barsFrom = g.barsKey() - g.oxygen + tenths*tenth
	}
	if g.shotsDrawn || g.shots.n > 0 {
		*(*[plane]uint8)(o[2*plane:]) = [plane]uint8{}
		for i := range g.shots.n {
			o[2*plane+g.shots.o[i].cell()] = 1
		}
		g.shotsDrawn = g.shots.n > 0
	}
	// The channel does not show the enemy bullets' directions: the cells
	// of each word of the two boards are drawn together.
	if g.bombsDrawn || g.bombsAny {
		m0, m1 := g.bombs[0][0]|g.bombs[1][0], g.bombs[0][1]|g.bombs[1][1]
		*(*[plane]uint8)(o[4*plane:]) = [plane]uint8{}
		g.bombsDrawn = g.bombsAny
		for ; m0 != 0; m0 &= m0 - 1 {
			o[4*plane+bits.TrailingZeros64(m0)] = 1
		}
		for ; m1 != 0; m1 &= m1 - 1 {
			o[4*plane+seaHalf+bits.TrailingZeros64(m1)] = 1
		}
	}
	if g.moversChanged {
		*(*[plane]uint8)(o[3*plane:]) = g.shown[seaTrailPlane]
		*(*[plane]uint8)(o[5*plane:]) = g.shown[seaFishPlane]
		*(*[plane]uint8)(o[6*plane:]) = g.shown[seaSubPlane]
		*(*[plane]uint8)(o[9*plane:]) = g.shown[seaDiverPlane]
		g.moversChanged = false
	}
}

// appendState writes MinAtar's state: the lists of objects, oldest first
// (the enemy bullets by direction and cell), each object as its cell,
// direction and timers.
func (g *seaquest) appendState(w *writer) {
	for _, v := range [...]int{g.x, g.y, g.oxygen, g.divers, g.spawnSpeed, g.nextSpawn - g.frame, g.nextDiverSpawn - g.frame, g.moveSpeed, g.rampIndex, max(g.shotReady-g.frame, 0)} {
		w.int(v)
	}
	w.bool(g.right)
	w.bool(g.surfaced)
	obj := func(o *seaObj, moveTimer, shotTimer int) {
		w.int(o.x)
		w.int(o.y)
		w.bool(o.right)
		w.int(moveTimer)
		w.int(shotTimer)
	}
	w.int(g.shots.n)
	for i := range g.shots.n {
		obj(&g.shots.o[i], 0, 0)
	}
	n := 0
	for _, b := range g.bombs {
		n += bits.OnesCount64(b[0]) + bits.OnesCount64(b[1])
	}
	w.int(n)
	for d, b := range g.bombs {
		for k, m := range b {
			for ; m != 0; m &= m - 1 {
				c := k*seaHalf + bits.TrailingZeros64(m)
				obj(&seaObj{x: c % Size, y: c / Size, right: d == 1}, 0, 0)
			}
		}
	}
	for _, l := range [...]*seaList{&g.fish, &g.subs, &g.swimmers} {
		w.int(l.n)
		for i := range l.n {
			o := &l.o[i]
			shot := 0
			if l == &g.subs {
				shot = o.shotAt - g.frame
			}
			obj(o, o.moveAt-g.frame, shot)
		}
	}
}

// readState reads what appendState wrote. The timers a kind does not use
// are checked and dropped; two enemy bullets in one cell moving the same
// way become one, which acts as they did.
func (g *seaquest) readState(r *reader) {
	g.x, g.y = r.int(0, Size-1), r.int(0, Size-2)
	g.oxygen = r.int(-1, seaMaxOxygen)
	g.divers = r.int(0, seaMaxDivers)
	g.spawnSpeed = r.int(1, seaSpawnSpeed)
	g.frame = 0
	g.nextSpawn = r.int(0, seaSpawnSpeed)
	g.nextDiverSpawn = r.int(0, seaDiverSpawn)
	g.moveSpeed = r.int(1, seaMoveInterval)
	g.rampIndex = r.int(0, seaMaxRampIndex)
	g.shotReady = r.int(0, seaShotCoolDown)
	g.right, g.surfaced = r.bool(), r.bool()
	if back := move(g.x, !g.right); !onGrid(back) {
		r.fail("the sub's back at column %d", back)
	}
	g.shots.n = 0
	g.clearMovers()
	g.nextDue = min(g.nextSpawn, g.nextDiverSpawn)
	for k, name := range [seaKinds]string{"player bullets", "enemy bullets", "fish", "enemy subs", "divers"} {
		n := r.count(seaOldMaxEntities, 5)
		if n > seaMaxEntities {
			r.fail("%d %s, more than the %d a state may hold", n, name, seaMaxEntities)
		}
		for range n {
			x, y, right := r.int(0, Size-1), r.int(0, Size-1), r.bool()
			moveTimer, shotTimer := r.int(0, seaMoveInterval), r.int(0, seaEnemyShot)
			if r.err != nil {
				return
			}
			g.put(k, x, y, right, moveTimer, shotTimer)
		}
	}
}
