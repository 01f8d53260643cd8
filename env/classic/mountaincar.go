package classic

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/env/classic/internal/raster"
)

// Registration values of MountainCar-v0 and MountainCarContinuous-v0 in Gymnasium.
const (
	MountainCarMaxEpisodeSteps           = 200   // steps before Gymnasium's TimeLimit truncates an episode
	MountainCarRewardThreshold           = -110. // return at which the task counts as solved
	MountainCarContinuousMaxEpisodeSteps = 999
	MountainCarContinuousRewardThreshold = 90.
)

// MountainCar is Gymnasium's MountainCar-v0: an under-powered car in a valley, on the curve
// height = 0.45·sin(3·position) + 0.55, must rock back and forth to reach the flag on the right
// hill. Action 0 accelerates left, 1 not at all, 2 right. The reward is −1 per step; the episode
// terminates when position ≥ GoalPosition and velocity ≥ GoalVelocity.
//
// The state is [position, velocity] (position along the x axis, velocity in position units per
// step); the observation is the state rounded to float32.
//
// The exported fields are Gymnasium's parameters, set by NewMountainCar; change them before
// stepping. A MountainCar is not safe for concurrent use.
type MountainCar struct {
	MinPosition  float64 // left end of the track (−1.2); the car stops dead there
	MaxPosition  float64 // right end of the track (0.6)
	MaxSpeed     float64 // |velocity| limit, per step (0.07)
	GoalPosition float64 // position of the flag (0.5)
	GoalVelocity float64 // velocity needed at the flag (0)
	Force        float64 // velocity change per step of a push (0.001)
	Gravity      float64 // gravity's factor on −cos(3·position) per step (0.0025)

	state    [2]float64
	hasState bool
}

// NewMountainCar returns a MountainCar with Gymnasium's parameters and no state: call Reset or
// SetState before Step.
func NewMountainCar() *MountainCar {
	return &MountainCar{
		MinPosition:  -1.2,
		MaxPosition:  0.6,
		MaxSpeed:     0.07,
		GoalPosition: 0.5,
		Force:        0.001,
		Gravity:      0.0025,
	}
}

// NumActions returns the number of discrete actions, 3.
func (e *MountainCar) NumActions() int { return 3 }

// ObservationBounds returns fresh slices with the observation space's bounds as Gymnasium builds
// them: [MinPosition, −MaxSpeed] and [MaxPosition, MaxSpeed] in float32.
func (e *MountainCar) ObservationBounds() (low, high []float32) {
	return []float32{float32(e.MinPosition), float32(-e.MaxSpeed)},
		[]float32{float32(e.MaxPosition), float32(e.MaxSpeed)}
}

// Reset samples a new initial state: position uniform in [−0.6, −0.4), velocity 0, the
// distribution of Gymnasium's reset; the random stream is rng's, not numpy's. Reset panics if rng
// is nil.
func (e *MountainCar) Reset(rng *rand.Rand) {
	e.state = [2]float64{uniform(rng, -0.6, -0.4), 0}
	e.hasState = true
}

// State returns a copy of the state [position, velocity], or nil before the first Reset or
// SetState.
func (e *MountainCar) State() []float64 {
	if !e.hasState {
		return nil
	}
	return append([]float64(nil), e.state[:]...)
}

// SetState sets the state [position, velocity]. Any finite state is accepted, even one outside
// the track. It returns an error wrapping ErrState, and leaves the env unchanged, unless s has 2
// finite values.
func (e *MountainCar) SetState(s []float64) error {
	if err := checkState("MountainCar", s, 2); err != nil {
		return err
	}
	copy(e.state[:], s)
	e.hasState = true
	return nil
}

// Observe writes the observation [position, velocity] (float32) into dst. Observe panics with a
// ShapeError if len(dst) != 2, and with an error wrapping ErrNotReset before the first Reset or
// SetState.
func (e *MountainCar) Observe(dst []float32) {
	checkObs("MountainCar.Observe", dst, 2)
	if !e.hasState {
		panic(notReset("MountainCar.Observe"))
	}
	dst[0], dst[1] = float32(e.state[0]), float32(e.state[1])
}

