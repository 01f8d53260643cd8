package multiagenttest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent"
	"github.com/gorl/gorl/env/multiagent/multiagenttest"
	"github.com/gorl/gorl/env/multiagent/spread"
	"github.com/gorl/gorl/env/multiagent/tictactoe"
)

// recorder is a testing.TB that keeps the errors.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper()             {}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// lenient accepts any action of a live agent: the check must notice.
type lenient struct{ *tictactoe.Env }

func (l lenient) Step(a any) error {
	if a == nil || fmt.Sprint(a) == "not an action" {
		return nil
	}
	return l.Env.Step(a)
}

// noDead keeps a finished agent live after its dead step.
type noDead struct{ *tictactoe.Env }

func (n noDead) Agents() []string {
	if len(n.Env.Agents()) == 0 {
		return n.Env.PossibleAgents()[:1]
	}
	return n.Env.Agents()
}

// forgetful ignores its seed: a different first observation each Reset.
type forgetful struct {
	*spread.Env
	resets int
}

func (f *forgetful) Reset(env.Seed) (map[string]any, map[string]env.Info, error) {
	f.resets++
	return f.Env.Reset(env.SeedOf(uint64(f.resets)))
}

func TestCheckFindsFlaws(t *testing.T) {
	sp := func() *spread.Env {
		e, err := spread.New(spread.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	for _, c := range []struct {
		name  string
		check func(testing.TB)
		want  string
	}{
		{"an AEC that accepts nil for a live agent", func(tb testing.TB) { multiagenttest.CheckAEC(tb, lenient{tictactoe.New()}) }, "ErrAction"},
		{"an AEC whose agents never leave", func(tb testing.TB) { multiagenttest.CheckAEC(tb, noDead{tictactoe.New()}) }, "dead step left"},
		{"a Parallel that ignores its seed", func(tb testing.TB) { multiagenttest.CheckParallel(tb, &forgetful{Env: sp()}) }, "seed 42"},
	} {
		r := &recorder{TB: t}
		c.check(r)
		if len(r.errs) == 0 || !strings.Contains(strings.Join(r.errs, "\n"), c.want) {
			t.Errorf("%s: errors %q; want one mentioning %q", c.name, r.errs, c.want)
		}
	}
}

func TestRegistered(t *testing.T) {
	if _, err := multiagent.MakeAEC(spread.ID); err == nil {
		t.Error("MakeAEC of a Parallel env: no error")
	}
	if _, err := multiagent.MakeParallel(tictactoe.ID); err == nil {
		t.Error("MakeParallel of an AEC env: no error")
	}
	ids := multiagent.IDs()
	if len(ids) < 2 {
		t.Errorf("IDs %q", ids)
	}
}
