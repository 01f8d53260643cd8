package classic

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/env/classic/internal/raster"
)

// Registration values of CartPole-v1 in Gymnasium.
const (
	CartPoleMaxEpisodeSteps = 500   // steps before Gymnasium's TimeLimit truncates an episode
	CartPoleRewardThreshold = 475.0 // return at which the task counts as solved
)

// CartPoleTestThreshold is the mean test return at which Tianshou's
// CartPole tests stop training, registered as CartPole-v1's TestThreshold.
const CartPoleTestThreshold = 195.0

// CartPole is Gymnasium's CartPole-v1: a pole hinged on a cart that moves along a frictionless
// track; action 0 pushes the cart left, action 1 right, with a force of ForceMag. The reward is
// 1 for every step, including the one on which the pole falls; the episode terminates when
// |θ| > ThetaThreshold or |x| > XThreshold.
//
// The state is [x, ẋ, θ, θ̇]: cart position (m) and velocity (m/s), pole angle from upright (rad,
// positive leaning right) and angular velocity (rad/s). The observation is the state rounded to
// float32.
//
// The exported fields are the physical parameters, with Gymnasium's values set by NewCartPole;
// change them before stepping. A CartPole is not safe for concurrent use.
type CartPole struct {
	Gravity  float64 // gravitational acceleration, m/s² (9.8)
	MassCart float64 // cart mass, kg (1.0)
	MassPole float64 // pole mass, kg (0.1)
	Length   float64 // half the pole's length, m (0.5)
	ForceMag float64 // force of a push, N (10.0)
	Tau      float64 // time step, s (0.02)

	// SemiImplicit selects semi-implicit Euler integration (velocities first, then positions
	// from the new velocities), Gymnasium's kinematics_integrator other than "euler". The
	// default, false, is explicit Euler as in CartPole-v1.
	SemiImplicit bool

	ThetaThreshold float64 // |θ| beyond which the episode terminates, rad (12·2π/360)
	XThreshold     float64 // |x| beyond which the episode terminates, m (2.4)

	// SuttonBartoReward selects Gymnasium's sutton_barto_reward: 0 per step while the pole is
	// up and −1 once it has fallen, instead of the default 1 per step and 0 after the fall.
	SuttonBartoReward bool

	state    [4]float64
	hasState bool
	// fallen records that a step has terminated the episode (Gymnasium's
	// steps_beyond_terminated is not None).
	fallen bool
}

// NewCartPole returns a CartPole with Gymnasium's parameters and no state: call Reset or
// SetState before Step.
func NewCartPole() *CartPole {
	return &CartPole{
		Gravity:        9.8,
		MassCart:       1.0,
		MassPole:       0.1,
		Length:         0.5,
		ForceMag:       10.0,
		Tau:            0.02,
		ThetaThreshold: 12 * 2 * pi / 360,
		XThreshold:     2.4,
	}
}

// NumActions returns the number of discrete actions, 2.
func (e *CartPole) NumActions() int { return 2 }

// ObservationBounds returns fresh slices with the observation space's bounds, as Gymnasium
// builds them: ±[2·XThreshold, +Inf, 2·ThetaThreshold, +Inf] in float32.
func (e *CartPole) ObservationBounds() (low, high []float32) {
	return bounds32(2*e.XThreshold, math.Inf(1), 2*e.ThetaThreshold, math.Inf(1))
}

// Reset samples a new initial state with each component uniform in [−0.05, 0.05), the
// distribution of Gymnasium's reset; the random stream is rng's, not numpy's, so a seed does not
// reproduce Gymnasium's initial state. Reset panics if rng is nil.
func (e *CartPole) Reset(rng *rand.Rand) {
	for i := range e.state {
		e.state[i] = uniform(rng, -0.05, 0.05)
	}
	e.hasState = true
	e.fallen = false
}

// State returns a copy of the state [x, ẋ, θ, θ̇], or nil before the first Reset or SetState.
func (e *CartPole) State() []float64 {
	if !e.hasState {
		return nil
	}
	return append([]float64(nil), e.state[:]...)
}

// SetState sets the state [x, ẋ, θ, θ̇] and starts a new episode: the step that finds the pole
// fallen gets the fallen-pole reward, as after Reset. It returns an error wrapping ErrState,
// and leaves the env unchanged, unless s has 4 finite values.
func (e *CartPole) SetState(s []float64) error {
	if err := checkState("CartPole", s, 4); err != nil {
		return err
	}
	copy(e.state[:], s)
	e.hasState = true
	e.fallen = false
	return nil
}

// Observe writes the observation [x, ẋ, θ, θ̇] (float32) into dst. Observe panics with a ShapeError
// if len(dst) != 4, and with an error wrapping ErrNotReset before the first Reset or SetState.
func (e *CartPole) Observe(dst []float32) {
	checkObs("CartPole.Observe", dst, 4)
	if !e.hasState {
		panic(notReset("CartPole.Observe"))
	}
	for i, v := range e.state {
		dst[i] = float32(v)
	}
}

