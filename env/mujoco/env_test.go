package mujoco

import (
	"errors"
	"image"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/nd"
)

// TestMissingLibrary checks the error for a library that is not installed.
func TestMissingLibrary(t *testing.T) {
	_, err := openLibrary([]string{"libmujoco-not-here.so.0"})
	if !errors.Is(err, ErrNoLibrary) || !strings.Contains(err.Error(), "libmujoco-dev") {
		t.Errorf("openLibrary of a missing file: %v, want ErrNoLibrary naming libmujoco-dev", err)
	}
}

// TestSpaces checks the spaces against Gymnasium's v4 tasks: observation
// lengths and action bounds from Gymnasium's documentation of each task.
func TestSpaces(t *testing.T) {
	for _, c := range []struct {
		id       string
		obs, act int
		lo, hi   float32
		steps    int
	}{
		{"InvertedPendulum-v4", 4, 1, -3, 3, 1000},
		{"InvertedDoublePendulum-v4", 11, 1, -1, 1, 1000},
		{"Reacher-v4", 11, 2, -1, 1, 50},
		{"Swimmer-v4", 8, 2, -1, 1, 1000},
		{"Hopper-v4", 11, 3, -1, 1, 1000},
		{"Walker2d-v4", 17, 6, -1, 1, 1000},
		{"HalfCheetah-v4", 17, 6, -1, 1, 1000},
		{"Ant-v4", 27, 8, -1, 1, 1000},
		{"Humanoid-v4", 376, 17, -0.4, 0.4, 1000},
	} {
		t.Run(c.id, func(t *testing.T) {
			e := mustNew(t, c.id)
			ob := e.ObservationSpace().(*env.Box)
			ac := e.ActionSpace().(*env.Box)
			if !slices.Equal(ob.Shape(), []int{c.obs}) || !slices.Equal(ac.Shape(), []int{c.act}) {
				t.Errorf("shapes obs %v act %v, want (%d) and (%d)", ob.Shape(), ac.Shape(), c.obs, c.act)
			}
			for i, v := range nd.Data[float32](ac.Low()) {
				if hi := nd.Data[float32](ac.High())[i]; v != c.lo || hi != c.hi {
					t.Errorf("action bounds [%v, %v] at %d, want [%v, %v]", v, hi, i, c.lo, c.hi)
				}
			}
			spec, ok := env.Lookup(c.id)
			if !ok || spec.MaxEpisodeSteps != c.steps {
				t.Errorf("registered with %d steps (ok %v), want %d", spec.MaxEpisodeSteps, ok, c.steps)
			}
		})
	}
}

func obsOf(o any) []float32 { return nd.Data[float32](o.(*nd.Array)) }

func f32s(parts ...[]float64) []float32 {
	var out []float32
	for _, p := range parts {
		for _, x := range p {
			out = append(out, float32(x))
		}
	}
	return out
}

// setState sets a state of task id from the model's initial pose changed
// by qpos and qvel (nil: unchanged).
func setState(t *testing.T, e *Env, qpos, qvel map[int]float64) {
	t.Helper()
	q, v := slices.Clone(e.s.qpos0), make([]float64, e.s.nv)
	for i, x := range qpos {
		q[i] = x
	}
	for i, x := range qvel {
		v[i] = x
	}
	if err := e.SetState(q, v); err != nil {
		t.Fatal(err)
	}
}

