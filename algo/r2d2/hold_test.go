package r2d2_test

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/r2d2"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
)

// actRun makes an R2D2 of cfg for observations of 3 numbers and 4 actions
// from 2 (seed 7), and acts with its exploring policy, training-step flag
// on, for steps steps of k envs whose observations are drawn from their
// own source, handing each step's state back to the next. It returns the
// actions of every step ([steps][k]) and an FNV-1a hash of the recurrent
// states returned, bit for bit.
func actRun(t *testing.T, cfg r2d2.Config, k, steps int) ([][]int64, uint64) {
	t.Helper()
	r, err := r2d2.New(cfg, algotest.Box(t, -10, 10, 3), algotest.Discrete(t, 4, 2), rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	p := r.Policy()
	p.SetTrainingStep(true)
	src := rand.New(rand.NewPCG(8, 8))
	o := nd.Zeros(nd.Float32, k, 3)
	obs := batch.MustNew(batch.KeyObs, o)
	var dst batch.Batch
	var state any
	h := fnv.New64a()
	var acts [][]int64
	for range steps {
		for i := range nd.Data[float32](o) {
			nd.Data[float32](o)[i] = float32(src.NormFloat64())
		}
		if err := p.Act(&dst, obs, state, true); err != nil {
			t.Fatal(err)
		}
		a, err := dst.Array(batch.KeyAct)
		if err != nil {
			t.Fatal(err)
		}
		acts = append(acts, nd.ToSlice[int64](a))
		v, _ := dst.Get(batch.KeyState)
		if b, ok := v.(*batch.Batch); ok {
			state = b.Clone()
			v, _ = b.Get(r2d2.KeyRecurrent)
		} else {
			state = v.(*nd.Array).Copy()
		}
		for _, x := range nd.ToSlice[float32](v.(*nd.Array)) {
			fmt.Fprintf(h, "%08x", math.Float32bits(x))
		}
	}
	return acts, h.Sum64()
}

// TestActUnchangedWithoutHold checks that without held actions the policy
// acts bit for bit as it did before the option existed: ε 0.5, 3 envs, 6
// steps. The actions and the recurrent states' hash were recorded with the
// policy of the commit before Config.Hold was added.
func TestActUnchangedWithoutHold(t *testing.T) {
	cfg := r2d2.DefaultConfig()
	cfg.Hidden, cfg.HeadHidden, cfg.EpsTrain = 8, []int{8}, 0.5
	acts, sum := actRun(t, cfg, 3, 6)
	want := [][]int64{{3, 3, 3}, {3, 3, 3}, {3, 3, 4}, {5, 3, 2}, {4, 3, 3}, {2, 4, 2}}
	if fmt.Sprint(acts) != fmt.Sprint(want) {
		t.Errorf("actions %v; want %v", acts, want)
	}
	if sum != 0x59198a418f5a4ecc {
		t.Errorf("states' hash %#x; want 0x59198a418f5a4ecc", sum)
	}
}

// TestHoldKeepsActions checks held random actions through the exploring
// policy, ε 1, 6 envs, 5 steps. With durations uniform in 1…65536 each env
// draws one shorter than 5 steps with probability 4/65536, so every env
// keeps its first action; with plain ε-greedy (or a hold of at most 1
// step) each env draws afresh among 4 actions, and all 6 keep their first
// action 4 more times with probability (1/4)^24. The recurrent states
// do not depend on the hold: their hash is the one without it.
func TestHoldKeepsActions(t *testing.T) {
	base := r2d2.DefaultConfig()
	base.Hidden, base.HeadHidden, base.EpsTrain = 8, []int{8}, 1
	_, plainSum := actRun(t, base, 6, 5)
	for _, c := range []struct {
		name string
		hold policy.HoldConfig
		held bool
	}{
		{"off", policy.HoldConfig{}, false},
		{"one step", policy.HoldConfig{Mu: 0, MaxDuration: 1}, false},
		{"up to 65536", policy.HoldConfig{Mu: 0, MaxDuration: 1 << 16}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := base
			cfg.Hold = c.hold
			acts, sum := actRun(t, cfg, 6, 5)
			same := true
			for _, row := range acts[1:] {
				same = same && fmt.Sprint(row) == fmt.Sprint(acts[0])
			}
			if same != c.held {
				t.Errorf("actions %v: all held %v; want %v", acts, same, c.held)
			}
			if sum != plainSum {
				t.Errorf("recurrent states' hash %#x; want %#x as without a hold", sum, plainSum)
			}
		})
	}
}

