package classic_test

// This file imports package env as gorlenv: the package's other tests
// declare a type env.

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	gorlenv "github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/classic"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/nd"
)

var ids = []string{"Acrobot-v1", "CartPole-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1"}

// adapter returns a fresh adapter of the given id and its raw gorlenv.
func adapter(t testing.TB, id string) (*classic.Env, rawState) {
	t.Helper()
	var e *classic.Env
	var raw rawState
	var err error
	switch id {
	case "CartPole-v1":
		r := classic.NewCartPole()
		e, err = classic.NewCartPoleEnv(r)
		raw = r
	case "MountainCar-v0":
		r := classic.NewMountainCar()
		e, err = classic.NewMountainCarEnv(r)
		raw = r
	case "MountainCarContinuous-v0":
		r := classic.NewMountainCarContinuous()
		e, err = classic.NewMountainCarContinuousEnv(r)
		raw = r
	case "Pendulum-v1":
		r := classic.NewPendulum()
		e, err = classic.NewPendulumEnv(r)
		raw = r
	case "Acrobot-v1":
		r := classic.NewAcrobot()
		e, err = classic.NewAcrobotEnv(r)
		raw = r
	default:
		t.Fatalf("unknown id %s", id)
	}
	if err != nil {
		t.Fatal(err)
	}
	return e, raw
}

type rawState interface {
	SetState([]float64) error
	State() []float64
	Reset(*rand.Rand)
	Observe([]float32)
}

func TestRegistered(t *testing.T) {
	for _, id := range ids {
		if !slices.Contains(gorlenv.IDs(), id) {
			t.Errorf("%s is not registered", id)
		}
		e, err := gorlenv.Make(id)
		if err != nil {
			t.Fatal(err)
		}
		spec, _ := gorlenv.Lookup(id)
		tl, ok := e.(*gorlenv.TimeLimit)
		if !ok || tl.MaxEpisodeSteps() != spec.MaxEpisodeSteps {
			t.Errorf("Make(%s) = %T, want a TimeLimit of %d steps", id, e, spec.MaxEpisodeSteps)
		}
		if a, ok := gorlenv.Unwrapped(e).(*classic.Env); !ok || a.ID() != id {
			t.Errorf("Make(%s) wraps %T", id, gorlenv.Unwrapped(e))
		}
	}
	// Gymnasium's registrations: max_episode_steps and reward_threshold;
	// the stop threshold is that of Tianshou's tests (test/discrete/test_dqn.py
	// and test/continuous/test_ppo.py: 195 on CartPole, −250 on Pendulum),
	// else the reward threshold.
	want := map[string]struct {
		steps           int
		threshold, stop float64 // NaN: none
	}{
		"CartPole-v1": {500, 475, 195}, "MountainCar-v0": {200, -110, -110}, "MountainCarContinuous-v0": {999, 90, 90},
		"Pendulum-v1": {200, math.NaN(), -250}, "Acrobot-v1": {500, -100, -100},
	}
	same := func(p *float64, v float64) bool { return (p == nil) == math.IsNaN(v) && (p == nil || *p == v) }
	for id, w := range want {
		spec, _ := gorlenv.Lookup(id)
		if spec.MaxEpisodeSteps != w.steps || !same(spec.RewardThreshold, w.threshold) || !same(spec.StopThreshold(), w.stop) {
			t.Errorf("%s: spec %+v, want %d steps, threshold %v, stop at %v", id, spec, w.steps, w.threshold, w.stop)
		}
	}
}

func TestSpaces(t *testing.T) {
	// Gymnasium 1.x reprs of the five envs' spaces (CartPole's bounds print
	// with numpy's alignment).
	want := map[string][2]string{
		"CartPole-v1":              {"Box([-4.8               -inf -0.41887903        -inf], [4.8               inf 0.41887903        inf], (4,), float32)", "Discrete(2)"},
		"MountainCar-v0":           {"Box([-1.2  -0.07], [0.6  0.07], (2,), float32)", "Discrete(3)"},
		"MountainCarContinuous-v0": {"Box([-1.2  -0.07], [0.6  0.07], (2,), float32)", "Box(-1.0, 1.0, (1,), float32)"},
		"Pendulum-v1":              {"Box([-1. -1. -8.], [1. 1. 8.], (3,), float32)", "Box(-2.0, 2.0, (1,), float32)"},
		"Acrobot-v1":               {"Box([ -1.        -1.        -1.        -1.       -12.566371 -28.274334], [ 1.        1.        1.        1.       12.566371 28.274334], (6,), float32)", "Discrete(3)"},
	}
	for _, id := range ids {
		e, _ := adapter(t, id)
		if got := [2]string{e.ObservationSpace().String(), e.ActionSpace().String()}; got != want[id] {
			t.Errorf("%s spaces:\n%s\n%s\nwant\n%s\n%s", id, got[0], got[1], want[id][0], want[id][1])
		}
	}
}

