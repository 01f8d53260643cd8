package mujoco

import (
	"math"
	"math/rand/v2"
)

// task describes one of Gymnasium's v4 MuJoCo tasks: its model, frame
// skip, observation, reward, termination and reset.
type task struct {
	id        string
	model     string // file under models/
	frameSkip int
	obsDim    int
	maxSteps  int      // Gymnasium's max_episode_steps
	threshold *float64 // Gymnasium's reward_threshold, nil for none
	bodies    []string // bodies the task reads, looked up into Env.body
	sites     []string // sites the task reads, looked up into Env.site
	view      view     // how Render projects the scene
	// terms names the reward terms the task reports, in the order of
	// Env.terms (Gymnasium's info keys).
	terms []string
	// reset perturbs qpos and qvel, which hold qpos0 and zeros.
	reset func(e *Env, rng *rand.Rand)
	// observe writes the observation of the current state.
	observe func(e *Env, dst []float32)
	// step applies action a through e.simulate and returns the reward and
	// whether the episode terminated, filling e.terms.
	step func(e *Env, a []float64) (reward float64, terminated bool)
}

// view is the orthographic projection Render uses.
type view struct {
	top   bool    // look down the z axis (x right, y up); else along +y (x right, z up)
	scale float64 // pixels per metre
	// centerZ is the height (or y, seen from the top) at the frame's centre.
	centerZ float64
	track   bool // centre on the x of body 1 (the root); else on x = 0
}

