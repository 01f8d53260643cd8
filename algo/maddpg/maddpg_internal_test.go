package maddpg

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent/spread"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// tinyConfig is a small configuration for fast tests.
func tinyConfig() Config {
	c := DefaultConfig()
	c.ActorHidden, c.Critic.Hidden = []int{8}, []int{8}
	c.BatchSize, c.BufferSize, c.UpdateEvery = 8, 64, 1
	return c
}

func newSpread(t testing.TB, n int) *spread.Env {
	t.Helper()
	cfg := spread.DefaultConfig()
	cfg.N = n
	e, err := spread.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func newMADDPG(t testing.TB, cfg Config, n int, seed uint64) (*MADDPG, *spread.Env) {
	t.Helper()
	e := newSpread(t, n)
	m, err := New(cfg, e, rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return m, e
}

// TestCriticSeesEverything checks that every agent's critic takes the
// concatenation of all observations and all actions: for SimpleSpread with
// N agents an observation has 4 + 2N + 4(N − 1) values and an action 5
// (the env's documented spaces), so the critic's first layer has
// N·(4 + 2N + 4(N − 1)) + 5N inputs, and the actor's obs size inputs.
func TestCriticSeesEverything(t *testing.T) {
	for _, tc := range []struct{ n, obs, critIn int }{
		{1, 6, 6 + 5},
		{2, 12, 2*12 + 2*5},
		{3, 18, 3*18 + 3*5},
	} {
		m, _ := newMADDPG(t, tinyConfig(), tc.n, 1)
		if m.sumObs+m.sumAct != tc.critIn {
			t.Errorf("N=%d: joint input %d; want %d", tc.n, m.sumObs+m.sumAct, tc.critIn)
		}
		for i, ag := range m.Agents {
			w := ag.Critic.Params()[0].Tensor.Shape()
			if w[len(w)-1] != tc.critIn && w[0] != tc.critIn {
				t.Errorf("N=%d agent %d: critic first weight %v; want %d inputs", tc.n, i, w, tc.critIn)
			}
			a := ag.ActorParams[0].Tensor.Shape()
			if a[len(a)-1] != tc.obs && a[0] != tc.obs {
				t.Errorf("N=%d agent %d: actor first weight %v; want %d inputs", tc.n, i, a, tc.obs)
			}
			ind, _ := newMADDPG(t, func() Config { c := tinyConfig(); c.Independent = true; return c }(), tc.n, 1)
			if w := ind.Agents[i].Critic.Params()[0].Tensor.Shape(); w[len(w)-1] != tc.obs+5 && w[0] != tc.obs+5 {
				t.Errorf("N=%d agent %d: independent critic first weight %v; want %d inputs", tc.n, i, w, tc.obs+5)
			}
			var tp tensor.Tape
			q := ag.Critic.Online[0].Q(&tp, tensor.New(4, m.sumObs), tensor.New(4, m.sumAct))
			if s := q.Shape(); len(s) != 1 || s[0] != 4 {
				t.Errorf("N=%d agent %d: Q of 4 joint rows has shape %v; want [4]", tc.n, i, s)
			}
		}
	}
}

// fill plays learning-free steps until the buffer holds n transitions.
func fill(t testing.TB, m *MADDPG, e *spread.Env, n int) {
	t.Helper()
	for ep := uint64(0); m.Len() < n; ep++ {
		obs, _, err := e.Reset(env.SeedOf(ep))
		if err != nil {
			t.Fatal(err)
		}
		for len(e.Agents()) > 0 && m.Len() < n {
			act, err := m.Act(obs, true)
			if err != nil {
				t.Fatal(err)
			}
			next, rew, term, _, _, err := e.Step(act)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Store(next, rew, term); err != nil {
				t.Fatal(err)
			}
			obs = next
		}
	}
}

// setAll sets every value of ps to v.
func setAll(ps nn.Params, v float32) {
	for _, p := range ps {
		for k := range p.Tensor.Data() {
			p.Tensor.Data()[k] = v
		}
	}
}

// TestTargetByHand fixes the target networks so that Q′ is a known
// constant c whatever its inputs (all weights zero, the last bias c) and
// checks yᵢ = rᵢ + γ(1 − dᵢ)c on a fixed batch of stored transitions, with
// one transition marked terminated; then, with the real target networks,
// checks yᵢ against Q′ᵢ evaluated on the joint next observations and the
// target actors' actions concatenated here.
func TestTargetByHand(t *testing.T) {
	cfg := tinyConfig()
	cfg.Gamma = 0.5
	m, e := newMADDPG(t, cfg, 2, 3)
	fill(t, m, e, cfg.BatchSize)
	m.buf.done[3*2+1] = 1 // transition 3, agent 1
	for k := range m.idx {
		m.idx[k] = k
	}
	m.gather()
	m.targetActions()
	const c = 2.5
	saved := make([][]float32, 0)
	for _, p := range m.Agents[1].Critic.TargetParams() {
		saved = append(saved, append([]float32(nil), p.Tensor.Data()...))
	}
	tps := m.Agents[1].Critic.TargetParams()
	setAll(tps, 0)
	last := tps[len(tps)-1].Tensor.Data()
	last[0] = c
	y := make([]float32, cfg.BatchSize)
	m.targets(1, y)
	for r := range y {
		r1, d := m.buf.rew[r*2+1], m.buf.done[r*2+1]
		want := r1 + 0.5*(1-d)*c
		if math.Abs(float64(y[r]-want)) > 1e-6 {
			t.Errorf("row %d: y = %v; want r + γ(1−d)c = %v", r, y[r], want)
		}
	}
	if want := m.buf.rew[3*2+1]; y[3] != want {
		t.Errorf("terminated row: y = %v; want the reward %v alone", y[3], want)
	}
	for k, p := range tps {
		copy(p.Tensor.Data(), saved[k])
	}
	m.targets(1, y)
	var tp tensor.Tape
	var parts []*tensor.Tensor
	for j, ag := range m.Agents {
		parts = append(parts, ag.Target.Forward(&tp, m.nextT[j]))
	}
	q := m.Agents[1].Critic.Target[0].Q(&tp, m.xn, tp.Concat(1, parts...)).Data()
	for r := range y {
		want := m.buf.rew[r*2+1] + 0.5*(1-m.buf.done[r*2+1])*q[r]
		if math.Abs(float64(y[r]-want)) > 1e-5 {
			t.Errorf("row %d: y = %v; want %v from Q′(x′, μ′₁(o′₁), μ′₂(o′₂))", r, y[r], want)
		}
	}
}

// train runs episodes with learning and returns their returns.
func train(t testing.TB, m *MADDPG, e *spread.Env, episodes int) []float64 {
	t.Helper()
	var rets []float64
	for ep := range episodes {
		r, err := m.Episode(e, env.SeedOf(uint64(ep)), true, true)
		if err != nil {
			t.Fatal(err)
		}
		rets = append(rets, r)
	}
	return rets
}

func paramsEqual(t *testing.T, a, b nn.Params) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%d params against %d", len(a), len(b))
	}
	for i := range a {
		if !slicesEqual(a[i].Tensor.Data(), b[i].Tensor.Data()) {
			t.Fatalf("%s differs", a[i].Name)
		}
	}
}

