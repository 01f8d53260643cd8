package collector_test

import (
	"context"
	"errors"
	"image"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
)

// newCollector returns a Collector over v with pol and a Vector buffer of
// size transitions per env, reset with seeds 0, 1, ….
func newCollector(tb testing.TB, v vector.Env, pol collector.Policy, size int) (*collector.Collector, *buffer.Vector) {
	tb.Helper()
	buf := vecBuf(tb, v.Len(), size)
	c, err := collector.New(collector.Config{Env: v, Policy: pol, Buffer: buf, Rand: rand.New(rand.NewPCG(5, 6))})
	if err != nil {
		tb.Fatal(err)
	}
	if err := c.Reset(bg, seedsOf(v.Len())); err != nil {
		tb.Fatal(err)
	}
	return c, buf
}

// TestCollectNStepOneEnv: with one env, n_step is exact, and a second
// Collect continues the episode in progress. Expected rows by hand: the
// fake's episodes last 3 steps, its obs is [id, episode, step].
func TestCollectNStepOneEnv(t *testing.T) {
	c, buf := newCollector(t, fakeVec(t, envtest.Config{}, []int{3}), &fixedPolicy{}, 10)
	s, err := c.Collect(bg, collector.Request{NStep: 4})
	if err != nil {
		t.Fatal(err)
	}
	if s.Steps != 4 || s.Episodes != 1 || !reflect.DeepEqual(s.Lens, []int{3}) || !reflect.DeepEqual(s.Returns, []float64{3}) {
		t.Fatalf("stats %+v, want 4 steps, one episode of length 3 and return 3", s)
	}
	s, err = c.Collect(bg, collector.Request{NStep: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Steps != 2 || s.Episodes != 1 || s.Lens[0] != 3 {
		t.Fatalf("second Collect: %+v, want 2 steps ending the episode begun before (length 3)", s)
	}
	want := []row{
		{"0.0.0", "0.0.1", 1, false}, {"0.0.1", "0.0.2", 1, false}, {"0.0.2", "0.0.3", 1, true},
		{"0.1.0", "0.1.1", 1, false}, {"0.1.1", "0.1.2", 1, false}, {"0.1.2", "0.1.3", 1, true},
	}
	if got := subRows(t, buf, 0, 10); !reflect.DeepEqual(got, want) {
		t.Errorf("buffer rows\n got %v\nwant %v", got, want)
	}
}

// TestCollectNStepVector: with n envs, whole vector steps until at least
// n_step (by hand: ⌈n_step/3⌉·3 for 3 envs).
func TestCollectNStepVector(t *testing.T) {
	for _, tc := range []struct{ nStep, want int }{{1, 3}, {5, 6}, {6, 6}, {7, 9}} {
		c, buf := newCollector(t, fakeVec(t, envtest.Config{}, []int{2}, []int{3}, []int{4}), &fixedPolicy{}, 10)
		s, err := c.Collect(bg, collector.Request{NStep: tc.nStep})
		if err != nil {
			t.Fatal(err)
		}
		if s.Steps != tc.want || buf.Len() != tc.want {
			t.Errorf("NStep %d: %d steps, buffer holds %d, want %d", tc.nStep, s.Steps, buf.Len(), tc.want)
		}
	}
	// The contents for n_step 5, by hand: two vector steps; env 0's first
	// episode (length 2) ends at the second.
	c, buf := newCollector(t, fakeVec(t, envtest.Config{}, []int{2}, []int{3}, []int{4}), &fixedPolicy{}, 10)
	if _, err := c.Collect(bg, collector.Request{NStep: 5}); err != nil {
		t.Fatal(err)
	}
	want := [][]row{
		{{"0.0.0", "0.0.1", 1, false}, {"0.0.1", "0.0.2", 1, true}},
		{{"1.0.0", "1.0.1", 1, false}, {"1.0.1", "1.0.2", 1, false}},
		{{"2.0.0", "2.0.1", 1, false}, {"2.0.1", "2.0.2", 1, false}},
	}
	for sub := range want {
		if got := subRows(t, buf, sub, 10); !reflect.DeepEqual(got, want[sub]) {
			t.Errorf("sub-buffer %d\n got %v\nwant %v", sub, got, want[sub])
		}
	}
}

// TestCollectNEpisode checks Tianshou's rule for n_episode with several
// envs: exactly n_episode episodes, envs dropping out once enough episodes
// have been started. The expected figures are traced by hand in the
// comments.
func TestCollectNEpisode(t *testing.T) {
	for _, tc := range []struct {
		name     string
		lengths  [][]int
		nEpisode int
		steps    int
		perEnv   []int // transitions stored per env
		lens     []int // in the order the episodes finished
	}{
		// Step 1: env 0 ends (1 done, 4 left, 4 active). Step 2: envs 0 and
		// 1 end (3 done, 2 left, 4 active: 0 and 1 drop). Step 3: env 2
		// ends (4 done, 1 left: 2 drops). Step 4: env 3 ends. 4+4+2+1.
		{"drop", [][]int{{1}, {2}, {3}, {4}}, 5, 11, []int{2, 2, 3, 4}, []int{1, 1, 2, 3, 4}},
		// Only 2 of 4 envs step; env 0 drops after its episode.
		{"fewer episodes than envs", [][]int{{3}, {5}, {1}, {1}}, 2, 8, []int{3, 5, 0, 0}, []int{3, 5}},
		// Step 2: all three end (3 done, 1 left: envs 0 and 1 drop); env 2
		// runs a second episode. 3+3+1+1.
		{"simultaneous", [][]int{{2}, {2}, {2}}, 4, 8, []int{2, 2, 4}, []int{2, 2, 2, 2}},
		{"one env", [][]int{{2, 3}}, 3, 7, []int{7}, []int{2, 3, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, buf := newCollector(t, fakeVec(t, envtest.Config{}, tc.lengths...), &fixedPolicy{}, 10)
			s, err := c.Collect(bg, collector.Request{NEpisode: tc.nEpisode})
			if err != nil {
				t.Fatal(err)
			}
			if s.Episodes != tc.nEpisode || s.Steps != tc.steps || !reflect.DeepEqual(s.Lens, tc.lens) {
				t.Errorf("episodes %d, steps %d, lens %v; want %d, %d, %v", s.Episodes, s.Steps, s.Lens, tc.nEpisode, tc.steps, tc.lens)
			}
			for i, n := range tc.perEnv {
				if got := len(subRows(t, buf, i, 10)); got != n {
					t.Errorf("env %d stored %d transitions, want %d", i, got, n)
				}
			}
		})
	}
}

// TestCollectStatistics: one env with episodes of 1, 2, 3 and 4 steps and
// reward e+1 in episode e, so returns 1, 4, 9, 16. Mean, population std,
// min and max by hand: returns 7.5, √(129/4) = 5.6789083458…, 1, 16;
// lengths 2.5, √1.25, 1, 4.
func TestCollectStatistics(t *testing.T) {
	v := fakeVec(t, envtest.Config{Reward: func(e, _ int) float64 { return float64(e + 1) }}, []int{1, 2, 3, 4})
	c, _ := newCollector(t, v, &fixedPolicy{}, 20)
	s, err := c.Collect(bg, collector.Request{NEpisode: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.Returns, []float64{1, 4, 9, 16}) || !reflect.DeepEqual(s.Lens, []int{1, 2, 3, 4}) || s.Steps != 10 {
		t.Fatalf("returns %v, lens %v, steps %d", s.Returns, s.Lens, s.Steps)
	}
	const tol = 1e-12
	for _, c := range []struct {
		got, want collector.Summary
	}{
		{s.Return, collector.Summary{Mean: 7.5, Std: math.Sqrt(129.0 / 4), Min: 1, Max: 16}},
		{s.Len, collector.Summary{Mean: 2.5, Std: math.Sqrt(1.25), Min: 1, Max: 4}},
	} {
		if math.Abs(c.got.Mean-c.want.Mean) > tol || math.Abs(c.got.Std-c.want.Std) > tol || c.got.Min != c.want.Min || c.got.Max != c.want.Max {
			t.Errorf("summary %+v, want %+v", c.got, c.want)
		}
	}
	if s.Duration <= 0 || s.EnvTime <= 0 || s.PolicyTime <= 0 || s.EnvTime+s.PolicyTime > s.Duration || s.StepsPerSecond <= 0 {
		t.Errorf("times: duration %v, env %v, policy %v, %.0f steps/s", s.Duration, s.EnvTime, s.PolicyTime, s.StepsPerSecond)
	}
	// No episode: zero summaries. Episode 4 lasts 1 step, episode 5 two.
	if _, err = c.Collect(bg, collector.Request{NStep: 1}); err != nil {
		t.Fatal(err)
	}
	s, err = c.Collect(bg, collector.Request{NStep: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Episodes != 0 || s.Return != (collector.Summary{}) || len(s.Returns) != 0 {
		t.Errorf("stats without episodes: %+v", s)
	}
}

// TestCollectHooks: OnStep sees every stored transition with the buffer
// index it went to, OnEpisode every finished episode with its first and
// last buffer indices (sub-buffer i holds indices [10i, 10i+10)).
func TestCollectHooks(t *testing.T) {
	v := fakeVec(t, envtest.Config{}, []int{2}, []int{3})
	buf := vecBuf(t, 2, 10)
	type stepSeen struct {
		env, row, index int
		obs             string
	}
	var steps []stepSeen
	var eps []collector.EpisodeEvent
	c, err := collector.New(collector.Config{Env: v, Policy: &fixedPolicy{}, Buffer: buf,
		OnStep: func(e collector.StepEvent) {
			o, _ := e.Batch.Array("obs")
			steps = append(steps, stepSeen{e.Env, e.Row, e.Index, key3(nd.ToSlice[float32](o.Index(nd.I(e.Row))))})
		},
		OnEpisode: func(e collector.EpisodeEvent) { eps = append(eps, e) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Collect(bg, collector.Request{NStep: 6}); err != nil {
		t.Fatal(err)
	}
	wantSteps := []stepSeen{
		{0, 0, 0, "0.0.0"}, {1, 1, 10, "1.0.0"},
		{0, 0, 1, "0.0.1"}, {1, 1, 11, "1.0.1"},
		{0, 0, 2, "0.1.0"}, {1, 1, 12, "1.0.2"},
	}
	if !reflect.DeepEqual(steps, wantSteps) {
		t.Errorf("OnStep\n got %v\nwant %v", steps, wantSteps)
	}
	wantEps := []collector.EpisodeEvent{{Env: 0, Return: 2, Len: 2, Start: 0, End: 1}, {Env: 1, Return: 3, Len: 3, Start: 10, End: 12}}
	if !reflect.DeepEqual(eps, wantEps) {
		t.Errorf("OnEpisode\n got %+v\nwant %+v", eps, wantEps)
	}
}

// TestCollectReset: without ResetBeforeCollect a Collect continues the
// episodes in progress; with it, every env starts a new episode (the fake
// counts episodes, so an unseeded reset moves it to episode 1); Reset with
// seeds restarts the fakes' episode count.
func TestCollectReset(t *testing.T) {
	pol := &fixedPolicy{Record: true}
	c, _ := newCollector(t, fakeVec(t, envtest.Config{}, []int{5}), pol, 10)
	for _, req := range []collector.Request{{NStep: 2}, {NStep: 1}, {NStep: 1, ResetBeforeCollect: true}} {
		if _, err := c.Collect(bg, req); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Reset(bg, []env.Seed{env.SeedOf(9)}); err != nil {
		t.Fatal(err)
	}
	s, err := c.Collect(bg, collector.Request{NStep: 1})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range pol.obsSeen {
		got = append(got, key3(o))
	}
	want := []string{"0.0.0", "0.0.1", "0.0.2", "0.1.0", "0.0.0"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("observations acted on %v, want %v", got, want)
	}
	if s.Episodes != 0 {
		t.Errorf("%d episodes after a reset, want 0 (the abandoned episode is not counted)", s.Episodes)
	}
	if err := c.Reset(bg, seedsOf(2)); err == nil {
		t.Error("Reset with 2 seeds for 1 env: no error")
	}
}

// TestCollectHiddenState: the hidden state is carried per env, zeroed when
// its episode ends, and stored under policy.hidden_state with the policy's
// data. fixedPolicy returns state+1 (1 for nil) and policy.n = its call
// count. By hand, for envs of 2 and 3 steps: states given [nil, (1,1),
// (0,2)] (env 0's zeroed after its episode), returned (1,1), (2,2), (1,3).
func TestCollectHiddenState(t *testing.T) {
	pol := &fixedPolicy{State: true, Record: true}
	c, buf := newCollector(t, fakeVec(t, envtest.Config{}, []int{2}, []int{3}), pol, 10)
	if _, err := c.Collect(bg, collector.Request{NStep: 6}); err != nil {
		t.Fatal(err)
	}
	wantIn := []any{nil, []float32{1, 1}, []float32{0, 2}}
	if !reflect.DeepEqual(pol.statesIn, wantIn) {
		t.Errorf("states given %v, want %v", pol.statesIn, wantIn)
	}
	data, err := buf.Take([]int{0, 1, 2, 10, 11, 12})
	if err != nil {
		t.Fatal(err)
	}
	hs, err := data.Array("policy.hidden_state")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := data.Array("policy.n")
	if got, want := nd.ToSlice[float32](hs), []float32{1, 2, 1, 1, 2, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("stored hidden states %v, want %v", got, want)
	}
	if got, want := nd.ToSlice[float64](n), []float64{1, 2, 3, 1, 2, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("stored policy.n %v, want %v", got, want)
	}
	// A reset zeroes every hidden state.
	pol.statesIn = nil
	if _, err := c.Collect(bg, collector.Request{NStep: 2, ResetBeforeCollect: true}); err != nil {
		t.Fatal(err)
	}
	if want := []any{[]float32{0, 0}}; !reflect.DeepEqual(pol.statesIn, want) {
		t.Errorf("state after a reset %v, want %v", pol.statesIn, want)
	}
}

// TestCollectExplore: Config.Explore reaches the policy.
func TestCollectExplore(t *testing.T) {
	for _, explore := range []bool{false, true} {
		pol := &fixedPolicy{Record: true}
		c, err := collector.New(collector.Config{Env: fakeVec(t, envtest.Config{}, []int{2}), Policy: pol, Explore: explore})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Collect(bg, collector.Request{NStep: 3}); err != nil {
			t.Fatal(err)
		}
		if want := []bool{explore, explore, explore}; !reflect.DeepEqual(pol.explore, want) {
			t.Errorf("Explore %t: the policy saw %v", explore, pol.explore)
		}
	}
}

// TestCollectRandom: random actions come from the action space through
// Config.Rand (a seed reproduces them), reach the envs and are stored; the
// policy is not asked.
func TestCollectRandom(t *testing.T) {
	run := func() ([]int64, []int64) {
		fakes := []*envtest.Fake{envtest.MustNew(envtest.Config{Lengths: []int{100}})}
		v, err := vector.NewSync([]env.Env{fakes[0]})
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		pol := &fixedPolicy{}
		buf := vecBuf(t, 1, 100)
		c, err := collector.New(collector.Config{Env: v, Policy: pol, Buffer: buf, Rand: rand.New(rand.NewPCG(7, 8))})
		if err != nil {
			t.Fatal(err)
		}
		var sent []int64
		for i := 0; i < 40; i++ {
			if _, err := c.Collect(bg, collector.Request{NStep: 1, Random: true}); err != nil {
				t.Fatal(err)
			}
			sent = append(sent, fakes[0].LastAction())
		}
		if pol.calls != 0 {
			t.Errorf("the policy was asked %d times in random collection", pol.calls)
		}
		data, err := buf.Take(buf.SampleIndices(0, nil))
		if err != nil {
			t.Fatal(err)
		}
		act, _ := data.Array("act")
		return sent, nd.ToSlice[int64](act)
	}
	sent, stored := run()
	if !reflect.DeepEqual(sent, stored) {
		t.Errorf("actions sent %v, stored %v", sent, stored)
	}
	ones := 0
	for _, a := range sent {
		ones += int(a)
	}
	if ones == 0 || ones == len(sent) {
		t.Errorf("40 random actions of Discrete(2) are all %d", sent[0])
	}
	if again, _ := run(); !reflect.DeepEqual(again, sent) {
		t.Errorf("the same seed gave other actions:\n%v\n%v", sent, again)
	}
}

// mapPolicy acts 0.5 and maps actions to the env's scale ×2, as a policy
// with outputs in [−1, 1] for a Box(−2, 2) would.
type mapPolicy struct{}

func (mapPolicy) Act(dst, obs *batch.Batch, _ any, _ bool) error {
	k, err := obs.Len()
	if err != nil {
		return err
	}
	a := arrayIn(dst, "act", nd.Float32, k, 1)
	for i := range nd.Data[float32](a) {
		nd.Data[float32](a)[i] = 0.5
	}
	return nil
}

func (mapPolicy) MapActionTo(envAct, act *nd.Array) error {
	for i, v := range nd.Data[float32](act) {
		nd.Data[float32](envAct)[i] = 2 * v
	}
	return nil
}

func (mapPolicy) UnmapActionTo(act, envAct *nd.Array) error {
	for i, v := range nd.Data[float32](envAct) {
		nd.Data[float32](act)[i] = v / 2
	}
	return nil
}

// TestCollectActionMapper: the env gets mapped actions and the buffer the
// policy's; random actions are stored unmapped.
func TestCollectActionMapper(t *testing.T) {
	se := newScriptEnv(100)
	se.Record = true
	v := scriptVec(t, se)
	buf := vecBuf(t, 1, 20)
	c, err := collector.New(collector.Config{Env: v, Policy: mapPolicy{}, Buffer: buf, Rand: rand.New(rand.NewPCG(1, 1))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Collect(bg, collector.Request{NStep: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Collect(bg, collector.Request{NStep: 3, Random: true}); err != nil {
		t.Fatal(err)
	}
	data, err := buf.Take(buf.SampleIndices(0, nil))
	if err != nil {
		t.Fatal(err)
	}
	act, _ := data.Array("act")
	stored := nd.ToSlice[float32](act)
	if len(se.actions) != 5 || len(stored) != 5 {
		t.Fatalf("%d actions sent, %d stored, want 5", len(se.actions), len(stored))
	}
	for i, a := range se.actions {
		sent := nd.ToSlice[float32](a.(*nd.Array))[0]
		if i < 2 && (sent != 1 || stored[i] != 0.5) {
			t.Errorf("policy step %d: sent %v, stored %v; want 1 and 0.5", i, sent, stored[i])
		}
		if sent != 2*stored[i] {
			t.Errorf("step %d: sent %v, stored %v; want sent = 2·stored", i, sent, stored[i])
		}
	}
}

// TestCollectDictObs: Dict observations reach the policy as a Batch and
// the buffer as nested keys, also when only some envs step (the n_episode
// case "drop" of TestCollectNEpisode, which gathers rows).
func TestCollectDictObs(t *testing.T) {
	var seen []*batch.Batch
	pol := policyFunc(func(dst, obs *batch.Batch, _ any, _ bool) error {
		o, err := obs.Batch("obs")
		if err != nil {
			return err
		}
		seen = append(seen, o.Clone())
		k, _ := o.Len()
		arrayIn(dst, "act", nd.Int64, k)
		return nil
	})
	c, buf := newCollector(t, fakeVec(t, envtest.Config{Dict: true}, []int{1}, []int{2}, []int{3}, []int{4}), pol, 10)
	if _, err := c.Collect(bg, collector.Request{NEpisode: 5}); err != nil {
		t.Fatal(err)
	}
	// The last vector step acts for env 3 alone, at its step 3.
	last := seen[len(seen)-1]
	id, _ := last.Array("id")
	pos, _ := last.Array("pos")
	if got := nd.ToSlice[int64](id); !reflect.DeepEqual(got, []int64{3}) {
		t.Errorf("last ids %v, want [3]", got)
	}
	if got := nd.ToSlice[float32](pos); !reflect.DeepEqual(got, []float32{0, 3}) {
		t.Errorf("last [episode, step] %v, want [0 3]", got)
	}
	data, err := buf.Take([]int{30, 31, 32, 33})
	if err != nil {
		t.Fatal(err)
	}
	next, err := data.Array("obs_next.pos")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := nd.ToSlice[float32](next), []float32{0, 1, 0, 2, 0, 3, 0, 4}; !reflect.DeepEqual(got, want) {
		t.Errorf("env 3's stored obs_next.pos %v, want %v", got, want)
	}
}

type policyFunc func(dst, obs *batch.Batch, state any, explore bool) error

func (f policyFunc) Act(dst, obs *batch.Batch, state any, explore bool) error {
	return f(dst, obs, state, explore)
}

// TestCollectInfo: Infos are stored as arrays under info (the step's Info)
// and given to the policy (the Info the env last returned, from Reset or
// the previous step). The fake's Info is {"episode": e, "step": t}.
func TestCollectInfo(t *testing.T) {
	var given []int64
	pol := policyFunc(func(dst, obs *batch.Batch, _ any, _ bool) error {
		st, err := obs.Array("info.step")
		if err != nil {
			return err
		}
		given = append(given, nd.ToSlice[int64](st)...)
		arrayIn(dst, "act", nd.Int64, st.Dim(0))
		return nil
	})
	c, buf := newCollector(t, fakeVec(t, envtest.Config{Info: true}, []int{2}, []int{3}), pol, 10)
	if _, err := c.Collect(bg, collector.Request{NStep: 6}); err != nil {
		t.Fatal(err)
	}
	// By hand: env 0 is at steps 0, 1, then 0 after its reset; env 1 at 0, 1, 2.
	if want := []int64{0, 0, 1, 1, 0, 2}; !reflect.DeepEqual(given, want) {
		t.Errorf("info.step given to the policy %v, want %v", given, want)
	}
	data, err := buf.Take([]int{0, 1, 2, 10, 11, 12})
	if err != nil {
		t.Fatal(err)
	}
	step, _ := data.Array("info.step")
	ep, _ := data.Array("info.episode")
	if got, want := nd.ToSlice[int64](step), []int64{1, 2, 1, 1, 2, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("stored info.step %v, want %v", got, want)
	}
	if got, want := nd.ToSlice[int64](ep), []int64{0, 0, 1, 0, 0, 0}; !reflect.DeepEqual(got, want) {
		t.Errorf("stored info.episode %v, want %v", got, want)
	}
}

// TestCollectEnvErrors: an env's error or panic ends the Collect with an
// error naming the env; the buffer holds the whole vector steps before it
// only; the next Collect resets every env and goes on.
func TestCollectEnvErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  envtest.Config
	}{
		{"error", envtest.Config{ErrorAt: 3}},
		{"panic", envtest.Config{PanicAt: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fakes := []env.Env{envtest.MustNew(envtest.Config{Lengths: []int{10}}),
				envtest.MustNew(envtest.Config{ID: 1, Lengths: []int{10}, ErrorAt: tc.cfg.ErrorAt, PanicAt: tc.cfg.PanicAt})}
			v, err := vector.NewSync(fakes)
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			pol := &fixedPolicy{Record: true}
			c, buf := newCollector(t, v, pol, 10)
			s, err := c.Collect(bg, collector.Request{NStep: 10})
			if err == nil || !strings.Contains(err.Error(), "env 1") {
				t.Fatalf("Collect: %v, want an error naming env 1", err)
			}
			var pe *vector.PanicError
			if tc.name == "panic" && !errors.As(err, &pe) {
				t.Errorf("Collect: %v, want a *vector.PanicError", err)
			}
			if tc.name == "error" && !errors.Is(err, envtest.ErrFake) {
				t.Errorf("Collect: %v, want it to wrap envtest.ErrFake", err)
			}
			if buf.Len() != 4 || s.Steps != 4 {
				t.Errorf("after failing in the third vector step: buffer %d, stats %d steps, want 4", buf.Len(), s.Steps)
			}
			pol.obsSeen = pol.obsSeen[:0]
			if _, err := c.Collect(bg, collector.Request{NStep: 2}); err != nil {
				t.Fatal(err)
			}
			// Both envs start a new episode (episode 1): env 0 had moved on
			// in the failed vector step.
			if got := key3(pol.obsSeen[0][:3]) + " " + key3(pol.obsSeen[0][3:]); got != "0.1.0 1.1.0" {
				t.Errorf("after the error the policy acted on %s, want 0.1.0 1.1.0", got)
			}
		})
	}
}

// TestCollectPolicyErrors: errors of the policy, and actions of the wrong
// kind, are returned; nothing was stepped, so the next Collect continues.
func TestCollectPolicyErrors(t *testing.T) {
	errPolicy := errors.New("policy failure")
	fail := 0
	var seen []string
	pol := policyFunc(func(dst, obs *batch.Batch, _ any, _ bool) error {
		o, _ := obs.Array("obs")
		seen = append(seen, key3(nd.ToSlice[float32](o)))
		switch fail {
		case 1:
			return errPolicy
		case 2:
			arrayIn(dst, "act", nd.Int64, 2) // 2 rows for one env
			return nil
		case 3:
			return dst.Set("act", "left")
		}
		arrayIn(dst, "act", nd.Int64, 1)
		return nil
	})
	c, buf := newCollector(t, fakeVec(t, envtest.Config{}, []int{5}), pol, 10)
	if _, err := c.Collect(bg, collector.Request{NStep: 1}); err != nil {
		t.Fatal(err)
	}
	for fail = 1; fail <= 3; fail++ {
		_, err := c.Collect(bg, collector.Request{NStep: 1})
		if err == nil || fail == 1 && !errors.Is(err, errPolicy) {
			t.Errorf("failure %d: Collect returned %v", fail, err)
		}
	}
	fail = 0
	if _, err := c.Collect(bg, collector.Request{NStep: 1}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"0.0.0", "0.0.1", "0.0.1", "0.0.1", "0.0.1"}; !reflect.DeepEqual(seen, want) {
		t.Errorf("observations acted on %v, want %v", seen, want)
	}
	if buf.Len() != 2 {
		t.Errorf("buffer holds %d transitions, want 2", buf.Len())
	}
}

// TestCollectBufferAndInfoErrors: data the buffer cannot store, and Infos
// whose values change kind, are errors naming the problem; the buffer is
// unchanged.
func TestCollectBufferAndInfoErrors(t *testing.T) {
	t.Run("buffer schema", func(t *testing.T) {
		buf := vecBuf(t, 1, 10)
		// A schema with two-element observations.
		if _, err := buf.Add(batch.MustNew("obs", nd.Zeros(nd.Float32, 1, 2), "act", nd.Zeros(nd.Int64, 1),
			"rew", nd.Zeros(nd.Float64, 1), "terminated", nd.Zeros(nd.Bool, 1), "truncated", nd.Zeros(nd.Bool, 1)), []int{0}, nil); err != nil {
			t.Fatal(err)
		}
		c, err := collector.New(collector.Config{Env: fakeVec(t, envtest.Config{}, []int{3}), Policy: &fixedPolicy{}, Buffer: buf})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Collect(bg, collector.Request{NStep: 1})
		if !errors.Is(err, buffer.ErrType) {
			t.Errorf("Collect: %v, want buffer.ErrType", err)
		}
		if buf.Len() != 1 {
			t.Errorf("buffer holds %d, want 1", buf.Len())
		}
	})
	t.Run("info kind", func(t *testing.T) {
		se := newScriptEnv(10)
		se.Infos = []env.Info{{"x": 1}, {"x": 2}, {"x": 2.5}}
		se.Act, _ = env.NewDiscrete(2, 0)
		buf := vecBuf(t, 1, 10)
		c, err := collector.New(collector.Config{Env: scriptVec(t, se), Policy: &fixedPolicy{}, Buffer: buf})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Collect(bg, collector.Request{NStep: 3})
		if err == nil || !strings.Contains(err.Error(), "env 0") || !strings.Contains(err.Error(), "key x") {
			t.Errorf("Collect: %v, want an error naming env 0 and key x", err)
		}
		if buf.Len() != 1 {
			t.Errorf("buffer holds %d, want 1", buf.Len())
		}
	})
}

// TestCollectContext: a cancelled context ends the Collect with its error.
func TestCollectContext(t *testing.T) {
	c, _ := newCollector(t, fakeVec(t, envtest.Config{}, []int{5}), &fixedPolicy{}, 10)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, err := c.Collect(ctx, collector.Request{NStep: 3}); !errors.Is(err, context.Canceled) {
		t.Errorf("Collect: %v, want context.Canceled", err)
	}
}

// TestNewErrors: configs New refuses, and buffers it accepts.
func TestNewErrors(t *testing.T) {
	three := fakeVec(t, envtest.Config{}, []int{1}, []int{1}, []int{1})
	one := fakeVec(t, envtest.Config{}, []int{1})
	replay, err := buffer.New(buffer.Config{Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	cached, err := buffer.NewCached(buffer.Config{Size: 10}, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	prio3, err := buffer.NewPrioritizedVector(buffer.Config{Size: 30}, 3, buffer.DefaultPriorityConfig())
	if err != nil {
		t.Fatal(err)
	}
	prio2, err := buffer.NewPrioritizedVector(buffer.Config{Size: 30}, 2, buffer.DefaultPriorityConfig())
	if err != nil {
		t.Fatal(err)
	}
	dictAct := newScriptEnv(3)
	dictAct.Act, _ = env.NewDict(env.DictEntry{Key: "a", Space: mustDiscrete(2)})
	for _, tc := range []struct {
		name string
		cfg  collector.Config
		ok   bool
	}{
		{"no env", collector.Config{}, false},
		{"two sub-buffers for three envs", collector.Config{Env: three, Buffer: vecBuf(t, 2, 5)}, false},
		{"Replay for three envs", collector.Config{Env: three, Buffer: replay}, false},
		{"Replay for one env", collector.Config{Env: one, Buffer: replay}, true},
		{"more sub-buffers than envs", collector.Config{Env: one, Buffer: vecBuf(t, 3, 5)}, true},
		{"Cached with a cache per env", collector.Config{Env: three, Buffer: cached}, true},
		{"PrioritizedVector for three envs", collector.Config{Env: three, Buffer: prio3}, true},
		{"PrioritizedVector of two for three envs", collector.Config{Env: three, Buffer: prio2}, false},
		{"mapper with a Dict action space", collector.Config{Env: scriptVec(t, dictAct), Policy: mapPolicy{}}, false},
	} {
		_, err := collector.New(tc.cfg)
		if tc.ok && err != nil || !tc.ok && !errors.Is(err, collector.ErrConfig) {
			t.Errorf("%s: New returned %v", tc.name, err)
		}
	}
	if _, err := collector.NewAsync(collector.AsyncConfig{Config: collector.Config{Env: one}, WaitNum: -1}); !errors.Is(err, collector.ErrConfig) {
		t.Errorf("NewAsync with WaitNum -1: %v", err)
	}
	if replay.Len() != 0 {
		t.Errorf("checking the buffer stored %d transitions", replay.Len())
	}
}

func mustDiscrete(n int64) *env.Discrete {
	d, err := env.NewDiscrete(n, 0)
	if err != nil {
		panic(err)
	}
	return d
}

// TestCollectDefaultBuffer: without a buffer the collector makes one of one
// transition per env, enough for statistics.
func TestCollectDefaultBuffer(t *testing.T) {
	c, err := collector.New(collector.Config{Env: fakeVec(t, envtest.Config{}, []int{2}, []int{2}), Policy: &fixedPolicy{}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Collect(bg, collector.Request{NEpisode: 4})
	if err != nil {
		t.Fatal(err)
	}
	// The buffer made is a *buffer.Vector of one transition per env.
	buf, ok := c.Buffer().(*buffer.Vector)
	if s.Episodes != 4 || !ok || buf.Cap() != 2 || buf.Len() != 2 {
		t.Errorf("%d episodes; buffer %v", s.Episodes, c.Buffer())
	}
}

// TestCollectCached: with a Cached buffer, finished episodes move whole
// into the main ring, in the order they finish.
func TestCollectCached(t *testing.T) {
	cached, err := buffer.NewCached(buffer.Config{Size: 20}, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	c, err := collector.New(collector.Config{Env: fakeVec(t, envtest.Config{}, []int{3}, []int{2}), Policy: &fixedPolicy{}, Buffer: cached})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Reset(bg, seedsOf(2)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Collect(bg, collector.Request{NStep: 6}); err != nil {
		t.Fatal(err)
	}
	// By hand: env 1's episode ends at vector step 2, env 0's at step 3.
	main, err := cached.Take([]int{0, 1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	obs, _ := main.Array("obs")
	var got []string
	for i := 0; i < 5; i++ {
		got = append(got, key3(nd.ToSlice[float32](obs.Index(nd.I(i)))))
	}
	if want := []string{"1.0.0", "1.0.1", "0.0.0", "0.0.1", "0.0.2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("main ring %v, want %v", got, want)
	}
}

// TestCollectRender: every stepping env's frame goes to OnFrame after each
// vector step, before finished episodes are reset (the fake's gray level is
// its step count: env 0's episode ends at step 2), with the pause between
// vector steps; a cancelled context ends a pause.
func TestCollectRender(t *testing.T) {
	type frame struct{ env, gray int }
	var frames []frame
	v := fakeVec(t, envtest.Config{}, []int{2}, []int{5})
	c, err := collector.New(collector.Config{Env: v, Policy: &fixedPolicy{},
		OnFrame: func(id int, f image.Image) {
			r, _, _, _ := f.At(0, 0).RGBA()
			frames = append(frames, frame{id, int(r >> 8)})
		}})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	s, err := c.Collect(bg, collector.Request{NStep: 4, Render: true, RenderPause: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if want := []frame{{0, 1}, {1, 1}, {0, 2}, {1, 2}}; !reflect.DeepEqual(frames, want) {
		t.Errorf("frames %v, want %v", frames, want)
	}
	if d := time.Since(start); d < 10*time.Millisecond || s.Duration < 10*time.Millisecond {
		t.Errorf("two vector steps with 5 ms pauses took %v", d)
	}
	ctx, cancel := context.WithTimeout(bg, 10*time.Millisecond)
	defer cancel()
	start = time.Now()
	if _, err := c.Collect(ctx, collector.Request{NStep: 2, Render: true, RenderPause: time.Hour}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Collect with an hour's pause: %v, want the context's deadline", err)
	}
	if time.Since(start) > time.Minute {
		t.Error("the pause ignored the context")
	}
}
