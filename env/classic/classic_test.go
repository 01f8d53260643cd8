package classic_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/env/classic"
)

// env is the part of the API the five envs share, with the action passed as a float64 that is
// converted to int for discrete envs and to float32 for continuous ones.
type env struct {
	name     string
	n        int // state length
	obsLen   int
	discrete bool
	reset    func(*rand.Rand)
	set      func([]float64) error
	state    func() []float64
	observe  func([]float32)
	step     func(a float64) (float64, bool, error)
}

func allEnvs() []env {
	cp, mc, mcc, pd, ac := classic.NewCartPole(), classic.NewMountainCar(), classic.NewMountainCarContinuous(), classic.NewPendulum(), classic.NewAcrobot()
	return []env{
		{"CartPole", 4, 4, true, cp.Reset, cp.SetState, cp.State, cp.Observe, func(a float64) (float64, bool, error) { return cp.Step(int(a)) }},
		{"MountainCar", 2, 2, true, mc.Reset, mc.SetState, mc.State, mc.Observe, func(a float64) (float64, bool, error) { return mc.Step(int(a)) }},
		{"MountainCarContinuous", 2, 2, false, mcc.Reset, mcc.SetState, mcc.State, mcc.Observe, func(a float64) (float64, bool, error) { return mcc.Step(float32(a)) }},
		{"Pendulum", 2, 3, false, pd.Reset, pd.SetState, pd.State, pd.Observe, func(a float64) (float64, bool, error) { return pd.Step(float32(a)) }},
		{"Acrobot", 4, 6, true, ac.Reset, ac.SetState, ac.State, ac.Observe, func(a float64) (float64, bool, error) { return ac.Step(int(a)) }},
	}
}

func envByName(t *testing.T, name string) env {
	t.Helper()
	for _, e := range allEnvs() {
		if e.name == name {
			return e
		}
	}
	t.Fatalf("no env %q", name)
	return env{}
}

func TestInvalidAction(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		env    string
		action float64
		msg    string // part of the error message naming the action
	}{
		{"CartPole", -1, "action -1"},
		{"CartPole", 2, "action 2"},
		{"MountainCar", -1, "action -1"},
		{"MountainCar", 3, "action 3"},
		{"Acrobot", 3, "action 3"},
		{"Acrobot", -2, "action -2"},
		{"MountainCarContinuous", nan, "action NaN"},
		{"MountainCarContinuous", inf, "action +Inf"},
		{"MountainCarContinuous", -inf, "action -Inf"},
		{"Pendulum", nan, "action NaN"},
		{"Pendulum", -inf, "action -Inf"},
	}
	for _, tc := range tests {
		e := envByName(t, tc.env)
		e.reset(rand.New(rand.NewPCG(1, 2)))
		before := e.state()
		_, _, err := e.step(tc.action)
		if !errors.Is(err, classic.ErrAction) || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), tc.env) {
			t.Errorf("%s.Step(%v) error %v, want ErrAction naming %q", tc.env, tc.action, err, tc.msg)
		}
		if got := e.state(); !slices.Equal(got, before) {
			t.Errorf("%s.Step(%v) changed the state from %v to %v", tc.env, tc.action, before, got)
		}
	}
}

func TestSetStateInvalid(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, e := range allEnvs() {
		good := make([]float64, e.n)
		withAt := func(i int, v float64) []float64 { s := slices.Clone(good); s[i] = v; return s }
		tests := []struct {
			name string
			s    []float64
		}{
			{"nil", nil},
			{"short", good[:e.n-1]},
			{"long", append(slices.Clone(good), 0)},
			{"NaN first", withAt(0, nan)},
			{"NaN last", withAt(e.n-1, nan)},
			{"+Inf", withAt(1, inf)},
			{"-Inf", withAt(e.n-1, -inf)},
		}
		for _, tc := range tests {
			if err := e.set(tc.s); !errors.Is(err, classic.ErrState) || !strings.Contains(err.Error(), e.name) {
				t.Errorf("%s.SetState(%s %v) error %v, want ErrState naming the env", e.name, tc.name, tc.s, err)
			}
			if got := e.state(); got != nil {
				t.Errorf("%s.SetState(%s) failed but set the state to %v", e.name, tc.name, got)
			}
		}
		want := make([]float64, e.n)
		for i := range want {
			want[i] = 0.01 * float64(i+1)
		}
		if err := e.set(want); err != nil {
			t.Fatalf("%s.SetState(%v): %v", e.name, want, err)
		}
		want[0] = 7 // State must not alias the caller's slice...
		got := e.state()
		if got[0] != 0.01 {
			t.Errorf("%s: SetState kept the caller's slice: state %v", e.name, got)
		}
		got[0] = 9 // ...nor return the env's own.
		if e.state()[0] != 0.01 {
			t.Errorf("%s: State returned the env's own array", e.name)
		}
	}
}

