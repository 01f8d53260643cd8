package r2d2

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// testConfig is a small configuration: burn-in 3, 5 trained steps, 3-step
// targets.
func testConfig(cell string) Config {
	cfg := DefaultConfig()
	cfg.Cell, cfg.Hidden, cfg.HeadHidden = cell, 8, []int{8}
	cfg.BurnIn, cfg.SeqLen, cfg.NStep = 3, 5, 3
	return cfg
}

// preprocessed returns an R2D2 made from seed and a Collection of 4 envs ×
// 60 steps (episodes that terminate or are truncated at random), after a
// Preprocess of every index of the buffer as a sequence start.
func preprocessed(t *testing.T, cfg Config, seed uint64) (*R2D2, buffer.Buffer, *batch.Batch, []int) {
	t.Helper()
	act := algotest.Discrete(t, 2, 0)
	buf := algotest.Collection(t, 4, 60, act, rand.New(rand.NewPCG(9, 9)))
	r, err := New(cfg, algotest.Box(t, -10, 10, 4), act, rand.New(rand.NewPCG(seed, 2)))
	if err != nil {
		t.Fatal(err)
	}
	b, idx := algotest.Take(t, buf)
	if err := r.Preprocess(b, buf, idx); err != nil {
		t.Fatal(err)
	}
	return r, buf, b, idx
}

// TestSequencesStayInEpisodes checks the layout Preprocess builds for every
// start in a collection of short episodes: the valid slots of a sequence
// are consecutive steps of one episode (each the buffer's next of the one
// before, none after a done step), the burn-in stops only at an episode's
// start or after BurnIn steps, the trained part only at an episode's end,
// the end of the data, or after SeqLen + NStep steps, and the trained
// mask covers exactly the valid trained slots. Then it fills every padded
// slot with large numbers in a second R2D2 of the same seed: the loss and
// the TD errors stay the same, so nothing past an end reaches the update.
func TestSequencesStayInEpisodes(t *testing.T) {
	for _, cell := range []string{LSTM, GRU} {
		cfg := testConfig(cell)
		r, buf, b, idx := preprocessed(t, cfg, 1)
		m, B, T, E := len(idx), cfg.BurnIn, cfg.SeqLen, cfg.SeqLen+cfg.NStep
		done := buf.Done()
		one, other := make([]int, 1), make([]int, 1)
		nextOf := func(i int) int { buf.NextTo(one, []int{i}); return one[0] }
		prevOf := func(i int) int { buf.PrevTo(other, []int{i}); return other[0] }
		ends := 0
		for i, s := range idx {
			row := func(j int) int { return r.rows[j*m+i] }
			if row(B) != s {
				t.Fatalf("%s: sequence %d starts its trained part at %d, not at its sampled index %d", cell, i, row(B), s)
			}
			// Burn-in: valid slots are a suffix of [0, B), each the
			// previous step of the one after it.
			first := B
			for j := B - 1; j >= 0 && row(j) >= 0; j-- {
				if nextOf(row(j)) != row(j+1) || done[row(j)] {
					t.Fatalf("%s: sequence %d: burn-in slot %d (index %d) is not the step before %d in its episode", cell, i, j, row(j), row(j+1))
				}
				first = j
			}
			for j := range first {
				if row(j) >= 0 {
					t.Fatalf("%s: sequence %d: burn-in slot %d valid before an invalid one", cell, i, j)
				}
			}
			if first > 0 && prevOf(row(first)) != row(first) {
				t.Fatalf("%s: sequence %d: burn-in stops at %d, not an episode's start", cell, i, row(first))
			}
			// Trained and target part.
			l := r.length[i]
			for j := B + 1; j < B+l; j++ {
				if nextOf(row(j-1)) != row(j) || done[row(j-1)] {
					t.Fatalf("%s: sequence %d: slot %d (index %d) does not follow %d in its episode", cell, i, j, row(j), row(j-1))
				}
			}
			for j := B + l; j < B+E; j++ {
				if row(j) >= 0 {
					t.Fatalf("%s: sequence %d: slot %d valid past the sequence's end", cell, i, j)
				}
			}
			if last := row(B + l - 1); l < E {
				if nextOf(last) != last {
					t.Fatalf("%s: sequence %d stops after %d steps at %d, inside an episode", cell, i, l, last)
				}
				ends++
			}
			for tt := range T {
				if r.mask[tt*m+i] != (tt < l) {
					t.Fatalf("%s: sequence %d: mask of step %d is %v with %d valid steps", cell, i, tt, r.mask[tt*m+i], l)
				}
			}
		}
		if ends < 10 {
			t.Fatalf("%s: only %d sequences end early; the check needs episode ends", cell, ends)
		}
		st, err := r.Update(b)
		if err != nil {
			t.Fatal(err)
		}
		loss, td := st["loss"], append([]float64(nil), r.TD()...)

		r2, _, b2, _ := preprocessed(t, cfg, 1)
		x, in := r2.x.Data(), r2.net.InSize()
		rng := rand.New(rand.NewPCG(4, 4))
		for k, row := range r2.rows {
			if row < 0 && (k/m != B+r2.length[k%m]) { // not the slot of the last obs_next
				for c := range in {
					x[k*in+c] = float32(rng.NormFloat64() * 1000)
				}
			}
		}
		st2, err := r2.Update(b2)
		if err != nil {
			t.Fatal(err)
		}
		if st2["loss"] != loss {
			t.Errorf("%s: padding changed the loss: %v, %v", cell, st2["loss"], loss)
		}
		for k, v := range r2.TD() {
			if v != td[k] {
				t.Fatalf("%s: padding changed TD error %d: %v, %v", cell, k, v, td[k])
			}
		}
	}
}

