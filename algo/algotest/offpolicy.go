package algotest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
)

// NewFunc is the constructor of an algorithm A with configuration C: New
// of its package, for the observation space obs and the action space act,
// its weights and random sources drawn from rng.
type NewFunc[C, A any] func(cfg C, obs, act env.Space, rng *rand.Rand) (A, error)

// Build returns the algorithm newAlgo makes with cfg for observations
// Box(−10, 10)⁴ and the action space act, failing t on an error.
func Build[C, A any](t testing.TB, newAlgo NewFunc[C, A], cfg C, act env.Space, rng *rand.Rand) A {
	t.Helper()
	a, err := newAlgo(cfg, Box(t, -10, 10, 4), act, rng)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// SmallOffPolicy returns the OffPolicy of an actor-critic for observations
// Box(−10, 10)⁴ and the action space act: New builds it with small(16),
// Other with small(8), and the buffer is a Collection of 4 envs × 50 steps
// in act. small(hidden) is the algorithm's configuration with networks of
// one hidden layer of hidden units.
func SmallOffPolicy[C any, A algo.OffPolicy](newAlgo NewFunc[C, A], small func(hidden int) C, act env.Space, params func(A) nn.Params) OffPolicy[A] {
	return OffPolicy[A]{
		New:    func(t testing.TB, rng *rand.Rand) A { return Build(t, newAlgo, small(16), act, rng) },
		Params: params,
		Other:  func(t testing.TB) A { return Build(t, newAlgo, small(8), act, rand.New(rand.NewPCG(1, 1))) },
		Buffer: func(t testing.TB, rng *rand.Rand) buffer.Buffer { return Collection(t, 4, 50, act, rng) },
	}
}

// Reject is a configuration New must refuse: Edit turns the default
// configuration into it, and the error must contain Want.
type Reject[C any] struct {
	Name string
	Edit func(*C)
	Want string
}

// CheckRejects checks, in a subtest for each of rejects, that newAlgo
// refuses the configuration Edit makes of def() for observations Box(−1,
// 1)² and the action space act with an error wrapping errConfig and
// containing Want; then that it refuses def() for the action space bad with
// an error wrapping errConfig and naming bad.
func CheckRejects[C, A any](t *testing.T, def func() C, newAlgo NewFunc[C, A], errConfig error, act env.Space, rejects []Reject[C], bad env.Space) {
	t.Helper()
	obs := Box(t, -1, 1, 2)
	for _, r := range rejects {
		t.Run(r.Name, func(t *testing.T) {
			cfg := def()
			r.Edit(&cfg)
			_, err := newAlgo(cfg, obs, act, rand.New(rand.NewPCG(1, 1)))
			if !errors.Is(err, errConfig) || !strings.Contains(err.Error(), r.Want) {
				t.Errorf("New: %v; want %v naming %q", err, errConfig, r.Want)
			}
		})
	}
	_, err := newAlgo(def(), obs, bad, rand.New(rand.NewPCG(1, 1)))
	if want := fmt.Sprint(bad); !errors.Is(err, errConfig) || !strings.Contains(err.Error(), want) {
		t.Errorf("New on the action space %v: %v; want %v naming the space", bad, err, errConfig)
	}
}

// Transitions are the five transitions the loss tests compute by hand:
// observations of 2 numbers, the second transition terminated and the last
// truncated.
type Transitions struct {
	Obs, Next [][]float32
	Rew       []float64
	Term      []bool
}

// Five returns the Transitions of the loss tests.
func Five() Transitions {
	return Transitions{
		Obs:  [][]float32{{0.1, -0.2}, {0.5, 0.3}, {-1, 2}, {0.7, 0.7}, {-0.3, 0.4}},
		Next: [][]float32{{0.2, -0.1}, {0.4, 0.1}, {-0.5, 1}, {0.6, 0.9}, {0, 0}},
		Rew:  []float64{1, -0.5, 0.25, 2, -1},
		Term: []bool{false, true, false, false, false},
	}
}

// Preprocessed stores tr with the actions act (one per transition) in a
// buffer of 10, takes them in order and returns the batch a's
// Preprocess completed: what a loss test hands to Update.
func Preprocessed[T any](t testing.TB, a algo.Algorithm, tr Transitions, act []T) *batch.Batch {
	t.Helper()
	buf, err := buffer.New(buffer.Config{Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	for i := range tr.Obs {
		b := batch.MustNew("obs", tr.Obs[i], "act", act[i], "rew", tr.Rew[i],
			"terminated", tr.Term[i], "truncated", i == len(tr.Obs)-1, "obs_next", tr.Next[i])
		if _, err := buf.Add(b, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	idx := make([]int, len(tr.Obs))
	for i := range idx {
		idx[i] = i
	}
	b := new(batch.Batch)
	if err := buf.TakeTo(b, idx); err != nil {
		t.Fatal(err)
	}
	if err := a.Preprocess(b, buf, idx); err != nil {
		t.Fatal(err)
	}
	return b
}
