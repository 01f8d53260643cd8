package env_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/nd"
)

// echo is an env with a Box action space whose observation is the last
// action it received (as float64) and whose reward is that action's sum. Its
// episodes never end. It records the dtype of the last action.
type echo struct {
	act, obs  *env.Box
	last      *nd.Array
	lastDType nd.DType
	ready     bool
}

func newEcho(t testing.TB, low, high any, shape []int) *echo {
	t.Helper()
	act, err := env.NewBox(low, high, shape, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	shape = act.Shape()
	obs := must(env.NewBox(math.Inf(-1), math.Inf(1), shape, nd.Float64))
	return &echo{act: act, obs: obs, last: nd.Zeros(nd.Float64, shape...)}
}

func (e *echo) ObservationSpace() env.Space { return e.obs }
func (e *echo) ActionSpace() env.Space      { return e.act }
func (e *echo) Close() error                { return nil }

func (e *echo) Reset(env.Seed) (any, env.Info, error) {
	e.last.Zero()
	e.ready = true
	return e.last, nil, nil
}

func (e *echo) Step(action any) (any, float64, bool, bool, env.Info, error) {
	if !e.ready {
		return nil, 0, false, false, nil, env.ErrNeedReset
	}
	a := action.(*nd.Array)
	e.lastDType = a.DType()
	if err := nd.CopyTo(e.last, a); err != nil {
		return nil, 0, false, false, nil, err
	}
	sum := 0.0
	for _, v := range nd.Data[float64](e.last) {
		sum += v
	}
	return e.last, sum, false, false, nil, nil
}

func fake(t testing.TB, cfg envtest.Config) *envtest.Fake {
	t.Helper()
	f, err := envtest.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

var (
	zero = nd.MustNew(int64(0))
	one  = nd.MustNew(int64(1))
)

// stepOK steps e and fails the test on error.
func stepOK(t testing.TB, e env.Env, action any) (obs *nd.Array, r float64, term, trunc bool, info env.Info) {
	t.Helper()
	o, r, term, trunc, info, err := e.Step(action)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := o.(*nd.Array)
	return a, r, term, trunc, info
}

func resetOK(t testing.TB, e env.Env, seed env.Seed) *nd.Array {
	t.Helper()
	o, _, err := e.Reset(seed)
	if err != nil {
		t.Fatal(err)
	}
	return o.(*nd.Array)
}

func floats(a *nd.Array) []float64 {
	c, err := a.AsType(nd.Float64)
	if err != nil {
		panic(err)
	}
	return nd.ToSlice[float64](c)
}

func TestTimeLimit(t *testing.T) {
	// Episodes of the fake last 2, 3 and 10 steps; the limit is 3.
	tl := must(env.NewTimeLimit(fake(t, envtest.Config{Lengths: []int{2, 3, 10}}), 3))
	if _, _, _, _, _, err := tl.Step(zero); !errors.Is(err, env.ErrNeedReset) {
		t.Fatalf("Step before Reset: %v, want ErrNeedReset", err)
	}
	type flags struct{ term, trunc bool }
	// Hand-derived: episode 0 terminates at step 2 before the limit;
	// episode 1 terminates at step 3, the limit, so both flags are set (as
	// in Gymnasium); episode 2 is truncated at step 3.
	want := [][]flags{{{false, false}, {true, false}}, {{false, false}, {false, false}, {true, true}}, {{false, false}, {false, false}, {false, true}}}
	for e, episode := range want {
		resetOK(t, tl, env.NoSeed)
		for s, w := range episode {
			_, _, term, trunc, _ := stepOK(t, tl, one)
			if term != w.term || trunc != w.trunc {
				t.Errorf("episode %d step %d: terminated %v truncated %v, want %v %v", e, s+1, term, trunc, w.term, w.trunc)
			}
			if tl.Elapsed() != s+1 {
				t.Errorf("Elapsed = %d, want %d", tl.Elapsed(), s+1)
			}
		}
		if _, _, _, _, _, err := tl.Step(one); !errors.Is(err, env.ErrNeedReset) {
			t.Errorf("episode %d: Step after the end: %v, want ErrNeedReset", e, err)
		}
	}
	if _, err := env.NewTimeLimit(fake(t, envtest.Config{}), 0); err == nil {
		t.Error("NewTimeLimit(0) did not fail")
	}
}

func TestTimeLimitDoesNotCountFailedSteps(t *testing.T) {
	tl := must(env.NewTimeLimit(fake(t, envtest.Config{Lengths: []int{10}, ErrorAt: 2}), 3))
	resetOK(t, tl, env.NoSeed)
	stepOK(t, tl, one)
	if _, _, _, _, _, err := tl.Step(one); !errors.Is(err, envtest.ErrFake) {
		t.Fatalf("second Step: %v, want the fake's error", err)
	}
	if tl.Elapsed() != 1 {
		t.Errorf("Elapsed after a failed step = %d, want 1", tl.Elapsed())
	}
}

func TestClipAction(t *testing.T) {
	inner := newEcho(t, []float64{-1, 0}, []float64{1, 2}, nil)
	c := must(env.NewClipAction(inner))
	if got, want := c.ActionSpace().String(), "Box(-inf, inf, (2,), float32)"; got != want {
		t.Errorf("ActionSpace = %s, want %s (Gymnasium's ClipAction)", got, want)
	}
	resetOK(t, c, env.NoSeed)
	cases := []struct {
		action any
		want   []float64 // np.clip(action, low, high) by hand
	}{
		{mustArray(t, []float32{0.5, 1}), []float64{0.5, 1}},
		{mustArray(t, []float64{-3, 5}), []float64{-1, 2}},
		{mustArray(t, []int64{2, -1}), []float64{1, 0}},
	}
	for _, k := range cases {
		obs, _, _, _, _ := stepOK(t, c, k.action)
		if got := floats(obs); !slices.Equal(got, k.want) {
			t.Errorf("ClipAction(%v) passed %v, want %v", k.action, got, k.want)
		}
		if inner.lastDType != nd.Float32 {
			t.Errorf("the wrapped env got a %v action, want float32", inner.lastDType)
		}
	}
	obs, _, _, _, _ := stepOK(t, c, mustArray(t, []float32{float32(math.NaN()), 0}))
	if !math.IsNaN(floats(obs)[0]) {
		t.Error("a NaN action was not passed on as NaN")
	}
	if _, _, _, _, _, err := c.Step(mustArray(t, []float32{1, 2, 3})); !errors.Is(err, env.ErrAction) {
		t.Errorf("action of the wrong shape: %v, want ErrAction", err)
	}
	if _, err := env.NewClipAction(fake(t, envtest.Config{})); !errors.Is(err, env.ErrSpace) {
		t.Errorf("ClipAction of a Discrete action space: %v, want ErrSpace", err)
	}
}

func TestRescaleAction(t *testing.T) {
	inner := newEcho(t, []float64{0, -2}, []float64{10, 2}, nil)
	r := must(env.NewRescaleAction(inner, -1.0, 1.0))
	if got, want := r.ActionSpace().String(), "Box(-1.0, 1.0, (2,), float32)"; got != want {
		t.Errorf("ActionSpace = %s, want %s", got, want)
	}
	resetOK(t, r, env.NoSeed)
	cases := []struct {
		action []float32
		want   []float64 // low + (high − low)·(a + 1)/2 by hand
	}{
		{[]float32{-1, -1}, []float64{0, -2}},
		{[]float32{1, 1}, []float64{10, 2}},
		{[]float32{0, 0.5}, []float64{5, 1}},
		{[]float32{2, -3}, []float64{15, -6}}, // outside [min, max]: mapped, not clipped
	}
	for _, k := range cases {
		obs, _, _, _, _ := stepOK(t, r, mustArray(t, k.action))
		if got := floats(obs); !slices.Equal(got, k.want) {
			t.Errorf("RescaleAction(%v) passed %v, want %v", k.action, got, k.want)
		}
	}
	for _, bad := range [][2]any{{1.0, 1.0}, {1.0, -1.0}, {math.Inf(-1), 1.0}, {[]float64{0, 0, 0}, 1.0}} {
		if _, err := env.NewRescaleAction(inner, bad[0], bad[1]); err == nil {
			t.Errorf("NewRescaleAction(%v, %v) did not fail", bad[0], bad[1])
		}
	}
	if _, err := env.NewRescaleAction(newEcho(t, 0.0, math.Inf(1), []int{1}), -1.0, 1.0); !errors.Is(err, env.ErrSpace) {
		t.Errorf("RescaleAction of an unbounded Box: %v, want ErrSpace", err)
	}
}

func TestContinuousToDiscrete(t *testing.T) {
	inner := newEcho(t, []float64{-1, 0}, []float64{1, 4}, nil)
	c := must(env.NewContinuousToDiscrete(inner, 3))
	if got, want := c.ActionSpace().String(), "MultiDiscrete([3 3])"; got != want {
		t.Errorf("ActionSpace = %s, want %s", got, want)
	}
	resetOK(t, c, env.NoSeed)
	cases := []struct {
		action []int64
		want   []float64 // linspace(-1, 1, 3) = [-1 0 1], linspace(0, 4, 3) = [0 2 4]
	}{
		{[]int64{0, 2}, []float64{-1, 4}},
		{[]int64{1, 1}, []float64{0, 2}},
		{[]int64{2, 0}, []float64{1, 0}},
	}
	for _, k := range cases {
		obs, _, _, _, _ := stepOK(t, c, mustArray(t, k.action))
		if got := floats(obs); !slices.Equal(got, k.want) {
			t.Errorf("action %v passed %v, want %v", k.action, got, k.want)
		}
	}
	for _, bad := range []any{mustArray(t, []int64{3, 0}), mustArray(t, []int64{0}), mustArray(t, []float32{0, 0})} {
		if _, _, _, _, _, err := c.Step(bad); !errors.Is(err, env.ErrAction) {
			t.Errorf("action %v: %v, want ErrAction", bad, err)
		}
	}
	if _, err := env.NewContinuousToDiscrete(newEcho(t, 0.0, 1.0, []int{2, 2}), 3); !errors.Is(err, env.ErrSpace) {
		t.Errorf("a 2-d Box: %v, want ErrSpace", err)
	}
	if _, err := env.NewContinuousToDiscrete(inner, 0); !errors.Is(err, env.ErrSpace) {
		t.Errorf("n = 0: %v, want ErrSpace", err)
	}
}

// closedForm returns the statistics Gymnasium's RunningMeanStd reaches after
// updates with xs one at a time, computed in one pass as the merge of its
// prior (count 1e-4, mean 0, variance 1) with the samples' mean m and
// population variance v: mean = n·m/N, var = (1e-4 + n·v + m²·1e-4·n/N)/N,
// N = n + 1e-4 (Chan et al.'s merge, which the sequential updates reproduce).
func closedForm(xs []float64) (mean, variance float64) {
	n := float64(len(xs))
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= n
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	v /= n
	N := n + 1e-4
	return n * m / N, (1e-4 + n*v + m*m*1e-4*n/N) / N
}

func TestNormalizeObservation(t *testing.T) {
	// The fake's observations are [ID, episode, step] = [2, 0, t].
	no := must(env.NewNormalizeObservation(fake(t, envtest.Config{ID: 2, Lengths: []int{100}}), 1e-8))
	if got, want := no.ObservationSpace().String(), "Box(-inf, inf, (3,), float32)"; got != want {
		t.Errorf("ObservationSpace = %s, want %s", got, want)
	}
	var seen [3][]float64
	check := func(obs *nd.Array, raw []float64) {
		t.Helper()
		if obs.DType() != nd.Float32 {
			t.Fatalf("observation dtype %v, want float32", obs.DType())
		}
		got := floats(obs)
		for i, x := range raw {
			seen[i] = append(seen[i], x)
			m, v := closedForm(seen[i])
			want := float64(float32((x - m) / math.Sqrt(v+1e-8)))
			if math.Abs(got[i]-want) > 1e-6*math.Max(1, math.Abs(want)) {
				t.Errorf("after %d observations, element %d = %v, want %v", len(seen[i]), i, got[i], want)
			}
		}
	}
	check(resetOK(t, no, env.NoSeed), []float64{2, 0, 0})
	for s := 1; s <= 20; s++ {
		obs, _, _, _, _ := stepOK(t, no, one)
		check(obs, []float64{2, 0, float64(s)})
	}
	stats := no.Stats()
	if m, v := closedForm(seen[2]); math.Abs(stats.Mean[2]-m) > 1e-12 || math.Abs(stats.Var[2]-v) > 1e-12 || stats.Count != 21+1e-4 {
		t.Errorf("Stats = %+v, want mean %v var %v count 21.0001", stats, m, v)
	}
	// Frozen statistics do not move.
	no.SetFrozen(true)
	stepOK(t, no, one)
	if s := no.Stats(); s.Count != stats.Count || s.Mean[2] != stats.Mean[2] {
		t.Error("frozen statistics changed")
	}
	if err := no.SetStats(env.NewRunningMeanStd(2)); err == nil {
		t.Error("SetStats of the wrong size did not fail")
	}
	if err := no.SetStats(env.NewRunningMeanStd(3)); err != nil {
		t.Fatal(err)
	}
	// With the prior statistics (mean 0, variance 1) frozen, x becomes x/√(1+ε).
	obs, _, _, _, _ := stepOK(t, no, one)
	if got := floats(obs); got[0] != float64(float32(2/math.Sqrt(1+1e-8))) {
		t.Errorf("with the prior statistics, %v", got)
	}
}

func TestNormalizeReward(t *testing.T) {
	// Rewards 1, 2, 3 in episodes of 3 steps that terminate; γ = 0.5.
	// Gymnasium's G ← γ·G·(1 − terminated) + r drops G on the terminating
	// step itself: G = 1, 0.5·1+2 = 2.5, then 3 (terminated), then
	// 0.5·3+1 = 2.5, 0.5·2.5+2 = 3.25, 3, …
	f := fake(t, envtest.Config{Lengths: []int{3}, Reward: func(_, s int) float64 { return float64(s) }})
	nr := must(env.NewNormalizeReward(f, 0.5, 1e-8))
	var gs []float64
	g := 0.0
	for e := 0; e < 3; e++ {
		resetOK(t, nr, env.NoSeed)
		for s := 1; s <= 3; s++ {
			_, r, term, _, _ := stepOK(t, nr, one)
			keep := 1.0
			if term {
				keep = 0
			}
			g = g*0.5*keep + float64(s)
			gs = append(gs, g)
			_, v := closedForm(gs)
			if want := float64(s) / math.Sqrt(v+1e-8); math.Abs(r-want) > 1e-12 {
				t.Errorf("episode %d step %d: reward %v, want %v", e, s, r, want)
			}
		}
	}
	// Truncation does not clear G, as in Gymnasium.
	tr := must(env.NewNormalizeReward(fake(t, envtest.Config{Lengths: []int{1}, Truncate: true}), 1, 0))
	for i := 0; i < 3; i++ {
		resetOK(t, tr, env.NoSeed)
		stepOK(t, tr, one)
	}
	if s := tr.Stats(); math.Abs(s.Mean[0]-closedFormMean([]float64{1, 2, 3})) > 1e-12 {
		t.Errorf("after truncated episodes the mean of G is %v, want the mean over G = 1, 2, 3", s.Mean[0])
	}
	if _, err := env.NewNormalizeReward(f, 1.5, 1e-8); err == nil {
		t.Error("gamma 1.5 did not fail")
	}
}

func closedFormMean(xs []float64) float64 {
	m, _ := closedForm(xs)
	return m
}

func TestRunningMeanStdBinary(t *testing.T) {
	r := env.NewRunningMeanStd(2)
	r.Update([]float64{1, 2})
	r.Update([]float64{3, -4})
	data, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got env.RunningMeanStd
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Mean, r.Mean) || !slices.Equal(got.Var, r.Var) || got.Count != r.Count {
		t.Errorf("round trip gave %+v, want %+v", got, r)
	}
	for i := 0; i < len(data); i++ {
		if err := got.UnmarshalBinary(data[:i]); !errors.Is(err, env.ErrState) {
			t.Fatalf("truncated to %d bytes: %v, want ErrState", i, err)
		}
	}
}

func TestTransformObservationAndReward(t *testing.T) {
	double := func(obs any) (any, error) {
		return nd.Mul(obs.(*nd.Array), float32(2))
	}
	to := must(env.NewTransformObservation(fake(t, envtest.Config{ID: 1, Lengths: []int{5}}), double, nil))
	if got := floats(resetOK(t, to, env.NoSeed)); !slices.Equal(got, []float64{2, 0, 0}) {
		t.Errorf("Reset observation %v, want [2 0 0]", got)
	}
	if obs, _, _, _, _ := stepOK(t, to, one); !slices.Equal(floats(obs), []float64{2, 0, 2}) {
		t.Errorf("Step observation %v, want [2 0 2]", floats(obs))
	}
	failing := must(env.NewTransformObservation(fake(t, envtest.Config{}), func(any) (any, error) { return nil, envtest.ErrFake }, nil))
	if _, _, err := failing.Reset(env.NoSeed); !errors.Is(err, envtest.ErrFake) {
		t.Errorf("Reset with a failing transform: %v", err)
	}

	tr := must(env.NewTransformReward(fake(t, envtest.Config{Lengths: []int{5}}), func(r float64) float64 { return 10*r + 1 }))
	resetOK(t, tr, env.NoSeed)
	if _, r, _, _, _ := stepOK(t, tr, one); r != 11 {
		t.Errorf("reward %v, want 11", r)
	}
	if _, err := env.NewTransformReward(tr, nil); err == nil {
		t.Error("a nil reward function did not fail")
	}
}

func TestTruncatedAsTerminated(t *testing.T) {
	w := env.NewTruncatedAsTerminated(fake(t, envtest.Config{Lengths: []int{2}, Truncate: true}))
	resetOK(t, w, env.NoSeed)
	if _, _, term, trunc, _ := stepOK(t, w, one); term || trunc {
		t.Errorf("step 1: terminated %v truncated %v", term, trunc)
	}
	if _, _, term, trunc, _ := stepOK(t, w, one); !term || trunc {
		t.Errorf("step 2 (truncated by the fake): terminated %v truncated %v, want true false", term, trunc)
	}
}

func TestFrameStack(t *testing.T) {
	fs := must(env.NewFrameStack(fake(t, envtest.Config{ID: 1, Lengths: []int{5}}), 3))
	if got, want := fs.ObservationSpace().String(), "Box(0.0, inf, (3, 3), float32)"; got != want {
		t.Errorf("ObservationSpace = %s, want %s", got, want)
	}
	// Gymnasium's FrameStackObservation with "reset" padding: the reset
	// observation [1 0 0] fills the stack, then each step shifts in [1 0 t].
	want := [][]float64{
		{1, 0, 0, 1, 0, 0, 1, 0, 0},
		{1, 0, 0, 1, 0, 0, 1, 0, 1},
		{1, 0, 0, 1, 0, 1, 1, 0, 2},
		{1, 0, 1, 1, 0, 2, 1, 0, 3},
		{1, 0, 2, 1, 0, 3, 1, 0, 4},
	}
	got := resetOK(t, fs, env.NoSeed)
	for i, w := range want {
		if i > 0 {
			got, _, _, _, _ = stepOK(t, fs, one)
		}
		if !slices.Equal(floats(got), w) {
			t.Errorf("stack %d = %v, want %v", i, floats(got), w)
		}
	}
	// The next episode starts from a full stack of its reset observation.
	stepOK(t, fs, one)
	if got := floats(resetOK(t, fs, env.NoSeed)); !slices.Equal(got, []float64{1, 1, 0, 1, 1, 0, 1, 1, 0}) {
		t.Errorf("after Reset: %v", got)
	}
	if _, err := env.NewFrameStack(fs, 0); !errors.Is(err, env.ErrSpace) {
		t.Errorf("k = 0: %v, want ErrSpace", err)
	}
}

func TestRecordEpisodeStatistics(t *testing.T) {
	// Rewards 10·episode + step: episode 0 (2 steps) returns 1+2 = 3,
	// episode 1 (3 steps) returns 11+12+13 = 36.
	f := fake(t, envtest.Config{Lengths: []int{2, 3}, Info: true, Reward: func(e, s int) float64 { return float64(10*e + s) }})
	rs := env.NewRecordEpisodeStatistics(f)
	want := []env.EpisodeStats{{Return: 3, Length: 2}, {Return: 36, Length: 3}}
	for e, w := range want {
		resetOK(t, rs, env.NoSeed)
		for s := 1; s <= w.Length; s++ {
			_, _, _, _, info := stepOK(t, rs, one)
			st, ok := info["episode"].(env.EpisodeStats)
			if s < w.Length && ok {
				t.Errorf("episode %d step %d: statistics before the end", e, s)
			}
			if s == w.Length {
				if !ok || st.Return != w.Return || st.Length != w.Length || st.Elapsed < 0 {
					t.Errorf("episode %d: statistics %v, want %v", e, st, w)
				}
				if info["step"] != s {
					t.Errorf("episode %d: the wrapped env's info entries were lost: %v", e, info)
				}
			}
		}
	}
	if rs.Episodes() != 2 {
		t.Errorf("Episodes = %d, want 2", rs.Episodes())
	}
}

func TestUnwrappedAndForwarding(t *testing.T) {
	f := fake(t, envtest.Config{Lengths: []int{3}})
	tl := must(env.NewTimeLimit(f, 10))
	stack := env.NewRecordEpisodeStatistics(env.NewTruncatedAsTerminated(tl))
	if env.Unwrapped(stack) != f {
		t.Error("Unwrapped did not find the fake")
	}
	if stack.ObservationSpace() != f.ObservationSpace() || stack.ActionSpace() != f.ActionSpace() {
		t.Error("spaces are not forwarded")
	}
	if _, err := env.Render(stack); !errors.Is(err, env.ErrNeedReset) {
		t.Errorf("Render before Reset through wrappers: %v, want the fake's ErrNeedReset", err)
	}
	if err := stack.Close(); err != nil || f.Closed() != 1 {
		t.Errorf("Close: %v, the fake saw %d calls", err, f.Closed())
	}
	// A wrapper of an env that neither renders nor saves state says so.
	e := must(env.NewClipAction(newEcho(t, 0.0, 1.0, []int{1})))
	if _, err := e.Render(); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Render of a non-Renderer: %v, want errors.ErrUnsupported", err)
	}
	if _, err := e.MarshalState(); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("MarshalState of a non-Stater: %v, want errors.ErrUnsupported", err)
	}
}

