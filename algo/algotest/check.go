package algotest

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
)

// OnPolicy describes an on-policy algorithm to CheckOnPolicy.
type OnPolicy[A algo.OnPolicy] struct {
	// New returns an algorithm for observations Box(−10, 10)⁴ and the
	// action space act, its weights and random sources drawn from rng.
	// Every call must use the same configuration.
	New func(t testing.TB, act env.Space, rng *rand.Rand) A
	// Params returns the parameters compared between runs.
	Params func(A) nn.Params
	// Other, when not nil, returns an algorithm for act whose networks have
	// another shape: loading the checked algorithm's state into it must
	// fail with algo.ErrState.
	Other func(t testing.TB, act env.Space) A
	// Acts lists the action spaces checked. Default Discrete(2) and
	// Box(−2, 2)².
	Acts []env.Space
	// Repeat is the number of passes of every update, over minibatches of
	// 32 of the 100 transitions of a collection. Default 2.
	Repeat int
}

// CheckOnPolicy runs the checks every on-policy algorithm passes, as
// subtests for each action space of c, on collections of 4 envs × 25 steps
// (Collection) with the seeds of the collections and of the algorithm
// fixed:
//
//   - determinism: two runs of 4 updates from one seed save the same state
//     byte for byte, and another seed gives other parameters;
//   - resume: the state saved after 3 updates and loaded into an algorithm
//     made from another seed saves back byte for byte, and both then
//     continue identically through 2 more updates (with Schedule called
//     before each when the algorithm is algo.Scheduled): the same state and
//     the same sampled actions; loading into c.Other fails;
//   - allocations: once a collection of the same size has been seen, an
//     update (Preprocess and UpdateRepeat) allocates nothing (skipped under
//     the race detector);
//   - smoke: updates report finite statistics and change the parameters.
func CheckOnPolicy[A algo.OnPolicy](t *testing.T, c OnPolicy[A]) {
	t.Helper()
	acts, repeat := c.Acts, c.Repeat
	if acts == nil {
		acts = []env.Space{Discrete(t, 2, 0), Box(t, -2, 2, 2)}
	}
	if repeat == 0 {
		repeat = 2
	}
	// train runs updates of a on collections drawn from data, reporting the
	// statistics of each update to stats when it is not nil.
	train := func(t testing.TB, a A, act env.Space, data uint64, updates int, stats func(map[string]float64)) {
		var l algo.Learner
		for i := range updates {
			buf := Collection(t, 4, 25, act, rand.New(rand.NewPCG(data, uint64(i))))
			if s, ok := any(a).(algo.Scheduled); ok {
				s.Schedule(int64(1000 * (i + 1)))
			}
			st, err := l.StepAll(a, buf, 32, repeat)
			if err != nil {
				t.Fatal(err)
			}
			if stats != nil {
				stats(st)
			}
		}
	}
	made := func(t testing.TB, act env.Space, seed uint64) A {
		return c.New(t, act, rand.New(rand.NewPCG(seed, 2)))
	}
	for _, act := range acts {
		t.Run(fmt.Sprint(act), func(t *testing.T) {
			t.Run("determinism", func(t *testing.T) {
				a, b, o := made(t, act, 7), made(t, act, 7), made(t, act, 8)
				for _, x := range []A{a, b, o} {
					train(t, x, act, 7, 4, nil)
				}
				if !bytes.Equal(State(t, a), State(t, b)) {
					t.Error("two runs of one seed differ")
				}
				if EqualParams(c.Params(a), c.Params(o)) {
					t.Error("two seeds gave the same parameters")
				}
			})
			t.Run("resume", func(t *testing.T) {
				a := made(t, act, 3)
				train(t, a, act, 3, 3, nil)
				state := State(t, a)
				fresh := c.New(t, act, rand.New(rand.NewPCG(99, 99)))
				if err := fresh.Load(bytes.NewReader(state)); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(State(t, fresh), state) {
					t.Error("the loaded state saves differently")
				}
				train(t, a, act, 5, 2, nil)
				train(t, fresh, act, 5, 2, nil)
				if !bytes.Equal(State(t, a), State(t, fresh)) || !EqualParams(c.Params(a), c.Params(fresh)) {
					t.Error("the states differ after resuming")
				}
				checkActs(t, a, fresh, nil)
				if c.Other != nil {
					if err := c.Other(t, act).Load(bytes.NewReader(state)); !errors.Is(err, algo.ErrState) {
						t.Errorf("loading into other networks: %v, want algo.ErrState", err)
					}
				}
			})
			t.Run("allocations", func(t *testing.T) {
				if race.Enabled {
					t.Skip("allocation counts mean nothing under the race detector")
				}
				a := made(t, act, 1)
				train(t, a, act, 1, 1, nil)
				buf := Collection(t, 4, 25, act, rand.New(rand.NewPCG(1, 1)))
				b, idx := Take(t, buf)
				step := func() {
					if err := a.Preprocess(b, buf, idx); err != nil {
						t.Fatal(err)
					}
					if _, err := a.UpdateRepeat(b, 32, repeat); err != nil {
						t.Fatal(err)
					}
				}
				step()
				if n := testing.AllocsPerRun(20, step); n != 0 {
					t.Errorf("an update allocates %v times", n)
				}
			})
			t.Run("smoke", func(t *testing.T) {
				a, b := made(t, act, 5), made(t, act, 5)
				train(t, a, act, 5, 3, func(st map[string]float64) { checkStats(t, st) })
				if EqualParams(c.Params(a), c.Params(b)) {
					t.Error("updates left the parameters unchanged")
				}
			})
		})
	}
}

