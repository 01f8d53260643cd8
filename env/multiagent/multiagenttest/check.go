// Package multiagenttest checks that multi-agent envs keep the contracts of
// package multiagent, as envtest.Check does for single-agent envs.
package multiagenttest

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent"
	"github.com/gorl/gorl/nd"
)

// MaxCheckSteps bounds the steps of one checked episode.
const MaxCheckSteps = 2000

// CheckAEC tests that e behaves as multiagent.AEC says and reports each
// violation with t.Errorf:
//
//   - PossibleAgents is non-empty without repeats, and every agent's
//     spaces are non-nil and contain their samples;
//   - after Reset every possible agent is live, the selected agent is one
//     of them, and Observe gives each an observation in its space;
//   - playing sampled actions (valid ones where the observation has an
//     action mask), every Last observation is in its space, every reward
//     finite, a done agent's dead step Step(nil) removes it, and the game
//     ends with no agent left;
//   - a live agent's Step with an action outside its space, or with nil,
//     returns an error wrapping env.ErrAction and leaves the selection as
//     it was; Step after the game returns one wrapping env.ErrNeedReset;
//   - two Resets with seed 42 and the same actions give the same agents,
//     observations, rewards and flags;
//   - Close returns nil, twice.
//
// CheckAEC uses e and closes it.
func CheckAEC(t testing.TB, e multiagent.AEC) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	if !checkSpaces(t, e, rng) {
		return
	}
	var acts []any
	run1, ok := playAEC(t, e, &acts, false, rng)
	if ok {
		if err := e.Step(nil); !errors.Is(err, env.ErrNeedReset) {
			t.Errorf("Step after every agent left: error %v, want one wrapping env.ErrNeedReset", err)
		}
		run2, ok := playAEC(t, e, &acts, true, rng)
		if ok {
			sameRuns(t, run1, run2)
		}
	}
	closeTwice(t, e.Close)
}

// record is one observed turn or step, with its observation copied.
type record struct {
	agent       string
	obs         any
	reward      float64
	term, trunc bool
}

func sameRuns(t testing.TB, a, b []record) {
	t.Helper()
	if len(a) != len(b) {
		t.Errorf("two Resets with seed 42 and the same actions: %d and %d turns", len(a), len(b))
		return
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.agent != y.agent || x.reward != y.reward || x.term != y.term || x.trunc != y.trunc || !equalValues(x.obs, y.obs) {
			t.Errorf("two Resets with seed 42 and the same actions differ at turn %d: %+v and %+v", i, x, y)
			return
		}
	}
}

func checkSpaces(t testing.TB, e multiagent.Spaces, rng *rand.Rand) bool {
	t.Helper()
	ids := e.PossibleAgents()
	if len(ids) == 0 {
		t.Errorf("PossibleAgents is empty")
		return false
	}
	ok := true
	for i, a := range ids {
		if slices.Contains(ids[:i], a) {
			t.Errorf("PossibleAgents %q repeats %q", ids, a)
			ok = false
		}
		for _, s := range []struct {
			name  string
			space env.Space
		}{{"ObservationSpace", e.ObservationSpace(a)}, {"ActionSpace", e.ActionSpace(a)}} {
			if s.space == nil {
				t.Errorf("%s(%q) is nil", s.name, a)
				ok = false
				continue
			}
			for range 20 {
				if x := s.space.Sample(rng); !s.space.Contains(x) {
					t.Errorf("%s(%q) %v does not contain its sample %v", s.name, a, s.space, x)
					break
				}
			}
		}
	}
	if e.ObservationSpace("no such agent") != nil || e.ActionSpace("no such agent") != nil {
		t.Errorf("the spaces of an unknown agent are not nil")
	}
	return ok
}

// sampleAction draws an action of space, a valid one when obs carries an
// action mask with a valid action (a Discrete space).
func sampleAction(space env.Space, obs any, rng *rand.Rand) any {
	d, ok := space.(*env.Discrete)
	mask, masked := multiagent.Mask(obs)
	if !ok || !masked {
		return space.Sample(rng)
	}
	var valid []int64
	for k, m := range mask {
		if m != 0 {
			valid = append(valid, int64(k))
		}
	}
	if len(valid) == 0 {
		return space.Sample(rng)
	}
	return nd.MustNew(d.Start() + valid[rng.IntN(len(valid))])
}