// Step pushes the cart left (action 0) or right (action 1) for one time step of Tau seconds and
// returns the reward and whether the episode has terminated. As in Gymnasium, stepping on after
// termination is allowed: the first terminating step is rewarded 1 and later ones 0 (−1 and −1 with
// SuttonBartoReward). Step never truncates: CartPoleMaxEpisodeSteps is the time limit's job. It
// returns an error wrapping ErrAction for another action, one wrapping ErrNotReset before the first
// Reset or SetState, and an error wrapping ErrState if the new state would not be finite; on error
// the state is unchanged.
func (e *CartPole) Step(action int) (reward float64, terminated bool, err error) {
	if err := discreteAction("CartPole", action, 2); err != nil {
		return 0, false, err
	}
	if !e.hasState {
		return 0, false, notReset("CartPole.Step")
	}
	x, xDot, theta, thetaDot := e.state[0], e.state[1], e.state[2], e.state[3]
	force := -e.ForceMag
	if action == 1 {
		force = e.ForceMag
	}
	// Gymnasium's equations and operation order, after Florian's "Correct equations for the
	// dynamics of the cart-pole system" (2007).
	totalMass := e.MassPole + e.MassCart
	poleMassLength := e.MassPole * e.Length
	sinTheta, cosTheta := math.Sincos(theta)
	temp := (force + poleMassLength*(thetaDot*thetaDot)*sinTheta) / totalMass
	thetaAcc := (e.Gravity*sinTheta - cosTheta*temp) /
		(e.Length * (4.0/3.0 - e.MassPole*(cosTheta*cosTheta)/totalMass))
	xAcc := temp - poleMassLength*thetaAcc*cosTheta/totalMass
	if e.SemiImplicit {
		xDot += e.Tau * xAcc
		x += e.Tau * xDot
		thetaDot += e.Tau * thetaAcc
		theta += e.Tau * thetaDot
	} else {
		x += e.Tau * xDot
		xDot += e.Tau * xAcc
		theta += e.Tau * thetaDot
		thetaDot += e.Tau * thetaAcc
	}
	if !finite(x) || !finite(xDot) || !finite(theta) || !finite(thetaDot) {
		return 0, false, diverged("CartPole", e.state[:])
	}
	e.state = [4]float64{x, xDot, theta, thetaDot}

	terminated = x < -e.XThreshold || x > e.XThreshold ||
		theta < -e.ThetaThreshold || theta > e.ThetaThreshold
	switch {
	case !terminated:
		reward = 1
		if e.SuttonBartoReward {
			reward = 0
		}
	case !e.fallen: // the pole has just fallen
		e.fallen = true
		reward = 1
		if e.SuttonBartoReward {
			reward = -1
		}
	default:
		reward = 0
		if e.SuttonBartoReward {
			reward = -1
		}
	}
	return reward, terminated, nil
}

// CartPole scene, in Gymnasium's pixels (y up before its final flip).
const (
	cartPoleWidth, cartPoleHeight = 600, 400
	cartPoleCartY                 = 100 // the track's height
	cartPoleCartW, cartPoleCartH  = 50.0, 30.0
	cartPolePoleW                 = 10.0
)

var (
	white     = color.RGBA{255, 255, 255, 255}
	black     = color.RGBA{0, 0, 0, 255}
	poleColor = color.RGBA{202, 152, 101, 255}
	axleColor = color.RGBA{129, 132, 203, 255}
)

// Render returns a new 600×400 frame of the scene, drawn as Gymnasium draws it (without
// anti-aliasing): the track, the black cart, the brown pole and its blue axle. Render panics
// with an error wrapping ErrNotReset before the first Reset or SetState.
func (e *CartPole) Render() *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, cartPoleWidth, cartPoleHeight))
	e.RenderTo(dst)
	return dst
}

// RenderTo draws the frame Render returns into dst, without allocating. RenderTo panics with a
// ShapeError unless dst's bounds are (0,0)-(600,400), and with an error wrapping ErrNotReset before
// the first Reset or SetState.
func (e *CartPole) RenderTo(dst *image.RGBA) {
	checkFrame("CartPole.RenderTo", dst, image.Rect(0, 0, cartPoleWidth, cartPoleHeight))
	if !e.hasState {
		panic(notReset("CartPole.RenderTo"))
	}
	c := raster.New(dst)
	c.Fill(white)
	scale := cartPoleWidth / (2 * e.XThreshold) // pixels per metre
	poleLen := scale * (2 * e.Length)
	cartX := e.state[0]*scale + cartPoleWidth/2
	const l, r, t, b = -cartPoleCartW / 2, cartPoleCartW / 2, cartPoleCartH / 2, -cartPoleCartH / 2
	c.Polygon([]raster.Point{
		{X: cartX + l, Y: cartPoleCartY + b}, {X: cartX + l, Y: cartPoleCartY + t},
		{X: cartX + r, Y: cartPoleCartY + t}, {X: cartX + r, Y: cartPoleCartY + b},
	}, black)

	axleY := cartPoleCartY + cartPoleCartH/4
	pole := [4]raster.Point{
		{X: -cartPolePoleW / 2, Y: -cartPolePoleW / 2}, {X: -cartPolePoleW / 2, Y: poleLen - cartPolePoleW/2},
		{X: cartPolePoleW / 2, Y: poleLen - cartPolePoleW/2}, {X: cartPolePoleW / 2, Y: -cartPolePoleW / 2},
	}
	rotate(pole[:], -e.state[2], cartX, axleY)
	c.Polygon(pole[:], poleColor)
	c.Disc(math.Trunc(cartX), math.Trunc(axleY), math.Trunc(cartPolePoleW/2), axleColor)
	c.Line(raster.Point{X: 0, Y: cartPoleCartY}, raster.Point{X: cartPoleWidth, Y: cartPoleCartY}, black)
}

// rotate turns each point by angle radians counter-clockwise about the origin, then moves it by
// (dx, dy), as pygame's Vector2.rotate_rad followed by a translation.
func rotate(pts []raster.Point, angle, dx, dy float64) {
	s, c := math.Sincos(angle)
	for i, p := range pts {
		pts[i] = raster.Point{X: p.X*c - p.Y*s + dx, Y: p.X*s + p.Y*c + dy}
	}
}
