package env_test

import (
	"math"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/nd"
)

// TestNormalizer checks the shared statistics against the closed form of
// the observations and returns seen by the training envs only (as
// VecNormalize with training = True on the training envs and False on the
// evaluation env), the clipping, G cleared at episode ends, unscaled rewards
// of a test env, and the state round trip.
func TestNormalizer(t *testing.T) {
	// The fakes' observations are [ID, episode, step]; rewards are the step.
	reward := func(_, s int) float64 { return float64(s) }
	const gamma, clip = 0.5, 1.5
	n := must(env.NewNormalizer(env.NormalizeConfig{Obs: true, Reward: true, ClipObs: clip, Gamma: gamma}, 3))
	envs := []*env.Normalized{
		must(n.Wrap(fake(t, envtest.Config{ID: 1, Lengths: []int{3}, Reward: reward}), true)),
		must(n.Wrap(fake(t, envtest.Config{ID: 3, Lengths: []int{3}, Reward: reward}), true)),
		must(n.Wrap(fake(t, envtest.Config{ID: 5, Lengths: []int{3}, Reward: reward}), false)),
	}
	if got, want := envs[0].ObservationSpace().String(), "Box(-inf, inf, (3,), float32)"; got != want {
		t.Errorf("ObservationSpace = %s, want %s", got, want)
	}
	var seen [3][]float64
	var gs []float64
	g := make([]float64, len(envs))
	checkObs := func(obs *nd.Array, raw []float64, train bool) {
		t.Helper()
		got := floats(obs)
		for i, x := range raw {
			if train {
				seen[i] = append(seen[i], x)
			}
			m, v := closedForm(seen[i])
			want := math.Max(-clip, math.Min(clip, (x-m)/math.Sqrt(v+1e-8)))
			if math.Abs(got[i]-want) > 1e-6*math.Max(1, math.Abs(want)) {
				t.Errorf("element %d of %v = %v, want %v", i, raw, got[i], want)
			}
		}
	}
	for ep := 0; ep < 2; ep++ {
		for k, e := range envs {
			checkObs(resetOK(t, e, env.NoSeed), []float64{float64(2*k + 1), float64(ep), 0}, e.Training())
		}
		for s := 1; s <= 3; s++ {
			for k, e := range envs {
				obs, r, _, _, _ := stepOK(t, e, one)
				checkObs(obs, []float64{float64(2*k + 1), float64(ep), float64(s)}, e.Training())
				want := float64(s) // a test env's rewards are not scaled
				if e.Training() {
					g[k] = g[k]*gamma + float64(s)
					gs = append(gs, g[k])
					_, v := closedForm(gs)
					want = math.Min(10, float64(s)/math.Sqrt(v+1e-8))
				}
				if math.Abs(r-want) > 1e-12 {
					t.Errorf("env %d episode %d step %d: reward %v, want %v", k, ep, s, r, want)
				}
			}
		}
		g = make([]float64, len(envs)) // the episodes ended: G is cleared
	}
	obsStats, retStats := n.Stats()
	if want := 2*2*4 + 1e-4; obsStats.Count != want || retStats.Count != 2*2*3+1e-4 {
		t.Errorf("counts %v and %v, want %v and 12.0001 (the training envs' only)", obsStats.Count, retStats.Count, want)
	}
	// The state of one env carries the shared statistics.
	st, err := env.MarshalState(envs[0])
	if err != nil {
		t.Fatal(err)
	}
	n2 := must(env.NewNormalizer(env.NormalizeConfig{Obs: true, Reward: true, ClipObs: clip, Gamma: gamma}, 3))
	e2 := must(n2.Wrap(fake(t, envtest.Config{ID: 1, Lengths: []int{3}, Reward: reward}), true))
	if err := env.UnmarshalState(e2, st); err != nil {
		t.Fatal(err)
	}
	if o2, r2 := n2.Stats(); o2.Count != obsStats.Count || o2.Mean[2] != obsStats.Mean[2] || r2.Var[0] != retStats.Var[0] {
		t.Errorf("restored statistics %+v %+v, want %+v %+v", o2, r2, obsStats, retStats)
	}
	b, _ := n.MarshalBinary()
	if err := n2.UnmarshalBinary(b[:len(b)-3]); err == nil {
		t.Error("UnmarshalBinary of truncated data did not fail")
	}
	if _, err := env.NewNormalizer(env.NormalizeConfig{Gamma: 2}, 3); err == nil {
		t.Error("gamma 2 did not fail")
	}
	if _, err := n.Wrap(fake(t, envtest.Config{Dict: true}), true); err == nil {
		t.Error("dict observations did not fail")
	}
}

func TestNormalizedStepAllocs(t *testing.T) {
	n := must(env.NewNormalizer(env.NormalizeConfig{Obs: true, Reward: true}, 3))
	e := must(n.Wrap(fake(t, envtest.Config{Lengths: []int{1 << 30}}), true))
	resetOK(t, e, env.NoSeed)
	if a := testing.AllocsPerRun(100, func() { e.Step(one) }); a != 0 {
		t.Errorf("Step allocates %v times", a)
	}
}

// BenchmarkNormalizedStep measures a training env's Step with observation
// and reward normalization over a fake env of 3-element observations (the
// size of the classic-control envs).
func BenchmarkNormalizedStep(b *testing.B) {
	n := must(env.NewNormalizer(env.NormalizeConfig{Obs: true, Reward: true}, 3))
	e := must(n.Wrap(fake(b, envtest.Config{Lengths: []int{1 << 30}}), true))
	resetOK(b, e, env.NoSeed)
	b.ReportAllocs()
	for range b.N {
		e.Step(one)
	}
}