// playAEC plays one game from Reset(42) with sampled actions (or replays
// acts) and returns its turns.
func playAEC(t testing.TB, e multiagent.AEC, acts *[]any, replay bool, rng *rand.Rand) ([]record, bool) {
	t.Helper()
	if err := e.Reset(env.SeedOf(42)); err != nil {
		t.Errorf("Reset(42): %v", err)
		return nil, false
	}
	live := e.Agents()
	if !sameSet(live, e.PossibleAgents()) {
		t.Errorf("after Reset, Agents %q; want every possible agent %q", live, e.PossibleAgents())
		return nil, false
	}
	for _, a := range live {
		if o := e.Observe(a); !e.ObservationSpace(a).Contains(o) {
			t.Errorf("Observe(%q) after Reset: %v is not in %v", a, o, e.ObservationSpace(a))
			return nil, false
		}
	}
	var recs []record
	n := 0
	for turn := 0; turn < MaxCheckSteps && len(e.Agents()) > 0; turn++ {
		a := e.AgentSelection()
		if !slices.Contains(e.Agents(), a) {
			t.Errorf("turn %d: AgentSelection %q is not live (%q)", turn, a, e.Agents())
			return nil, false
		}
		obs, r, term, trunc, _ := e.Last()
		if !e.ObservationSpace(a).Contains(obs) {
			t.Errorf("turn %d: %s's observation %v is not in %v", turn, a, obs, e.ObservationSpace(a))
			return nil, false
		}
		if math.IsNaN(r) || math.IsInf(r, 0) {
			t.Errorf("turn %d: %s's reward %v is not finite", turn, a, r)
			return nil, false
		}
		recs = append(recs, record{a, copyValue(obs), r, term, trunc})
		if term || trunc {
			before := len(e.Agents())
			if err := e.Step(nil); err != nil {
				t.Errorf("turn %d: %s's dead step: %v", turn, a, err)
				return nil, false
			}
			if len(e.Agents()) != before-1 || slices.Contains(e.Agents(), a) {
				t.Errorf("turn %d: %s's dead step left Agents %q", turn, a, e.Agents())
				return nil, false
			}
			continue
		}
		if !replay {
			if turn == 0 {
				checkBadActions(t, e, a)
			}
			*acts = append(*acts, sampleAction(e.ActionSpace(a), obs, rng))
		}
		if n >= len(*acts) {
			t.Errorf("replay: the game goes on past %d actions", n)
			return nil, false
		}
		if err := e.Step((*acts)[n]); err != nil {
			t.Errorf("turn %d: %s's Step(%v): %v", turn, a, (*acts)[n], err)
			return nil, false
		}
		n++
	}
	if len(e.Agents()) > 0 {
		t.Logf("the game did not end within %d turns; its end is not checked", MaxCheckSteps)
		return recs, false
	}
	return recs, true
}

// checkBadActions checks that a live agent's invalid actions are refused.
func checkBadActions(t testing.TB, e multiagent.AEC, a string) {
	t.Helper()
	bad := []any{nil, "not an action"}
	if d, ok := e.ActionSpace(a).(*env.Discrete); ok {
		bad = append(bad, nd.MustNew(d.Start()+d.N()), nd.MustNew(d.Start()-1))
	}
	for _, x := range bad {
		if err := e.Step(x); !errors.Is(err, env.ErrAction) {
			t.Errorf("%s's Step(%v): error %v, want one wrapping env.ErrAction", a, x, err)
		}
		if s := e.AgentSelection(); s != a {
			t.Errorf("a refused Step(%v) moved the selection from %q to %q", x, a, s)
		}
	}
}

// CheckParallel tests that e behaves as multiagent.Parallel says and reports
// each violation with t.Errorf:
//
//   - the spaces are as CheckAEC checks them;
//   - Reset returns an observation in its space for every possible agent,
//     all of them live;
//   - every Step with sampled actions returns, for each agent that acted,
//     an observation in its space, a finite reward and both flags; agents
//     that ended leave Agents; the episode ends with no agent left (or is
//     cut off after MaxCheckSteps);
//   - a Step without some live agent's action, or with an action outside
//     its space, returns an error wrapping env.ErrAction; a Step after the
//     episode returns one wrapping env.ErrNeedReset;
//   - two Resets with seed 42 and the same actions give the same results;
//   - Close returns nil, twice.
//
// CheckParallel uses e and closes it.
func CheckParallel(t testing.TB, e multiagent.Parallel) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	if !checkSpaces(t, e, rng) {
		return
	}
	var acts []map[string]any
	run1, ok := playParallel(t, e, &acts, false, rng)
	if ok {
		if _, _, _, _, _, err := e.Step(map[string]any{}); !errors.Is(err, env.ErrNeedReset) {
			t.Errorf("Step after the episode: error %v, want one wrapping env.ErrNeedReset", err)
		}
		run2, ok := playParallel(t, e, &acts, true, rng)
		if ok {
			sameRuns(t, run1, run2)
		}
	}
	closeTwice(t, e.Close)
}

