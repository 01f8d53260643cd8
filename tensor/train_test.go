package tensor_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/tensor"
)

// TestStepAllocs locks the zero-allocation steady state of a training step,
// of acting, and of the operations that copy index lists.
func TestStepAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	rng := rand.New(rand.NewPCG(1, 1))
	m := newMLP(rng, 4, 32, 2)
	opt := newAdam(m.params(), 1e-3)
	x, y := randInput(rng, 16, 4), randInput(rng, 16, 2)
	var tp tensor.Tape
	if a := testing.AllocsPerRun(10, func() { mlpStep(&tp, m, opt, x, y) }); a != 0 {
		t.Errorf("MLP training step: %v allocations, want 0", a)
	}

	var act tensor.Tape
	act.SetGradEnabled(false)
	obs := randInput(rng, 1, 4)
	actions := make([]int, 1)
	if a := testing.AllocsPerRun(10, func() {
		act.Reset()
		tensor.ArgMaxTo(actions, m.forward(&act, obs), 1)
	}); a != 0 {
		t.Errorf("acting: %v allocations, want 0", a)
	}

	// A DQN-style step: Q(s, a) by Gather, a bootstrapped target in a
	// no-grad region, Huber loss, and the index-copying operations.
	idx := []int{1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1}
	rows := []int{3, 1, 2}
	labels := append(append([]int{}, idx...), 5, 30, 7)
	conv := newConv(rng, 2, 3, 3, 1)
	img := randInput(rng, 2, 2, 6, 6)
	if a := testing.AllocsPerRun(20, func() {
		tp.Reset()
		q := tp.Gather(m.forward(&tp, x), 1, idx)
		tp.SetGradEnabled(false)
		target := tp.MaxAxis(m.forward(&tp, x), 1, false)
		tp.SetGradEnabled(true)
		loss := tp.Huber(q, tp.AddScalar(tp.MulScalar(target, 0.99), 1), 1)
		sel := tp.IndexSelect(x, 0, rows)
		cat := tp.Concat(0, sel, x)
		ce := tp.CrossEntropy(tp.Linear(cat, m.l1.w, m.l1.b), labels)
		h := tp.Conv2d(img, conv.w, conv.b, conv.stride, 1)
		loss = tp.Add(tp.Add(loss, ce), tp.Mean(h))
		// A categorical head: logits viewed as [batch, 2, atoms].
		dist := tp.LogSoftmax(tp.Reshape(m.forward(&tp, x), 16, 2, 1), 2)
		loss = tp.Add(loss, tp.Mean(dist))
		opt.zeroGrad()
		tp.Backward(loss)
	}); a != 0 {
		t.Errorf("DQN-style step: %v allocations, want 0", a)
	}
}

// TestLearnRegression trains the MLP on y = x₀·x₁ + sin(x₂) − x₃ and checks
// that the loss falls by two orders of magnitude; the threshold was set from
// runs with both BLAS implementations (final loss about 0.003).
func TestLearnRegression(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	m := newMLP(rng, 4, 64, 1)
	opt := newAdam(m.params(), 3e-3)
	x := randInput(rng, 128, 4)
	y := tensor.New(128, 1)
	for i := 0; i < 128; i++ {
		r := x.Data()[i*4 : i*4+4]
		y.Data()[i] = r[0]*r[1] + float32(math.Sin(float64(r[2]))) - r[3]
	}
	var tp tensor.Tape
	first := mlpStep(&tp, m, opt, x, y)
	var last float32
	for i := 0; i < 600; i++ {
		last = mlpStep(&tp, m, opt, x, y)
	}
	if !(last < first/100) {
		t.Errorf("loss %v after 600 steps, started at %v", last, first)
	}
}

// TestLearnClassification trains a convolutional classifier with
// cross-entropy to tell a horizontal bar from a vertical one in 6×6 images,
// and checks that it classifies all of a fresh batch.
func TestLearnClassification(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	c := newConv(rng, 1, 4, 3, 1)
	fc := newLinear(rng, 4*6*6, 2)
	params := []*tensor.Tensor{c.w, c.b, fc.w, fc.b}
	opt := newAdam(params, 1e-2)
	batch := func() (*tensor.Tensor, []int) {
		x := tensor.New(16, 1, 6, 6)
		labels := make([]int, 16)
		for i := range labels {
			labels[i] = rng.IntN(2)
			p := rng.IntN(6)
			for j := 0; j < 6; j++ {
				r, col := p, j
				if labels[i] == 1 {
					r, col = j, p
				}
				x.Data()[i*36+r*6+col] = 1
			}
		}
		return x, labels
	}
	var tp tensor.Tape
	logits := func(x *tensor.Tensor) *tensor.Tensor {
		h := tp.ReLU(tp.Conv2d(x, c.w, c.b, 1, 1))
		return tp.Linear(tp.Flatten(h, 1, -1), fc.w, fc.b)
	}
	for i := 0; i < 100; i++ {
		x, labels := batch()
		tp.Reset()
		loss := tp.CrossEntropy(logits(x), labels)
		opt.zeroGrad()
		tp.Backward(loss)
		opt.step()
	}
	x, labels := batch()
	tp.Reset()
	pred := tensor.ArgMaxTo(make([]int, 16), logits(x), 1)
	for i := range pred {
		if pred[i] != labels[i] {
			t.Fatalf("prediction %v, labels %v", pred, labels)
		}
	}
}