func TestNotReset(t *testing.T) {
	for _, e := range allEnvs() {
		if s := e.state(); s != nil {
			t.Errorf("%s: State before Reset = %v, want nil", e.name, s)
		}
		if _, _, err := e.step(0); !errors.Is(err, classic.ErrNotReset) || !strings.Contains(err.Error(), e.name+".Step") {
			t.Errorf("%s: Step before Reset error %v, want ErrNotReset", e.name, err)
		}
		func() {
			defer func() {
				if err, ok := recover().(error); !ok || !errors.Is(err, classic.ErrNotReset) || !strings.Contains(err.Error(), e.name+".Observe") {
					t.Errorf("%s: Observe before Reset panicked with %v, want ErrNotReset naming the method", e.name, err)
				}
			}()
			e.observe(make([]float32, e.obsLen))
		}()
	}
}

func TestObserveWrongLength(t *testing.T) {
	for _, e := range allEnvs() {
		e.reset(rand.New(rand.NewPCG(1, 2)))
		for _, n := range []int{0, e.obsLen - 1, e.obsLen + 1} {
			func() {
				defer func() {
					r := recover()
					se, ok := r.(classic.ShapeError)
					if !ok || !strings.HasPrefix(se.Method, e.name+".Observe") {
						t.Errorf("%s: Observe into len %d panicked with %v, want a ShapeError", e.name, n, r)
					}
				}()
				e.observe(make([]float32, n))
			}()
		}
	}
}

// TestReset checks each initial-state distribution against Gymnasium's with a chi-squared test
// on 10 equal bins per component (critical value 27.88 for 9 degrees of freedom at p = 0.001),
// and that a seed reproduces a state.
func TestReset(t *testing.T) {
	const n, bins, critical = 20000, 10, 27.88
	tests := []struct {
		env    string
		lo, hi []float64 // per component; lo == hi means a constant
		f32    bool      // components are float32 values
	}{
		{"CartPole", []float64{-0.05, -0.05, -0.05, -0.05}, []float64{0.05, 0.05, 0.05, 0.05}, false},
		{"MountainCar", []float64{-0.6, 0}, []float64{-0.4, 0}, false},
		{"MountainCarContinuous", []float64{-0.6, 0}, []float64{-0.4, 0}, false},
		{"Pendulum", []float64{-math.Pi, -1}, []float64{math.Pi, 1}, false},
		{"Acrobot", []float64{-0.1, -0.1, -0.1, -0.1}, []float64{0.1, 0.1, 0.1, 0.1}, true},
	}
	for _, tc := range tests {
		e := envByName(t, tc.env)
		rng := rand.New(rand.NewPCG(7, 11))
		counts := make([][bins]int, e.n)
		for range n {
			e.reset(rng)
			for i, v := range e.state() {
				if tc.lo[i] == tc.hi[i] {
					if v != tc.lo[i] {
						t.Fatalf("%s: state[%d] = %v, want %v", tc.env, i, v, tc.lo[i])
					}
					continue
				}
				// Acrobot's float32 rounding may reach the upper bound.
				if v < tc.lo[i] || v > tc.hi[i] || (!tc.f32 && v == tc.hi[i]) {
					t.Fatalf("%s: state[%d] = %v outside [%v, %v)", tc.env, i, v, tc.lo[i], tc.hi[i])
				}
				if tc.f32 && float64(float32(v)) != v {
					t.Fatalf("%s: state[%d] = %v is not a float32", tc.env, i, v)
				}
				b := min(int((v-tc.lo[i])/(tc.hi[i]-tc.lo[i])*bins), bins-1)
				counts[i][b]++
			}
		}
		for i, c := range counts {
			if tc.lo[i] == tc.hi[i] {
				continue
			}
			chi2 := 0.0
			for _, k := range c {
				d := float64(k) - n/bins
				chi2 += d * d / (n / bins)
			}
			if chi2 > critical {
				t.Errorf("%s: state[%d] bins %v: χ² = %.1f > %.2f", tc.env, i, c, chi2, critical)
			}
		}
		e.reset(rand.New(rand.NewPCG(3, 4)))
		a := e.state()
		e.reset(rand.New(rand.NewPCG(3, 4)))
		if b := e.state(); !slices.Equal(a, b) {
			t.Errorf("%s: the same seed gave %v and %v", tc.env, a, b)
		}
	}
}

