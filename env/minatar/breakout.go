package minatar

// breakout: a paddle on the bottom row bounces a ball, which moves one cell
// diagonally per frame, into three rows of bricks (rows 1 to 3). A brick
// the ball enters is broken (+1) and the ball turns back vertically; the
// ball is not allowed to break bricks on two frames in a row (it then
// passes into the brick). A ball reaching the bottom row bounces back if it
// was above the paddle, is deflected sideways if it lands on the paddle
// from the side, and ends the game otherwise. Once no brick is left, the
// three rows come back when the ball next reaches the bottom row.
//
// Channels: 0 paddle, 1 ball, 2 trail (the ball's previous cell), 3 brick.
type breakout struct {
	ballX, ballY, dir int // dir: 0 up-left, 1 up-right, 2 down-right, 3 down-left
	lastX, lastY      int
	pos               int // paddle column
	strike            bool
	bricks            grid

	// What the observation last drawn shows: the cells of the paddle,
	// the ball and the trail, and whether a brick has changed since.
	drawn         [3]int
	bricksChanged bool
}

// Ball directions as (dx, dy), y growing downwards, and the directions
// after bouncing off a side wall, off a horizontal surface, and off the
// paddle's side.
var (
	ballDX     = [4]int{-1, 1, 1, -1}
	ballDY     = [4]int{-1, -1, 1, 1}
	bounceSide = [4]int{1, 0, 3, 2}
	bounceFlat = [4]int{3, 2, 1, 0}
	bounceEdge = [4]int{2, 3, 0, 1}
)

func (g *breakout) channels() int   { return 4 }
func (g *breakout) minimal() []int  { return []int{NoOp, Left, Right} }
func (g *breakout) difficulty() int { return 0 }

func (g *breakout) reset(rng random) {
	g.ballY = 3
	if rng.IntN(2) == 0 {
		g.ballX, g.dir = 0, 2
	} else {
		g.ballX, g.dir = 9, 3
	}
	g.pos = 4
	g.fillBricks()
	g.strike = false
	g.lastX, g.lastY = g.ballX, g.ballY
}

func (g *breakout) fillBricks() {
	g.bricks = breakoutWall
	g.bricksChanged = true
}

// breakoutWall is the grid of a full wall: rows 1 to 3 of bricks. A random
// player's episodes are short, so the reset's refilling is a share of a
// step; one copy is cheaper than a loop over the cells.
var breakoutWall = func() (w grid) {
	for i := 1 * Size; i < 4*Size; i++ {
		w[i] = 1
	}
	return w
}()

func (g *breakout) step(a int, _ random) (float64, bool) {
	g.pos = min(max(g.pos+actionDX[a], 0), Size-1)
	reward, terminal := 0.0, false
	g.lastX, g.lastY = g.ballX, g.ballY
	x, y := g.ballX+ballDX[g.dir], g.ballY+ballDY[g.dir]
	if !onGrid(x) {
		x = min(max(x, 0), Size-1)
		g.dir = bounceSide[g.dir]
	}
	struck := false
	switch {
	case y < 0:
		y = 0
		g.dir = bounceFlat[g.dir]
	case g.bricks[y*Size+x] != 0:
		struck = true
		if !g.strike {
			reward++
			g.strike = true
			g.bricks[y*Size+x] = 0
			g.bricksChanged = true
			y = g.lastY
			g.dir = bounceFlat[g.dir]
		}
	case y == Size-1:
		if g.noBricks() {
			g.fillBricks()
		}
		switch {
		case g.ballX == g.pos:
			g.dir = bounceFlat[g.dir]
			y = g.lastY
		case x == g.pos:
			g.dir = bounceEdge[g.dir]
			y = g.lastY
		default:
			terminal = true
		}
	}
	if !struck {
		g.strike = false
	}
	g.ballX, g.ballY = x, y
	return reward, terminal
}

func (g *breakout) noBricks() bool { return g.bricks == grid{} }

func (g *breakout) observe(obs []uint8) {
	g.bricksChanged = true
	g.redraw(obs)
}

// redraw clears the three cells of the paddle, ball and trail drawn last
// and sets the current ones; it copies the bricks only when one has
// changed. A zeroed grid is a frame with those cells clear.
func (g *breakout) redraw(obs []uint8) {
	const plane = Size * Size
	obs = obs[:4*plane]
	paddle, ball, trail := (Size-1)*Size+g.pos, plane+g.ballY*Size+g.ballX, 2*plane+g.lastY*Size+g.lastX
	obs[g.drawn[0]], obs[g.drawn[1]], obs[g.drawn[2]] = 0, 0, 0
	obs[paddle], obs[ball], obs[trail] = 1, 1, 1
	g.drawn = [3]int{paddle, ball, trail}
	if g.bricksChanged {
		*(*grid)(obs[3*plane:]) = g.bricks
		g.bricksChanged = false
	}
}

func (g *breakout) appendState(w *writer) {
	for _, v := range [...]int{g.ballX, g.ballY, g.dir, g.lastX, g.lastY, g.pos} {
		w.int(v)
	}
	w.bool(g.strike)
	w.grid(&g.bricks)
}

func (g *breakout) readState(r *reader) {
	g.ballX, g.ballY, g.dir = r.int(0, Size-1), r.int(0, Size-1), r.int(0, 3)
	g.lastX, g.lastY, g.pos = r.int(0, Size-1), r.int(0, Size-1), r.int(0, Size-1)
	g.strike = r.bool()
	r.grid(&g.bricks)
}
