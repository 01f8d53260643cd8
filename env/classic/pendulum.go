package classic

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/env/classic/internal/raster"
)

// Registration values of Pendulum-v1 in Gymnasium, which registers no reward threshold.
const PendulumMaxEpisodeSteps = 200 // steps before Gymnasium's TimeLimit truncates an episode

// PendulumTestThreshold is the mean test return at which Tianshou's
// Pendulum tests stop training, registered as Pendulum-v1's TestThreshold.
const PendulumTestThreshold = -250.0

// Pendulum is Gymnasium's Pendulum-v1: a pendulum on a fixed pivot, driven by a torque in
// [−MaxTorque, MaxTorque] (larger actions are clipped), to be swung up and held upright. The
// reward is −(θ̃² + 0.1·θ̇² + 0.001·u²), where θ̃ is θ normalized to [−π, π) and u the clipped
// torque; the episode never terminates.
//
// The state is [θ, θ̇]: the angle from upright (rad, positive counter-clockwise, not wrapped) and
// the angular velocity (rad/s). The observation is [cos θ, sin θ, θ̇] in float32.
//
// The exported fields are Gymnasium's parameters, set by NewPendulum; change them before
// stepping. A Pendulum is not safe for concurrent use.
type Pendulum struct {
	MaxSpeed  float64 // |θ̇| limit, rad/s (8)
	MaxTorque float64 // |u| limit, N·m (2)
	Dt        float64 // time step, s (0.05)
	Gravity   float64 // gravitational acceleration, m/s² (10; Gymnasium's g)
	Mass      float64 // mass, kg (1)
	Length    float64 // length, m (1)

	state    [2]float64
	hasState bool
	lastU    float64 // the last clipped torque, for rendering
	hasLastU bool
}

// NewPendulum returns a Pendulum with Gymnasium's parameters and no state: call Reset or SetState
// before Step.
func NewPendulum() *Pendulum {
	return &Pendulum{MaxSpeed: 8, MaxTorque: 2, Dt: 0.05, Gravity: 10, Mass: 1, Length: 1}
}

// ActionBounds returns the action space's bounds, ±MaxTorque in float32; the action space has
// shape (1).
func (e *Pendulum) ActionBounds() (low, high float32) {
	return float32(-e.MaxTorque), float32(e.MaxTorque)
}

// ObservationBounds returns fresh slices with the observation space's bounds as Gymnasium builds
// them: ±[1, 1, MaxSpeed] in float32.
func (e *Pendulum) ObservationBounds() (low, high []float32) {
	return bounds32(1, 1, e.MaxSpeed)
}

// Reset samples a new initial state with θ uniform in [−π, π) and θ̇ uniform in [−1, 1), the
// distribution of Gymnasium's reset; the random stream is rng's, not numpy's. Reset forgets the
// last torque. Reset panics if rng is nil.
func (e *Pendulum) Reset(rng *rand.Rand) {
	e.state[0] = uniform(rng, -pi, pi)
	e.state[1] = uniform(rng, -1, 1)
	e.hasState = true
	e.hasLastU = false
}

// State returns a copy of the state [θ, θ̇], or nil before the first Reset or SetState.
func (e *Pendulum) State() []float64 {
	if !e.hasState {
		return nil
	}
	return append([]float64(nil), e.state[:]...)
}

// SetState sets the state [θ, θ̇] and forgets the last torque, as Reset does. Any finite state
// is accepted, even one faster than MaxSpeed. It returns an error wrapping ErrState, and leaves
// the env unchanged, unless s has 2 finite values.
func (e *Pendulum) SetState(s []float64) error {
	if err := checkState("Pendulum", s, 2); err != nil {
		return err
	}
	copy(e.state[:], s)
	e.hasState = true
	e.hasLastU = false
	return nil
}

// Observe writes the observation [cos θ, sin θ, θ̇] (float32) into dst. Observe panics with a
// ShapeError if len(dst) != 3, and with an error wrapping ErrNotReset before the first Reset or
// SetState.
func (e *Pendulum) Observe(dst []float32) {
	checkObs("Pendulum.Observe", dst, 3)
	if !e.hasState {
		panic(notReset("Pendulum.Observe"))
	}
	s, c := math.Sincos(e.state[0])
	dst[0], dst[1], dst[2] = float32(c), float32(s), float32(e.state[1])
}

