package minatar

import "math/bits"

// MinAtar's Asterix constants: frames between difficulty ramps, and the
// initial frames between spawns and between moves of the entities.
const (
	asterixRampInterval = 100
	asterixSpawnSpeed   = 10
	asterixMoveInterval = 5
	asterixSlots        = 8 // one entity per row, rows 1 to 8
)

// asterix: the player moves in the four directions within rows 1 to 8.
// Every spawn interval (10 frames at first) an enemy (probability 2/3) or
// a piece of gold enters a free row (chosen uniformly) from a random side,
// and every move interval (5 frames at first) all of them move one cell
// sideways, leaving at the far side. Touching gold is +1 and removes it;
// touching an enemy ends the game. Difficulty ramping: every 102 frames
// the spawn interval shrinks by one frame, and on every second ramp the
// move interval too, down to 1.
//
// Channels: 0 player, 1 enemy, 2 trail (an entity's previous cell), 3 gold.
type asterix struct {
	ramping bool

	x, y int
	// Bit i of active, right and gold says whether slot i holds an
	// entity, whether it moves right and whether it is gold, so that
	// walking the active slots and drawing them take no branch on the
	// entities' random states.
	active, right, gold    uint
	ex                     [asterixSlots]int
	spawnSpeed, spawnTimer int
	moveSpeed, moveTimer   int
	rampTimer, rampIndex   int

	// What the observation last drawn shows: the player's cell, and
	// whether an entity has spawned, moved or gone since (redraw then
	// redraws the entities' channels).
	drawnPlayer     int
	entitiesChanged bool
}

func (g *asterix) channels() int   { return 4 }
func (g *asterix) minimal() []int  { return []int{NoOp, Left, Up, Right, Down} }
func (g *asterix) difficulty() int { return g.rampIndex }

func (g *asterix) reset(random) {
	g.x, g.y = 5, 5
	g.active = 0
	g.spawnSpeed, g.spawnTimer = asterixSpawnSpeed, asterixSpawnSpeed
	g.moveSpeed, g.moveTimer = asterixMoveInterval, asterixMoveInterval
	g.rampTimer, g.rampIndex = asterixRampInterval, 0
}

// spawn draws the side and the kind, then a free row; with no free row it
// does nothing after the first two draws.
func (g *asterix) spawn(rng random) {
	right := rng.Float64() < 0.5
	gold := rng.Float64() < 1.0/3
	free := ^g.active & (1<<asterixSlots - 1)
	n := bits.OnesCount(free)
	if n == 0 {
		return
	}
	i := uint(asterixNthSlot[free][rng.IntN(n)])
	g.entitiesChanged = true
	g.active |= 1 << i
	g.right = g.right&^(1<<i) | bit(right)<<i
	g.gold = g.gold&^(1<<i) | bit(gold)<<i
	g.ex[i] = edge(right)
}

// asterixNthSlot[m][k] is the position of the k-th bit set in m, the k-th
// free slot when m holds the free slots: a lookup instead of a walk.
var asterixNthSlot = func() (t [1 << asterixSlots][asterixSlots]uint8) {
	for m := range t {
		k := 0
		for i := range asterixSlots {
			if m>>i&1 == 1 {
				t[m][k] = uint8(i)
				k++
			}
		}
	}
	return t
}()

// touch resolves an entity in the player's cell: gold is collected,
// an enemy ends the game.
func (g *asterix) touch(i int, reward *float64, terminal *bool) {
	if g.active>>i&1 == 0 || g.ex[i] != g.x || i+1 != g.y {
		return
	}
	if g.gold>>i&1 == 1 {
		g.active &^= 1 << i
		g.entitiesChanged = true
		*reward++
	} else {
		*terminal = true
	}
}

