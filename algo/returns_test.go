package algo_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/nd"
)

// step is one transition for the test buffers: its reward and end flags.
type step struct {
	rew        float64
	term, trun bool
}

// addSteps stores the steps of one env into sub-buffer id of buf (id < 0:
// a Replay, no ids).
func addSteps(t testing.TB, buf buffer.Buffer, id int, steps ...step) {
	t.Helper()
	for _, s := range steps {
		var ids []int
		obs := any([]float32{float32(s.rew)})
		rew, term, trun := any(s.rew), any(s.term), any(s.trun)
		if id >= 0 {
			ids = []int{id}
			obs = [][]float32{{float32(s.rew)}}
			rew, term, trun = []float64{s.rew}, []bool{s.term}, []bool{s.trun}
		}
		b := batch.MustNew("obs", obs, "act", obs, "rew", rew, "terminated", term, "truncated", trun, "obs_next", obs)
		if _, err := buf.Add(b, ids, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// wrapBuffer is a Replay of 5 that received 7 transitions t0…t6 with
// rewards t+1, the first episode terminated at t1 and the second still
// running: indices 0…4 hold t5, t6, t2, t3, t4 (the ring wrapped), and
// the episode t2…t6 crosses the ring boundary between indices 4 and 0.
func wrapBuffer(t testing.TB) buffer.Buffer {
	t.Helper()
	buf, err := buffer.New(buffer.Config{Size: 5})
	if err != nil {
		t.Fatal(err)
	}
	addSteps(t, buf, -1, step{rew: 1}, step{rew: 2, term: true})
	addSteps(t, buf, -1, step{rew: 3}, step{rew: 4}, step{rew: 5}, step{rew: 6}, step{rew: 7})
	return buf
}

// vectorBuffer is a Vector of two sub-buffers of 4 (indices 0–3 and 4–7):
// sub-buffer 0 holds rewards 1, 2, 3 (terminated) and 4 (unfinished);
// sub-buffer 1 holds 10, 20 (truncated), 30 and 40 (unfinished).
func vectorBuffer(t testing.TB) buffer.Buffer {
	t.Helper()
	buf, err := buffer.NewVector(buffer.Config{Size: 8}, 2)
	if err != nil {
		t.Fatal(err)
	}
	addSteps(t, buf, 0, step{rew: 1}, step{rew: 2}, step{rew: 3, term: true}, step{rew: 4})
	addSteps(t, buf, 1, step{rew: 10}, step{rew: 20, trun: true}, step{rew: 30}, step{rew: 40})
	return buf
}

func closeTo(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

func checkSlice(t *testing.T, name string, got []float32, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s has %d elements, want %d", name, len(got), len(want))
	}
	for i := range got {
		if !closeTo(float64(got[i]), want[i], tol) {
			t.Errorf("%s = %v, want %v (first difference at %d)", name, got, want, i)
			return
		}
	}
}

// TestGAETo checks the kernel on hand-computed sequences.
func TestGAETo(t *testing.T) {
	for _, tc := range []struct {
		name          string
		rew           []float64
		v, vNext      []float32
		term, end     []bool
		gamma, lambda float64
		want          []float64
	}{
		{
			// By hand, γ = 0.9, γλ = 0.72: δ₂ = 1 − 0.3 = 0.7 (terminated:
			// no V′), δ₁ = 1 + 0.9·0.3 − 0.4 = 0.87, δ₀ = 1 + 0.9·0.4 −
			// 0.5 = 0.86; A₂ = 0.7, A₁ = 0.87 + 0.72·0.7 = 1.374, A₀ =
			// 0.86 + 0.72·1.374 = 1.84928.
			name: "terminated", rew: []float64{1, 1, 1},
			v: []float32{0.5, 0.4, 0.3}, vNext: []float32{0.4, 0.3, 9},
			term: []bool{false, false, true}, end: []bool{false, false, true},
			gamma: 0.9, lambda: 0.8, want: []float64{1.84928, 1.374, 0.7},
		},
		{
			// The same episode truncated: δ₂ = 1 + 0.9·2 − 0.3 = 2.5
			// bootstraps; A₁ = 0.87 + 0.72·2.5 = 2.67, A₀ = 0.86 +
			// 0.72·2.67 = 2.7824.
			name: "truncated", rew: []float64{1, 1, 1},
			v: []float32{0.5, 0.4, 0.3}, vNext: []float32{0.4, 0.3, 2},
			term: []bool{false, false, false}, end: []bool{false, false, true},
			gamma: 0.9, lambda: 0.8, want: []float64{2.7824, 2.67, 2.5},
		},
		{
			// Two episodes back to back do not chain: γ = 0.5, λ = 1, no
			// values: discounted returns 1 + 0.5·2 + 0.25·3 = 2.75, 2 +
			// 0.5·3 = 3.5, 3, then 4 alone.
			name: "returns", rew: []float64{1, 2, 3, 4},
			term: []bool{false, false, true, false}, end: []bool{false, false, true, true},
			gamma: 0.5, lambda: 1, want: []float64{2.75, 3.5, 3, 4},
		},
		{
			// Only V(s) given: δ = r − V; γλ = 0.25: A₁ = 2 − 1 = 1, A₀ = 1
			// − 1 + 0.25·1 = 0.25.
			name: "v only", rew: []float64{1, 2}, v: []float32{1, 1},
			term: []bool{false, false}, end: []bool{false, true},
			gamma: 0.5, lambda: 0.5, want: []float64{0.25, 1},
		},
		{name: "empty", gamma: 0.9, lambda: 0.9, want: []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			adv := make([]float32, len(tc.rew))
			algo.GAETo(adv, tc.rew, tc.v, tc.vNext, tc.term, tc.end, tc.gamma, tc.lambda)
			checkSlice(t, "adv", adv, tc.want, 1e-6)
		})
	}
}

// naiveGAE is Tianshou's _gae_return with its value mask, written as it is
// in numpy: delta and discount arrays, then one backward pass.
func naiveGAE(rew []float64, v, vNext []float32, term, end []bool, gamma, lambda float64) []float64 {
	n := len(rew)
	delta := make([]float64, n)
	discount := make([]float64, n)
	for i := range n {
		next := float64(vNext[i])
		if term[i] {
			next = 0
		}
		delta[i] = rew[i] + next*gamma - float64(v[i])
		if !end[i] {
			discount[i] = gamma * lambda
		}
	}
	out := make([]float64, n)
	gae := 0.0
	for i := n - 1; i >= 0; i-- {
		gae = delta[i] + discount[i]*gae
		out[i] = gae
	}
	return out
}

// TestGAEToNaive compares the kernel with the numpy formulation on random
// sequences.
func TestGAEToNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 50 {
		n := 1 + rng.IntN(200)
		rew := make([]float64, n)
		v, vNext := make([]float32, n), make([]float32, n)
		term, end := make([]bool, n), make([]bool, n)
		for i := range n {
			rew[i] = rng.NormFloat64()
			v[i], vNext[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
			switch rng.IntN(10) {
			case 0:
				term[i], end[i] = true, true
			case 1:
				end[i] = true
			}
		}
		end[n-1] = true
		gamma, lambda := rng.Float64(), rng.Float64()
		adv := make([]float32, n)
		algo.GAETo(adv, rew, v, vNext, term, end, gamma, lambda)
		want := naiveGAE(rew, v, vNext, term, end, gamma, lambda)
		for i := range adv {
			if !closeTo(float64(adv[i]), want[i], 1e-5) {
				t.Fatalf("trial %d: adv[%d] = %v, want %v", trial, i, adv[i], want[i])
			}
		}
	}
}

func TestGAEToPanics(t *testing.T) {
	defer func() {
		if err, ok := recover().(error); !ok || !errors.Is(err, algo.ErrShape) {
			t.Errorf("recovered %v, want an error wrapping ErrShape", err)
		}
	}()
	algo.GAETo(make([]float32, 3), make([]float64, 2), nil, nil, make([]bool, 3), make([]bool, 3), 0.9, 0.9)
}

// TestEpisodic computes advantages and returns over buffers, with the end
// flags taken from the buffer.
func TestEpisodic(t *testing.T) {
	t.Run("vector", func(t *testing.T) {
		buf := vectorBuffer(t)
		idx := buf.SampleIndices(0, nil)
		if !slices.Equal(idx, []int{0, 1, 2, 3, 4, 5, 6, 7}) {
			t.Fatalf("indices %v", idx)
		}
		v := []float32{1, 1, 1, 1, 1, 1, 1, 1}
		vNext := []float32{2, 2, 2, 2, 2, 2, 2, 2}
		adv, ret := make([]float32, 8), make([]float32, 8)
		var e algo.Episodic
		e.AdvantagesTo(adv, ret, buf, idx, v, vNext, 0.9, 0.5)
		// By hand, γ = 0.9, γλ = 0.45, δ = r + 0.9·2 − 1 except at the
		// terminated step (δ = r − 1). Sub-buffer 0: δ = 1.8, 2.8, 2,
		// 4.8 with ends after the terminated step and the unfinished
		// newest one: A = 1.8 + 0.45·3.7, 2.8 + 0.45·2, 2, 4.8.
		// Sub-buffer 1: δ = 10.8, 20.8 (truncated: bootstraps, ends),
		// 30.8, 40.8: A = 10.8 + 0.45·20.8, 20.8, 30.8 + 0.45·40.8, 40.8.
		want := []float64{3.465, 3.7, 2, 4.8, 20.16, 20.8, 49.16, 40.8}
		checkSlice(t, "adv", adv, want, 1e-6)
		for i := range want {
			want[i]++
		}
		checkSlice(t, "ret", ret, want, 1e-6)
	})
	t.Run("wrap-around", func(t *testing.T) {
		buf := wrapBuffer(t)
		idx := buf.SampleIndices(0, nil)
		if !slices.Equal(idx, []int{2, 3, 4, 0, 1}) {
			t.Fatalf("indices %v", idx)
		}
		adv, ret := make([]float32, 5), make([]float32, 5)
		var e algo.Episodic
		e.AdvantagesTo(adv, ret, buf, idx, nil, nil, 0.5, 1)
		// Discounted returns of t2…t6 (rewards 3…7), one stretch across
		// the ring boundary: 7, 6 + 3.5, 5 + 4.75, 4 + 4.875, 3 + 4.4375.
		want := []float64{7.4375, 8.875, 9.75, 9.5, 7}
		checkSlice(t, "adv", adv, want, 1e-6)
		checkSlice(t, "ret", ret, want, 1e-6)
	})
	t.Run("subset", func(t *testing.T) {
		// Indices that skip a step break the stretch there: 2 is not
		// followed by 4 (3 is), so t2 is computed alone.
		buf := wrapBuffer(t)
		adv := make([]float32, 2)
		var e algo.Episodic
		e.AdvantagesTo(adv, nil, buf, []int{2, 4}, nil, nil, 0.5, 1)
		checkSlice(t, "adv", adv, []float64{3, 5}, 1e-6)
	})
}

// TestNStep checks n-step returns by hand on the wrapped Replay and the
// Vector buffer.
func TestNStep(t *testing.T) {
	for _, tc := range []struct {
		name     string
		buf      func(testing.TB) buffer.Buffer
		indices  []int
		gamma    float64
		n        int
		target   []float32
		wantLast []int
		want     []float64
	}{
		{
			// γ = 0.5, n = 3, targets 10: t2 → 3 + 2 + 1.25 + 1.25; t3 →
			// 4 + 2.5 + 1.5 + 1.25 across the ring boundary; t4 → 5 + 3 +
			// 1.75 + 1.25; t5 stops at the newest step t6: 6 + 3.5 +
			// 0.25·10; t6 alone: 7 + 0.5·10.
			name: "wrap-around", buf: wrapBuffer, indices: []int{2, 3, 4, 0, 1},
			gamma: 0.5, n: 3, target: []float32{10, 10, 10, 10, 10},
			wantLast: []int{4, 0, 1, 1, 1}, want: []float64{7.5, 9.25, 11, 12, 12},
		},
		{
			// γ = 0.9, n = 3, targets 100. Sub-buffer 0: 1 + 1.8 + 2.43
			// (terminated: no target), 2 + 2.7, 3, and the newest 4 + 90.
			// Sub-buffer 1: 10 + 18 + 81 (truncated: bootstraps), 20 +
			// 90, 30 + 36 + 81 (stops at the newest), 40 + 90.
			name: "vector", buf: vectorBuffer, indices: []int{0, 1, 2, 3, 4, 5, 6, 7},
			gamma: 0.9, n: 3, target: []float32{100, 100, 100, 100, 100, 100, 100, 100},
			wantLast: []int{2, 2, 2, 3, 5, 5, 7, 7}, want: []float64{5.23, 4.7, 3, 94, 109, 110, 147, 130},
		},
		{
			// n = 1 is the one-step target r + γ·Q′ (0 after termination).
			name: "one step", buf: vectorBuffer, indices: []int{2, 1, 5},
			gamma: 0.9, n: 1, target: []float32{7, 7, 7},
			wantLast: []int{2, 1, 5}, want: []float64{3, 2 + 6.3, 20 + 6.3},
		},
		{
			// Sampled indices come in any order and may repeat.
			name: "sampled", buf: vectorBuffer, indices: []int{6, 0, 6},
			gamma: 0.9, n: 2, target: []float32{1, 2, 3},
			wantLast: []int{7, 1, 7}, want: []float64{30 + 36 + 0.81, 1 + 1.8 + 0.81*2, 30 + 36 + 0.81*3},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			buf := tc.buf(t)
			var s algo.NStep
			last := s.Windows(buf, tc.indices, tc.gamma, tc.n)
			if !slices.Equal(last, tc.wantLast) {
				t.Errorf("Windows = %v, want %v", last, tc.wantLast)
			}
			dst := make([]float32, len(tc.indices))
			s.ReturnsTo(dst, tc.target)
			checkSlice(t, "returns", dst, tc.want, 1e-6)
		})
	}
}

// naiveNStep is Tianshou's compute_nstep_return and _nstep_return as written
// in numpy: stacked next indices, end flags from done and the unfinished
// index, then a backward accumulation.
func naiveNStep(buf buffer.Buffer, indices []int, target func(int) float64, gamma float64, n int) []float64 {
	bsz := len(indices)
	rows := [][]int{slices.Clone(indices)}
	for range n - 1 {
		next := make([]int, bsz)
		buf.NextTo(next, rows[len(rows)-1])
		rows = append(rows, next)
	}
	terminal := rows[len(rows)-1]
	end := slices.Clone(buf.Done())
	for _, u := range buf.UnfinishedIndex() {
		end[u] = true
	}
	tq := make([]float64, bsz)
	for k, i := range terminal {
		if !buf.Terminated()[i] {
			tq[k] = target(i)
		}
	}
	returns := make([]float64, bsz)
	gammas := make([]int, bsz)
	for k := range gammas {
		gammas[k] = n
	}
	for j := n - 1; j >= 0; j-- {
		now := rows[j]
		for k := range bsz {
			if end[now[k]] {
				gammas[k] = j + 1
				returns[k] = 0
			}
			returns[k] = buf.Rew()[now[k]] + gamma*returns[k]
		}
	}
	for k := range tq {
		tq[k] = tq[k]*math.Pow(gamma, float64(gammas[k])) + returns[k]
	}
	return tq
}

// TestNStepNaive compares NStep with Tianshou's formulation on random
// vector buffers that wrapped several times, with random episode ends.
func TestNStepNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 30 {
		subs := 1 + rng.IntN(4)
		buf, err := buffer.NewVector(buffer.Config{Size: subs * (3 + rng.IntN(10))}, subs)
		if err != nil {
			t.Fatal(err)
		}
		for range rng.IntN(60) {
			id := rng.IntN(subs)
			r := rng.IntN(8)
			addSteps(t, buf, id, step{rew: rng.NormFloat64(), term: r == 0, trun: r == 1})
		}
		if buf.Len() == 0 {
			continue
		}
		idx := buf.SampleIndices(32, rng)
		gamma, n := rng.Float64(), 1+rng.IntN(5)
		target := func(i int) float64 { return float64(float32(math.Sin(float64(i)))) }
		var s algo.NStep
		last := s.Windows(buf, idx, gamma, n)
		tq := make([]float32, len(last))
		for k, i := range last {
			tq[k] = float32(target(i))
		}
		got := make([]float32, len(idx))
		s.ReturnsTo(got, tq)
		want := naiveNStep(buf, idx, target, gamma, n)
		for k := range got {
			if !closeTo(float64(got[k]), want[k], 1e-5) {
				t.Fatalf("trial %d (n = %d): return %d = %v, want %v", trial, n, k, got[k], want[k])
			}
		}
	}
}