// TestBounds compares the spaces with the observation_space and action_space strings of the
// reference file (Gymnasium's Box printouts).
func TestBounds(t *testing.T) {
	inf := float32(math.Inf(1))
	f32 := func(v ...float64) []float32 {
		out := make([]float32, len(v))
		for i, x := range v {
			out[i] = float32(x)
		}
		return out
	}
	neg := func(v []float32) []float32 {
		out := make([]float32, len(v))
		for i, x := range v {
			out[i] = -x
		}
		return out
	}
	type bounded interface{ ObservationBounds() (low, high []float32) }
	tests := []struct {
		name      string
		env       bounded
		low, high []float32
	}{
		// Box([-4.8 -inf -0.41887903 -inf], [4.8 inf 0.41887903 inf], (4,), float32)
		{"CartPole", classic.NewCartPole(), []float32{-4.8, -inf, -0.41887903, -inf}, []float32{4.8, inf, 0.41887903, inf}},
		// Box([-1.2 -0.07], [0.6 0.07], (2,), float32)
		{"MountainCar", classic.NewMountainCar(), f32(-1.2, -0.07), f32(0.6, 0.07)},
		{"MountainCarContinuous", classic.NewMountainCarContinuous(), f32(-1.2, -0.07), f32(0.6, 0.07)},
		// Box([-1. -1. -8.], [1. 1. 8.], (3,), float32)
		{"Pendulum", classic.NewPendulum(), f32(-1, -1, -8), f32(1, 1, 8)},
		// Box([-1 -1 -1 -1 -12.566371 -28.274334], [1 1 1 1 12.566371 28.274334], (6,), float32)
		{"Acrobot", classic.NewAcrobot(), neg([]float32{1, 1, 1, 1, 12.566371, 28.274334}), []float32{1, 1, 1, 1, 12.566371, 28.274334}},
	}
	for _, tc := range tests {
		low, high := tc.env.ObservationBounds()
		if !slices.Equal(low, tc.low) || !slices.Equal(high, tc.high) {
			t.Errorf("%s: observation bounds %v, %v, want %v, %v", tc.name, low, high, tc.low, tc.high)
		}
	}
	// Discrete(2), Discrete(3), Discrete(3); Box(-1.0, 1.0, (1,)); Box(-2.0, 2.0, (1,)).
	if n := classic.NewCartPole().NumActions(); n != 2 {
		t.Errorf("CartPole has %d actions, want 2", n)
	}
	if n := classic.NewMountainCar().NumActions(); n != 3 {
		t.Errorf("MountainCar has %d actions, want 3", n)
	}
	if n := classic.NewAcrobot().NumActions(); n != 3 {
		t.Errorf("Acrobot has %d actions, want 3", n)
	}
	if lo, hi := classic.NewMountainCarContinuous().ActionBounds(); lo != -1 || hi != 1 {
		t.Errorf("MountainCarContinuous action bounds %v, %v, want -1, 1", lo, hi)
	}
	if lo, hi := classic.NewPendulum().ActionBounds(); lo != -2 || hi != 2 {
		t.Errorf("Pendulum action bounds %v, %v, want -2, 2", lo, hi)
	}
}

// TestCartPoleAfterTermination follows Gymnasium's steps_beyond_terminated: the step on which
// the pole falls is rewarded 1, later ones 0; SetState and Reset start over.
func TestCartPoleAfterTermination(t *testing.T) {
	for _, sb := range []bool{false, true} {
		e := classic.NewCartPole()
		e.SuttonBartoReward = sb
		// θ just inside the threshold (0.2094 rad) and falling right.
		if err := e.SetState([]float64{0, 0, 0.2, 2}); err != nil {
			t.Fatal(err)
		}
		// Rewards from Gymnasium's step: 1 (0 with sutton_barto_reward) while up, 1 (−1) on the
		// fall, 0 (−1) after it.
		want := []float64{1, 0, 0}
		if sb {
			want = []float64{-1, -1, -1}
		}
		for k, w := range want {
			r, term, err := e.Step(1)
			if err != nil || !term || r != w {
				t.Errorf("sutton_barto %v, step %d after the fall: reward %v terminated %v err %v, want %v true nil", sb, k, r, term, err, w)
			}
		}
		if err := e.SetState([]float64{0, 0, 0.25, 0}); err != nil {
			t.Fatal(err)
		}
		if r, term, _ := e.Step(0); !term || r != want[0] {
			t.Errorf("sutton_barto %v: first step after SetState into a fallen state: reward %v terminated %v, want %v true", sb, r, term, want[0])
		}
		e.Reset(rand.New(rand.NewPCG(1, 1)))
		wantUp := 1.0
		if sb {
			wantUp = 0
		}
		if r, term, _ := e.Step(0); term || r != wantUp {
			t.Errorf("sutton_barto %v: first step after Reset: reward %v terminated %v, want %v false", sb, r, term, wantUp)
		}
	}
}

