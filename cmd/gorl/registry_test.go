package main

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/env"
)

// configAs returns the typed configuration of ac, failing the test if ac
// configures another type.
func configAs[C any](t testing.TB, ac algoConfig) *C {
	t.Helper()
	b, ok := ac.(*bound[C])
	if !ok {
		t.Fatalf("the configuration is a %T, not a *bound[%T]", ac, *new(C))
	}
	return b.c
}

// noPanic fails the test if output holds a Go panic or a goroutine trace.
func noPanic(t testing.TB, output string) {
	t.Helper()
	for _, bad := range []string{"panic:", "goroutine "} {
		if strings.Contains(output, bad) {
			t.Errorf("the output holds %q:\n%s", bad, output)
		}
	}
}

// TestStopThreshold checks the default stop of each algorithm's runs: the
// env's registered stop threshold (Tianshou's test thresholds on CartPole
// and Pendulum, Gymnasium's reward thresholds elsewhere), unless a setting
// replaces it.
func TestStopThreshold(t *testing.T) {
	for _, tc := range []struct {
		algo, env string
		sets      []string
		want      float64 // NaN: no threshold
	}{
		{"dqn", "CartPole-v1", nil, 195},
		{"pg", "CartPole-v1", nil, 195},
		{"a2c", "CartPole-v1", nil, 195},
		{"ppo", "CartPole-v1", nil, 195},
		{"bc", "CartPole-v1", nil, 195},
		{"bcq", "CartPole-v1", nil, 195},
		{"ppo", "Pendulum-v1", nil, -250},
		{"a2c", "Pendulum-v1", nil, -250},
		{"dqn", "Acrobot-v1", nil, -100},
		{"dqn", "MountainCar-v0", nil, -110},
		{"ppo", "MountainCarContinuous-v0", nil, 90},
		{"dqn", "CartPole-v1", []string{"trainer.reward_threshold=400"}, 400},
		{"dqn", "CartPole-v1", []string{"trainer.reward_threshold=null"}, math.NaN()},
	} {
		rc, _, err := resolve(tc.algo, tc.env, nil, tc.sets)
		if err != nil {
			t.Fatalf("%s on %s: %v", tc.algo, tc.env, err)
		}
		got := rc.Trainer.RewardThreshold
		if (got == nil) != math.IsNaN(tc.want) || (got != nil && *got != tc.want) {
			t.Errorf("%s on %s with %q stops at %v, want %v", tc.algo, tc.env, tc.sets, got, tc.want)
		}
	}
}

// TestRegister checks that Register refuses an empty name, a missing
// function and a name registered twice.
func TestRegister(t *testing.T) {
	type cfg struct{}
	ok := Algorithm[cfg]{
		Defaults: func(string) (*cfg, RunDefaults) { return &cfg{}, RunDefaults{} },
		New:      func(*cfg, env.Space, env.Space, *rand.Rand) (algo.Algorithm, error) { return nil, nil },
	}
	noNew := ok
	noNew.New = nil
	for _, tc := range []struct {
		name string
		a    Algorithm[cfg]
	}{{"", ok}, {"test-no-new", noNew}, {"dqn", ok}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", tc.name)
				}
			}()
			Register(tc.name, tc.a)
		}()
	}
	if _, ok := algorithms["test-no-new"]; ok {
		t.Error("an algorithm without New was registered")
	}
}
