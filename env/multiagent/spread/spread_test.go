package spread

import (
	"math"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent"
	"github.com/gorl/gorl/env/multiagent/multiagenttest"
	"github.com/gorl/gorl/nd"
)

func TestConforms(t *testing.T) {
	e, err := multiagent.MakeParallel(ID)
	if err != nil {
		t.Fatal(err)
	}
	multiagenttest.CheckParallel(t, e)
	one, err := New(Config{N: 1, LocalRatio: 0.5, MaxCycles: 3})
	if err != nil {
		t.Fatal(err)
	}
	multiagenttest.CheckParallel(t, one)
}

func actions(e *Env, a ...[5]float32) map[string]any {
	m := map[string]any{}
	for i, id := range e.ids {
		m[id] = nd.MustNew(a[i][:])
	}
	return m
}

// TestStep places two agents and two landmarks by hand and checks one step
// against the particle environments' equations worked out here.
func TestStep(t *testing.T) {
	e, err := New(Config{N: 2, LocalRatio: 0.5, MaxCycles: 25})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Reset(env.SeedOf(1)); err != nil {
		t.Fatal(err)
	}
	// Agents 0.2 apart (overlapping: radii sum 0.3), both at rest.
	e.pos[0], e.pos[1] = [2]float64{0, 0}, [2]float64{0.2, 0}
	e.landmarks[0], e.landmarks[1] = [2]float64{0, 1}, [2]float64{1, 1}
	// Agent 0 pushes right with 1 and up with 0.5; agent 1 does nothing.
	obs, rew, term, trunc, _, err := e.Step(actions(e, [5]float32{0, 0, 1, 0, 0.5}, [5]float32{1, 0, 0, 0, 0}))
	if err != nil {
		t.Fatal(err)
	}
	// Contact: penetration k·log(1 + exp((0.3 − 0.2)/k)) ≈ 0.1 for k = 0.001,
	// force 100·0.1 = 10 along −x on agent 0, +x on agent 1.
	pen := 0.001 * math.Log1p(math.Exp(0.1/0.001))
	f0 := [2]float64{5 - 100*pen, 2.5}
	f1 := [2]float64{100 * pen, 0}
	// v = 0.75·0 + F·0.1, x += 0.1·v.
	want0 := [2]float64{0 + 0.01*f0[0], 0 + 0.01*f0[1]}
	want1 := [2]float64{0.2 + 0.01*f1[0], 0}
	for i, w := range [][2]float64{want0, want1} {
		if math.Abs(e.pos[i][0]-w[0]) > 1e-12 || math.Abs(e.pos[i][1]-w[1]) > 1e-12 {
			t.Errorf("agent %d at %v; want %v", i, e.pos[i], w)
		}
	}
	// Agent 0 ends at (−0.05, 0.025), agent 1 at (0.3, 0): 0.351 apart, no
	// longer overlapping. Landmark (0, 1) is nearest agent 0, (1, 1) agent 1.
	g := -math.Hypot(want0[0], 1-want0[1]) - math.Hypot(1-want1[0], 1)
	for _, id := range e.ids {
		if math.Abs(rew[id]-0.5*g) > 1e-12 {
			t.Errorf("%s reward %v; want %v", id, rew[id], 0.5*g)
		}
		if term[id] || trunc[id] {
			t.Errorf("%s ended after one step", id)
		}
	}
	o := nd.Data[float32](obs["agent_0"].(*nd.Array))
	wantObs := []float64{0.1 * f0[0], 0.1 * f0[1], want0[0], want0[1],
		-want0[0], 1 - want0[1], 1 - want0[0], 1 - want0[1], want1[0] - want0[0], want1[1] - want0[1], 0, 0}
	if len(o) != len(wantObs) {
		t.Fatalf("observation of %d values; want %d", len(o), len(wantObs))
	}
	for k, w := range wantObs {
		if math.Abs(float64(o[k])-w) > 1e-6 {
			t.Errorf("observation[%d] = %v; want %v", k, o[k], w)
		}
	}
}

// TestCollisionReward puts two of three agents on top of each other
// (0.1 apart) and every landmark under an agent: the shared reward is then
// 0 and each overlapping agent's own reward −1, weighted by LocalRatio.
func TestCollisionReward(t *testing.T) {
	for _, ratio := range []float64{0, 0.5, 1} {
		e, err := New(Config{N: 3, LocalRatio: ratio, MaxCycles: 25})
		if err != nil {
			t.Fatal(err)
		}
		e.pos = [][2]float64{{0, 0}, {0.1, 0}, {2, 2}}
		e.landmarks = [][2]float64{{0, 0}, {0.1, 0}, {2, 2}}
		e.rewards()
		for i, want := range []float64{-ratio, -ratio, 0} {
			if got := e.rew[e.ids[i]]; math.Abs(got-want) > 1e-12 {
				t.Errorf("local ratio %v: agent %d reward %v; want %v", ratio, i, got, want)
			}
		}
	}
}

func TestTruncation(t *testing.T) {
	e, err := New(Config{N: 2, LocalRatio: 0.5, MaxCycles: 4})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Reset(env.SeedOf(3)); err != nil {
		t.Fatal(err)
	}
	var zero [5]float32
	for step := 1; step <= 4; step++ {
		_, _, term, trunc, _, err := e.Step(actions(e, zero, zero))
		if err != nil {
			t.Fatal(err)
		}
		if term["agent_0"] || trunc["agent_0"] != (step == 4) {
			t.Errorf("step %d: terminated %v, truncated %v", step, term["agent_0"], trunc["agent_0"])
		}
	}
	if len(e.Agents()) != 0 {
		t.Errorf("agents %q after the last step", e.Agents())
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []Config{{N: 0, MaxCycles: 1}, {N: 2, LocalRatio: 2, MaxCycles: 1}, {N: 2, MaxCycles: 0}} {
		if _, err := New(c); err == nil {
			t.Errorf("New(%+v) succeeded", c)
		}
	}
}

func BenchmarkStep(b *testing.B) {
	e, err := New(DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	acts := actions(e, [5]float32{0, 1, 0, 0, 0}, [5]float32{0, 0, 1, 0, 0}, [5]float32{0, 0, 0, 1, 0})
	b.ReportAllocs()
	for b.Loop() {
		if len(e.Agents()) == 0 {
			if _, _, err := e.Reset(env.NoSeed); err != nil {
				b.Fatal(err)
			}
		}
		if _, _, _, _, _, err := e.Step(acts); err != nil {
			b.Fatal(err)
		}
	}
}