func TestNStepPanics(t *testing.T) {
	buf := vectorBuffer(t)
	for _, tc := range []struct {
		name string
		kind error
		f    func()
	}{
		{"n = 0", algo.ErrValue, func() { new(algo.NStep).Windows(buf, []int{0}, 0.9, 0) }},
		{"gamma NaN", algo.ErrValue, func() { new(algo.NStep).Windows(buf, []int{0}, math.NaN(), 1) }},
		{"target length", algo.ErrShape, func() {
			var s algo.NStep
			s.Windows(buf, []int{0, 1}, 0.9, 1)
			s.ReturnsTo(make([]float32, 2), make([]float32, 1))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if err, ok := recover().(error); !ok || !errors.Is(err, tc.kind) {
					t.Errorf("recovered %v, want an error wrapping %v", err, tc.kind)
				}
			}()
			tc.f()
		})
	}
}

// TestKernelAllocations locks the steady state of the kernels at zero
// allocations.
func TestKernelAllocations(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates")
	}
	n := 1000
	adv, rew := make([]float32, n), make([]float64, n)
	v, vNext := make([]float32, n), make([]float32, n)
	term, end := make([]bool, n), make([]bool, n)
	if a := testing.AllocsPerRun(20, func() { algo.GAETo(adv, rew, v, vNext, term, end, 0.99, 0.95) }); a != 0 {
		t.Errorf("GAETo: %v allocations", a)
	}
	buf := vectorBuffer(t)
	idx := []int{0, 3, 5, 6, 1, 2, 7, 4}
	var s algo.NStep
	dst, target := make([]float32, len(idx)), make([]float32, len(idx))
	run := func() {
		s.Windows(buf, idx, 0.9, 3)
		s.ReturnsTo(dst, target)
	}
	run()
	if a := testing.AllocsPerRun(20, run); a != 0 {
		t.Errorf("NStep: %v allocations", a)
	}
	var e algo.Episodic
	all := buf.SampleIndices(0, nil)
	ea, er := make([]float32, len(all)), make([]float32, len(all))
	ev := make([]float32, len(all))
	e.AdvantagesTo(ea, er, buf, all, ev, ev, 0.9, 0.9)
	if a := testing.AllocsPerRun(20, func() { e.AdvantagesTo(ea, er, buf, all, ev, ev, 0.9, 0.9) }); a != 0 {
		t.Errorf("Episodic: %v allocations", a)
	}

	// QReturns with windows that move (the last steps taken from the
	// buffer) and DiscreteActions on the same batch.
	b := take(t, buf, idx)
	var q algo.QReturns
	tg := &obsTarget{scale: 1}
	qrun := func() {
		if err := q.Preprocess(b, buf, idx, 0.9, 3, tg.values); err != nil {
			t.Fatal(err)
		}
	}
	qrun()
	if a := testing.AllocsPerRun(20, qrun); a != 0 {
		t.Errorf("QReturns: %v allocations", a)
	}
	if err := b.Set("act", nd.Zeros(nd.Int64, len(idx))); err != nil {
		t.Fatal(err)
	}
	space, _ := env.NewDiscrete(2, 0)
	var acts algo.DiscreteActions
	read := func() {
		if _, err := acts.Read(b, space); err != nil {
			t.Fatal(err)
		}
	}
	read()
	if a := testing.AllocsPerRun(20, read); a != 0 {
		t.Errorf("DiscreteActions: %v allocations", a)
	}
}

// Every buffer of package buffer is what the return kernels read.
var _ algo.EpisodeStore = buffer.Buffer(nil)
