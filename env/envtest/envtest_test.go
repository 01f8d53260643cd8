package envtest_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/nd"
)

var one = nd.MustNew(int64(1))

func TestFakeEpisodes(t *testing.T) {
	f := envtest.MustNew(envtest.Config{ID: 7, Lengths: []int{2, 3}, Reward: func(e, s int) float64 { return float64(10*e + s) }})
	if _, _, _, _, _, err := f.Step(one); !errors.Is(err, env.ErrNeedReset) {
		t.Fatalf("Step before Reset: %v", err)
	}
	type row struct {
		obs       [3]float32
		r         float64
		term, end bool
	}
	// Episodes of 2 and 3 steps, then 2 again; rewards 10·episode + step.
	want := [][]row{
		{{[3]float32{7, 0, 1}, 1, false, false}, {[3]float32{7, 0, 2}, 2, true, true}},
		{{[3]float32{7, 1, 1}, 11, false, false}, {[3]float32{7, 1, 2}, 12, false, false}, {[3]float32{7, 1, 3}, 13, true, true}},
		{{[3]float32{7, 2, 1}, 21, false, false}, {[3]float32{7, 2, 2}, 22, true, true}},
	}
	for e, episode := range want {
		obs, _, err := f.Reset(env.NoSeed)
		if err != nil || !equal3(obs, [3]float32{7, float32(e), 0}) {
			t.Fatalf("Reset %d: %v, %v", e, obs, err)
		}
		for s, w := range episode {
			obs, r, term, trunc, _, err := f.Step(one)
			if err != nil || !equal3(obs, w.obs) || r != w.r || term != w.term || trunc {
				t.Errorf("episode %d step %d: %v %v %v %v %v, want %+v", e, s+1, obs, r, term, trunc, err, w)
			}
		}
		if _, _, _, _, _, err := f.Step(one); !errors.Is(err, env.ErrNeedReset) {
			t.Errorf("Step after the end: %v", err)
		}
	}
	// A seed restarts the sequence at episode 0.
	if obs, _, _ := f.Reset(env.SeedOf(3)); !equal3(obs, [3]float32{7, 0, 0}) {
		t.Errorf("seeded Reset: %v", obs)
	}
	if f.LastAction() != 1 {
		t.Errorf("LastAction = %d", f.LastAction())
	}
}

func equal3(obs any, want [3]float32) bool {
	a, ok := obs.(*nd.Array)
	if !ok {
		return false
	}
	d := nd.Data[float32](a)
	return len(d) == 3 && d[0] == want[0] && d[1] == want[1] && d[2] == want[2]
}

func TestFakeDict(t *testing.T) {
	f := envtest.MustNew(envtest.Config{ID: 4, Lengths: []int{2}, Dict: true})
	if got := f.ObservationSpace().String(); got != "Dict('id': Discrete(65536), 'pos': Box(0.0, inf, (2,), float32))" {
		t.Errorf("space %s", got)
	}
	f.Reset(env.NoSeed)
	obs, _, _, _, _, _ := f.Step(one)
	b := obs.(*batch.Batch)
	id, _ := b.Array("id")
	pos, _ := b.Array("pos")
	if id.Item() != int64(4) || nd.Data[float32](pos)[0] != 0 || nd.Data[float32](pos)[1] != 1 {
		t.Errorf("observation %v", b)
	}
	if _, err := envtest.New(envtest.Config{ID: 1 << 16, Dict: true}); err == nil {
		t.Error("an ID above the Dict's range did not fail")
	}
}

func TestFakeFailures(t *testing.T) {
	f := envtest.MustNew(envtest.Config{Lengths: []int{10}, ErrorAt: 2, PanicAt: 3})
	f.Reset(env.NoSeed)
	if _, _, _, _, _, err := f.Step(one); err != nil {
		t.Fatal(err)
	}
	if _, _, _, _, _, err := f.Step(one); !errors.Is(err, envtest.ErrFake) {
		t.Errorf("step 2: %v, want ErrFake", err)
	}
	func() {
		defer func() {
			if err, ok := recover().(error); !ok || !errors.Is(err, envtest.ErrFake) {
				t.Errorf("step 3 panicked with %v, want ErrFake", err)
			}
		}()
		f.Step(one)
	}()
	if _, _, _, _, _, err := f.Step(nd.MustNew(int64(2))); !errors.Is(err, env.ErrAction) {
		t.Errorf("action 2: %v, want ErrAction", err)
	}
	for _, cfg := range []envtest.Config{{Lengths: []int{0}}, {ID: -1}, {ErrorAt: -1}} {
		if _, err := envtest.New(cfg); err == nil {
			t.Errorf("New(%+v) did not fail", cfg)
		}
	}
}