// Every adapter, bare and as gorlenv.Make returns it, passes the conformance
// check (spaces, seeded reproducibility, episode ends, state, rendering).
func TestConformance(t *testing.T) {
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			e, _ := adapter(t, id)
			envtest.Check(t, e)
			made, err := gorlenv.Make(id)
			if err != nil {
				t.Fatal(err)
			}
			envtest.Check(t, made)
		})
	}
}

// The adapter behind a TimeLimit, as gorlenv.Make builds it, replays every
// recorded Gymnasium episode from its initial state: observations,
// rewards, and the terminated and truncated flags of gym.make's env step
// for step, including truncation at max_episode_steps.
func TestAdapterReplaysReference(t *testing.T) {
	for _, ep := range reference(t).Episodes {
		t.Run(ep.name(), func(t *testing.T) {
			a, raw := adapter(t, ep.EnvID)
			e, err := gorlenv.NewTimeLimit(a, ep.MaxEpisodeSteps)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := e.Reset(gorlenv.SeedOf(uint64(ep.Seed))); err != nil {
				t.Fatal(err)
			}
			if err := raw.SetState(floats(t, ep.InitialState)); err != nil {
				t.Fatal(err)
			}
			for k, st := range ep.Steps {
				obs, r, term, trunc, _, err := e.Step(refAction(t, ep.Actions[k], e.ActionSpace()))
				if err != nil {
					t.Fatalf("t=%d: %v", st.T, err)
				}
				if term != st.Terminated || trunc != st.Truncated {
					t.Fatalf("t=%d: terminated %v truncated %v, want %v %v", st.T, term, trunc, st.Terminated, st.Truncated)
				}
				// Free-running errors stay below 1e-10 (see TestReferenceFreeRun).
				if want := floats(t, []string{st.Reward})[0]; math.Abs(r-want) > 1e-8 {
					t.Fatalf("t=%d: reward %v, want %v", st.T, r, want)
				}
				got := nd.Data[float32](obs.(*nd.Array))
				for i, w := range floats(t, st.Obs) {
					if math.Abs(float64(got[i])-w) > 1e-6*math.Max(1, math.Abs(w)) {
						t.Fatalf("t=%d: obs[%d] = %v, want %v", st.T, i, got[i], w)
					}
				}
			}
			if ep.End != "max_steps_cap" {
				if _, _, _, _, _, err := e.Step(refAction(t, ep.Actions[0], e.ActionSpace())); !errors.Is(err, gorlenv.ErrNeedReset) {
					t.Errorf("Step after the recorded end: %v, want ErrNeedReset", err)
				}
			}
		})
	}
}

// refAction converts an action of the reference file to an array of the
// action space.
func refAction(t *testing.T, raw json.RawMessage, space gorlenv.Space) *nd.Array {
	t.Helper()
	if _, ok := space.(*gorlenv.Discrete); ok {
		var a int64
		if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatal(err)
		}
		return nd.MustNew(a)
	}
	var a []string
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatal(err)
	}
	return nd.MustNew([]float32{float32(floats(t, a)[0])})
}

// A seeded Reset draws from PCG(seed, 0x9e3779b97f4a7c15), as gorlenv.Reseed
// documents: the raw env reset with that source starts in the same state.
func TestSeededResetMatchesRaw(t *testing.T) {
	for _, id := range ids {
		a, _ := adapter(t, id)
		_, raw := adapter(t, id)
		obs, _, err := a.Reset(gorlenv.SeedOf(11))
		if err != nil {
			t.Fatal(err)
		}
		raw.Reset(rand.New(rand.NewPCG(11, 0x9e3779b97f4a7c15)))
		want := make([]float32, len(nd.Data[float32](obs.(*nd.Array))))
		raw.Observe(want)
		if got := nd.Data[float32](obs.(*nd.Array)); !slices.Equal(got, want) {
			t.Errorf("%s: seeded Reset observation %v, the raw env's %v", id, got, want)
		}
	}
}