func (g *asterix) step(a int, rng random) (float64, bool) {
	if g.spawnTimer == 0 {
		g.spawn(rng)
		g.spawnTimer = g.spawnSpeed
	}
	g.x = min(max(g.x+actionDX[a], 0), Size-1)
	g.y = min(max(g.y+actionDY[a], 1), Size-2)
	// Slot i moves along row i+1, so only the slot of the player's row can
	// touch the player, before the move and after it.
	reward, terminal := 0.0, false
	g.touch(g.y-1, &reward, &terminal)
	if g.moveTimer == 0 {
		g.moveTimer = g.moveSpeed
		g.entitiesChanged = true
		for m := g.active; m != 0; m &= m - 1 {
			i := bits.TrailingZeros(m)
			g.ex[i] += 2*int(g.right>>i&1) - 1
			if !onGrid(g.ex[i]) {
				g.active &^= 1 << i
			}
		}
		g.touch(g.y-1, &reward, &terminal)
	}
	g.spawnTimer--
	g.moveTimer--
	if g.ramping && (g.spawnSpeed > 1 || g.moveSpeed > 1) {
		if g.rampTimer >= 0 {
			g.rampTimer--
		} else {
			if g.moveSpeed > 1 && g.rampIndex%2 == 1 {
				g.moveSpeed--
			}
			if g.spawnSpeed > 1 {
				g.spawnSpeed--
			}
			g.rampIndex++
			g.rampTimer = asterixRampInterval
		}
	}
	return reward, terminal
}

func (g *asterix) observe(obs []uint8) {
	g.drawnPlayer = g.y*Size + g.x
	obs[g.drawnPlayer] = 1
	g.drawEntities(obs)
}

// redraw moves the player's cell, and redraws the entities' channels only
// when an entity has changed: they move once every few frames.
func (g *asterix) redraw(obs []uint8) {
	const plane = Size * Size
	obs[g.drawnPlayer] = 0
	g.drawnPlayer = g.y*Size + g.x
	obs[g.drawnPlayer] = 1
	if g.entitiesChanged {
		*(*[3 * plane]uint8)(obs[plane:]) = [3 * plane]uint8{}
		g.drawEntities(obs)
	}
}

// drawEntities sets the cells of the entities and their trails in obs,
// whose channels 1 to 3 are zero.
func (g *asterix) drawEntities(obs []uint8) {
	const plane = Size * Size
	obs = obs[:4*plane]
	g.entitiesChanged = false
	// The kind's channel and the trail are computed without branches on
	// the entities' random states; a trail off the grid ORs a 0 into a
	// neighbouring cell of the trail channel.
	for m := g.active; m != 0; m &= m - 1 {
		i := bits.TrailingZeros(m)
		row, x := (i+1)*Size, g.ex[i]
		obs[plane+2*plane*int(g.gold>>i&1)+row+x] = 1
		back := x + 1 - 2*int(g.right>>i&1)
		obs[2*plane+row+back] |= uint8(bit(onGrid(back)))
	}
}

func (g *asterix) appendState(w *writer) {
	for _, v := range [...]int{g.x, g.y, g.spawnSpeed, g.spawnTimer, g.moveSpeed, g.moveTimer, g.rampTimer, g.rampIndex} {
		w.int(v)
	}
	for i := range asterixSlots {
		w.int(int(g.active >> i & 1))
		w.int(int(g.right >> i & 1))
		w.int(int(g.gold >> i & 1))
		w.int(g.ex[i])
	}
}

func (g *asterix) readState(r *reader) {
	g.x, g.y = r.int(0, Size-1), r.int(1, Size-2)
	g.spawnSpeed = r.int(1, asterixSpawnSpeed)
	g.spawnTimer = r.int(0, asterixSpawnSpeed)
	g.moveSpeed = r.int(1, asterixMoveInterval)
	g.moveTimer = r.int(0, asterixMoveInterval)
	g.rampTimer = r.int(-1, asterixRampInterval)
	g.rampIndex = r.int(0, 1<<20)
	g.active, g.right, g.gold = 0, 0, 0
	for i := range asterixSlots {
		g.active |= bit(r.bool()) << i
		g.right |= bit(r.bool()) << i
		g.gold |= bit(r.bool()) << i
		g.ex[i] = r.int(-1, Size) // an entity that left the grid keeps its last column
		if g.active>>i&1 == 1 && !onGrid(g.ex[i]) {
			r.fail("entity %d active at column %d", i, g.ex[i])
		}
	}
}