// Step accelerates left (0), not at all (1) or right (2) for one step and returns the reward, −1,
// and whether the car has reached the goal. Step never truncates: MountainCarMaxEpisodeSteps is the
// time limit's job. It returns an error wrapping ErrAction for another action, one wrapping
// ErrNotReset before the first Reset or SetState, and an error wrapping ErrState if the new state
// would not be finite; on error the state is unchanged.
func (e *MountainCar) Step(action int) (reward float64, terminated bool, err error) {
	if err := discreteAction("MountainCar", action, 3); err != nil {
		return 0, false, err
	}
	if !e.hasState {
		return 0, false, notReset("MountainCar.Step")
	}
	position, velocity := e.state[0], e.state[1]
	velocity += float64(action-1)*e.Force + math.Cos(3*position)*(-e.Gravity)
	velocity = clip(velocity, -e.MaxSpeed, e.MaxSpeed)
	position += velocity
	position = clip(position, e.MinPosition, e.MaxPosition)
	if position == e.MinPosition && velocity < 0 {
		velocity = 0
	}
	if !finite(position) || !finite(velocity) {
		return 0, false, diverged("MountainCar", e.state[:])
	}
	e.state = [2]float64{position, velocity}
	return -1, position >= e.GoalPosition && velocity >= e.GoalVelocity, nil
}

// Render returns a new 600×400 frame of the scene, drawn as Gymnasium draws it (without
// anti-aliasing): the black valley curve, the black car with its grey wheels tilted to the slope,
// and the yellow flag at GoalPosition. Render panics with an error wrapping ErrNotReset before the
// first Reset or SetState.
func (e *MountainCar) Render() *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, mountainWidth, mountainHeight))
	e.RenderTo(dst)
	return dst
}

// RenderTo draws the frame Render returns into dst, without allocating. RenderTo panics with a
// ShapeError unless dst's bounds are (0,0)-(600,400), and with an error wrapping ErrNotReset before
// the first Reset or SetState.
func (e *MountainCar) RenderTo(dst *image.RGBA) {
	checkFrame("MountainCar.RenderTo", dst, image.Rect(0, 0, mountainWidth, mountainHeight))
	if !e.hasState {
		panic(notReset("MountainCar.RenderTo"))
	}
	renderMountain(dst, e.state[0], e.MinPosition, e.MaxPosition, e.GoalPosition)
}

// MountainCarContinuous is Gymnasium's MountainCarContinuous-v0: the valley and car of
// MountainCar driven by a continuous force in [MinAction, MaxAction] (larger actions are
// clipped). The reward is −0.1·action² per step (of the action as given, before clipping), plus
// 100 on reaching the goal, when the episode terminates.
//
// The state is [position, velocity]; as in Gymnasium it holds float64 values after Reset and
// float32-rounded ones after every Step. The observation is the state rounded to float32.
//
// The exported fields are Gymnasium's parameters, set by NewMountainCarContinuous; change them
// before stepping. A MountainCarContinuous is not safe for concurrent use.
type MountainCarContinuous struct {
	MinAction    float64 // smallest force, actions below are clipped (−1)
	MaxAction    float64 // largest force, actions above are clipped (1)
	MinPosition  float64 // left end of the track (−1.2); the car stops dead there
	MaxPosition  float64 // right end of the track (0.6)
	MaxSpeed     float64 // |velocity| limit, per step (0.07)
	GoalPosition float64 // position of the flag (0.45)
	GoalVelocity float64 // velocity needed at the flag (0)
	Power        float64 // velocity change per step and unit of force (0.0015)
	Gravity      float64 // gravity's factor on −cos(3·position) per step (0.0025, a literal in Gymnasium)

	state    [2]float64
	hasState bool
}

// NewMountainCarContinuous returns a MountainCarContinuous with Gymnasium's parameters and no
// state: call Reset or SetState before Step.
func NewMountainCarContinuous() *MountainCarContinuous {
	return &MountainCarContinuous{
		MinAction:    -1,
		MaxAction:    1,
		MinPosition:  -1.2,
		MaxPosition:  0.6,
		MaxSpeed:     0.07,
		GoalPosition: 0.45,
		Power:        0.0015,
		Gravity:      0.0025,
	}
}