func TestAdapterErrors(t *testing.T) {
	cp, _ := adapter(t, "CartPole-v1")
	if _, _, _, _, _, err := cp.Step(nd.MustNew(int64(0))); !errors.Is(err, gorlenv.ErrNeedReset) || !strings.HasPrefix(err.Error(), "CartPole-v1: ") {
		t.Errorf("Step before Reset: %v", err)
	}
	if _, err := cp.Render(); !errors.Is(err, gorlenv.ErrNeedReset) {
		t.Errorf("Render before Reset: %v", err)
	}
	cp.Reset(gorlenv.SeedOf(1))
	for _, bad := range []any{nd.MustNew(int64(2)), nd.MustNew(int64(-1)), nd.MustNew([]int64{0}), nd.MustNew(0.0), 1} {
		if _, _, _, _, _, err := cp.Step(bad); !errors.Is(err, gorlenv.ErrAction) || !strings.HasPrefix(err.Error(), "CartPole-v1: ") {
			t.Errorf("CartPole action %v: %v, want ErrAction naming the env", bad, err)
		}
	}
	pe, _ := adapter(t, "Pendulum-v1")
	pe.Reset(gorlenv.SeedOf(1))
	nan := float32(math.NaN())
	for _, bad := range []any{nd.MustNew([]float32{nan}), nd.MustNew([]float32{0, 0}), nd.MustNew([]int64{1}), nd.MustNew(float32(1))} {
		if _, _, _, _, _, err := pe.Step(bad); !errors.Is(err, gorlenv.ErrAction) {
			t.Errorf("Pendulum action %v: %v, want ErrAction", bad, err)
		}
	}
	// A NaN also carries classic's own error; a torque beyond the bounds is clipped.
	if _, _, _, _, _, err := pe.Step(nd.MustNew([]float32{nan})); !errors.Is(err, classic.ErrAction) {
		t.Errorf("NaN torque: %v, want classic.ErrAction too", err)
	}
	if _, _, _, _, _, err := pe.Step(nd.MustNew([]float64{100})); err != nil {
		t.Errorf("a float64 torque beyond the bounds: %v", err)
	}
	// After termination the episode is over.
	cp.Reset(gorlenv.SeedOf(2))
	for i := 0; ; i++ {
		_, _, term, _, _, err := cp.Step(nd.MustNew(int64(1)))
		if err != nil {
			t.Fatal(err)
		}
		if term {
			break
		}
	}
	if _, _, _, _, _, err := cp.Step(nd.MustNew(int64(1))); !errors.Is(err, gorlenv.ErrNeedReset) {
		t.Errorf("Step after termination: %v, want ErrNeedReset", err)
	}
}

// A state saved mid-episode and restored into another instance continues
// exactly, through episode ends and unseeded resets (the random stream is
// part of the state).
func TestAdapterStateResume(t *testing.T) {
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			a, _ := adapter(t, id)
			rng := rand.New(rand.NewPCG(3, 3))
			acts := make([]any, 700)
			for i := range acts {
				acts[i] = a.ActionSpace().Sample(rng)
			}
			run := func(e gorlenv.Env, acts []any) string {
				var sb strings.Builder
				for _, act := range acts {
					obs, r, term, trunc, _, err := e.Step(act)
					if err != nil {
						t.Fatal(err)
					}
					fmt.Fprint(&sb, obs.(*nd.Array).Str(), r, term, trunc, ";")
					if term || trunc {
						obs, _, _ := e.Reset(gorlenv.NoSeed)
						fmt.Fprint(&sb, "reset", obs.(*nd.Array).Str(), ";")
					}
				}
				return sb.String()
			}
			e, _ := gorlenv.NewTimeLimit(a, 60)
			e.Reset(gorlenv.SeedOf(9))
			run(e, acts[:30])
			saved, err := gorlenv.MarshalState(e)
			if err != nil {
				t.Fatal(err)
			}
			want := run(e, acts[30:])

			b, _ := adapter(t, id)
			f, _ := gorlenv.NewTimeLimit(b, 60)
			if err := gorlenv.UnmarshalState(f, saved); err != nil {
				t.Fatal(err)
			}
			if got := run(f, acts[30:]); got != want {
				t.Error("the restored env diverges from the original")
			}
			// Another env's state, or a damaged one, is refused.
			other := "CartPole-v1"
			if id == other {
				other = "Acrobot-v1"
			}
			o, _ := adapter(t, other)
			aState, _ := a.MarshalState()
			if err := o.UnmarshalState(aState); !errors.Is(err, gorlenv.ErrState) {
				t.Errorf("restoring a %s state into %s: %v", id, other, err)
			}
			for _, cut := range []int{1, 12, len(aState) - 1} {
				if err := b.UnmarshalState(aState[:cut]); !errors.Is(err, gorlenv.ErrState) {
					t.Errorf("state cut to %d bytes: %v", cut, err)
				}
			}
		})
	}
}