// TestBurnInNoGradient marks the update's inputs as requiring a gradient
// and checks that the gradient of the loss with respect to every burn-in
// input is exactly zero, while the trained steps' inputs get one; and that
// the burn-in still shapes the forward pass (other burn-in inputs change
// the loss).
func TestBurnInNoGradient(t *testing.T) {
	for _, cell := range []string{LSTM, GRU} {
		cfg := testConfig(cell)
		r, _, b, idx := preprocessed(t, cfg, 1)
		m, B, T, in := len(idx), cfg.BurnIn, cfg.SeqLen, r.net.InSize()
		r.x.SetRequiresGrad(true)
		st, err := r.Update(b)
		if err != nil {
			t.Fatal(err)
		}
		g := r.x.Grad()
		if g == nil {
			t.Fatalf("%s: no gradient reached the inputs", cell)
		}
		burnValid, trainedGrad := 0, 0
		for k := range B * m {
			if r.rows[k] >= 0 {
				burnValid++
			}
			for c := range in {
				if g[k*in+c] != 0 {
					t.Fatalf("%s: burn-in slot %d of sequence %d has gradient %v", cell, k/m, k%m, g[k*in+c])
				}
			}
		}
		for k := B * m; k < (B+T)*m; k++ {
			for c := range in {
				if g[k*in+c] != 0 {
					trainedGrad++
					break
				}
			}
		}
		if burnValid == 0 || trainedGrad < m {
			t.Fatalf("%s: %d valid burn-in slots, %d trained inputs with a gradient", cell, burnValid, trainedGrad)
		}

		// Other burn-in inputs, same weights: another loss.
		r2, buf2, b2, _ := preprocessed(t, cfg, 1)
		if err := r2.load(m); err != nil {
			t.Fatal(err)
		}
		x := r2.x.Data()
		for k := range B * m {
			for c := range in {
				x[k*in+c] += 1
			}
		}
		r2.burnIn(m)
		if err := r2.targets(m, buf2); err != nil {
			t.Fatal(err)
		}
		st2, err := r2.Update(b2)
		if err != nil {
			t.Fatal(err)
		}
		if st2["loss"] == st["loss"] {
			t.Errorf("%s: the burn-in inputs do not change the loss", cell)
		}
	}
}