// TestObservation checks the observation layout of each task on a
// hand-set state against Gymnasium's _get_obs, written out from qpos and
// qvel.
func TestObservation(t *testing.T) {
	for _, c := range []struct {
		id   string
		qpos map[int]float64
		qvel map[int]float64
		want func(q, v []float64, e *Env) []float32
	}{
		{"InvertedPendulum-v4", map[int]float64{0: 0.3, 1: -0.1}, map[int]float64{0: 1, 1: 2},
			func(q, v []float64, _ *Env) []float32 { return f32s(q, v) }},
		{"InvertedDoublePendulum-v4", map[int]float64{0: 0.2, 1: 0.5, 2: -0.4}, map[int]float64{0: 12, 1: -3, 2: -20},
			func(q, v []float64, e *Env) []float32 {
				return f32s(q[:1], []float64{math.Sin(q[1]), math.Sin(q[2]), math.Cos(q[1]), math.Cos(q[2]), 10, -3, -10},
					[]float64{clip(e.s.qfrcConstraint[0], -10, 10), clip(e.s.qfrcConstraint[1], -10, 10), clip(e.s.qfrcConstraint[2], -10, 10)})
			}},
		{"Reacher-v4", map[int]float64{0: 0, 1: 0, 2: 0.1, 3: 0.1}, map[int]float64{0: 0.5, 1: -0.5},
			// fingertip at (0.21, 0, 0.01), target at (0.1, 0.1, 0.01) from the model's geometry
			func(q, v []float64, _ *Env) []float32 {
				return f32s([]float64{1, 1, 0, 0, 0.1, 0.1, 0.5, -0.5, 0.11, -0.1, 0})
			}},
		{"Swimmer-v4", map[int]float64{0: 1, 1: 2, 2: 0.3}, map[int]float64{0: 0.1, 4: 0.2},
			func(q, v []float64, _ *Env) []float32 { return f32s(q[2:], v) }},
		{"Hopper-v4", map[int]float64{0: 3, 1: 1.2}, map[int]float64{0: 15, 3: -11, 5: 2},
			func(q, v []float64, _ *Env) []float32 { return f32s(q[1:], []float64{10, 0, 0, -10, 0, 2}) }},
		{"Walker2d-v4", map[int]float64{0: 3, 2: 0.1}, map[int]float64{8: -30},
			func(q, v []float64, _ *Env) []float32 { return f32s(q[1:], v[:8], []float64{-10}) }},
		{"HalfCheetah-v4", map[int]float64{0: 5, 3: 0.2}, map[int]float64{0: 30, 2: -1},
			func(q, v []float64, _ *Env) []float32 { return f32s(q[1:], v) }},
		{"Ant-v4", map[int]float64{0: 5, 1: -2, 7: 0.3}, map[int]float64{0: 1, 13: 2},
			func(q, v []float64, _ *Env) []float32 { return f32s(q[2:], v) }},
		{"Humanoid-v4", map[int]float64{0: 5, 7: 0.1}, map[int]float64{0: 1, 22: 2},
			func(q, v []float64, e *Env) []float32 {
				s := e.s
				return f32s(q[2:], v, s.cinert, s.cvel, s.qfrcActuator, s.cfrcExt)
			}},
	} {
		t.Run(c.id, func(t *testing.T) {
			e := mustNew(t, c.id)
			setState(t, e, c.qpos, c.qvel)
			want := c.want(e.QPos(), e.QVel(), e)
			got := obsOf(e.obs)
			if len(got) != len(want) {
				t.Fatalf("observation of length %d, want %d", len(got), len(want))
			}
			for i := range got {
				if math.Abs(float64(got[i]-want[i])) > 1e-6 {
					t.Errorf("obs[%d] = %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}

// TestHumanoidObservation checks the parts of Humanoid's observation that
// come from MuJoCo's derived quantities: the world body's inertia is zero
// and each body's cinert holds its mass last (Gymnasium's v4 keeps the world
// body in cinert, cvel and cfrc_ext).
func TestHumanoidObservation(t *testing.T) {
	e := mustNew(t, "Humanoid-v4")
	if _, _, err := e.Reset(env.SeedOf(3)); err != nil {
		t.Fatal(err)
	}
	obs := obsOf(e.obs)
	cinert := obs[45 : 45+140]
	for i := range 10 {
		if cinert[i] != 0 {
			t.Errorf("world cinert[%d] = %v, want 0", i, cinert[i])
		}
	}
	for b := 1; b < 14; b++ {
		if got, want := cinert[10*b+9], float32(e.s.bodyMass[b]); got != want {
			t.Errorf("cinert mass of body %d = %v, want %v", b, got, want)
		}
	}
	// After Reset no step has run, so the contact forces are zero.
	for i, x := range obs[376-84:] {
		if x != 0 {
			t.Fatalf("cfrc_ext[%d] = %v after Reset, want 0", i, x)
		}
	}
}

func action(vals ...float32) *nd.Array {
	a := nd.Zeros(nd.Float32, len(vals))
	copy(nd.Data[float32](a), vals)
	return a
}

// TestRewardTerms checks each task's reward terms on a hand-set state
// against the formulas of Gymnasium's v4 step functions, with positions
// read before and after the step.
func TestRewardTerms(t *testing.T) {
	const tol = 1e-9
	for _, c := range []struct {
		id  string
		act []float32
		// want returns the expected terms from the positions before and
		// after and the env (for body positions).
		want func(q0, q1 []float64, a []float64, e *Env) []float64
		// reward sums the terms.
	}{
		{"Swimmer-v4", []float32{0.5, -1},
			func(q0, q1, a []float64, e *Env) []float64 {
				return []float64{(q1[0] - q0[0]) / 0.04, -1e-4 * 1.25}
			}},
		{"Hopper-v4", []float32{0.5, -0.5, 1},
			func(q0, q1, a []float64, e *Env) []float64 {
				return []float64{(q1[0] - q0[0]) / 0.008, -1e-3 * 1.5, 1}
			}},
		{"Walker2d-v4", []float32{1, 1, 1, 0, 0, 0},
			func(q0, q1, a []float64, e *Env) []float64 {
				return []float64{(q1[0] - q0[0]) / 0.008, -1e-3 * 3, 1}
			}},
		{"HalfCheetah-v4", []float32{0.5, 0.5, 0.5, 0.5, 0.5, 0.5},
			func(q0, q1, a []float64, e *Env) []float64 {
				return []float64{(q1[0] - q0[0]) / 0.05, -0.1 * 1.5}
			}},
		{"Ant-v4", []float32{1, 0, 0, 0, 0, 0, 0, 0.5},
			// Gymnasium reads the torso's xpos, which MuJoCo computes at
			// the start of each physics step: after SetState it is the
			// torso's x, qpos[0]; after the step it lags qpos by the last
			// physics step.
			func(q0, q1, a []float64, e *Env) []float64 {
				return []float64{(e.s.xpos[3*e.body[0]] - q0[0]) / 0.05, -0.5 * 1.25, 1}
			}},
	} {
		t.Run(c.id, func(t *testing.T) {
			e := mustNew(t, c.id)
			setState(t, e, nil, nil)
			q0 := e.QPos()
			_, r, _, _, _, err := e.Step(action(c.act...))
			if err != nil {
				t.Fatal(err)
			}
			a := make([]float64, len(c.act))
			for i, x := range c.act {
				a[i] = float64(x)
			}
			want := c.want(q0, e.QPos(), a, e)
			got := make([]float64, len(want))
			e.RewardTerms(got)
			sum := 0.0
			for i := range want {
				sum += want[i]
				if math.Abs(got[i]-want[i]) > tol {
					t.Errorf("term %s = %v, want %v", e.t.terms[i], got[i], want[i])
				}
			}
			if math.Abs(r-sum) > tol {
				t.Errorf("reward %v, want the sum of the terms %v", r, sum)
			}
		})
	}
}

// TestReacherReward checks Reacher's reward, which Gymnasium's v4 computes
// on the state before the step: fingertip at (0.21, 0, 0.01) with both
// joints at 0, target at (0.1, 0.1, 0.01), from the model's geometry.
func TestReacherReward(t *testing.T) {
	e := mustNew(t, "Reacher-v4")
	setState(t, e, map[int]float64{2: 0.1, 3: 0.1}, nil)
	_, r, _, _, _, err := e.Step(action(0.5, -0.5))
	if err != nil {
		t.Fatal(err)
	}
	want := -math.Hypot(0.11, 0.1) - 0.5
	if math.Abs(r-want) > 1e-12 {
		t.Errorf("reward %v, want %v", r, want)
	}
}

// TestPendulumRewards checks the inverted pendulums: InvertedPendulum
// rewards 1 per step; InvertedDoublePendulum 10 minus the distance of the
// tip from (0, 2) and the velocity penalties, with the tip upright at
// height 1.2 from the model.
func TestPendulumRewards(t *testing.T) {
	e := mustNew(t, "InvertedPendulum-v4")
	setState(t, e, nil, nil)
	if _, r, _, _, _, err := e.Step(action(0)); err != nil || r != 1 {
		t.Errorf("InvertedPendulum reward %v (%v), want 1", r, err)
	}
	d := mustNew(t, "InvertedDoublePendulum-v4")
	setState(t, d, nil, nil)
	_, r, _, _, _, err := d.Step(action(0))
	if err != nil {
		t.Fatal(err)
	}
	tip := d.s.siteXpos[3*d.site[0]:]
	v := d.QVel()
	want := 10 - (0.01*tip[0]*tip[0] + (tip[2]-2)*(tip[2]-2)) - (1e-3*v[1]*v[1] + 5e-3*v[2]*v[2])
	if math.Abs(r-want) > 1e-12 || math.Abs(tip[2]-1.2) > 1e-3 {
		t.Errorf("reward %v, want %v (tip height %v, want about 1.2)", r, want, tip[2])
	}
}

// TestTermination checks each task's healthy ranges (Gymnasium's v4
// defaults) on states set just inside and outside them, one zero-action
// step later.
func TestTermination(t *testing.T) {
	for _, c := range []struct {
		id   string
		qpos map[int]float64
		term bool
	}{
		{"InvertedPendulum-v4", map[int]float64{1: 0.1}, false},
		{"InvertedPendulum-v4", map[int]float64{1: 0.25}, true},
		{"InvertedDoublePendulum-v4", nil, false},
		{"InvertedDoublePendulum-v4", map[int]float64{1: 1.2}, true}, // tip below height 1
		{"Hopper-v4", nil, false},
		{"Hopper-v4", map[int]float64{1: 0.6}, true},   // height below 0.7
		{"Hopper-v4", map[int]float64{2: 0.25}, true},  // angle beyond 0.2
		{"Hopper-v4", map[int]float64{4: 101}, true},   // a joint beyond 100
		{"Walker2d-v4", map[int]float64{1: 0.7}, true}, // height below 0.8
		{"Walker2d-v4", map[int]float64{1: 2.1}, true}, // height above 2
		{"Walker2d-v4", map[int]float64{2: 0.9}, false},
		{"Walker2d-v4", map[int]float64{2: 1.1}, true}, // angle beyond 1
		{"Ant-v4", nil, false},
		{"Ant-v4", map[int]float64{2: 1.2}, true}, // height above 1
		{"Humanoid-v4", nil, false},
		{"Humanoid-v4", map[int]float64{2: 0.9}, true}, // height below 1
		{"Humanoid-v4", map[int]float64{2: 2.1}, true}, // height above 2
		{"HalfCheetah-v4", map[int]float64{1: -5}, false},
		{"Swimmer-v4", nil, false},
	} {
		e := mustNew(t, c.id)
		setState(t, e, c.qpos, nil)
		_, _, term, trunc, _, err := e.Step(nd.Zeros(nd.Float32, e.s.nu))
		if err != nil || term != c.term || trunc {
			t.Errorf("%s from %v: terminated %v truncated %v (%v), want terminated %v", c.id, c.qpos, term, trunc, err, c.term)
		}
	}
}

// TestHealthyBounds checks that the bounds of Hopper's and Walker2d's
// ranges are exclusive, as in Gymnasium.
func TestHealthyBounds(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(q, v []float64) bool
		q    []float64
		want bool
	}{
		{"hopper z 0.7", hopperHealthy, []float64{0, 0.7, 0, 0, 0, 0}, false},
		{"hopper z above 0.7", hopperHealthy, []float64{0, 0.7001, 0, 0, 0, 0}, true},
		{"hopper angle 0.2", hopperHealthy, []float64{0, 1, 0.2, 0, 0, 0}, false},
		{"hopper angle -0.2", hopperHealthy, []float64{0, 1, -0.2, 0, 0, 0}, false},
		{"hopper joint 100", hopperHealthy, []float64{0, 1, 0, 100, 0, 0}, false},
		{"walker z 2", walkerHealthy, []float64{0, 2, 0}, false},
		{"walker z 0.8", walkerHealthy, []float64{0, 0.8, 0}, false},
		{"walker angle -1", walkerHealthy, []float64{0, 1, -1}, false},
		{"walker inside", walkerHealthy, []float64{0, 1.9, 0.99}, true},
	} {
		if got := c.f(c.q, make([]float64, 6)); got != c.want {
			t.Errorf("%s: healthy %v, want %v", c.name, got, c.want)
		}
	}
}

// rollout returns the observations and rewards of n steps of random
// actions from Reset(seed), the actions drawn from actSeed.
func rollout(t *testing.T, e env.Env, seed, actSeed uint64, n int) ([]float32, []float64) {
	t.Helper()
	o, _, err := e.Reset(env.SeedOf(seed))
	if err != nil {
		t.Fatal(err)
	}
	obs := slices.Clone(obsOf(o))
	var rew []float64
	rng := rand.New(rand.NewPCG(actSeed, 0))
	for range n {
		a := e.ActionSpace().Sample(rng)
		o, r, term, trunc, _, err := e.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		obs = append(obs, obsOf(o)...)
		rew = append(rew, r)
		if term || trunc {
			break
		}
	}
	return obs, rew
}

// TestDeterminism checks that equal seeds give equal trajectories, bit for
// bit, in two instances, and that another seed gives another one.
func TestDeterminism(t *testing.T) {
	for _, id := range IDs() {
		t.Run(id, func(t *testing.T) {
			a, b := mustNew(t, id), mustNew(t, id)
			oa, ra := rollout(t, a, 7, 1, 200)
			ob, rb := rollout(t, b, 7, 1, 200)
			if !slices.Equal(oa, ob) || !slices.Equal(ra, rb) {
				t.Errorf("two runs with seed 7 differ")
			}
			oc, _ := rollout(t, b, 8, 1, 200)
			if slices.Equal(oa[:a.t.obsDim], oc[:a.t.obsDim]) {
				t.Errorf("seeds 7 and 8 give the same first observation")
			}
		})
	}
}

// TestCheck runs the env package's conformance check on every task as
// env.Make builds it.
func TestCheck(t *testing.T) {
	needLibrary(t)
	for _, id := range IDs() {
		t.Run(id, func(t *testing.T) {
			e, err := env.Make(id)
			if err != nil {
				t.Fatal(err)
			}
			envtest.Check(t, e)
		})
	}
}

// TestResume checks that a state saved mid-episode and restored into a new
// instance continues exactly as the original does.
func TestResume(t *testing.T) {
	for _, id := range []string{"Hopper-v4", "Humanoid-v4", "Ant-v4"} {
		t.Run(id, func(t *testing.T) {
			a, b := mustNew(t, id), mustNew(t, id)
			if _, _, err := a.Reset(env.SeedOf(5)); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(9, 9))
			act := func() any { return a.ActionSpace().Sample(rng) }
			for range 10 {
				if _, _, _, _, _, err := a.Step(act()); err != nil {
					t.Fatal(err)
				}
			}
			saved, err := a.MarshalState()
			if err != nil {
				t.Fatal(err)
			}
			if err := b.UnmarshalState(saved); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(obsOf(a.obs), obsOf(b.obs)) {
				t.Fatal("restored observation differs")
			}
			for i := range 20 {
				x := act()
				oa, ra, ta, _, _, erra := a.Step(x)
				ob, rb, tb, _, _, errb := b.Step(x)
				if erra != nil || errb != nil {
					if (erra == nil) != (errb == nil) {
						t.Fatalf("step %d: errors %v and %v", i, erra, errb)
					}
					break
				}
				if ra != rb || ta != tb || !slices.Equal(obsOf(oa), obsOf(ob)) {
					t.Fatalf("step %d after restoring: reward %v vs %v", i, ra, rb)
				}
			}
			// Another task's state is rejected and changes nothing.
			c := mustNew(t, "Swimmer-v4")
			if err := c.UnmarshalState(saved); !errors.Is(err, env.ErrState) {
				t.Errorf("restoring %s's state into Swimmer-v4: %v, want ErrState", id, err)
			}
		})
	}
}

// TestBadAction checks the errors for actions the env cannot use.
func TestBadAction(t *testing.T) {
	e := mustNew(t, "HalfCheetah-v4")
	if _, _, _, _, _, err := e.Step(action(0, 0, 0, 0, 0, 0)); !errors.Is(err, env.ErrNeedReset) {
		t.Errorf("Step before Reset: %v, want ErrNeedReset", err)
	}
	if _, _, err := e.Reset(env.SeedOf(1)); err != nil {
		t.Fatal(err)
	}
	nan := float32(math.NaN())
	for _, a := range []any{action(0, 0), action(0, 0, 0, 0, 0, nan), nd.Zeros(nd.Int64, 6), 3.0} {
		if _, _, _, _, _, err := e.Step(a); !errors.Is(err, env.ErrAction) {
			t.Errorf("Step(%v): %v, want ErrAction", a, err)
		}
	}
	if _, err := New("Pusher-v4"); !errors.Is(err, env.ErrNotRegistered) {
		t.Errorf("New of an unknown id: %v, want ErrNotRegistered", err)
	}
}

// TestUnstable checks that a Step in which MuJoCo finds a huge value and
// resets the simulation returns ErrUnstable with MuJoCo's warning, ends the
// episode, and leaves no MUJOCO_LOG.TXT behind (MuJoCo's own handler writes
// one into the working directory). 1e12 is above MuJoCo's limit for a
// "huge" value (mjMAXVAL, 1e10).
func TestUnstable(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		name       string
		qpos, qvel float64
		want       string
	}{
		{"velocity", 0, 1e12, "qvel"},
		{"position", 1e12, 0, "qpos"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustNew(t, "HalfCheetah-v4")
			if _, _, err := e.Reset(env.SeedOf(1)); err != nil {
				t.Fatal(err)
			}
			qpos, qvel := e.QPos(), e.QVel()
			qpos[2] += tc.qpos
			qvel[0] += tc.qvel
			if err := e.SetState(qpos, qvel); err != nil {
				t.Fatal(err)
			}
			_, _, _, _, _, err := e.Step(action(0, 0, 0, 0, 0, 0))
			if !errors.Is(err, ErrUnstable) || !strings.Contains(err.Error(), "bad value in "+tc.want) || !strings.Contains(err.Error(), "HalfCheetah-v4") {
				t.Fatalf("Step from a huge %s: %v, want ErrUnstable naming the env and %s", tc.want, err, tc.want)
			}
			// MuJoCo's text names the quantity in capitals.
			if !strings.Contains(err.Error(), "value in "+strings.ToUpper(tc.want)) {
				t.Errorf("error %q does not carry MuJoCo's warning", err)
			}
			if _, _, _, _, _, err := e.Step(action(0, 0, 0, 0, 0, 0)); !errors.Is(err, env.ErrNeedReset) {
				t.Errorf("Step after the unstable one: %v, want ErrNeedReset", err)
			}
			if _, _, err := e.Reset(env.SeedOf(1)); err != nil {
				t.Fatal(err)
			}
			for range 10 {
				if _, _, _, _, _, err := e.Step(action(0, 0, 0, 0, 0, 0)); err != nil {
					t.Fatalf("Step after Reset: %v", err)
				}
			}
		})
	}
	if _, err := os.Stat("MUJOCO_LOG.TXT"); err == nil {
		t.Error("MuJoCo wrote MUJOCO_LOG.TXT into the working directory")
	}
}

// TestRender checks that each task draws its geoms: the frame holds pixels
// of the colour of a body's geom.
func TestRender(t *testing.T) {
	for _, id := range IDs() {
		t.Run(id, func(t *testing.T) {
			e := mustNew(t, id)
			if _, err := e.Render(); !errors.Is(err, env.ErrNeedReset) {
				t.Errorf("Render before Reset: %v, want ErrNeedReset", err)
			}
			if _, _, err := e.Reset(env.SeedOf(1)); err != nil {
				t.Fatal(err)
			}
			img, err := e.Render()
			if err != nil {
				t.Fatal(err)
			}
			if img.Bounds() != image.Rect(0, 0, FrameSize, FrameSize) {
				t.Fatalf("frame %v", img.Bounds())
			}
			// The colour of the first geom of body 1.
			g := slices.Index(e.s.geomBody, 1)
			rgba := e.s.geomRGBA[4*g:]
			want := [3]uint8{unit8(rgba[0]), unit8(rgba[1]), unit8(rgba[2])}
			pix := img.(*image.RGBA).Pix
			n := 0
			for i := 0; i < len(pix); i += 4 {
				if [3]uint8{pix[i], pix[i+1], pix[i+2]} == want {
					n++
				}
			}
			if n < 20 {
				t.Errorf("%d pixels of body 1's colour %v, want at least 20", n, want)
			}
		})
	}
}

// TestStepAllocs checks that a step allocates nothing.
func TestStepAllocs(t *testing.T) {
	e := mustNew(t, "Humanoid-v4")
	a := nd.Zeros(nd.Float32, 17)
	if _, _, err := e.Reset(env.SeedOf(1)); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, _, term, _, _, _ := e.Step(a); term {
			e.Reset(env.NoSeed)
		}
	})
	if allocs != 0 {
		t.Errorf("Step allocates %v times, want 0", allocs)
	}
}