func slicesEqual(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDeterministic checks that a seed reproduces the returns and the
// weights, and that another seed does not.
func TestDeterministic(t *testing.T) {
	m1, e1 := newMADDPG(t, tinyConfig(), 3, 7)
	m2, e2 := newMADDPG(t, tinyConfig(), 3, 7)
	m3, e3 := newMADDPG(t, tinyConfig(), 3, 8)
	r1, r2, r3 := train(t, m1, e1, 3), train(t, m2, e2, 3), train(t, m3, e3, 3)
	for i := range r1 {
		if r1[i] != r2[i] {
			t.Fatalf("episode %d: returns %v and %v with the same seed", i, r1[i], r2[i])
		}
	}
	if m1.Counters.Updates == 0 {
		t.Fatal("no update ran")
	}
	paramsEqual(t, m1.Params(), m2.Params())
	if slicesEqual(m1.Params()[0].Tensor.Data(), m3.Params()[0].Tensor.Data()) && r1[2] == r3[2] {
		t.Error("seeds 7 and 8 gave the same run")
	}
}

// TestSaveLoad checks that a loaded state equals the saved one and
// continues the same way: same weights, then the same updates.
func TestSaveLoad(t *testing.T) {
	m1, e1 := newMADDPG(t, tinyConfig(), 2, 5)
	train(t, m1, e1, 2)
	var buf bytes.Buffer
	if err := m1.Save(&buf); err != nil {
		t.Fatal(err)
	}
	m2, e2 := newMADDPG(t, tinyConfig(), 2, 99)
	if err := m2.Load(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatal(err)
	}
	paramsEqual(t, m1.Params(), m2.Params())
	if m2.Counters != m1.Counters {
		t.Fatalf("counters %+v; want %+v", m2.Counters, m1.Counters)
	}
	// The same transitions in both buffers, then the same updates.
	fill(t, m2, e2, m1.Len())
	copy(m2.buf.obs, m1.buf.obs)
	copy(m2.buf.next, m1.buf.next)
	copy(m2.buf.act, m1.buf.act)
	copy(m2.buf.rew, m1.buf.rew)
	copy(m2.buf.done, m1.buf.done)
	if err := m2.Load(bytes.NewReader(buf.Bytes())); err != nil { // the random source again
		t.Fatal(err)
	}
	for range 3 {
		if _, err := m1.Update(); err != nil {
			t.Fatal(err)
		}
		if _, err := m2.Update(); err != nil {
			t.Fatal(err)
		}
	}
	paramsEqual(t, m1.Params(), m2.Params())
	_ = e1

	other, _ := newMADDPG(t, tinyConfig(), 3, 5)
	if err := other.Load(bytes.NewReader(buf.Bytes())); err == nil {
		t.Error("a two-agent state loaded into three agents")
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
	}{
		{"n_step", func(c *Config) { c.NStep = 3 }},
		{"sigma", func(c *Config) { c.Sigma = -1 }},
		{"sigma inf", func(c *Config) { c.Sigma = math.Inf(1) }},
		{"batch", func(c *Config) { c.BatchSize = 0 }},
		{"buffer", func(c *Config) { c.BufferSize = c.BatchSize - 1 }},
		{"update_every", func(c *Config) { c.UpdateEvery = 0 }},
		{"tau", func(c *Config) { c.Tau = 0 }},
	} {
		c := DefaultConfig()
		tc.edit(&c)
		_, err := New(c, newSpread(t, 2), rand.New(rand.NewPCG(1, 1)))
		if !errors.Is(err, ErrConfig) {
			t.Errorf("%s: error %v; want ErrConfig", tc.name, err)
		}
	}
	disc, err := env.NewDiscrete(5, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(DefaultConfig(), discreteSpaces{newSpread(t, 2), disc}, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, ErrConfig) {
		t.Errorf("Discrete actions: error %v; want ErrConfig", err)
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Errorf("DefaultConfig: %v", err)
	}
}

// TestActBounds checks that explored actions stay inside the env's Box and
// that a missing observation is an error.
func TestActBounds(t *testing.T) {
	cfg := tinyConfig()
	cfg.Sigma = 5
	m, e := newMADDPG(t, cfg, 3, 2)
	obs, _, err := e.Reset(env.SeedOf(1))
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		act, err := m.Act(obs, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range m.IDs() {
			if !e.ActionSpace(id).Contains(act[id]) {
				t.Fatalf("%s: action %v outside %v", id, act[id], e.ActionSpace(id))
			}
		}
	}
	delete(obs, "agent_1")
	if _, err := m.Act(obs, false); err == nil {
		t.Error("Act without agent_1's observation gave no error")
	}
}

// BenchmarkUpdate measures one update of the three SimpleSpread agents
// with the default settings (64-64 networks, batches of 256).
func BenchmarkUpdate(b *testing.B) {
	m, e := newMADDPG(b, DefaultConfig(), 3, 1)
	fill(b, m, e, 1000)
	cputime.Measure(b, func() {
		if _, err := m.Update(); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkAct(b *testing.B) {
	m, e := newMADDPG(b, DefaultConfig(), 3, 1)
	obs, _, err := e.Reset(env.SeedOf(1))
	if err != nil {
		b.Fatal(err)
	}
	cputime.Measure(b, func() {
		if _, err := m.Act(obs, true); err != nil {
			b.Fatal(err)
		}
	})
}

// discreteSpaces is SimpleSpread with Discrete actions, which MADDPG
// refuses.
type discreteSpaces struct {
	*spread.Env
	act env.Space
}

func (d discreteSpaces) ActionSpace(string) env.Space { return d.act }

// TestUpdateNoAllocs locks the steady state: after one warm-up call, an
// update and an Act allocate nothing.
func TestUpdateNoAllocs(t *testing.T) {
	m, e := newMADDPG(t, tinyConfig(), 3, 4)
	fill(t, m, e, 20)
	obs, _, err := e.Reset(env.SeedOf(9))
	if err != nil {
		t.Fatal(err)
	}
	step := func() {
		if _, err := m.Update(); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Act(obs, true); err != nil {
			t.Fatal(err)
		}
	}
	step()
	if n := testing.AllocsPerRun(10, step); n != 0 {
		t.Errorf("%v allocations per update and Act; want 0", n)
	}
}