// TestStoredStatesAgree collects with the policy on CartPoleNoVel-v1 into a
// prioritized buffer and recomputes the states: one step of the cell from
// the stored state_in on a row's observation gives the state the collector
// stored (policy.hidden_state), which is the state_in of the row after it
// in the episode; every episode starts from zero; and right after the
// collection the burn-in of Preprocess, from the state stored BurnIn steps
// back, arrives at the state stored at each sequence's first trained step,
// for the online and the target network (one batch of rows against another:
// within float32 rounding). The collected buffer then takes updates.
func TestStoredStatesAgree(t *testing.T) {
	const envs, steps = 3, 80
	for _, cell := range []string{LSTM, GRU} {
		cfg := testConfig(cell)
		cfg.Hidden, cfg.BurnIn = 16, 6
		var es []env.Env
		for range envs {
			e, err := env.Make("CartPoleNoVel-v1")
			if err != nil {
				t.Fatal(err)
			}
			es = append(es, e)
		}
		v, err := vector.NewSync(es)
		if err != nil {
			t.Fatal(err)
		}
		r, err := New(cfg, es[0].ObservationSpace(), es[0].ActionSpace(), rand.New(rand.NewPCG(5, 6)))
		if err != nil {
			t.Fatal(err)
		}
		buf, err := buffer.NewPrioritizedVector(buffer.Config{Size: envs * steps}, envs, buffer.PriorityConfig{Alpha: 0.9, Beta: 0.6})
		if err != nil {
			t.Fatal(err)
		}
		r.Policy().SetTrainingStep(true)
		c, err := collector.New(collector.Config{Env: v, Policy: r.Policy(), Buffer: buf, Explore: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Collect(context.Background(), collector.Request{NStep: envs * steps}); err != nil {
			t.Fatal(err)
		}
		v.Close()
		b, idx := algotest.Take(t, buf)
		pd, err := b.Batch(batch.KeyPolicy)
		if err != nil {
			t.Fatal(err)
		}
		sIn, err := pd.Array(KeyStateIn)
		if err != nil {
			t.Fatal(err)
		}
		sOut, err := pd.Array(batch.KeyHiddenState)
		if err != nil {
			t.Fatal(err)
		}
		obs, _ := b.Array(batch.KeyObs)
		w, n := r.net.StateSize(), len(idx)
		in, out, o := nd.Data[float32](sIn), nd.Data[float32](sOut), nd.Data[float32](obs)
		next, prev := make([]int, n), make([]int, n)
		buf.NextTo(next, idx)
		buf.PrevTo(prev, idx)
		pos := map[int]int{}
		for k, i := range idx {
			pos[i] = k
		}
		near := func(a, b []float32) bool {
			for j := range a {
				if math.Abs(float64(a[j]-b[j])) > 1e-5 {
					return false
				}
			}
			return true
		}
		var tp tensor.Tape
		tp.SetGradEnabled(false)
		starts := 0
		for k := range idx {
			x, h := tensor.New(1, 2), tensor.New(1, w)
			copy(x.Data(), o[k*2:(k+1)*2])
			copy(h.Data(), in[k*w:(k+1)*w])
			tp.Reset()
			h2, _ := r.net.Step(&tp, x, h)
			if !near(h2.Data(), out[k*w:(k+1)*w]) {
				t.Fatalf("%s: row %d: the cell from state_in gives %v, stored %v", cell, k, h2.Data()[:3], out[k*w:k*w+3])
			}
			if next[k] != idx[k] {
				if kn := pos[next[k]]; !near(in[kn*w:(kn+1)*w], out[k*w:(k+1)*w]) {
					t.Fatalf("%s: row %d: the next step's state_in is not this step's state", cell, k)
				}
			}
			if prev[k] == idx[k] {
				starts++
				for _, s := range in[k*w : (k+1)*w] {
					if s != 0 {
						t.Fatalf("%s: row %d starts an episode from a nonzero state", cell, k)
					}
				}
			}
		}
		if starts < envs {
			t.Fatalf("%s: %d episode starts", cell, starts)
		}
		if err := r.Preprocess(b, buf, idx); err != nil {
			t.Fatal(err)
		}
		long := 0
		for i := range idx {
			if r.burn[i] == cfg.BurnIn {
				long++
			}
			want := in[i*w : (i+1)*w]
			for _, h := range []*tensor.Tensor{r.hOn, r.hTg} {
				if !near(h.Data()[i*w:(i+1)*w], want) {
					t.Fatalf("%s: sequence %d: the burn-in of %d steps gives %v, stored %v", cell, i, r.burn[i], h.Data()[i*w:i*w+3], want[:3])
				}
			}
		}
		if long < n/2 {
			t.Fatalf("%s: only %d of %d sequences have a full burn-in", cell, long, n)
		}
		var l algo.Learner
		rng := rand.New(rand.NewPCG(1, 1))
		for range 3 {
			if _, err := l.Step(r, buf, 16, rng); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestPriorities checks the η-mix η·max|δ| + (1 − η)·mean|δ| over each
// sequence's valid steps against values worked out by hand, for 2
// sequences of up to 3 steps laid out time-major (step t of sequence i at
// 2t + i); padding (here 100) is never read. Then it checks that Update's
// priorities are the mix of its own TD errors.
func TestPriorities(t *testing.T) {
	cases := []struct {
		name   string
		td     []float64
		length []int
		eta    float64
		want   []float64
	}{
		// Sequence 0: |δ| 1, 3, 2: max 3, mean 2, 0.9·3 + 0.1·2 = 2.9.
		// Sequence 1: |δ| 4, 0.5 (length 2): max 4, mean 2.25,
		// 3.6 + 0.225 = 3.825.
		{"eta 0.9", []float64{1, -4, -3, 0.5, 2, 100}, []int{3, 2}, 0.9, []float64{2.9, 3.825}},
		// η = 0.5: 1.5 + 1 = 2.5 and 2 + 1.125 = 3.125.
		{"eta 0.5", []float64{1, -4, -3, 0.5, 2, 100}, []int{3, 2}, 0.5, []float64{2.5, 3.125}},
		// η = 1: the maxima; η = 0: the means.
		{"eta 1", []float64{1, -4, -3, 0.5, 2, 100}, []int{3, 2}, 1, []float64{3, 4}},
		{"eta 0", []float64{1, -4, -3, 0.5, 2, 100}, []int{3, 2}, 0, []float64{2, 2.25}},
		// One valid step each: |δ| itself.
		{"one step", []float64{-0.25, 7, 100, 100, 100, 100}, []int{1, 1}, 0.9, []float64{0.25, 7}},
		// Lengths past T count T steps.
		{"long", []float64{1, 1, 1, 1, 4, 1}, []int{8, 8}, 0.9, []float64{0.9*4 + 0.1*2, 1}},
	}
	for _, c := range cases {
		got := make([]float64, 2)
		priorities(got, c.td, c.length, 3, c.eta)
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("%s: priority %d = %v; want %v", c.name, i, got[i], c.want[i])
			}
		}
	}

	cfg := testConfig(GRU)
	cfg.Eta = 0.7
	r, _, b, idx := preprocessed(t, cfg, 3)
	if _, err := r.Update(b); err != nil {
		t.Fatal(err)
	}
	m := len(idx)
	for i, p := range r.Priorities() {
		var mx, sum float64
		l := min(r.length[i], cfg.SeqLen)
		for tt := range l {
			a := math.Abs(r.TD()[tt*m+i])
			mx, sum = max(mx, a), sum+a
		}
		if want := 0.7*mx + 0.3*sum/float64(l); math.Abs(p-want) > 1e-12 || p == 0 {
			t.Fatalf("sequence %d: priority %v; want %v", i, p, want)
		}
	}
}

// setHead makes a Net's Q-values constant: a linear head with zero weights
// and the biases q.
func setHead(t *testing.T, n *Net, q []float32) {
	t.Helper()
	ps := n.Head.Params()
	if len(ps) != 2 {
		t.Fatalf("head of %d tensors; want a linear head", len(ps))
	}
	ps[0].Tensor.Fill(0)
	copy(ps[1].Tensor.Data(), q)
}

// TestNStepTargets checks the targets against values worked out by hand,
// with constant Q-values (zero head weights, biases set), γ = 0.5, n = 3,
// 4 trained steps, one env: episode A has rewards 1, 2, 3, 4 and
// terminates; episode B has rewards 5, 6, 7 and is truncated. With Q′ the
// bootstrap value (the target network's value of the chosen action):
//
//	A from step 0: 1 + 0.5·2 + 0.25·3 + 0.125·Q′, then 2 + 1.5 + 1 = 4.5,
//	  3 + 2 = 5, 4 (no bootstrap after the termination);
//	B from step 0: 5 + 3 + 1.75 + 0.125·Q′, 6 + 3.5 + 0.25·Q′ (truncated:
//	  bootstrap after 2 steps), 7 + 0.5·Q′, then padding 0.
//
// Double Q takes the online network's greedy action (online Q (3, 1): action
// 0) valued by the target network (Q (0.5, 2): 0.5); without it, the target
// network's maximum 2. Value rescaling gives h(sum + γᵐh⁻¹(Q′)).
func TestNStepTargets(t *testing.T) {
	buf, err := buffer.NewVector(buffer.Config{Size: 16}, 1)
	if err != nil {
		t.Fatal(err)
	}
	rews := []float64{1, 2, 3, 4, 5, 6, 7}
	term := []bool{false, false, false, true, false, false, false}
	trunc := []bool{false, false, false, false, false, false, true}
	for k, rw := range rews {
		o := [][]float32{{float32(k), 1}}
		nx := [][]float32{{float32(k) + 0.5, 1}}
		bt := batch.MustNew(batch.KeyObs, o, batch.KeyAct, []int64{int64(k % 2)}, batch.KeyRew, []float64{rw},
			batch.KeyTerminated, []bool{term[k]}, batch.KeyTruncated, []bool{trunc[k]}, batch.KeyObsNext, nx)
		if _, err := buf.Add(bt, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	h, hinv := func(x float64) float64 { return rescale(x, 1e-3) }, func(x float64) float64 { return rescaleInv(x, 1e-3) }
	plain := func(q float64) [2][4]float64 {
		return [2][4]float64{{2.75 + 0.125*q, 4.5, 5, 4}, {9.75 + 0.125*q, 9.5 + 0.25*q, 7 + 0.5*q, 0}}
	}
	cases := []struct {
		name    string
		double  bool
		rescale bool
		want    [2][4]float64
	}{
		{"double", true, false, plain(0.5)},
		{"max", false, false, plain(2)},
		{"rescaled", true, true, func() [2][4]float64 {
			w := plain(hinv(0.5))
			for i := range w {
				for j := range w[i] {
					if i == 1 && j == 3 {
						continue
					}
					w[i][j] = h(w[i][j])
				}
			}
			return w
		}()},
	}
	for _, c := range cases {
		cfg := DefaultConfig()
		cfg.Cell, cfg.Hidden, cfg.HeadHidden = GRU, 4, nil
		cfg.BurnIn, cfg.SeqLen, cfg.NStep, cfg.Gamma = 2, 4, 3, 0.5
		cfg.Double, cfg.ValueRescale = c.double, c.rescale
		r, err := New(cfg, algotest.Box(t, -10, 10, 2), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		setHead(t, r.net, []float32{3, 1})
		setHead(t, r.target, []float32{0.5, 2})
		idx := []int{0, 4}
		b := new(batch.Batch)
		if err := buf.TakeTo(b, idx); err != nil {
			t.Fatal(err)
		}
		if err := r.Preprocess(b, buf, idx); err != nil {
			t.Fatal(err)
		}
		ret, err := b.Array(batch.KeyReturns)
		if err != nil {
			t.Fatal(err)
		}
		got := nd.Data[float32](ret)
		for i := range 2 {
			for j := range 4 {
				if w := c.want[i][j]; math.Abs(float64(got[i*4+j])-w) > 1e-5*max(1, math.Abs(w)) {
					t.Errorf("%s: sequence %d step %d: target %v; want %v", c.name, i, j, got[i*4+j], w)
				}
			}
		}
	}
	// h and h⁻¹ are inverses.
	for _, x := range []float64{-50, -1, 0, 0.3, 7, 400} {
		if y := hinv(h(x)); math.Abs(y-x) > 1e-9*max(1, math.Abs(x)) {
			t.Errorf("h⁻¹(h(%v)) = %v", x, y)
		}
	}
}
