package env_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
)

func init() {
	threshold := 4.0
	env.Register("test/Fake-v0", env.Spec{
		New:             func() (env.Env, error) { return envtest.New(envtest.Config{Lengths: []int{10}}) },
		MaxEpisodeSteps: 3,
		RewardThreshold: &threshold,
	})
	env.Register("test/FakeNoLimit-v0", env.Spec{
		New: func() (env.Env, error) { return envtest.New(envtest.Config{Lengths: []int{10}}) },
	})
	env.Register("test/Broken-v0", env.Spec{
		New: func() (env.Env, error) { return nil, envtest.ErrFake },
	})
}

func TestMake(t *testing.T) {
	four, two := 4.0, 2.0
	e, err := env.Make("test/Fake-v0")
	if err != nil {
		t.Fatal(err)
	}
	tl, ok := e.(*env.TimeLimit)
	if !ok || tl.MaxEpisodeSteps() != 3 {
		t.Fatalf("Make returned %T, want a TimeLimit of 3 steps", e)
	}
	if _, ok := env.Unwrapped(e).(*envtest.Fake); !ok {
		t.Errorf("the wrapped env is %T", env.Unwrapped(e))
	}
	e, err = env.Make("test/FakeNoLimit-v0")
	if _, ok := e.(*envtest.Fake); err != nil || !ok {
		t.Errorf("without MaxEpisodeSteps Make returned %T, %v; want the bare env", e, err)
	}
	if spec, ok := env.Lookup("test/Fake-v0"); !ok || spec.MaxEpisodeSteps != 3 || *spec.RewardThreshold != 4 {
		t.Errorf("Lookup = %+v, %v", spec, ok)
	}
	for _, tc := range []struct {
		spec env.Spec
		want *float64
	}{
		{env.Spec{}, nil},
		{env.Spec{RewardThreshold: &four}, &four},
		{env.Spec{RewardThreshold: &four, TestThreshold: &two}, &two},
		{env.Spec{TestThreshold: &two}, &two},
	} {
		if got := tc.spec.StopThreshold(); got != tc.want {
			t.Errorf("StopThreshold of %+v = %v, want %v", tc.spec, got, tc.want)
		}
	}
	if _, err := env.Make("test/Broken-v0"); !errors.Is(err, envtest.ErrFake) || !strings.Contains(err.Error(), "test/Broken-v0") {
		t.Errorf("Make of a failing New: %v", err)
	}
}

func TestMakeUnknownListsIDs(t *testing.T) {
	_, err := env.Make("CartPole-v9")
	if !errors.Is(err, env.ErrNotRegistered) {
		t.Fatalf("error %v, want one wrapping ErrNotRegistered", err)
	}
	for _, id := range []string{"CartPole-v9", "test/Fake-v0", "test/FakeNoLimit-v0"} {
		if !strings.Contains(err.Error(), id) {
			t.Errorf("error %q does not name %s", err, id)
		}
	}
}

func TestIDsSorted(t *testing.T) {
	ids := env.IDs()
	if !slices.IsSorted(ids) || !slices.Contains(ids, "test/Fake-v0") {
		t.Errorf("IDs = %v", ids)
	}
}

func TestRegisterPanics(t *testing.T) {
	newFake := func() (env.Env, error) { return envtest.New(envtest.Config{}) }
	cases := map[string]func(){
		"duplicate":     func() { env.Register("test/Fake-v0", env.Spec{New: newFake}) },
		"empty id":      func() { env.Register("", env.Spec{New: newFake}) },
		"nil New":       func() { env.Register("test/NilNew-v0", env.Spec{}) },
		"negative time": func() { env.Register("test/Negative-v0", env.Spec{New: newFake, MaxEpisodeSteps: -1}) },
	}
	for name, f := range cases {
		func() {
			defer func() {
				if err, ok := recover().(error); !ok || !errors.Is(err, env.ErrRegister) {
					t.Errorf("%s: panic %v, want an error wrapping ErrRegister", name, err)
				}
			}()
			f()
		}()
	}
	if _, ok := env.Lookup("test/NilNew-v0"); ok {
		t.Error("a rejected registration was kept")
	}
}

// TestRegisterPrefix checks that Make hands unregistered ids with a
// registered prefix to the prefix's func, and registered ids to their spec.
func TestRegisterPrefix(t *testing.T) {
	var got []string
	env.RegisterPrefix("prefixtest:", func(name string) (env.Env, error) {
		got = append(got, name)
		if name == "bad" {
			return nil, errors.New("no such env")
		}
		return envtest.New(envtest.Config{})
	})
	if _, err := env.Make("prefixtest:Thing-v1"); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Make("prefixtest:bad"); err == nil || !strings.Contains(err.Error(), "making prefixtest:bad: no such env") {
		t.Fatalf("error %v", err)
	}
	if !slices.Equal(got, []string{"Thing-v1", "bad"}) {
		t.Fatalf("the prefix func got %q", got)
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !errors.Is(r.(error), env.ErrRegister) {
				t.Errorf("duplicate prefix: recovered %v", r)
			}
		}()
		env.RegisterPrefix("prefixtest:", func(string) (env.Env, error) { return nil, nil })
	}()
}
