package collector_test

import (
	"context"
	"errors"
	"image"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
)

func newAsync(tb testing.TB, v vector.Env, pol collector.Policy, buf buffer.Buffer, waitNum int, timeout time.Duration) *collector.AsyncCollector {
	tb.Helper()
	c, err := collector.NewAsync(collector.AsyncConfig{Config: collector.Config{Env: v, Policy: pol, Buffer: buf,
		Rand: rand.New(rand.NewPCG(1, 2))}, WaitNum: waitNum, Timeout: timeout})
	if err != nil {
		tb.Fatal(err)
	}
	if err := c.Reset(bg, seedsOf(v.Len())); err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestAsyncOrder drives an AsyncCollector with a vector.Sync, whose Recv
// steps the sent envs in the order they were sent: with WaitNum 1 the envs
// take turns, and each transition holds the observation, action, policy
// data and hidden state of the moment its action was sent. Traced by hand
// (fixedPolicy returns state+1 and policy.n = its call count):
//
//	call 1 sends envs 0, 1, 2 (n 1, states nil → 1); env 0 returns
//	call 2 sends env 0 (n 2, state 1 → 2); env 1 returns
//	call 3 sends env 1 (n 3, 1 → 2); env 2 returns
//	call 4 sends env 2 (n 4, 1 → 2); env 0 returns, ending its episode
//	(second Collect)
//	call 5 sends env 0 (n 5, 0 → 1); env 1 returns
//	call 6 sends env 1 (n 6, 2 → 3); env 2 returns
func TestAsyncOrder(t *testing.T) {
	v := fakeVec(t, envtest.Config{}, []int{2}, []int{3}, []int{4})
	buf := vecBuf(t, 3, 10)
	pol := &fixedPolicy{State: true, Record: true}
	c := newAsync(t, v, pol, buf, 1, 0)
	s, err := c.Collect(bg, collector.Request{NStep: 4})
	if err != nil {
		t.Fatal(err)
	}
	if s.Steps != 4 || !reflect.DeepEqual(s.Lens, []int{2}) || v.Running() != 2 {
		t.Fatalf("first Collect: %d steps, lens %v, %d envs in flight; want 4, [2], 2", s.Steps, s.Lens, v.Running())
	}
	if _, err := c.Collect(bg, collector.Request{NStep: 2}); err != nil {
		t.Fatal(err)
	}
	if want := []any{nil, []float32{1}, []float32{1}, []float32{1}, []float32{0}, []float32{2}}; !reflect.DeepEqual(pol.statesIn, want) {
		t.Errorf("states given %v, want %v", pol.statesIn, want)
	}
	want := [][]row{
		{{"0.0.0", "0.0.1", 1, false}, {"0.0.1", "0.0.2", 1, true}},
		{{"1.0.0", "1.0.1", 1, false}, {"1.0.1", "1.0.2", 1, false}},
		{{"2.0.0", "2.0.1", 1, false}, {"2.0.1", "2.0.2", 1, false}},
	}
	wantN := [][]float64{{1, 2}, {1, 3}, {1, 4}}
	wantHS := [][]float32{{1, 2}, {1, 2}, {1, 2}}
	for sub := range want {
		if got := subRows(t, buf, sub, 10); !reflect.DeepEqual(got, want[sub]) {
			t.Errorf("sub-buffer %d\n got %v\nwant %v", sub, got, want[sub])
		}
		data, err := buf.Take([]int{10 * sub, 10*sub + 1})
		if err != nil {
			t.Fatal(err)
		}
		n, _ := data.Array("policy.n")
		hs, _ := data.Array("policy.hidden_state")
		if got := nd.ToSlice[float64](n); !reflect.DeepEqual(got, wantN[sub]) {
			t.Errorf("sub-buffer %d: policy.n %v, want %v", sub, got, wantN[sub])
		}
		if got := nd.ToSlice[float32](hs); !reflect.DeepEqual(got, wantHS[sub]) {
			t.Errorf("sub-buffer %d: hidden_state %v, want %v", sub, got, wantHS[sub])
		}
	}
	// Reset waits for the envs in flight and restarts every env.
	if err := c.Reset(bg, nil); err != nil {
		t.Fatal(err)
	}
	if v.Running() != 0 {
		t.Errorf("%d envs in flight after Reset", v.Running())
	}
}

// TestAsyncAtLeast: an AsyncCollector collects at least n_step and
// n_episode; waiting for every env, three one-step episodes end in the
// first vector step.
func TestAsyncAtLeast(t *testing.T) {
	v := fakeVec(t, envtest.Config{}, []int{1}, []int{1}, []int{1})
	c := newAsync(t, v, &fixedPolicy{}, nil, 0, 0)
	s, err := c.Collect(bg, collector.Request{NEpisode: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Episodes != 3 || s.Steps != 3 {
		t.Errorf("NEpisode 2: %d episodes in %d steps, want 3 in 3", s.Episodes, s.Steps)
	}
	s, err = c.Collect(bg, collector.Request{NStep: 4})
	if err != nil {
		t.Fatal(err)
	}
	if s.Steps != 6 {
		t.Errorf("NStep 4: %d steps, want 6", s.Steps)
	}
}

// checkChains checks that each sub-buffer of b (size transitions each)
// holds whole, consecutive steps of the fakes: obs_next is obs one step
// on, and the next transition starts at obs_next, or at step 0 of the next
// episode after an episode's end. With abandoned, an episode may also be
// cut short by a reset (step 0 of a later episode after a transition that
// is not done). It returns the transitions per env.
func checkChains(t *testing.T, b *buffer.Vector, envs, size int, abandoned bool) []int {
	t.Helper()
	counts := make([]int, envs)
	for sub := 0; sub < envs; sub++ {
		rows := subRows(t, b, sub, size)
		counts[sub] = len(rows)
		for i, r := range rows {
			var id, ep, st, id2, ep2, st2 int
			parse3(r.obs, &id, &ep, &st)
			parse3(r.next, &id2, &ep2, &st2)
			if id != sub || id2 != sub || ep2 != ep || st2 != st+1 {
				t.Errorf("env %d: transition %s → %s", sub, r.obs, r.next)
			}
			if i+1 < len(rows) {
				want := r.next
				if r.done {
					want = strings.Join([]string{strconv.Itoa(sub), strconv.Itoa(ep + 1), "0"}, ".")
				}
				var id3, ep3, st3 int
				parse3(rows[i+1].obs, &id3, &ep3, &st3)
				if abandoned && !r.done && id3 == sub && ep3 > ep && st3 == 0 {
					continue
				}
				if rows[i+1].obs != want {
					t.Errorf("env %d: %s → %s (done %t) followed by %s", sub, r.obs, r.next, r.done, rows[i+1].obs)
				}
			}
		}
	}
	return counts
}

func parse3(s string, a, b, c *int) {
	parts := strings.Split(s, ".")
	for i, p := range []*int{a, b, c} {
		n := 0
		for _, ch := range parts[i] {
			n = 10*n + int(ch-'0')
		}
		*p = n
	}
}

// TestAsyncSlowEnv: with goroutine envs of which one is slow, waiting for
// the first env to finish lets the fast env step far more often, and every
// env's transitions still chain. Run with -race.
func TestAsyncSlowEnv(t *testing.T) {
	v, err := vector.NewAsync([]env.Env{
		envtest.MustNew(envtest.Config{ID: 0, Lengths: []int{3}}),
		envtest.MustNew(envtest.Config{ID: 1, Lengths: []int{3}, Sleep: 20 * time.Millisecond}),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	buf := vecBuf(t, 2, 100)
	c := newAsync(t, v, &fixedPolicy{State: true}, buf, 1, 0)
	s, err := c.Collect(bg, collector.Request{NStep: 30})
	if err != nil {
		t.Fatal(err)
	}
	if s.Steps < 30 {
		t.Errorf("%d steps, want at least 30", s.Steps)
	}
	counts := checkChains(t, buf, 2, 100, false)
	if counts[0] <= counts[1] {
		t.Errorf("transitions per env %v: the fast env should step more", counts)
	}
}

// TestAsyncTimeout: waiting for every env, but at most Timeout once one has
// finished, the fast env steps while the slow one sleeps.
func TestAsyncTimeout(t *testing.T) {
	v, err := vector.NewAsync([]env.Env{
		envtest.MustNew(envtest.Config{ID: 0, Lengths: []int{4}}),
		envtest.MustNew(envtest.Config{ID: 1, Lengths: []int{4}, Sleep: 50 * time.Millisecond}),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	buf := vecBuf(t, 2, 100)
	c := newAsync(t, v, &fixedPolicy{}, buf, 0, 2*time.Millisecond)
	if _, err := c.Collect(bg, collector.Request{NStep: 12}); err != nil {
		t.Fatal(err)
	}
	counts := checkChains(t, buf, 2, 100, false)
	if counts[0] <= counts[1] {
		t.Errorf("transitions per env %v: the fast env should step more", counts)
	}
}

// TestAsyncErrors: an env's error ends the Collect with an error naming the
// env; the next Collect drops the envs in flight, resets every env and
// goes on; a cancelled context returns its error and keeps the envs in
// flight.
func TestAsyncErrors(t *testing.T) {
	v, err := vector.NewAsync([]env.Env{
		envtest.MustNew(envtest.Config{ID: 0, Lengths: []int{5}}),
		envtest.MustNew(envtest.Config{ID: 1, Lengths: []int{5}, ErrorAt: 2}),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	buf := vecBuf(t, 2, 100)
	c := newAsync(t, v, &fixedPolicy{}, buf, 0, 0)
	_, err = c.Collect(bg, collector.Request{NStep: 10})
	if !errors.Is(err, envtest.ErrFake) || !strings.Contains(err.Error(), "env 1") {
		t.Fatalf("Collect: %v, want envtest.ErrFake from env 1", err)
	}
	if buf.Len() != 2 {
		t.Errorf("buffer holds %d transitions, want the first vector step's 2", buf.Len())
	}
	s, err := c.Collect(bg, collector.Request{NStep: 4})
	if err != nil {
		t.Fatal(err)
	}
	if s.Steps != 4 {
		t.Errorf("%d steps after the error, want 4", s.Steps)
	}
	checkChains(t, buf, 2, 100, true)

	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, err := c.Collect(ctx, collector.Request{NStep: 4}); !errors.Is(err, context.Canceled) {
		t.Errorf("Collect with a cancelled context: %v", err)
	}
	if _, err := c.Collect(bg, collector.Request{NStep: 4}); err != nil {
		t.Fatal(err)
	}
	checkChains(t, buf, 2, 100, true)
}

// TestAsyncRandomThenPolicy: envs sent random actions store zeros under
// the policy's keys, as Tianshou pads missing keys.
func TestAsyncRandomThenPolicy(t *testing.T) {
	v := fakeVec(t, envtest.Config{}, []int{9}, []int{9})
	buf := vecBuf(t, 2, 10)
	c := newAsync(t, v, &fixedPolicy{State: true}, buf, 1, 0)
	if _, err := c.Collect(bg, collector.Request{NStep: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Collect(bg, collector.Request{NStep: 2, Random: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Collect(bg, collector.Request{NStep: 2}); err != nil {
		t.Fatal(err)
	}
	// By hand: env 0 gets a policy action (call 1, n 1), env 1 a policy
	// action (call 1), env 0 a random one, env 1 a random one, env 0 a
	// policy action (call 2).
	data, err := buf.Take([]int{0, 1, 2, 10, 11})
	if err != nil {
		t.Fatal(err)
	}
	n, _ := data.Array("policy.n")
	if got, want := nd.ToSlice[float64](n), []float64{1, 0, 2, 1, 0}; !reflect.DeepEqual(got, want) {
		t.Errorf("policy.n %v, want %v", got, want)
	}
}

// TestAsyncRender: the envs received are rendered after their step, in
// the order they arrived (the fake's gray level is its step count).
func TestAsyncRender(t *testing.T) {
	v := fakeVec(t, envtest.Config{}, []int{5}, []int{5}, []int{5})
	var frames [][2]int
	c, err := collector.NewAsync(collector.AsyncConfig{Config: collector.Config{Env: v, Policy: &fixedPolicy{},
		OnFrame: func(id int, f image.Image) {
			r, _, _, _ := f.At(0, 0).RGBA()
			frames = append(frames, [2]int{id, int(r >> 8)})
		}}, WaitNum: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Collect(bg, collector.Request{NStep: 4, Render: true}); err != nil {
		t.Fatal(err)
	}
	// By hand: envs 0, 1 arrive, then 2 and 0 (sent again after the first).
	if want := [][2]int{{0, 1}, {1, 1}, {2, 1}, {0, 2}}; !reflect.DeepEqual(frames, want) {
		t.Errorf("frames %v, want %v", frames, want)
	}
}