var tasks = []*task{
	{
		id: "InvertedPendulum-v4", model: "inverted_pendulum.xml", frameSkip: 2, obsDim: 4,
		maxSteps: 1000, threshold: ptr(950), view: view{scale: 160, centerZ: 0.2},
		terms: nil,
		reset: func(e *Env, rng *rand.Rand) {
			uniformNoise(rng, e.s.qpos, 0.01)
			uniformNoise(rng, e.s.qvel, 0.01)
		},
		observe: func(e *Env, dst []float32) { put(dst, e.s.qpos, e.s.qvel) },
		step: func(e *Env, a []float64) (float64, bool) {
			e.simulate(a)
			q := e.s.qpos
			term := !(allFinite(q) && allFinite(e.s.qvel) && math.Abs(q[1]) <= 0.2)
			return 1, term
		},
	},
	{
		id: "InvertedDoublePendulum-v4", model: "inverted_double_pendulum.xml", frameSkip: 5, obsDim: 11,
		maxSteps: 1000, threshold: ptr(9100), sites: []string{"tip"}, view: view{scale: 130, centerZ: 0.6},
		terms: []string{"dist_penalty", "vel_penalty", "alive_bonus"},
		reset: func(e *Env, rng *rand.Rand) {
			uniformNoise(rng, e.s.qpos, 0.1)
			normalNoise(rng, e.s.qvel, 0.1)
		},
		observe: func(e *Env, dst []float32) {
			q, v := e.s.qpos, e.s.qvel
			dst[0] = float32(q[0])
			dst[1], dst[2] = float32(math.Sin(q[1])), float32(math.Sin(q[2]))
			dst[3], dst[4] = float32(math.Cos(q[1])), float32(math.Cos(q[2]))
			for i := range 3 {
				dst[5+i] = float32(clip(v[i], -10, 10))
				dst[8+i] = float32(clip(e.s.qfrcConstraint[i], -10, 10))
			}
		},
		step: func(e *Env, a []float64) (float64, bool) {
			e.simulate(a)
			tip := e.s.siteXpos[3*e.site[0]:]
			x, y := tip[0], tip[2]
			dist := 0.01*x*x + (y-2)*(y-2)
			v1, v2 := e.s.qvel[1], e.s.qvel[2]
			vel := 1e-3*v1*v1 + 5e-3*v2*v2
			const alive = 10
			e.terms[0], e.terms[1], e.terms[2] = -dist, -vel, alive
			return alive - dist - vel, y <= 1
		},
	},
	{
		id: "Reacher-v4", model: "reacher.xml", frameSkip: 2, obsDim: 11,
		maxSteps: 50, threshold: ptr(-3.75), bodies: []string{"fingertip", "target"},
		view:  view{top: true, scale: 700},
		terms: []string{"reward_dist", "reward_ctrl"},
		reset: func(e *Env, rng *rand.Rand) {
			q, v := e.s.qpos, e.s.qvel
			uniformNoise(rng, q, 0.1)
			for {
				gx, gy := uniform(rng, -0.2, 0.2), uniform(rng, -0.2, 0.2)
				if math.Hypot(gx, gy) < 0.2 {
					q[len(q)-2], q[len(q)-1] = gx, gy
					break
				}
			}
			uniformNoise(rng, v, 0.005)
			v[len(v)-2], v[len(v)-1] = 0, 0
		},
		observe: func(e *Env, dst []float32) {
			q, v := e.s.qpos, e.s.qvel
			dst[0], dst[1] = float32(math.Cos(q[0])), float32(math.Cos(q[1]))
			dst[2], dst[3] = float32(math.Sin(q[0])), float32(math.Sin(q[1]))
			dst[4], dst[5] = float32(q[2]), float32(q[3])
			dst[6], dst[7] = float32(v[0]), float32(v[1])
			f, t := e.s.xpos[3*e.body[0]:], e.s.xpos[3*e.body[1]:]
			for i := range 3 {
				dst[8+i] = float32(f[i] - t[i])
			}
		},
		step: func(e *Env, a []float64) (float64, bool) {
			// Gymnasium's v4 Reacher rewards the state before the step.
			f, t := e.s.xpos[3*e.body[0]:], e.s.xpos[3*e.body[1]:]
			dx, dy, dz := f[0]-t[0], f[1]-t[1], f[2]-t[2]
			dist := -math.Sqrt(dx*dx + dy*dy + dz*dz)
			ctrl := -sumSquares(a)
			e.simulate(a)
			e.terms[0], e.terms[1] = dist, ctrl
			return dist + ctrl, false
		},
	},
	{
		id: "Swimmer-v4", model: "swimmer.xml", frameSkip: 4, obsDim: 8,
		maxSteps: 1000, threshold: ptr(360), view: view{top: true, scale: 120, track: true},
		terms: []string{"reward_fwd", "reward_ctrl"},
		reset: func(e *Env, rng *rand.Rand) {
			uniformNoise(rng, e.s.qpos, 0.1)
			uniformNoise(rng, e.s.qvel, 0.1)
		},
		observe: func(e *Env, dst []float32) { put(dst, e.s.qpos[2:], e.s.qvel) },
		step: func(e *Env, a []float64) (float64, bool) {
			x0 := e.s.qpos[0]
			e.simulate(a)
			fwd := (e.s.qpos[0] - x0) / e.dt
			ctrl := 1e-4 * sumSquares(a)
			e.terms[0], e.terms[1] = fwd, -ctrl
			return fwd - ctrl, false
		},
	},
	{
		id: "Hopper-v4", model: "hopper.xml", frameSkip: 4, obsDim: 11,
		maxSteps: 1000, threshold: ptr(3800), view: view{scale: 150, centerZ: 0.9, track: true},
		terms: []string{"reward_forward", "reward_ctrl", "reward_survive"},
		reset: func(e *Env, rng *rand.Rand) {
			uniformNoise(rng, e.s.qpos, 5e-3)
			uniformNoise(rng, e.s.qvel, 5e-3)
		},
		observe: func(e *Env, dst []float32) { putClipped(dst, e.s.qpos[1:], e.s.qvel) },
		step: func(e *Env, a []float64) (float64, bool) {
			return e.planarWalk(a, 1e-3, hopperHealthy)
		},
	},
	{
		id: "Walker2d-v4", model: "walker2d.xml", frameSkip: 4, obsDim: 17,
		maxSteps: 1000, view: view{scale: 150, centerZ: 0.9, track: true},
		terms: []string{"reward_forward", "reward_ctrl", "reward_survive"},
		reset: func(e *Env, rng *rand.Rand) {
			uniformNoise(rng, e.s.qpos, 5e-3)
			uniformNoise(rng, e.s.qvel, 5e-3)
		},
		observe: func(e *Env, dst []float32) { putClipped(dst, e.s.qpos[1:], e.s.qvel) },
		step: func(e *Env, a []float64) (float64, bool) {
			return e.planarWalk(a, 1e-3, walkerHealthy)
		},
	},
	{
		id: "HalfCheetah-v4", model: "half_cheetah.xml", frameSkip: 5, obsDim: 17,
		maxSteps: 1000, threshold: ptr(4800), view: view{scale: 150, centerZ: 0.5, track: true},
		terms: []string{"reward_run", "reward_ctrl"},
		reset: func(e *Env, rng *rand.Rand) {
			uniformNoise(rng, e.s.qpos, 0.1)
			normalNoise(rng, e.s.qvel, 0.1)
		},
		observe: func(e *Env, dst []float32) { put(dst, e.s.qpos[1:], e.s.qvel) },
		step: func(e *Env, a []float64) (float64, bool) {
			x0 := e.s.qpos[0]
			e.simulate(a)
			fwd := (e.s.qpos[0] - x0) / e.dt
			ctrl := 0.1 * sumSquares(a)
			e.terms[0], e.terms[1] = fwd, -ctrl
			return fwd - ctrl, false
		},
	},
	{
		id: "Ant-v4", model: "ant.xml", frameSkip: 5, obsDim: 27,
		maxSteps: 1000, threshold: ptr(6000), bodies: []string{"torso"},
		view:  view{scale: 110, centerZ: 0.6, track: true},
		terms: []string{"reward_forward", "reward_ctrl", "reward_survive"},
		reset: func(e *Env, rng *rand.Rand) {
			uniformNoise(rng, e.s.qpos, 0.1)
			normalNoise(rng, e.s.qvel, 0.1)
		},
		observe: func(e *Env, dst []float32) { put(dst, e.s.qpos[2:], e.s.qvel) },
		step: func(e *Env, a []float64) (float64, bool) {
			x0 := e.s.xpos[3*e.body[0]]
			e.simulate(a)
			fwd := (e.s.xpos[3*e.body[0]] - x0) / e.dt
			ctrl := 0.5 * sumSquares(a)
			z := e.s.qpos[2]
			healthy := allFinite(e.s.qpos) && allFinite(e.s.qvel) && 0.2 <= z && z <= 1.0
			e.terms[0], e.terms[1], e.terms[2] = fwd, -ctrl, 1
			return fwd + 1 - ctrl, !healthy
		},
	},
	{
		id: "Humanoid-v4", model: "humanoid.xml", frameSkip: 5, obsDim: 376,
		maxSteps: 1000, view: view{scale: 110, centerZ: 0.9, track: true},
		terms: []string{"reward_linvel", "reward_quadctrl", "reward_alive"},
		reset: func(e *Env, rng *rand.Rand) {
			uniformNoise(rng, e.s.qpos, 1e-2)
			uniformNoise(rng, e.s.qvel, 1e-2)
		},
		observe: func(e *Env, dst []float32) {
			s := e.s
			put(dst, s.qpos[2:], s.qvel, s.cinert, s.cvel, s.qfrcActuator, s.cfrcExt)
		},
		step: func(e *Env, a []float64) (float64, bool) {
			x0 := e.massCenterX()
			e.simulate(a)
			fwd := 1.25 * (e.massCenterX() - x0) / e.dt
			ctrl := 0.1 * sumSquares(a)
			z := e.s.qpos[2]
			const alive = 5
			e.terms[0], e.terms[1], e.terms[2] = fwd, -ctrl, alive
			return fwd + alive - ctrl, !(1.0 < z && z < 2.0)
		},
	},
}

