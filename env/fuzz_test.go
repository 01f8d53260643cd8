package env_test

import (
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
)

// stateStack is a stack of every stateful wrapper around a fake.
func stateStack(t testing.TB) env.Env {
	var e env.Env = fake(t, envtest.Config{Lengths: []int{3, 5}})
	e = must(env.NewFrameStack(e, 2))
	e = must(env.NewNormalizeObservation(e, 1e-8))
	e = must(env.NewNormalizeReward(e, 0.9, 1e-8))
	e = env.NewRecordEpisodeStatistics(e)
	return must(env.NewTimeLimit(e, 4))
}

// FuzzUnmarshalState feeds arbitrary bytes to a wrapper stack's
// UnmarshalState: it must never panic, and a state it accepts must leave
// an env that resets and steps.
func FuzzUnmarshalState(f *testing.F) {
	e := stateStack(f)
	saved := must(env.MarshalState(e))
	f.Add(saved)
	resetOK(f, e, env.SeedOf(1))
	stepOK(f, e, one)
	saved = must(env.MarshalState(e))
	f.Add(saved)
	f.Add(saved[:len(saved)/2])
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		e := stateStack(t)
		if err := env.UnmarshalState(e, data); err != nil {
			return
		}
		if _, _, _, _, _, err := e.Step(one); err != nil {
			resetOK(t, e, env.NoSeed)
		}
		stepOK(t, e, one)
		if _, err := env.MarshalState(e); err != nil {
			t.Fatalf("MarshalState after restoring: %v", err)
		}
	})
}

// FuzzRunningMeanStd feeds arbitrary bytes to UnmarshalBinary: it must
// never panic, and accepted statistics must round-trip.
func FuzzRunningMeanStd(f *testing.F) {
	r := env.NewRunningMeanStd(3)
	r.Update([]float64{1, 2, 3})
	f.Add(must(r.MarshalBinary()))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var r env.RunningMeanStd
		if err := r.UnmarshalBinary(data); err != nil {
			return
		}
		again := must(r.MarshalBinary())
		var r2 env.RunningMeanStd
		if err := r2.UnmarshalBinary(again); err != nil {
			t.Fatalf("re-encoded statistics rejected: %v", err)
		}
	})
}