// FuzzUnmarshalState feeds arbitrary bytes to an adapter's UnmarshalState:
// it must never panic, and an accepted state must step or reset.
func FuzzUnmarshalState(f *testing.F) {
	a, _ := adapter(f, "Acrobot-v1")
	s0, _ := a.MarshalState()
	a.Reset(gorlenv.SeedOf(1))
	a.Step(nd.MustNew(int64(1)))
	s1, _ := a.MarshalState()
	f.Add(s0)
	f.Add(s1)
	f.Add(s1[:len(s1)-3])
	f.Fuzz(func(t *testing.T, data []byte) {
		e, _ := adapter(t, "Acrobot-v1")
		if err := e.UnmarshalState(data); err != nil {
			return
		}
		if _, _, _, _, _, err := e.Step(nd.MustNew(int64(0))); err != nil {
			if _, _, err := e.Reset(gorlenv.NoSeed); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func TestRenderReusesFrame(t *testing.T) {
	sizes := map[string][2]int{"CartPole-v1": {600, 400}, "MountainCar-v0": {600, 400}, "MountainCarContinuous-v0": {600, 400}, "Pendulum-v1": {500, 500}, "Acrobot-v1": {500, 500}}
	for _, id := range ids {
		e, _ := adapter(t, id)
		e.Reset(gorlenv.SeedOf(1))
		f1, err := e.Render()
		if err != nil {
			t.Fatal(err)
		}
		f2, _ := e.Render()
		if f1 != f2 || f1.Bounds().Dx() != sizes[id][0] || f1.Bounds().Dy() != sizes[id][1] {
			t.Errorf("%s: frames %p %p of %v", id, f1, f2, f1.Bounds())
		}
	}
}

func TestAdapterDoesNotAllocate(t *testing.T) {
	for _, id := range ids {
		e, _ := adapter(t, id)
		act := e.ActionSpace().Sample(rand.New(rand.NewPCG(1, 1)))
		e.Reset(gorlenv.SeedOf(1))
		if n := testing.AllocsPerRun(200, func() {
			_, _, term, _, _, err := e.Step(act)
			if err != nil {
				t.Fatal(err)
			}
			if term {
				e.Reset(gorlenv.NoSeed)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations per step, want 0", id, n)
		}
	}
}

// CartPole through gorlenv.Make: an episode with random actions.
func ExampleEnv() {
	e, err := gorlenv.Make("CartPole-v1")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	fmt.Println(e.ObservationSpace().(*gorlenv.Box).Shape(), e.ActionSpace())
	rng := rand.New(rand.NewPCG(1, 2))
	e.Reset(gorlenv.SeedOf(42))
	steps, ret := 0, 0.0
	for {
		_, r, terminated, truncated, _, err := e.Step(e.ActionSpace().Sample(rng))
		if err != nil {
			fmt.Println(err)
			return
		}
		steps++
		ret += r
		if terminated || truncated {
			fmt.Printf("terminated %v after %d steps, return %.0f\n", terminated, steps, ret)
			return
		}
	}
	// Output:
	// [4] Discrete(2)
	// terminated true after 10 steps, return 10
}