// Step applies the torque action (clipped to ±MaxTorque, rounded to float32) for Dt seconds with
// Gymnasium's semi-implicit Euler step and returns the reward; terminated is always false, and Step
// never truncates: PendulumMaxEpisodeSteps is the time limit's job. It returns an error wrapping
// ErrAction for a NaN or infinite action, one wrapping ErrNotReset before the first Reset or
// SetState, and an error wrapping ErrState if the new state or the reward would not be finite; on
// error the state is unchanged.
func (e *Pendulum) Step(action float32) (reward float64, terminated bool, err error) {
	if err := continuousAction("Pendulum", action); err != nil {
		return 0, false, err
	}
	if !e.hasState {
		return 0, false, notReset("Pendulum.Step")
	}
	// numpy clips the float32 action to bounds rounded to float32; the rest is computed in
	// float64 (numpy 1.x promotes a float32 scalar meeting a Python number).
	maxU := float32(e.MaxTorque)
	u := float64(min(max(action, -maxU), maxU))
	th, thDot := e.state[0], e.state[1]
	g, m, l, dt := e.Gravity, e.Mass, e.Length, e.Dt
	an := angleNormalize(th)
	costs := an*an + 0.1*(thDot*thDot) + 0.001*(u*u)
	newThDot := thDot + (3*g/(2*l)*math.Sin(th)+3.0/(m*(l*l))*u)*dt
	newThDot = clip(newThDot, -e.MaxSpeed, e.MaxSpeed)
	newTh := th + newThDot*dt
	if !finite(newTh) || !finite(newThDot) || !finite(costs) {
		return 0, false, diverged("Pendulum", e.state[:])
	}
	e.state = [2]float64{newTh, newThDot}
	e.lastU, e.hasLastU = u, true
	return -costs, false, nil
}

// angleNormalize maps x to [−π, π) as Gymnasium's angle_normalize, ((x+π) mod 2π) − π with the
// modulo taking the divisor's sign.
func angleNormalize(x float64) float64 {
	twoPi := 2 * pi
	r := math.Mod(x+pi, twoPi)
	if r < 0 {
		r += twoPi
	}
	return r - pi
}

// Pendulum scene, in Gymnasium's pixels (y up before its final flip).
const pendulumSize = 500

var rodColor = color.RGBA{204, 77, 77, 255}

// Render returns a new 500×500 frame of the scene, drawn as Gymnasium draws it (without
// anti-aliasing): the red rod with rounded ends, the black pivot, and, after a Step, a black
// circular arrow sized by the last torque (counter-clockwise for a positive torque; Gymnasium shows
// a bitmap there). Render panics with an error wrapping ErrNotReset before the first Reset or
// SetState.
func (e *Pendulum) Render() *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, pendulumSize, pendulumSize))
	e.RenderTo(dst)
	return dst
}

// RenderTo draws the frame Render returns into dst, without allocating. RenderTo panics with a
// ShapeError unless dst's bounds are (0,0)-(500,500), and with an error wrapping ErrNotReset before
// the first Reset or SetState.
func (e *Pendulum) RenderTo(dst *image.RGBA) {
	checkFrame("Pendulum.RenderTo", dst, image.Rect(0, 0, pendulumSize, pendulumSize))
	if !e.hasState {
		panic(notReset("Pendulum.RenderTo"))
	}
	c := raster.New(dst)
	c.Fill(white)
	const bound = 2.2
	const scale = pendulumSize / (bound * 2) // pixels per metre
	const offset = pendulumSize / 2
	const rodLen, rodW = 1 * scale, 0.2 * scale
	angle := e.state[0] + pi/2
	rod := [4]raster.Point{{X: 0, Y: -rodW / 2}, {X: 0, Y: rodW / 2}, {X: rodLen, Y: rodW / 2}, {X: rodLen, Y: -rodW / 2}}
	rotate(rod[:], angle, offset, offset)
	c.Polygon(rod[:], rodColor)
	c.Disc(offset, offset, math.Trunc(rodW/2), rodColor)
	end := [1]raster.Point{{X: rodLen}}
	rotate(end[:], angle, 0, 0)
	c.Disc(math.Trunc(end[0].X)+offset, math.Trunc(end[0].Y)+offset, math.Trunc(rodW/2), rodColor)
	if e.hasLastU {
		drawTorqueArrow(c, offset, offset, scale*math.Abs(e.lastU)/2, e.lastU > 0)
	}
	c.Disc(offset, offset, math.Trunc(0.05*scale), black)
}

// drawTorqueArrow draws a circular arrow filling a square of side size centred on (cx, cy):
// three quarters of a ring with an arrowhead, turning counter-clockwise if ccw and clockwise
// otherwise.
func drawTorqueArrow(c raster.Canvas, cx, cy, size float64, ccw bool) {
	if size < 1 {
		return
	}
	rOut, rIn := 0.42*size, 0.32*size
	rMid, width := (rOut+rIn)/2, rOut-rIn
	from, sweep := -math.Pi/4, 1.5*math.Pi // counter-clockwise from the lower right
	end := from + sweep
	head := [3]raster.Point{
		{X: (rMid - 1.2*width) * math.Cos(end), Y: (rMid - 1.2*width) * math.Sin(end)},
		{X: (rMid + 1.2*width) * math.Cos(end), Y: (rMid + 1.2*width) * math.Sin(end)},
		{X: rMid*math.Cos(end) - 2*width*math.Sin(end), Y: rMid*math.Sin(end) + 2*width*math.Cos(end)},
	}
	if !ccw { // mirror about the vertical axis
		from = math.Pi - end
		for i := range head {
			head[i].X = -head[i].X
		}
	}
	for i := range head {
		head[i].X += cx
		head[i].Y += cy
	}
	c.Sector(cx, cy, rIn, rOut, from, sweep, black)
	c.Polygon(head[:], black)
}