func TestFakeSleeps(t *testing.T) {
	f := envtest.MustNew(envtest.Config{Lengths: []int{5}, Sleep: 20 * time.Millisecond})
	f.Reset(env.NoSeed)
	start := time.Now()
	f.Step(one)
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Errorf("Step took %v, want at least the 20ms sleep", d)
	}
}

func TestFakesConform(t *testing.T) {
	for i, cfg := range []envtest.Config{
		{},
		{ID: 3, Lengths: []int{1, 4, 2}},
		{Lengths: []int{5}, Truncate: true, Info: true},
		{Lengths: []int{3}, Reward: func(e, s int) float64 { return float64(e) - 0.5*float64(s) }},
		{ID: 9, Lengths: []int{2, 3}, Dict: true},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) { envtest.Check(t, envtest.MustNew(cfg)) })
	}
}

// recorder is a testing.TB that records Errorf calls, to test Check itself.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper()             {}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// broken wraps a Fake and breaks one rule of the contract.
type broken struct {
	*envtest.Fake
	flaw string
	n    int
}

func (b *broken) Reset(seed env.Seed) (any, env.Info, error) {
	obs, info, err := b.Fake.Reset(seed)
	b.n++
	if b.flaw == "reset not reproducible" && b.n == 2 {
		nd.Data[float32](obs.(*nd.Array))[0] = 99
	}
	return obs, info, err
}

func (b *broken) Step(action any) (any, float64, bool, bool, env.Info, error) {
	obs, r, term, trunc, info, err := b.Fake.Step(action)
	switch {
	case b.flaw == "steps after the end" && errors.Is(err, env.ErrNeedReset):
		return obs, 0, false, false, nil, nil
	case b.flaw == "NaN reward":
		r = 0 * r / 0
	case b.flaw == "obs outside the space" && err == nil:
		nd.Data[float32](obs.(*nd.Array))[1] = -1
	}
	return obs, r, term, trunc, info, err
}

func (b *broken) Close() error {
	if b.flaw == "Close fails twice" && b.Fake.Close() == nil && b.Fake.Closed() > 1 {
		return errors.New("closed twice")
	}
	return nil
}

// forgetful restores nothing.
type forgetful struct{ *broken }

func (f forgetful) UnmarshalState([]byte) error { return nil }

func TestCheckFindsFlaws(t *testing.T) {
	flaws := map[string]string{
		"reset not reproducible": "two Resets with seed 42",
		"steps after the end":    "Step after the episode ended",
		"NaN reward":             "is not finite",
		"obs outside the space":  "is not in",
		"Close fails twice":      "second Close",
	}
	for flaw, want := range flaws {
		r := &recorder{TB: t}
		envtest.Check(r, &broken{Fake: envtest.MustNew(envtest.Config{Lengths: []int{3}}), flaw: flaw})
		if len(r.errs) == 0 || !strings.Contains(strings.Join(r.errs, "\n"), want) {
			t.Errorf("%s: Check reported %q, want a report containing %q", flaw, r.errs, want)
		}
	}
	r := &recorder{TB: t}
	envtest.Check(r, forgetful{&broken{Fake: envtest.MustNew(envtest.Config{Lengths: []int{3, 8}})}})
	if !strings.Contains(strings.Join(r.errs, "\n"), "truncated data") {
		t.Errorf("a Stater that accepts anything: Check reported %q", r.errs)
	}
	r = &recorder{TB: t}
	envtest.Check(r, envtest.MustNew(envtest.Config{Lengths: []int{3}}))
	if len(r.errs) != 0 {
		t.Errorf("a correct fake: Check reported %q", r.errs)
	}
}
