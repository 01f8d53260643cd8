package classic

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/env/classic/internal/raster"
)

// Registration values of Acrobot-v1 in Gymnasium.
const (
	AcrobotMaxEpisodeSteps = 500    // steps before Gymnasium's TimeLimit truncates an episode
	AcrobotRewardThreshold = -100.0 // return at which the task counts as solved
)

// Acrobot is Gymnasium's Acrobot-v1: two links hanging from a fixed pivot, with a motor at the
// joint between them applying AvailTorque[action]; the free end must be swung above the height
// of one link over the pivot, −cos θ₁ − cos(θ₁+θ₂) > 1, which terminates the episode. The reward
// is −1 per step and 0 on the terminating step. The dynamics are those of Sutton and Barto's
// book (Gymnasium's book_or_nips = "book"), integrated over Dt with one classical Runge–Kutta
// step, without torque noise.
//
// The state is [θ₁, θ₂, θ̇₁, θ̇₂]: the first link's angle from hanging down and the second's
// relative to the first (rad, wrapped to [−π, π] after each step) and their angular velocities
// (rad/s, clipped to ±MaxVel1 and ±MaxVel2). The observation is [cos θ₁, sin θ₁, cos θ₂, sin θ₂,
// θ̇₁, θ̇₂] in float32.
//
// The exported fields are Gymnasium's parameters, set by NewAcrobot; change them before stepping.
// An Acrobot is not safe for concurrent use.
type Acrobot struct {
	Dt          float64    // time step, s (0.2)
	LinkLength1 float64    // length of the first link, m (1)
	LinkLength2 float64    // length of the second link, m (1); used only for rendering, as in Gymnasium
	LinkMass1   float64    // mass of the first link, kg (1)
	LinkMass2   float64    // mass of the second link, kg (1)
	LinkCOMPos1 float64    // distance from the pivot to the first link's centre of mass, m (0.5)
	LinkCOMPos2 float64    // distance from the joint to the second link's centre of mass, m (0.5)
	LinkMOI     float64    // moment of inertia of each link, kg·m² (1)
	MaxVel1     float64    // |θ̇₁| limit, rad/s (4π)
	MaxVel2     float64    // |θ̇₂| limit, rad/s (9π)
	Gravity     float64    // gravitational acceleration, m/s² (9.8)
	AvailTorque [3]float64 // torque of each action, N·m (−1, 0, +1)

	state    [4]float64
	hasState bool
}

// NewAcrobot returns an Acrobot with Gymnasium's parameters and no state: call Reset or SetState
// before Step.
func NewAcrobot() *Acrobot {
	return &Acrobot{
		Dt:          0.2,
		LinkLength1: 1,
		LinkLength2: 1,
		LinkMass1:   1,
		LinkMass2:   1,
		LinkCOMPos1: 0.5,
		LinkCOMPos2: 0.5,
		LinkMOI:     1,
		MaxVel1:     4 * pi,
		MaxVel2:     9 * pi,
		Gravity:     9.8,
		AvailTorque: [3]float64{-1, 0, 1},
	}
}

// NumActions returns the number of discrete actions, 3.
func (e *Acrobot) NumActions() int { return 3 }

// ObservationBounds returns fresh slices with the observation space's bounds as Gymnasium builds
// them: ±[1, 1, 1, 1, MaxVel1, MaxVel2] in float32.
func (e *Acrobot) ObservationBounds() (low, high []float32) {
	return bounds32(1, 1, 1, 1, e.MaxVel1, e.MaxVel2)
}

// Reset samples a new initial state with each component uniform in [−0.1, 0.1) and rounded to
// float32, as Gymnasium's reset does; the random stream is rng's, not numpy's. Reset panics if
// rng is nil.
func (e *Acrobot) Reset(rng *rand.Rand) {
	for i := range e.state {
		e.state[i] = float64(float32(uniform(rng, -0.1, 0.1)))
	}
	e.hasState = true
}

// State returns a copy of the state [θ₁, θ₂, θ̇₁, θ̇₂], or nil before the first Reset or
// SetState.
func (e *Acrobot) State() []float64 {
	if !e.hasState {
		return nil
	}
	return append([]float64(nil), e.state[:]...)
}