func playParallel(t testing.TB, e multiagent.Parallel, acts *[]map[string]any, replay bool, rng *rand.Rand) ([]record, bool) {
	t.Helper()
	obs, _, err := e.Reset(env.SeedOf(42))
	if err != nil {
		t.Errorf("Reset(42): %v", err)
		return nil, false
	}
	if !sameSet(e.Agents(), e.PossibleAgents()) {
		t.Errorf("after Reset, Agents %q; want every possible agent %q", e.Agents(), e.PossibleAgents())
		return nil, false
	}
	var recs []record
	for _, a := range e.Agents() {
		o, ok := obs[a]
		if !ok || !e.ObservationSpace(a).Contains(o) {
			t.Errorf("Reset: %s's observation %v is not in %v", a, o, e.ObservationSpace(a))
			return nil, false
		}
		recs = append(recs, record{agent: a, obs: copyValue(o)})
	}
	for i := 0; i < MaxCheckSteps && len(e.Agents()) > 0; i++ {
		live := slices.Clone(e.Agents())
		if !replay {
			if i == 0 {
				checkBadParallel(t, e, live, rng)
			}
			m := map[string]any{}
			for _, a := range live {
				m[a] = e.ActionSpace(a).Sample(rng)
			}
			*acts = append(*acts, m)
		}
		if i >= len(*acts) {
			t.Errorf("replay: the episode goes on past %d steps", i)
			return nil, false
		}
		obs, rew, term, trunc, _, err := e.Step((*acts)[i])
		if err != nil {
			t.Errorf("step %d: %v", i, err)
			return nil, false
		}
		for _, a := range live {
			o, ok := obs[a]
			if !ok || !e.ObservationSpace(a).Contains(o) {
				t.Errorf("step %d: %s's observation %v is not in %v", i, a, o, e.ObservationSpace(a))
				return nil, false
			}
			r, ok := rew[a]
			if !ok || math.IsNaN(r) || math.IsInf(r, 0) {
				t.Errorf("step %d: %s's reward %v (given: %v) is not finite", i, a, r, ok)
				return nil, false
			}
			te, ok1 := term[a]
			tr, ok2 := trunc[a]
			if !ok1 || !ok2 {
				t.Errorf("step %d: %s has no terminated or truncated flag", i, a)
				return nil, false
			}
			if (te || tr) && slices.Contains(e.Agents(), a) {
				t.Errorf("step %d: %s ended but is still in Agents %q", i, a, e.Agents())
				return nil, false
			}
			recs = append(recs, record{a, copyValue(o), r, te, tr})
		}
	}
	if len(e.Agents()) > 0 {
		t.Logf("the episode did not end within %d steps; its end is not checked", MaxCheckSteps)
		return recs, false
	}
	return recs, true
}

func checkBadParallel(t testing.TB, e multiagent.Parallel, live []string, rng *rand.Rand) {
	t.Helper()
	if len(live) > 0 {
		m := map[string]any{}
		for _, a := range live[1:] {
			m[a] = e.ActionSpace(a).Sample(rng)
		}
		if _, _, _, _, _, err := e.Step(m); !errors.Is(err, env.ErrAction) {
			t.Errorf("Step without %s's action: error %v, want one wrapping env.ErrAction", live[0], err)
		}
		m[live[0]] = "not an action"
		if _, _, _, _, _, err := e.Step(m); !errors.Is(err, env.ErrAction) {
			t.Errorf("Step with a string for %s's action: error %v, want one wrapping env.ErrAction", live[0], err)
		}
	}
	if !sameSet(e.Agents(), live) {
		t.Errorf("refused Steps changed Agents from %q to %q", live, e.Agents())
	}
}

func closeTwice(t testing.TB, close func() error) {
	t.Helper()
	if err := close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := close(); err != nil {
		t.Errorf("second Close: %v, want nil", err)
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

func copyValue(v any) any {
	switch x := v.(type) {
	case *nd.Array:
		return x.Copy()
	case *batch.Batch:
		return x.Clone()
	}
	return v
}

func equalValues(a, b any) bool {
	switch x := a.(type) {
	case *nd.Array:
		y, ok := b.(*nd.Array)
		return ok && nd.Equal(x, y)
	case *batch.Batch:
		y, ok := b.(*batch.Batch)
		return ok && batch.Equal(x, y)
	}
	return a == nil && b == nil
}