// OffPolicy describes an off-policy algorithm to CheckOffPolicy.
type OffPolicy[A algo.OffPolicy] struct {
	// New returns an algorithm, its weights and random sources drawn from
	// rng. Every call must use the same configuration.
	New func(t testing.TB, rng *rand.Rand) A
	// Params returns the parameters compared between runs.
	Params func(A) nn.Params
	// Other, when not nil, returns an algorithm whose networks have another
	// shape: loading the checked algorithm's state into it must fail with
	// algo.ErrState.
	Other func(t testing.TB) A
	// Buffer returns the replay buffer the updates sample from, filled
	// with data drawn from rng.
	Buffer func(t testing.TB, rng *rand.Rand) buffer.Buffer
	// BatchSize is the number of transitions sampled per update. Default
	// 64.
	BatchSize int
	// Updates is the number of updates before the state is saved, Resume
	// the number after it is loaded (choose them to cross a target
	// update). Default 12 and 8.
	Updates, Resume int
	// Explore, when not nil, sets an algorithm's policy to sample at random
	// (an ε of 1) before the sampled actions of two algorithms are
	// compared.
	Explore func(A)
}

// CheckOffPolicy runs the checks every off-policy algorithm passes, with the
// seeds of the data, the algorithm and the sampling fixed:
//
//   - determinism: two runs of one seed save the same state byte for
//     byte, and another seed gives other parameters;
//   - resume: the state saved after Updates updates and loaded into an
//     algorithm made from another seed saves back byte for byte, and both
//     then continue identically through Resume more updates: the same
//     state and the same sampled actions; loading into c.Other fails;
//   - allocations: once a batch of the same size has been sampled, an
//     update cycle (algo.Learner.Step) allocates nothing (skipped under the
//     race detector);
//   - smoke: updates report finite statistics and change the parameters.
func CheckOffPolicy[A algo.OffPolicy](t *testing.T, c OffPolicy[A]) {
	t.Helper()
	n, updates, resume := c.BatchSize, c.Updates, c.Resume
	if n == 0 {
		n = 64
	}
	if updates == 0 {
		updates = 12
	}
	if resume == 0 {
		resume = 8
	}
	// made returns an algorithm made from seed, the buffer filled from seed
	// and the random source of its sampling.
	made := func(t testing.TB, seed uint64) (A, buffer.Buffer, *rand.Rand) {
		buf := c.Buffer(t, rand.New(rand.NewPCG(seed, 1)))
		return c.New(t, rand.New(rand.NewPCG(seed, 2))), buf, rand.New(rand.NewPCG(seed, 3))
	}
	train := func(t testing.TB, a A, buf buffer.Buffer, rng *rand.Rand, updates int, stats func(map[string]float64)) {
		var l algo.Learner
		for range updates {
			st, err := l.Step(a, buf, n, rng)
			if err != nil {
				t.Fatal(err)
			}
			if stats != nil {
				stats(st)
			}
		}
	}
	t.Run("determinism", func(t *testing.T) {
		var runs [3]A
		for i, seed := range []uint64{7, 7, 8} {
			a, buf, rng := made(t, seed)
			train(t, a, buf, rng, 30, nil)
			runs[i] = a
		}
		if !bytes.Equal(State(t, runs[0]), State(t, runs[1])) {
			t.Error("two runs of one seed differ")
		}
		if EqualParams(c.Params(runs[0]), c.Params(runs[2])) {
			t.Error("two seeds gave the same parameters")
		}
	})
	t.Run("resume", func(t *testing.T) {
		a, buf, rng := made(t, 3)
		train(t, a, buf, rng, updates, nil)
		state := State(t, a)
		fresh := c.New(t, rand.New(rand.NewPCG(99, 99)))
		if err := fresh.Load(bytes.NewReader(state)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(State(t, fresh), state) {
			t.Error("the loaded state saves differently")
		}
		train(t, a, buf, rand.New(rand.NewPCG(5, 5)), resume, nil)
		train(t, fresh, buf, rand.New(rand.NewPCG(5, 5)), resume, nil)
		if !bytes.Equal(State(t, a), State(t, fresh)) || !EqualParams(c.Params(a), c.Params(fresh)) {
			t.Error("the states differ after resuming")
		}
		checkActs(t, a, fresh, c.Explore)
		if c.Other != nil {
			if err := c.Other(t).Load(bytes.NewReader(state)); !errors.Is(err, algo.ErrState) {
				t.Errorf("loading into other networks: %v, want algo.ErrState", err)
			}
		}
	})
	t.Run("allocations", func(t *testing.T) {
		if race.Enabled {
			t.Skip("allocation counts mean nothing under the race detector")
		}
		a, buf, rng := made(t, 1)
		train(t, a, buf, rng, 3, nil)
		var l algo.Learner
		step := func() {
			if _, err := l.Step(a, buf, n, rng); err != nil {
				t.Fatal(err)
			}
		}
		step()
		if allocs := testing.AllocsPerRun(50, step); allocs != 0 {
			t.Errorf("an update cycle allocates %v times", allocs)
		}
	})
	t.Run("smoke", func(t *testing.T) {
		a, buf, rng := made(t, 5)
		b := c.New(t, rand.New(rand.NewPCG(5, 2)))
		train(t, a, buf, rng, 3, func(st map[string]float64) { checkStats(t, st) })
		if EqualParams(c.Params(a), c.Params(b)) {
			t.Error("updates left the parameters unchanged")
		}
	})
}

// State returns what a.Save writes, failing the test on an error.
func State(t testing.TB, a algo.Algorithm) []byte {
	t.Helper()
	var w bytes.Buffer
	if err := a.Save(&w); err != nil {
		t.Fatal(err)
	}
	return w.Bytes()
}

// checkActs checks that the policies of a and b, in their training step
// (and set by explore when not nil), sample the same actions for 16 zero
// observations of 4 numbers: their random sources continue alike.
func checkActs[A algo.Algorithm](t *testing.T, a, b A, explore func(A)) {
	t.Helper()
	obs := batch.MustNew(batch.KeyObs, nd.Zeros(nd.Float32, 16, 4))
	var out [2]batch.Batch
	for i, x := range []A{a, b} {
		if explore != nil {
			explore(x)
		}
		p := x.Policy()
		p.SetTrainingStep(true)
		if err := p.Act(&out[i], obs, nil, true); err != nil {
			t.Fatal(err)
		}
	}
	if !batch.Equal(&out[0], &out[1]) {
		t.Error("the policies' samples differ after resuming")
	}
}

// checkStats fails the test if a statistic is not a finite number.
func checkStats(t testing.TB, stats map[string]float64) {
	t.Helper()
	if len(stats) == 0 {
		t.Error("an update reported no statistics")
	}
	for k, v := range stats {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("statistic %s = %v", k, v)
		}
	}
}
