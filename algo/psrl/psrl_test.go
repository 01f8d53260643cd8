package psrl_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/psrl"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/tabular"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/nd"
)

// twoState is the 2-state MDP of the convergence test: in state 0, action
// 0 stays for reward 0.1 and action 1 moves to state 1 for reward 0; in
// state 1, action 0 stays for reward 1 and action 1 returns to state 0 for
// reward 0. With γ = 0.9 the optimal policy moves to state 1 and stays:
// Q(0, 1) = 0.9·10 = 9 > Q(0, 0) = 0.1 + 0.9·9 = 8.2.
func twoState(t testing.TB) *tabular.MDP {
	m, err := tabular.New("two", 2, 2, [][][]tabular.Outcome{
		{{{P: 1, Next: 0, Reward: 0.1}}, {{P: 1, Next: 1}}},
		{{{P: 1, Next: 1, Reward: 1}}, {{P: 1, Next: 0}}},
	}, []float64{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// episodes runs p for n episodes of steps steps in m from seed, updating
// after each, and returns the mean reward per step of each episode.
func episodes(t testing.TB, p *psrl.PSRL, m *tabular.MDP, seed uint64, n, steps int) []float64 {
	e, err := tabular.NewEnv(m)
	if err != nil {
		t.Fatal(err)
	}
	pol := p.Policy()
	pol.SetTrainingStep(true)
	obs, next, act := nd.Zeros(nd.Int64, steps), nd.Zeros(nd.Int64, steps), nd.Zeros(nd.Int64, steps)
	rew, term := nd.Zeros(nd.Float64, steps), nd.Zeros(nd.Bool, steps)
	b := batch.MustNew("obs", obs, "obs_next", next, "act", act, "rew", rew, "terminated", term)
	inObs, actIn := nd.Zeros(nd.Int64, 1), nd.Zeros(nd.Int64)
	in := batch.MustNew("obs", inObs)
	var out batch.Batch
	var means []float64
	for ep := range n {
		o, _, err := e.Reset(env.SeedOf(seed + uint64(ep)))
		if err != nil {
			t.Fatal(err)
		}
		s := nd.Data[int64](o.(*nd.Array))[0]
		sum := 0.0
		for i := range steps {
			nd.Data[int64](inObs)[0] = s
			if err := pol.Act(&out, in, nil, true); err != nil {
				t.Fatal(err)
			}
			a, err := out.Array("act")
			if err != nil {
				t.Fatal(err)
			}
			nd.Data[int64](actIn)[0] = nd.Data[int64](a)[0]
			o, r, done, _, _, err := e.Step(actIn)
			if err != nil {
				t.Fatal(err)
			}
			s2 := nd.Data[int64](o.(*nd.Array))[0]
			nd.Data[int64](obs)[i], nd.Data[int64](next)[i], nd.Data[int64](act)[i] = s, s2, nd.Data[int64](a)[0]
			nd.Data[float64](rew)[i], nd.Data[bool](term)[i] = r, done
			sum += r
			s = s2
		}
		if _, err := p.UpdateRepeat(b, 0, 1); err != nil {
			t.Fatal(err)
		}
		means = append(means, sum/float64(steps))
	}
	return means
}

func newPSRL(t testing.TB, m *tabular.MDP, seed uint64) *psrl.PSRL {
	cfg := psrl.DefaultConfig()
	cfg.Gamma = 0.9
	obs, _ := env.NewDiscrete(int64(m.States), 0)
	act, _ := env.NewDiscrete(int64(m.Actions), 0)
	p, err := psrl.New(cfg, obs, act, rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestConverges checks that PSRL on the 2-state MDP ends with the optimal
// policy (twoState's comment), on several seeds, and that its action
// values approach the exact ones of value iteration.
func TestConverges(t *testing.T) {
	m := twoState(t)
	exact := m.ValueIteration(0.9, 1e-9)
	for seed := range uint64(5) {
		p := newPSRL(t, m, seed)
		means := episodes(t, p, m, 100*seed, 30, 20)
		q := p.Q().Data()
		if !(q[1] > q[0] && q[2] > q[3]) {
			t.Errorf("seed %d: Q %v; want action 1 in state 0 and action 0 in state 1", seed, q)
		}
		for i, want := range []float64{exact[0][0], exact[0][1], exact[1][0], exact[1][1]} {
			if d := float64(q[i]) - want; d > 0.5 || d < -0.5 {
				t.Errorf("seed %d: Q[%d] = %v; want %v ± 0.5", seed, i, q[i], want)
			}
		}
		// The optimal policy earns 1 per step after the first: 0.95 per
		// step over 20 steps.
		if last := means[len(means)-1]; last != 0.95 {
			t.Errorf("seed %d: last episode earned %v per step; want 0.95", seed, last)
		}
	}
}

func TestDeterminismAndResume(t *testing.T) {
	m := twoState(t)
	a, b := newPSRL(t, m, 7), newPSRL(t, m, 7)
	episodes(t, a, m, 1, 3, 10)
	episodes(t, b, m, 1, 3, 10)
	state := algotest.State(t, a)
	if !bytes.Equal(state, algotest.State(t, b)) {
		t.Fatal("two runs of one seed differ")
	}
	fresh := newPSRL(t, m, 99)
	if err := fresh.Load(bytes.NewReader(state)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(algotest.State(t, fresh), state) {
		t.Error("the loaded state saves differently")
	}
	episodes(t, a, m, 50, 3, 10)
	episodes(t, fresh, m, 50, 3, 10)
	if !bytes.Equal(algotest.State(t, a), algotest.State(t, fresh)) {
		t.Error("the states differ after resuming")
	}
	other := newPSRL(t, tabular.FrozenLake(), 1)
	if err := other.Load(bytes.NewReader(state)); !errors.Is(err, algo.ErrState) {
		t.Errorf("loading into a PSRL of other sizes: %v; want algo.ErrState", err)
	}
}

func TestUpdateAllocations(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates")
	}
	m := twoState(t)
	p := newPSRL(t, m, 1)
	b := batch.MustNew("obs", []int64{0, 1, 1}, "obs_next", []int64{1, 1, 0}, "act", []int64{1, 0, 1},
		"rew", []float64{0, 1, 0}, "terminated", []bool{false, false, false})
	if _, err := p.UpdateRepeat(b, 0, 1); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() {
		if _, err := p.UpdateRepeat(b, 0, 1); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("UpdateRepeat allocates %v times", n)
	}
}

func TestRejects(t *testing.T) {
	two := algotest.Discrete(t, 2, 0)
	algotest.CheckRejects(t, psrl.DefaultConfig, psrl.New, psrl.ErrConfig, two, []algotest.Reject[psrl.Config]{
		{Name: "gamma 1", Edit: func(c *psrl.Config) { c.Gamma = 1 }, Want: "gamma"},
		{Name: "prior count 0", Edit: func(c *psrl.Config) { c.TransCountPrior = 0 }, Want: "trans_count_prior"},
		{Name: "std prior −1", Edit: func(c *psrl.Config) { c.RewStdPrior = -1 }, Want: "rew_std_prior"},
		{Name: "eps 0", Edit: func(c *psrl.Config) { c.Epsilon = 0 }, Want: "eps"},
	}, algotest.Box(t, -1, 1, 2))
	// CheckRejects uses Box observations; the Discrete ones are checked
	// here, and bad transitions.
	p, err := psrl.New(psrl.DefaultConfig(), two, two, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		b    *batch.Batch
		want string
	}{
		{"state out of range", batch.MustNew("obs", []int64{2}, "obs_next", []int64{0}, "act", []int64{0}, "rew", []float64{0}, "terminated", []bool{false}), "outside"},
		{"float observations", batch.MustNew("obs", []float32{0}, "obs_next", []int64{0}, "act", []int64{0}, "rew", []float64{0}, "terminated", []bool{false}), "obs"},
		{"no rewards", batch.MustNew("obs", []int64{0}, "obs_next", []int64{0}, "act", []int64{0}, "terminated", []bool{false}), "rew"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := p.UpdateRepeat(c.b, 0, 1); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("UpdateRepeat: %v; want an error naming %q", err, c.want)
			}
		})
	}
	if _, err := psrl.New(psrl.DefaultConfig(), algotest.Box(t, -1, 1, 2), two, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, psrl.ErrConfig) {
		t.Errorf("New with Box observations: %v; want ErrConfig", err)
	}
}