// ActionBounds returns the action space's bounds, [MinAction, MaxAction] in float32; the action
// space has shape (1).
func (e *MountainCarContinuous) ActionBounds() (low, high float32) {
	return float32(e.MinAction), float32(e.MaxAction)
}

// ObservationBounds returns fresh slices with the observation space's bounds as Gymnasium builds
// them: [MinPosition, −MaxSpeed] and [MaxPosition, MaxSpeed] in float32.
func (e *MountainCarContinuous) ObservationBounds() (low, high []float32) {
	return []float32{float32(e.MinPosition), float32(-e.MaxSpeed)},
		[]float32{float32(e.MaxPosition), float32(e.MaxSpeed)}
}

// Reset samples a new initial state: position uniform in [−0.6, −0.4), velocity 0, the
// distribution of Gymnasium's reset; the random stream is rng's, not numpy's. Reset panics if rng
// is nil.
func (e *MountainCarContinuous) Reset(rng *rand.Rand) {
	e.state = [2]float64{uniform(rng, -0.6, -0.4), 0}
	e.hasState = true
}

// State returns a copy of the state [position, velocity], or nil before the first Reset or
// SetState.
func (e *MountainCarContinuous) State() []float64 {
	if !e.hasState {
		return nil
	}
	return append([]float64(nil), e.state[:]...)
}

// SetState sets the state [position, velocity], kept in float64 until the next Step as after
// Reset. Any finite state is accepted, even one outside the track. It returns an error wrapping
// ErrState, and leaves the env unchanged, unless s has 2 finite values.
func (e *MountainCarContinuous) SetState(s []float64) error {
	if err := checkState("MountainCarContinuous", s, 2); err != nil {
		return err
	}
	copy(e.state[:], s)
	e.hasState = true
	return nil
}

// Observe writes the observation [position, velocity] (float32) into dst. Observe panics with a
// ShapeError if len(dst) != 2, and with an error wrapping ErrNotReset before the first Reset or
// SetState.
func (e *MountainCarContinuous) Observe(dst []float32) {
	checkObs("MountainCarContinuous.Observe", dst, 2)
	if !e.hasState {
		panic(notReset("MountainCarContinuous.Observe"))
	}
	dst[0], dst[1] = float32(e.state[0]), float32(e.state[1])
}

// Step applies the force action (clipped to [MinAction, MaxAction]) for one step and returns the
// reward and whether the car has reached the goal. Step never truncates:
// MountainCarContinuousMaxEpisodeSteps is the time limit's job. It returns an error wrapping
// ErrAction for a NaN or infinite action, one wrapping ErrNotReset before the first Reset or
// SetState, and an error wrapping ErrState if the new state would not be finite; on error the state
// is unchanged.
func (e *MountainCarContinuous) Step(action float32) (reward float64, terminated bool, err error) {
	if err := continuousAction("MountainCarContinuous", action); err != nil {
		return 0, false, err
	}
	if !e.hasState {
		return 0, false, notReset("MountainCarContinuous.Step")
	}
	// Gymnasium computes in float64 (numpy 1.x promotes the float32 action when it meets a
	// Python float) and stores the new state as float32.
	a := float64(action)
	position, velocity := e.state[0], e.state[1]
	force := clip(a, e.MinAction, e.MaxAction)
	velocity += force*e.Power - e.Gravity*math.Cos(3*position)
	velocity = clip(velocity, -e.MaxSpeed, e.MaxSpeed)
	position += velocity
	position = clip(position, e.MinPosition, e.MaxPosition)
	if position == e.MinPosition && velocity < 0 {
		velocity = 0
	}
	terminated = position >= e.GoalPosition && velocity >= e.GoalVelocity
	if terminated {
		reward = 100
	}
	reward -= a * a * 0.1
	p32, v32 := float64(float32(position)), float64(float32(velocity))
	if !finite(p32) || !finite(v32) {
		return 0, false, diverged("MountainCarContinuous", e.state[:])
	}
	e.state = [2]float64{p32, v32}
	return reward, terminated, nil
}

