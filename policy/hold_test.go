package policy_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
)

// TestHoldDurations checks the durations' distribution against the
// truncated zeta law P(n) = n^−μ / Σₘ m^−μ, m = 1…N, computed here in
// float64: a χ² test over 100,000 draws at a fixed seed.
func TestHoldDurations(t *testing.T) {
	for _, c := range []struct {
		mu  float64
		max int
	}{{2, 10}, {1, 6}, {0, 5}, {3, 1}} {
		h, err := policy.NewHold(policy.HoldConfig{Mu: c.mu, MaxDuration: c.max})
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, c.max)
		z := 0.0
		for n := range want {
			want[n] = math.Pow(float64(n+1), -c.mu)
			z += want[n]
		}
		const draws = 100_000
		count := make([]float64, c.max)
		rng := rand.New(rand.NewPCG(7, 8))
		for range draws {
			n := h.Duration(rng)
			if n < 1 || n > int64(c.max) {
				t.Fatalf("μ %v, max %d: duration %d", c.mu, c.max, n)
			}
			count[n-1]++
		}
		chi := 0.0
		for n := range want {
			e := draws * want[n] / z
			chi += (count[n] - e) * (count[n] - e) / e
		}
		// χ² with at most 9 degrees of freedom stays below 27.9 with
		// probability 0.999.
		if chi > 27.9 {
			t.Errorf("μ %v, max %d: counts %v (χ² = %.1f)", c.mu, c.max, count, chi)
		}
	}
}

func TestHoldConfig(t *testing.T) {
	for _, c := range []policy.HoldConfig{{Mu: -1, MaxDuration: 5}, {Mu: math.NaN(), MaxDuration: 5},
		{Mu: math.Inf(1), MaxDuration: 5}, {Mu: 2, MaxDuration: -1}, {Mu: 2, MaxDuration: 1<<16 + 1}} {
		if _, err := policy.NewHold(c); !errors.Is(err, policy.ErrConfig) {
			t.Errorf("NewHold(%+v) = %v, want ErrConfig", c, err)
		}
	}
	if h, err := policy.NewHold(policy.HoldConfig{Mu: 2}); h != nil || err != nil {
		t.Errorf("NewHold with max_duration 0 = %v, %v; want nil, nil (off)", h, err)
	}
}

// TestHoldApply follows two envs of two action dimensions step by step
// with ε 1 and durations in 1…4: an env holds its random action (both
// dimensions) for the drawn duration, its state counting down, and then
// draws a new one.
func TestHoldApply(t *testing.T) {
	h, err := policy.NewHold(policy.HoldConfig{Mu: 0, MaxDuration: 4})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	next := int64(10)
	draw := func(row int, a []int64) { // distinct actions, to tell holds apart
		a[0], a[1] = next, -next
		next++
	}
	var dst batch.Batch
	var state any
	held := [2]int64{} // the held action of each env
	left := [2]int64{} // its remaining steps after this one
	for step := range 12 {
		act := []int64{0, 0, 1, 1} // greedy actions of 2 envs × 2 dims
		if err := h.Apply(&dst, act, state, 2, 2, 1, rng, draw); err != nil {
			t.Fatal(err)
		}
		st, err := dst.Array(batch.KeyState)
		if err != nil {
			t.Fatal(err)
		}
		s := nd.Data[int64](st)
		for i := range 2 {
			if left[i] > 0 { // still holding: the same action, one step fewer
				if act[2*i] != held[i] || act[2*i+1] != -held[i] || s[3*i] != left[i]-1 {
					t.Fatalf("step %d env %d: act %v, state %v; want %d held, %d left", step, i, act, s, held[i], left[i]-1)
				}
			} else { // ε 1: a new random action, with a duration in 1…4
				if act[2*i] == held[i] || act[2*i] < 10 || s[3*i] < 0 || s[3*i] > 3 {
					t.Fatalf("step %d env %d: act %v, state %v; want a new hold", step, i, act, s)
				}
			}
			held[i], left[i] = act[2*i], s[3*i]
		}
		state = st.Copy()
	}

	// ε 0 and a zero state (an episode's start): the greedy actions.
	act := []int64{5, 6, 7, 8}
	if err := h.Apply(&dst, act, nil, 2, 2, 0, rng, draw); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(act, []int64{5, 6, 7, 8}) {
		t.Errorf("ε 0: actions %v, want the greedy ones", act)
	}
	// A state of another shape is refused.
	if err := h.Apply(&dst, act, nd.Zeros(nd.Int64, 2, 2), 2, 2, 0, rng, draw); !errors.Is(err, policy.ErrConfig) {
		t.Errorf("a state [2, 2] for 2 actions per env: %v, want ErrConfig", err)
	}
}

// recorder keeps the actions a Q policy takes in each episode of the
// envtest fake (its observation is [ID, episode, step]).
type recorder struct {
	*policy.Q
	eps map[float32][]int64
}

func (r *recorder) Act(dst, obs *batch.Batch, state any, explore bool) error {
	if err := r.Q.Act(dst, obs, state, explore); err != nil {
		return err
	}
	o, _ := obs.Array("obs")
	a, _ := dst.Array("act")
	ep := nd.Data[float32](o.Copy())[1]
	r.eps[ep] = append(r.eps[ep], nd.Data[int64](a.Copy())[0])
	return nil
}