// TestCartPoleIntegrators checks one step from rest with action 1 against values worked out by
// hand from Gymnasium's equations: temp = 10/1.1, θ̈ = −temp / (0.5·(4/3 − 0.1/1.1)),
// ẍ = temp − 0.05·θ̈/1.1. Explicit Euler moves positions with the old velocities (still 0),
// semi-implicit Euler with the new ones (τ·ẍ and τ·θ̈, times τ again).
func TestCartPoleIntegrators(t *testing.T) {
	temp := 10 / 1.1
	thetaAcc := -temp / (0.5 * (4.0/3.0 - 0.1/1.1))
	xAcc := temp - 0.05*thetaAcc/1.1
	tests := []struct {
		semiImplicit bool
		want         []float64
	}{
		{false, []float64{0, 0.02 * xAcc, 0, 0.02 * thetaAcc}},
		{true, []float64{0.02 * 0.02 * xAcc, 0.02 * xAcc, 0.02 * 0.02 * thetaAcc, 0.02 * thetaAcc}},
	}
	for _, tc := range tests {
		e := classic.NewCartPole()
		e.SemiImplicit = tc.semiImplicit
		if err := e.SetState([]float64{0, 0, 0, 0}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.Step(1); err != nil {
			t.Fatal(err)
		}
		got := e.State()
		for i := range got {
			if !scalar.EqualWithinAbsOrRel(got[i], tc.want[i], 1e-15, 1e-12) {
				t.Errorf("semi-implicit %v: state %v, want %v", tc.semiImplicit, got, tc.want)
				break
			}
		}
	}
}

// TestMountainCarEdges checks the left wall (the car stops dead) and the goal, with values
// worked out by hand from Gymnasium's step.
func TestMountainCarEdges(t *testing.T) {
	mc := classic.NewMountainCar()
	if err := mc.SetState([]float64{-1.19, -0.05}); err != nil {
		t.Fatal(err)
	}
	if _, term, err := mc.Step(0); err != nil || term || !slices.Equal(mc.State(), []float64{-1.2, 0}) {
		t.Errorf("MountainCar into the wall: state %v terminated %v err %v, want [-1.2 0] false nil", mc.State(), term, err)
	}
	// From 0.49 at speed 0.02 the car passes the flag at 0.5: velocity 0.02 + 0.001 −
	// 0.0025·cos(1.47) ≈ 0.0207.
	if err := mc.SetState([]float64{0.49, 0.02}); err != nil {
		t.Fatal(err)
	}
	if r, term, err := mc.Step(2); err != nil || !term || r != -1 {
		t.Errorf("MountainCar past the flag: reward %v terminated %v err %v, want -1 true nil", r, term, err)
	}

	mcc := classic.NewMountainCarContinuous()
	// Actions beyond ±1 move the car as ±1 but cost 0.1·a² as given.
	for _, tc := range []struct {
		action, reward float64
		sameAs         float32
	}{{3, -0.9, 1}, {-2, -0.4, -1}, {0.5, -0.025, 0.5}} {
		if err := mcc.SetState([]float64{-0.5, 0}); err != nil {
			t.Fatal(err)
		}
		r, _, err := mcc.Step(float32(tc.action))
		if err != nil || !scalar.EqualWithinAbsOrRel(r, tc.reward, 1e-15, 1e-15) {
			t.Errorf("MountainCarContinuous action %v: reward %v err %v, want %v", tc.action, r, err, tc.reward)
		}
		got := mcc.State()
		_ = mcc.SetState([]float64{-0.5, 0})
		_, _, _ = mcc.Step(tc.sameAs)
		if want := mcc.State(); !slices.Equal(got, want) {
			t.Errorf("MountainCarContinuous action %v: state %v, want %v as for action %v", tc.action, got, want, tc.sameAs)
		}
	}
	// Reaching the flag at 0.45 earns 100 − 0.1·a².
	if err := mcc.SetState([]float64{0.44, 0.02}); err != nil {
		t.Fatal(err)
	}
	if r, term, err := mcc.Step(1); err != nil || !term || !scalar.EqualWithinAbsOrRel(r, 99.9, 1e-13, 1e-13) {
		t.Errorf("MountainCarContinuous past the flag: reward %v terminated %v err %v, want 99.9 true nil", r, term, err)
	}
	if err := mcc.SetState([]float64{-1.19, -0.05}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := mcc.Step(-1); err != nil || !slices.Equal(mcc.State(), []float64{float64(float32(-1.2)), 0}) {
		t.Errorf("MountainCarContinuous into the wall: state %v err %v, want [float32(-1.2) 0]", mcc.State(), err)
	}
}

// TestPendulumCost checks the cost's angle normalization and torque clipping from rest, where
// the reward is −(θ̃² + 0.001·u²); expected values by hand: θ̃ = ((θ+π) mod 2π) − π.
func TestPendulumCost(t *testing.T) {
	pi := math.Pi
	tests := []struct {
		theta  float64
		u      float32
		reward float64
	}{
		{0, 0, 0},
		{0.5, 0, -0.25},
		{2*pi + 0.5, 0, -0.25},
		{-2*pi + 0.5, 0, -0.25},
		{pi, 0, -pi * pi}, // π maps to −π
		{-pi, 0, -pi * pi},
		{1.5 * pi, 0, -0.25 * pi * pi},  // to −π/2
		{-1.5 * pi, 0, -0.25 * pi * pi}, // to π/2
		{0, 1, -0.001},
		{0, -7, -0.004}, // clipped to −2
		{0, 2.5, -0.004},
	}
	for _, tc := range tests {
		e := classic.NewPendulum()
		if err := e.SetState([]float64{tc.theta, 0}); err != nil {
			t.Fatal(err)
		}
		r, term, err := e.Step(tc.u)
		if err != nil || term || !scalar.EqualWithinAbsOrRel(r, tc.reward, 1e-12, 1e-12) {
			t.Errorf("θ %v u %v: reward %v terminated %v err %v, want %v false nil", tc.theta, tc.u, r, term, err, tc.reward)
		}
	}
	// numpy clips a float32 action to float32 bounds: with MaxTorque 0.1 the torque is
	// float32(0.1), not 0.1.
	e := classic.NewPendulum()
	e.MaxTorque = 0.1
	_ = e.SetState([]float64{0, 0})
	u := float64(float32(0.1))
	if r, _, _ := e.Step(1); r != -0.001*(u*u) {
		t.Errorf("MaxTorque 0.1: reward %v, want %v", r, -0.001*(u*u))
	}
}

func TestAcrobotEdges(t *testing.T) {
	e := classic.NewAcrobot()
	// Far-off angles are wrapped to [−π, π] and fast links slowed to the limits.
	if err := e.SetState([]float64{1e6, -1e12, 100, -100}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Step(1); err != nil {
		t.Fatal(err)
	}
	s := e.State()
	if math.Abs(s[0]) > math.Pi || math.Abs(s[1]) > math.Pi || math.Abs(s[2]) > 4*math.Pi || math.Abs(s[3]) > 9*math.Pi {
		t.Errorf("state %v after a step from far-off angles and speeds, want angles in [−π, π], |θ̇₁| ≤ 4π, |θ̇₂| ≤ 9π", s)
	}
	// Balanced straight up (θ₁ = π, θ₂ = 0): −cos π − cos π = 2 > 1, so the step terminates
	// with reward 0.
	if err := e.SetState([]float64{math.Pi, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if r, term, err := e.Step(1); err != nil || !term || r != 0 {
		t.Errorf("upright: reward %v terminated %v err %v, want 0 true nil", r, term, err)
	}
	// Hanging at rest with no torque stays put, rewarded −1 (up to the 6.1e-17 of cos(−π/2) in
	// float64, which Gymnasium's numpy computes alike).
	if err := e.SetState([]float64{0, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	r, term, err := e.Step(1)
	if err != nil || term || r != -1 {
		t.Errorf("at rest: reward %v terminated %v err %v, want -1 false nil", r, term, err)
	}
	for i, v := range e.State() {
		if math.Abs(v) > 1e-15 {
			t.Errorf("at rest: state[%d] = %v after a step, want 0 within 1e-15", i, v)
		}
	}
}

// TestDiverged checks that a step whose result would not be finite is refused and leaves the
// state as it was (here: a cart so heavy-handed that ẍ overflows).
func TestDiverged(t *testing.T) {
	e := classic.NewCartPole()
	e.MassCart, e.MassPole = 0, 0
	start := []float64{0, 0, 0.1, 0}
	if err := e.SetState(start); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Step(1); !errors.Is(err, classic.ErrState) {
		t.Errorf("massless cart: error %v, want ErrState", err)
	}
	if got := e.State(); !slices.Equal(got, start) {
		t.Errorf("state %v after a refused step, want %v", got, start)
	}
}

// TestNoAllocs locks the hot paths at zero allocations.
func TestNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, e := range allEnvs() {
		e.reset(rng)
		obs := make([]float32, e.obsLen)
		a := 0.0
		if got := testing.AllocsPerRun(100, func() {
			if _, term, _ := e.step(a); term {
				e.reset(rng)
			}
			a = 1 - a
		}); got != 0 {
			t.Errorf("%s.Step allocates %v times", e.name, got)
		}
		if got := testing.AllocsPerRun(100, func() { e.observe(obs) }); got != 0 {
			t.Errorf("%s.Observe allocates %v times", e.name, got)
		}
	}
	for _, r := range []interface {
		renderer
		Reset(*rand.Rand)
	}{classic.NewCartPole(), classic.NewMountainCar(), classic.NewMountainCarContinuous(), classic.NewPendulum(), classic.NewAcrobot()} {
		r.Reset(rng)
		img := r.Render()
		if got := testing.AllocsPerRun(10, func() { r.RenderTo(img) }); got != 0 {
			t.Errorf("%T.RenderTo allocates %v times", r, got)
		}
		if got := testing.AllocsPerRun(10, func() { r.Reset(rng) }); got != 0 {
			t.Errorf("%T.Reset allocates %v times", r, got)
		}
	}
}

// FuzzStep sets any env to any state and steps it with any action. SetState must accept exactly
// the finite states; Step must never panic, must succeed with a finite state and reward or fail
// with ErrAction or ErrState, and must leave the state unchanged when it fails.
func FuzzStep(f *testing.F) {
	f.Add(uint8(0), 0.01, -0.02, 0.03, 0.04, int8(1), float32(0))
	f.Add(uint8(1), -1.2, -0.07, 0.0, 0.0, int8(0), float32(0))
	f.Add(uint8(2), 0.44, 0.07, 0.0, 0.0, int8(0), float32(3))
	f.Add(uint8(3), 1e300, -1e300, 0.0, 0.0, int8(0), float32(-2))
	f.Add(uint8(4), 1e308, -1e308, 1e308, -1e308, int8(2), float32(0))
	f.Add(uint8(4), 3.0, math.NaN(), 0.0, 0.0, int8(5), float32(math.NaN()))
	f.Fuzz(func(t *testing.T, which uint8, s0, s1, s2, s3 float64, da int8, ca float32) {
		envs := allEnvs()
		e := envs[int(which)%len(envs)]
		s := []float64{s0, s1, s2, s3}[:e.n]
		err := e.set(s)
		if finiteAll(s) != (err == nil) {
			t.Fatalf("%s.SetState(%v) error %v", e.name, s, err)
		}
		if err != nil {
			return
		}
		a := float64(ca)
		if e.discrete {
			a = float64(da)
		}
		r, _, err := e.step(a)
		after := e.state()
		switch {
		case err == nil:
			if !finiteAll(after) || !finiteAll([]float64{r}) {
				t.Fatalf("%s.Step(%v) from %v: state %v reward %v", e.name, a, s, after, r)
			}
		case errors.Is(err, classic.ErrAction), errors.Is(err, classic.ErrState):
			if !slices.Equal(after, s) {
				t.Fatalf("%s.Step(%v) failed (%v) but moved the state from %v to %v", e.name, a, err, s, after)
			}
		default:
			t.Fatalf("%s.Step(%v) from %v: unexpected error %v", e.name, a, s, err)
		}
	})
}

func finiteAll(s []float64) bool {
	for _, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