// TestHoldState checks the state with a hold: a Batch of the recurrent
// state and the hold's rows, which the collector zeroes at an episode's
// start. With ε 0 an env whose rows still hold an action keeps taking it,
// one whose rows were zeroed takes the greedy action, and without explore
// every env acts greedily and the rows pass through; states of another
// form are refused.
func TestHoldState(t *testing.T) {
	cfg := r2d2.DefaultConfig()
	cfg.Hidden, cfg.HeadHidden = 8, []int{8}
	cfg.EpsTrain, cfg.EpsTrainFinal, cfg.EpsDecaySteps = 1, 0, 1 // ε 0 after Schedule(1)
	cfg.Hold = policy.HoldConfig{MaxDuration: 1 << 16}
	r, err := r2d2.New(cfg, algotest.Box(t, -10, 10, 3), algotest.Discrete(t, 4, 0), rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	const k = 64 // the greedy and the held action differ for about 3/4 of them
	p := r.Policy().(*r2d2.Policy)
	p.SetTrainingStep(true)
	obs := batch.MustNew(batch.KeyObs, nd.Zeros(nd.Float32, k, 3))
	var dst batch.Batch
	act := func(state any, explore bool) ([]int64, *batch.Batch) {
		t.Helper()
		if err := p.Act(&dst, obs, state, explore); err != nil {
			t.Fatal(err)
		}
		a, _ := dst.Array(batch.KeyAct)
		v, _ := dst.Get(batch.KeyState)
		st, ok := v.(*batch.Batch)
		if !ok {
			t.Fatalf("state %T; want a *batch.Batch", v)
		}
		for _, key := range []string{r2d2.KeyRecurrent, r2d2.KeyHold} {
			if _, err := st.Array(key); err != nil {
				t.Fatalf("state without %s: %v", key, err)
			}
		}
		return nd.ToSlice[int64](a), st.Clone()
	}
	greedy, _ := act(nil, false)
	held, st := act(nil, true)
	r.Schedule(1)
	rows, _ := st.Array(r2d2.KeyHold)
	reset := k / 2 // the collector zeroes the rows of envs whose episode ended
	clear(nd.Data[int64](rows)[reset*2:])
	got, _ := act(st, true)
	differ := 0
	for i, a := range got {
		want := held[i]
		if i >= reset {
			want = greedy[i]
		}
		if a != want {
			t.Errorf("env %d took %d; want %d (held %d, greedy %d)", i, a, want, held[i], greedy[i])
		}
		if held[i] != greedy[i] {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("every held action is the greedy one; the test checks nothing")
	}
	got, out := act(st, false)
	if fmt.Sprint(got) != fmt.Sprint(greedy) {
		t.Errorf("without explore %v; want the greedy %v", got, greedy)
	}
	outRows, _ := out.Array(r2d2.KeyHold)
	if a, b := nd.ToSlice[int64](outRows), nd.ToSlice[int64](rows); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("without explore the rows changed: %v; want %v", a, b)
	}
	rec, _ := st.Array(r2d2.KeyRecurrent)
	for _, bad := range []any{
		rec,
		batch.MustNew(r2d2.KeyRecurrent, rec),
		batch.MustNew(r2d2.KeyRecurrent, rec, r2d2.KeyHold, nd.Zeros(nd.Int64, k, 3)),
		batch.MustNew(r2d2.KeyRecurrent, rec, r2d2.KeyHold, nd.Zeros(nd.Float32, k, 2)),
	} {
		for _, explore := range []bool{true, false} {
			if err := p.Act(&dst, obs, bad, explore); !errors.Is(err, policy.ErrObs) {
				t.Errorf("state %v (explore %v): error %v; want ErrObs", bad, explore, err)
			}
		}
	}
}

// actAllocs returns the allocations of one exploring Act of 8 envs with
// the arrays of the previous call and the state it returned, for cfg.
func actAllocs(t *testing.T, cfg r2d2.Config) float64 {
	t.Helper()
	p, obs, state := actSetup(t, cfg)
	var dst batch.Batch
	return testing.AllocsPerRun(20, func() {
		if err := p.Act(&dst, obs, state, true); err != nil {
			t.Fatal(err)
		}
	})
}

// actSetup returns the exploring policy of an R2D2 of cfg (training-step
// flag on), observations of 8 envs, and the state of a first Act on them.
func actSetup(t testing.TB, cfg r2d2.Config) (policy.Policy, *batch.Batch, any) {
	r, err := r2d2.New(cfg, algotest.Box(t, -10, 10, 4), algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	p := r.Policy()
	p.SetTrainingStep(true)
	obs := batch.MustNew(batch.KeyObs, nd.Zeros(nd.Float32, 8, 4))
	var dst batch.Batch
	if err := p.Act(&dst, obs, nil, true); err != nil {
		t.Fatal(err)
	}
	v, _ := dst.Get(batch.KeyState)
	if b, ok := v.(*batch.Batch); ok {
		return p, obs, b.Clone()
	}
	return p, obs, v.(*nd.Array).Copy()
}

// TestHoldActAllocs checks that an Act, with or without a hold, does not
// allocate once its arrays exist.
func TestHoldActAllocs(t *testing.T) {
	cfg := r2d2.DefaultConfig()
	for _, hold := range []policy.HoldConfig{{}, {Mu: 2, MaxDuration: 100}} {
		cfg.Hold = hold
		if n := actAllocs(t, cfg); n != 0 {
			t.Errorf("hold %+v: %v allocations an Act; want 0", hold, n)
		}
	}
}