// planarWalk is the step of Hopper and Walker2d: forward velocity of the
// root slider, control cost weighted by ctrlWeight, a survival reward of 1,
// and termination when healthy says the state is unhealthy.
func (e *Env) planarWalk(a []float64, ctrlWeight float64, healthy func(q, v []float64) bool) (float64, bool) {
	x0 := e.s.qpos[0]
	e.simulate(a)
	fwd := (e.s.qpos[0] - x0) / e.dt
	ctrl := ctrlWeight * sumSquares(a)
	e.terms[0], e.terms[1], e.terms[2] = fwd, -ctrl, 1
	return fwd + 1 - ctrl, !healthy(e.s.qpos, e.s.qvel)
}

// hopperHealthy is Gymnasium's Hopper-v4 is_healthy: every value of
// (qpos, qvel) after the first two within (−100, 100), height in
// (0.7, ∞) and angle in (−0.2, 0.2), all bounds exclusive.
func hopperHealthy(q, v []float64) bool {
	for _, x := range q[2:] {
		if !(-100 < x && x < 100) {
			return false
		}
	}
	for _, x := range v {
		if !(-100 < x && x < 100) {
			return false
		}
	}
	z, angle := q[1], q[2]
	return 0.7 < z && -0.2 < angle && angle < 0.2
}

// walkerHealthy is Gymnasium's Walker2d-v4 is_healthy: height in (0.8, 2)
// and angle in (−1, 1), bounds exclusive.
func walkerHealthy(q, _ []float64) bool {
	z, angle := q[1], q[2]
	return 0.8 < z && z < 2 && -1 < angle && angle < 1
}

// massCenterX returns the x of the centre of mass of all bodies,
// Gymnasium's mass_center.
func (e *Env) massCenterX() float64 {
	var mx, m float64
	for i, w := range e.s.bodyMass {
		mx += w * e.s.xipos[3*i]
		m += w
	}
	return mx / m
}

func ptr(v float64) *float64 { return &v }

// uniformNoise adds U(−scale, scale) to each element of x, drawn as
// numpy's uniform does: lo + (hi−lo)·u.
func uniformNoise(rng *rand.Rand, x []float64, scale float64) {
	for i := range x {
		x[i] += uniform(rng, -scale, scale)
	}
}

// normalNoise adds scale·N(0, 1) to each element of x.
func normalNoise(rng *rand.Rand, x []float64, scale float64) {
	for i := range x {
		x[i] += scale * rng.NormFloat64()
	}
}

func uniform(rng *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }

func clip(x, lo, hi float64) float64 { return math.Min(math.Max(x, lo), hi) }

func sumSquares(a []float64) float64 {
	var s float64
	for _, x := range a {
		s += x * x
	}
	return s
}

func allFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// put writes the concatenation of parts into dst as float32s.
func put(dst []float32, parts ...[]float64) {
	k := 0
	for _, p := range parts {
		for _, x := range p {
			dst[k] = float32(x)
			k++
		}
	}
}

// putClipped writes q and then v clipped to [−10, 10] into dst.
func putClipped(dst []float32, q, v []float64) {
	for i, x := range q {
		dst[i] = float32(x)
	}
	for i, x := range v {
		dst[len(q)+i] = float32(clip(x, -10, 10))
	}
}