// Every wrapper around fakes passes the conformance check, including the
// saving and restoring of its state. The normalizing wrappers are frozen:
// statistics carried from one episode to the next make two seeded episodes
// differ, which the check's reproducibility test would report.
func TestWrappersConform(t *testing.T) {
	cfg := envtest.Config{ID: 1, Lengths: []int{4, 7}, Reward: func(e, s int) float64 { return float64(e - s) }}
	cases := map[string]func() env.Env{
		"TimeLimit":      func() env.Env { return must(env.NewTimeLimit(fake(t, cfg), 5)) },
		"NormalizeObs":   func() env.Env { return frozenObs(must(env.NewNormalizeObservation(fake(t, cfg), 1e-8))) },
		"NormalizeRew":   func() env.Env { return frozenRew(must(env.NewNormalizeReward(fake(t, cfg), 0.99, 1e-8))) },
		"FrameStack":     func() env.Env { return must(env.NewFrameStack(fake(t, cfg), 4)) },
		"EpisodeStats":   func() env.Env { return env.NewRecordEpisodeStatistics(fake(t, cfg)) },
		"TruncAsTerm":    func() env.Env { return env.NewTruncatedAsTerminated(fake(t, cfg)) },
		"TransformRew":   func() env.Env { return must(env.NewTransformReward(fake(t, cfg), math.Abs)) },
		"ClipAction":     func() env.Env { return must(env.NewClipAction(newEcho(t, -1.0, 1.0, []int{2}))) },
		"RescaleAction":  func() env.Env { return must(env.NewRescaleAction(newEcho(t, 0.0, 4.0, []int{2}), -1.0, 1.0)) },
		"ContToDiscrete": func() env.Env { return must(env.NewContinuousToDiscrete(newEcho(t, 0.0, 4.0, []int{2}), 5)) },
		"Stack": func() env.Env {
			var e env.Env = fake(t, cfg)
			e = must(env.NewFrameStack(e, 2))
			e = frozenObs(must(env.NewNormalizeObservation(e, 1e-8)))
			e = frozenRew(must(env.NewNormalizeReward(e, 0.9, 1e-8)))
			e = env.NewRecordEpisodeStatistics(e)
			return must(env.NewTimeLimit(e, 6))
		},
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) { envtest.Check(t, mk()) })
	}
}