// SetState sets the state [θ₁, θ₂, θ̇₁, θ̇₂] as given (not rounded to float32). Any finite state
// is accepted, even one with unwrapped angles or velocities beyond the limits. It returns an
// error wrapping ErrState, and leaves the env unchanged, unless s has 4 finite values.
func (e *Acrobot) SetState(s []float64) error {
	if err := checkState("Acrobot", s, 4); err != nil {
		return err
	}
	copy(e.state[:], s)
	e.hasState = true
	return nil
}

// Observe writes the observation [cos θ₁, sin θ₁, cos θ₂, sin θ₂, θ̇₁, θ̇₂] (float32) into dst.
// Observe panics with a ShapeError if len(dst) != 6, and with an error wrapping ErrNotReset before
// the first Reset or SetState.
func (e *Acrobot) Observe(dst []float32) {
	checkObs("Acrobot.Observe", dst, 6)
	if !e.hasState {
		panic(notReset("Acrobot.Observe"))
	}
	s1, c1 := math.Sincos(e.state[0])
	s2, c2 := math.Sincos(e.state[1])
	dst[0], dst[1], dst[2], dst[3] = float32(c1), float32(s1), float32(c2), float32(s2)
	dst[4], dst[5] = float32(e.state[2]), float32(e.state[3])
}

// Step applies the torque AvailTorque[action] (action 0, 1 or 2) for Dt seconds and returns the
// reward and whether the free end is above the line. Step never truncates: AcrobotMaxEpisodeSteps
// is the time limit's job. It returns an error wrapping ErrAction for another action, one wrapping
// ErrNotReset before the first Reset or SetState, and an error wrapping ErrState if the new state
// would not be finite; on error the state is unchanged.
func (e *Acrobot) Step(action int) (reward float64, terminated bool, err error) {
	if err := discreteAction("Acrobot", action, 3); err != nil {
		return 0, false, err
	}
	if !e.hasState {
		return 0, false, notReset("Acrobot.Step")
	}
	torque := e.AvailTorque[action]
	// One step of the classical fourth-order Runge–Kutta method, in the operation order of
	// Gymnasium's rk4 with t = [0, Dt].
	y0 := e.state
	dt := e.Dt
	dt2 := dt / 2.0
	k1 := e.dsdt(y0, torque)
	k2 := e.dsdt(axpy(y0, dt2, k1), torque)
	k3 := e.dsdt(axpy(y0, dt2, k2), torque)
	k4 := e.dsdt(axpy(y0, dt, k3), torque)
	var ns [4]float64
	for i := range ns {
		ns[i] = y0[i] + dt/6.0*(k1[i]+2*k2[i]+2*k3[i]+k4[i])
	}
	if !finite(ns[0]) || !finite(ns[1]) || !finite(ns[2]) || !finite(ns[3]) {
		return 0, false, diverged("Acrobot", e.state[:])
	}
	ns[0] = wrap(ns[0], -pi, pi)
	ns[1] = wrap(ns[1], -pi, pi)
	ns[2] = clip(ns[2], -e.MaxVel1, e.MaxVel1)
	ns[3] = clip(ns[3], -e.MaxVel2, e.MaxVel2)
	e.state = ns
	if -math.Cos(ns[0])-math.Cos(ns[1]+ns[0]) > 1.0 {
		return 0, true, nil
	}
	return -1, false, nil
}

// axpy returns y + a·x.
func axpy(y [4]float64, a float64, x [4]float64) [4]float64 {
	for i := range y {
		y[i] += a * x[i]
	}
	return y
}