// TestQHoldEpisodes runs Q with ε 1 and very long holds in a collector on
// episodes of 5 steps: every episode takes one action throughout (the hold
// outlasts it), and the collector's zeroed state at each episode's start
// makes a new random choice, so that the episodes' actions differ (with a
// hold carried across episodes all 40 would share the first one).
func TestQHoldEpisodes(t *testing.T) {
	q, err := policy.NewQ(linear([][]float32{{0, 0, 0}, {0, 0, 0}}), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	if err := q.SetHold(policy.HoldConfig{Mu: 0, MaxDuration: 1 << 16}); err != nil {
		t.Fatal(err)
	}
	if err := q.SetEps(1, 1); err != nil {
		t.Fatal(err)
	}
	q.SetTrainingStep(true)
	v, err := vector.NewSync([]env.Env{envtest.MustNew(envtest.Config{Lengths: []int{5}})})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	rec := &recorder{Q: q, eps: map[float32][]int64{}}
	c, err := collector.New(collector.Config{Env: v, Policy: rec, Explore: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Reset(ctx, []env.Seed{env.SeedOf(1)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Collect(ctx, collector.Request{NStep: 200}); err != nil {
		t.Fatal(err)
	}
	if len(rec.eps) != 40 {
		t.Fatalf("%d episodes, want 40", len(rec.eps))
	}
	var count [2]int
	for e, as := range rec.eps {
		for _, a := range as {
			if a != as[0] {
				t.Fatalf("episode %v took actions %v, want one held action", e, as)
			}
		}
		count[as[0]]++
	}
	// Each episode's action is uniform over 2: both appear (at this seed
	// and with probability 1 − 2⁻³⁹ at any).
	if count[0] == 0 || count[1] == 0 {
		t.Errorf("episodes per action %v, want new choices at each episode's start", count)
	}
}

// TestHoldDeterminism: the same seed gives the same actions and states.
func TestHoldDeterminism(t *testing.T) {
	run := func(seed uint64) []int64 {
		q, err := policy.NewQ(linear(qWeights), algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if err := q.SetHold(policy.HoldConfig{Mu: 2, MaxDuration: 50}); err != nil {
			t.Fatal(err)
		}
		q.SetEps(0.3, 0)
		q.SetTrainingStep(true)
		obs := obsBatch(t, [][]float32{{1, 0}, {0, 1}, {-1, 0}, {0.5, 0.5}})
		var dst batch.Batch
		var state any
		var out []int64
		for range 100 {
			if err := q.Act(&dst, obs, state, true); err != nil {
				t.Fatal(err)
			}
			out = append(out, acts(t, &dst)...)
			st, _ := dst.Array(batch.KeyState)
			state = st.Copy()
		}
		return out
	}
	a, b, c := run(1), run(1), run(2)
	if !slices.Equal(a, b) {
		t.Error("the same seed gave other actions")
	}
	if slices.Equal(a, c) {
		t.Error("seeds 1 and 2 gave the same 400 actions")
	}
}

// TestQHoldAllocations locks Q.Act with a hold at zero allocations once dst
// holds its arrays.
func TestQHoldAllocations(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates")
	}
	q, err := policy.NewQ(linear(qWeights), algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := q.SetHold(policy.HoldConfig{Mu: 2, MaxDuration: 100}); err != nil {
		t.Fatal(err)
	}
	q.SetEps(0.5, 0)
	q.SetTrainingStep(true)
	obs := obsBatch(t, [][]float32{{1, 0}, {0, 1}})
	var dst batch.Batch
	state := nd.Zeros(nd.Int64, 2, 2)
	act := func() {
		if err := q.Act(&dst, obs, state, true); err != nil {
			t.Fatal(err)
		}
	}
	act()
	if a := testing.AllocsPerRun(50, act); a != 0 {
		t.Errorf("Q.Act with a hold: %v allocations", a)
	}
}

// TestHoldDiscreteMask checks ApplyDiscrete with masks: random actions are
// drawn among the allowed ones, and a held action a later mask forbids is
// replaced by an allowed one for that step.
func TestHoldDiscreteMask(t *testing.T) {
	h, err := policy.NewHold(policy.HoldConfig{MaxDuration: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	var dst batch.Batch
	// Discrete(3, start 1): only action 3 (index 2) allowed.
	act := []int64{1}
	if err := h.ApplyDiscrete(&dst, act, nil, 1, 3, 1, []float32{0, 0, 1}, 1, rng); err != nil {
		t.Fatal(err)
	}
	if act[0] != 3 {
		t.Fatalf("random action %d, want the only allowed 3", act[0])
	}
	st, _ := dst.Array(batch.KeyState)
	state := st.Copy()
	// Still held, but now only action 1 (index 0) is allowed.
	act[0] = 1
	if err := h.ApplyDiscrete(&dst, act, state, 1, 3, 1, []float32{1, 0, 0}, 1, rng); err != nil {
		t.Fatal(err)
	}
	if act[0] != 1 {
		t.Errorf("held action under a mask forbidding it: %d, want the allowed 1", act[0])
	}
}