func frozenObs(n *env.NormalizeObservation) env.Env {
	n.SetFrozen(true)
	return n
}

func frozenRew(n *env.NormalizeReward) env.Env {
	n.SetFrozen(true)
	return n
}

// A state saved mid-episode and restored into a fresh stack continues as
// the original does.
func TestWrapperStateResume(t *testing.T) {
	cfg := envtest.Config{Lengths: []int{3, 5, 8}, Reward: func(e, s int) float64 { return float64(e*s + 1) }}
	mk := func() env.Env {
		var e env.Env = fake(t, cfg)
		e = must(env.NewFrameStack(e, 3))
		e = must(env.NewNormalizeObservation(e, 1e-8))
		e = must(env.NewNormalizeReward(e, 0.9, 1e-8))
		e = env.NewRecordEpisodeStatistics(e)
		return must(env.NewTimeLimit(e, 6))
	}
	type out struct {
		obs     []float64
		r       float64
		end     bool
		episode float64
	}
	run := func(e env.Env, steps int) []out {
		var res []out
		for i := 0; i < steps; i++ {
			obs, r, term, trunc, info := stepOK(t, e, one)
			o := out{obs: floats(obs), r: r, end: term || trunc}
			if st, ok := info["episode"].(env.EpisodeStats); ok {
				o.episode = st.Return
			}
			res = append(res, o)
			if o.end {
				resetOK(t, e, env.NoSeed)
			}
		}
		return res
	}
	a := mk()
	resetOK(t, a, env.SeedOf(1))
	run(a, 7)
	saved := must(env.MarshalState(a))
	want := run(a, 15)

	b := mk()
	if err := env.UnmarshalState(b, saved); err != nil {
		t.Fatal(err)
	}
	got := run(b, 15)
	for i := range want {
		if !slices.Equal(got[i].obs, want[i].obs) || got[i].r != want[i].r || got[i].end != want[i].end || got[i].episode != want[i].episode {
			t.Fatalf("step %d after restoring: %+v, want %+v", i, got[i], want[i])
		}
	}
	// A state of a different stack is rejected, leaving b unchanged.
	other := must(env.NewTimeLimit(fake(t, cfg), 6))
	if err := env.UnmarshalState(other, saved); !errors.Is(err, env.ErrState) {
		t.Errorf("restoring into a different stack: %v, want ErrState", err)
	}
}

func TestWrappersDoNotAllocate(t *testing.T) {
	f := fake(t, envtest.Config{Lengths: []int{1 << 30}})
	var e env.Env = must(env.NewTimeLimit(f, 1<<30))
	e = must(env.NewFrameStack(e, 4))
	e = must(env.NewNormalizeObservation(e, 1e-8))
	e = must(env.NewNormalizeReward(e, 0.99, 1e-8))
	e = env.NewTruncatedAsTerminated(e)
	resetOK(t, e, env.SeedOf(1))
	if n := testing.AllocsPerRun(200, func() { stepOK(t, e, one) }); n != 0 {
		t.Errorf("observation and reward wrappers: %v allocations per step, want 0", n)
	}
	a := must(env.NewClipAction(must(env.NewRescaleAction(newEcho(t, 0.0, 4.0, []int{2}), -1.0, 1.0))))
	act := mustArray(t, []float32{0.5, 2})
	resetOK(t, a, env.NoSeed)
	if n := testing.AllocsPerRun(200, func() { stepOK(t, a, act) }); n != 0 {
		t.Errorf("action wrappers: %v allocations per step, want 0", n)
	}
}