// dsdt returns the time derivative of the state s under torque a, with the book's equations in
// Gymnasium's operation order.
func (e *Acrobot) dsdt(s [4]float64, a float64) [4]float64 {
	m1, m2 := e.LinkMass1, e.LinkMass2
	l1 := e.LinkLength1
	lc1, lc2 := e.LinkCOMPos1, e.LinkCOMPos2
	i1, i2 := e.LinkMOI, e.LinkMOI
	g := e.Gravity
	theta1, theta2, dtheta1, dtheta2 := s[0], s[1], s[2], s[3]
	sin2, cos2 := math.Sincos(theta2)
	d1 := m1*(lc1*lc1) + m2*((l1*l1)+(lc2*lc2)+2*l1*lc2*cos2) + i1 + i2
	d2 := m2*((lc2*lc2)+l1*lc2*cos2) + i2
	phi2 := m2 * lc2 * g * math.Cos(theta1+theta2-pi/2.0)
	phi1 := -m2*l1*lc2*(dtheta2*dtheta2)*sin2 -
		2*m2*l1*lc2*dtheta2*dtheta1*sin2 +
		(m1*lc1+m2*l1)*g*math.Cos(theta1-pi/2) +
		phi2
	ddtheta2 := (a + d2/d1*phi1 - m2*l1*lc2*(dtheta1*dtheta1)*sin2 - phi2) /
		(m2*(lc2*lc2) + i2 - (d2*d2)/d1)
	ddtheta1 := -(d2*ddtheta2 + phi1) / d1
	return [4]float64{dtheta1, dtheta2, ddtheta1, ddtheta2}
}

// wrap maps x into [m, M] as Gymnasium's wrap does, by adding or subtracting M−m until it fits.
// A value more than a thousand periods away, which no step from a wrapped state produces, is
// first reduced with a remainder so that the loops stay short.
func wrap(x, m, M float64) float64 {
	diff := M - m
	if math.Abs(x) > 1000*diff {
		x = math.Remainder(x, diff)
	}
	for x > M {
		x -= diff
	}
	for x < m {
		x += diff
	}
	return x
}

// Acrobot scene, in Gymnasium's pixels (y up before its final flip).
const acrobotSize = 500

var (
	linkColor  = color.RGBA{0, 204, 204, 255}
	jointColor = color.RGBA{204, 204, 0, 255}
)

// Render returns a new 500×500 frame of the scene, drawn as Gymnasium draws it (without
// anti-aliasing): the black target line one link above the pivot, the two cyan links and the yellow
// joints. Render panics with an error wrapping ErrNotReset before the first Reset or SetState.
func (e *Acrobot) Render() *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, acrobotSize, acrobotSize))
	e.RenderTo(dst)
	return dst
}

// RenderTo draws the frame Render returns into dst, without allocating. RenderTo panics with a
// ShapeError unless dst's bounds are (0,0)-(500,500), and with an error wrapping ErrNotReset before
// the first Reset or SetState.
func (e *Acrobot) RenderTo(dst *image.RGBA) {
	checkFrame("Acrobot.RenderTo", dst, image.Rect(0, 0, acrobotSize, acrobotSize))
	if !e.hasState {
		panic(notReset("Acrobot.RenderTo"))
	}
	c := raster.New(dst)
	c.Fill(white)
	l1, l2 := e.LinkLength1, e.LinkLength2
	bound := l1 + l2 + 0.2
	scale := acrobotSize / (bound * 2) // pixels per metre
	const offset = acrobotSize / 2
	th1, th2 := e.state[0], e.state[1]
	c.Line(raster.Point{X: -2.2*scale + offset, Y: 1*scale + offset},
		raster.Point{X: 2.2*scale + offset, Y: 1*scale + offset}, black)
	// The joint: the end of the first link (x right, y up, θ₁ = 0 hanging down).
	jx, jy := l1*math.Sin(th1)*scale, -l1*math.Cos(th1)*scale
	links := [2]struct{ x, y, theta, length float64 }{
		{0, 0, th1 - pi/2, l1 * scale},
		{jx, jy, th1 + th2 - pi/2, l2 * scale},
	}
	for _, k := range links {
		x, y := k.x+offset, k.y+offset
		w := 0.1 * scale
		body := [4]raster.Point{{X: 0, Y: -w}, {X: 0, Y: w}, {X: k.length, Y: w}, {X: k.length, Y: -w}}
		rotate(body[:], k.theta, x, y)
		c.Polygon(body[:], linkColor)
		c.Disc(math.Trunc(x), math.Trunc(y), math.Trunc(0.1*scale), jointColor)
	}
}