// Render returns a new 600×400 frame of the scene, the one MountainCar draws, with the flag at
// GoalPosition. Render panics with an error wrapping ErrNotReset before the first Reset or
// SetState.
func (e *MountainCarContinuous) Render() *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, mountainWidth, mountainHeight))
	e.RenderTo(dst)
	return dst
}

// RenderTo draws the frame Render returns into dst, without allocating. RenderTo panics with a
// ShapeError unless dst's bounds are (0,0)-(600,400), and with an error wrapping ErrNotReset before
// the first Reset or SetState.
func (e *MountainCarContinuous) RenderTo(dst *image.RGBA) {
	checkFrame("MountainCarContinuous.RenderTo", dst, image.Rect(0, 0, mountainWidth, mountainHeight))
	if !e.hasState {
		panic(notReset("MountainCarContinuous.RenderTo"))
	}
	renderMountain(dst, e.state[0], e.MinPosition, e.MaxPosition, e.GoalPosition)
}

// Mountain scene, in Gymnasium's pixels (y up before its final flip).
const (
	mountainWidth, mountainHeight = 600, 400
	mountainCarW, mountainCarH    = 40.0, 20.0
	mountainClearance             = 10.0 // the car body's height above the curve
	mountainCurvePoints           = 100
)

var (
	wheelColor = color.RGBA{128, 128, 128, 255}
	flagColor  = color.RGBA{204, 204, 0, 255}
)

// mountainCurve returns the valley curve's height at position x.
func mountainCurve(x float64) float64 { return math.Sin(3*x)*0.45 + 0.55 }

// renderMountain draws the mountain-car scene for a car at pos on a track from minPos to maxPos
// with the flag at goal.
func renderMountain(dst *image.RGBA, pos, minPos, maxPos, goal float64) {
	c := raster.New(dst)
	c.Fill(white)
	scale := mountainWidth / (maxPos - minPos) // pixels per position unit

	// The curve: 100 points evenly spaced from minPos to maxPos, joined by lines.
	prev := raster.Point{X: 0, Y: mountainCurve(minPos) * scale}
	for k := 1; k < mountainCurvePoints; k++ {
		x := minPos + float64(k)*(maxPos-minPos)/(mountainCurvePoints-1)
		p := raster.Point{X: (x - minPos) * scale, Y: mountainCurve(x) * scale}
		c.Line(prev, p, black)
		prev = p
	}

	// The car body, tilted by cos(3·pos) radians as in Gymnasium, and its wheels.
	tilt := math.Cos(3 * pos)
	baseX, baseY := (pos-minPos)*scale, mountainClearance+mountainCurve(pos)*scale
	const l, r, t, b = -mountainCarW / 2, mountainCarW / 2, mountainCarH, 0
	body := [4]raster.Point{{X: l, Y: b}, {X: l, Y: t}, {X: r, Y: t}, {X: r, Y: b}}
	rotate(body[:], tilt, baseX, baseY)
	c.Polygon(body[:], black)
	wheels := [2]raster.Point{{X: mountainCarW / 4}, {X: -mountainCarW / 4}}
	rotate(wheels[:], tilt, baseX, baseY)
	for _, w := range wheels {
		c.Disc(math.Trunc(w.X), math.Trunc(w.Y), math.Trunc(mountainCarH/2.5), wheelColor)
	}

	// The flag: a pole 50 pixels high and a triangular pennant at its top.
	flagX := math.Trunc((goal - minPos) * scale)
	flagY1 := math.Trunc(mountainCurve(goal) * scale)
	flagY2 := flagY1 + 50
	c.Line(raster.Point{X: flagX, Y: flagY1}, raster.Point{X: flagX, Y: flagY2}, black)
	c.Polygon([]raster.Point{{X: flagX, Y: flagY2}, {X: flagX, Y: flagY2 - 10}, {X: flagX + 25, Y: flagY2 - 5}}, flagColor)
}
