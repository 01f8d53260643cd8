package tensor_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/tensor"
)

// TestAccumulation checks PyTorch's gradient semantics: Backward adds to a
// leaf's gradient, ZeroGrad drops it. For L = Σ 2x the gradient is 2 per
// element (hand-computed).
func TestAccumulation(t *testing.T) {
	x := leaf([]float32{1, 2, 3}, 3).SetRequiresGrad(true)
	var tp tensor.Tape
	step := func() {
		tp.Reset()
		tp.Backward(tp.Sum(tp.MulScalar(x, 2)))
	}
	step()
	checkTensor(t, "first", leaf(x.Grad(), 3), []int{3}, []float32{2, 2, 2}, 0)
	step()
	checkTensor(t, "accumulated", leaf(x.Grad(), 3), []int{3}, []float32{4, 4, 4}, 0)
	x.ZeroGrad()
	if x.Grad() != nil {
		t.Fatalf("Grad after ZeroGrad = %v, want nil", x.Grad())
	}
	step()
	checkTensor(t, "after ZeroGrad", leaf(x.Grad(), 3), []int{3}, []float32{2, 2, 2}, 0)
}

// TestTwoLosses checks that two Backward calls on one tape (an actor and a
// critic loss sharing a trunk) add both gradients: d(Σx² + Σ3x)/dx = 2x + 3.
func TestTwoLosses(t *testing.T) {
	x := leaf([]float32{1, -2}, 2).SetRequiresGrad(true)
	var tp tensor.Tape
	h := tp.MulScalar(x, 1)
	tp.Backward(tp.Sum(tp.Mul(h, h)))
	tp.Backward(tp.Sum(tp.MulScalar(h, 3)))
	checkTensor(t, "two losses", leaf(x.Grad(), 2), []int{2}, []float32{5, -1}, 0)
	if h.Grad() == nil {
		t.Error("intermediate result has no gradient after Backward")
	}
}

func TestNoGrad(t *testing.T) {
	w := leaf([]float32{1, 2}, 2).SetRequiresGrad(true)
	var tp tensor.Tape
	prev := tp.SetGradEnabled(false)
	if !prev || tp.GradEnabled() {
		t.Fatalf("SetGradEnabled(false) returned %v, GradEnabled %v", prev, tp.GradEnabled())
	}
	y := tp.Mul(w, w)
	if y.RequiresGrad() {
		t.Error("result of a no-grad tape requires gradients")
	}
	expectPanic(t, "Backward without recording", tensor.ErrGrad, func() { tp.Backward(tp.Sum(y)) })
	tp.SetGradEnabled(true)

	// A target computed in a no-grad region is a constant: d(Σ w·t)/dw = t,
	// not 2w·t.
	tp.Reset()
	tp.SetGradEnabled(false)
	target := tp.Mul(w, w)
	tp.SetGradEnabled(true)
	tp.Backward(tp.Sum(tp.Mul(w, target)))
	checkTensor(t, "no-grad target", leaf(w.Grad(), 2), []int{2}, []float32{1, 4}, 0)

	// Detach does the same inside a recorded region.
	w.ZeroGrad()
	tp.Reset()
	tp.Backward(tp.Sum(tp.Mul(w, tp.Detach(tp.Mul(w, w)))))
	checkTensor(t, "detached target", leaf(w.Grad(), 2), []int{2}, []float32{1, 4}, 0)
}

func TestTapeMisuse(t *testing.T) {
	w := leaf([]float32{1, 2}, 2).SetRequiresGrad(true)
	var tp, other tensor.Tape
	y := tp.Mul(w, w)
	expectPanic(t, "Backward of a vector", tensor.ErrGrad, func() { tp.Backward(y) })
	expectPanic(t, "Backward on another tape", tensor.ErrGrad, func() { other.Backward(tp.Sum(y)) })
	expectPanic(t, "input recorded on another tape", tensor.ErrGrad, func() { other.Add(y, y) })
	expectPanic(t, "SetRequiresGrad on a result", tensor.ErrGrad, func() { y.SetRequiresGrad(true) })
	tp.Reset()
	expectPanic(t, "use after Reset", tensor.ErrStale, func() { tp.Add(y, y) })
	expectPanic(t, "Backward after Reset", tensor.ErrStale, func() {
		var t2 tensor.Tape
		s := t2.Sum(t2.Mul(w, w))
		t2.Reset()
		t2.Backward(s)
	})
	// A no-grad result of another tape is a constant and may be used.
	other.SetGradEnabled(false)
	c := other.Mul(w, w)
	tp.Backward(tp.Sum(tp.Mul(w, c)))
	checkTensor(t, "constant from another tape", leaf(w.Grad(), 2), []int{2}, []float32{1, 4}, 0)
}

func TestNilTape(t *testing.T) {
	var tp *tensor.Tape
	w := leaf([]float32{1, 2}, 2).SetRequiresGrad(true)
	a := tp.Mul(w, w)
	b := tp.AddScalar(a, 1)
	if a.RequiresGrad() || tp.GradEnabled() {
		t.Error("nil tape records gradients")
	}
	checkTensor(t, "nil tape", b, []int{2}, []float32{2, 5}, 0)
	checkTensor(t, "earlier result still valid", a, []int{2}, []float32{1, 4}, 0)
}

// TestViews checks which operations share memory with their input.
func TestViews(t *testing.T) {
	var tp tensor.Tape
	x := leaf([]float32{1, 2, 3, 4, 5, 6}, 3, 2)
	views := map[string]*tensor.Tensor{
		"Reshape":   tp.Reshape(x, 6),
		"Flatten":   tp.Flatten(x, 0, 1),
		"Unsqueeze": tp.Unsqueeze(x, 0),
		"Squeeze":   tp.Squeeze(tp.Unsqueeze(x, 0), 0),
		"Detach":    tp.Detach(x),
		"Slice 0":   tp.Slice(x, 0, 0, 3),
	}
	copies := map[string]*tensor.Tensor{
		"Slice 1":     tp.Slice(x, 1, 0, 2),
		"Transpose":   tp.Transpose(x, 0, 1),
		"IndexSelect": tp.IndexSelect(x, 0, []int{0, 1, 2}),
		"Concat":      tp.Concat(0, x),
	}
	x.Data()[0] = 100
	for name, v := range views {
		if v.Data()[0] != 100 {
			t.Errorf("%s is not a view: element 0 = %v", name, v.Data()[0])
		}
	}
	for name, c := range copies {
		if c.Data()[0] == 100 {
			t.Errorf("%s is not a copy", name)
		}
	}
	d := []float32{1, 2}
	y := leaf(d, 2)
	d[1] = 7
	if y.Data()[1] != 7 {
		t.Error("FromSlice copied its data")
	}
}

// TestArenaReuse checks that a reset tape hands the same results to the same
// operation sequence, so that nothing is allocated.
func TestArenaReuse(t *testing.T) {
	var tp tensor.Tape
	x := leaf([]float32{1, 2, 3, 4}, 2, 2)
	first := tp.ReLU(tp.Add(x, x))
	tp.Reset()
	second := tp.ReLU(tp.Add(x, x))
	if first != second {
		t.Error("a reset tape did not reuse its result tensor")
	}
	checkTensor(t, "reused", second, []int{2, 2}, []float32{2, 4, 6, 8}, 0)
	// A larger shape at the same position grows the buffer.
	tp.Reset()
	big := tp.Add(leaf(make([]float32, 100), 100), leaf([]float32{1}, 1))
	checkTensor(t, "grown", big, []int{100}, []float32{1, 1, 1}, 0)
}

func TestInit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	// Kaiming uniform with a = √5 on [out=64, in=100] is U(±1/√100) = U(±0.1).
	w := tensor.New(64, 100)
	w.FillKaimingUniform(rng, math.Sqrt(5))
	lo, hi := float32(1), float32(-1)
	var sum float64
	for _, v := range w.Data() {
		lo, hi = min(lo, v), max(hi, v)
		sum += float64(v)
	}
	if lo < -0.1 || hi > 0.1 || lo > -0.099 || hi < 0.099 || math.Abs(sum/6400) > 0.005 {
		t.Errorf("Kaiming uniform range [%v, %v], mean %v; want U(−0.1, 0.1)", lo, hi, sum/6400)
	}
	if in, out := tensor.Fans([]int{32, 4, 8, 8}); in != 256 || out != 2048 {
		t.Errorf("Fans of a conv weight = %d, %d; want 256, 2048", in, out)
	}
	// The normal initializer's sample mean and standard deviation.
	n := tensor.New(10000)
	n.FillNormal(rng, 1, 2)
	var s, s2 float64
	for _, v := range n.Data() {
		s += float64(v)
		s2 += float64(v) * float64(v)
	}
	mean := s / 10000
	std := math.Sqrt(s2/10000 - mean*mean)
	if math.Abs(mean-1) > 0.06 || math.Abs(std-2) > 0.06 {
		t.Errorf("FillNormal(1, 2): mean %v, std %v", mean, std)
	}
	// Orthogonal: WWᵀ = gain²·I for a wide matrix, WᵀW = gain²·I for a tall
	// one (the defining property).
	for _, shape := range [][]int{{3, 5}, {5, 3}, {4, 2, 2}} {
		o := tensor.New(shape...)
		o.FillOrthogonal(rng, 2)
		rows, cols := shape[0], o.Len()/shape[0]
		d := o.Data()
		wide := rows <= cols
		k, m := rows, cols // Gram matrix of rows (wide) or columns (tall)
		if !wide {
			k, m = cols, rows
		}
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				var dot float64
				for l := 0; l < m; l++ {
					if wide {
						dot += float64(d[i*cols+l]) * float64(d[j*cols+l])
					} else {
						dot += float64(d[l*cols+i]) * float64(d[l*cols+j])
					}
				}
				want := 0.0
				if i == j {
					want = 4
				}
				if math.Abs(dot-want) > 1e-5 {
					t.Fatalf("FillOrthogonal %v: Gram[%d,%d] = %v, want %v", shape, i, j, dot, want)
				}
			}
		}
	}
	// A seed reproduces the draw.
	a, b := tensor.New(5), tensor.New(5)
	a.FillUniform(rand.New(rand.NewPCG(9, 9)), -1, 1)
	b.FillUniform(rand.New(rand.NewPCG(9, 9)), -1, 1)
	for i := range a.Data() {
		if a.Data()[i] != b.Data()[i] {
			t.Fatal("FillUniform is not reproducible from a seed")
		}
	}
}

func TestDropoutStatistics(t *testing.T) {
	var tp tensor.Tape
	x := tensor.New(20000)
	x.Fill(1)
	y := tp.Dropout(x, 0.25, rand.New(rand.NewPCG(5, 5)))
	zeros := 0
	var sum float64
	for _, v := range y.Data() {
		switch v {
		case 0:
			zeros++
		case 1 / 0.75:
		default:
			t.Fatalf("Dropout value %v, want 0 or 1/(1−p)", v)
		}
		sum += float64(v)
	}
	// Binomial(20000, 0.25): mean 5000, standard deviation 61.
	if zeros < 4750 || zeros > 5250 || math.Abs(sum/20000-1) > 0.02 {
		t.Errorf("Dropout(0.25): %d zeros, mean %v", zeros, sum/20000)
	}
	if tp.Dropout(x, 0, nil) != x {
		t.Error("Dropout(0) did not return its input")
	}
	for _, v := range tp.Dropout(x, 1, rand.New(rand.NewPCG(1, 1))).Data() {
		if v != 0 {
			t.Fatal("Dropout(1) kept a value")
		}
	}
}

// TestConcurrentTapes runs acting tapes on several goroutines over shared
// parameters while another goroutine trains them on its own tape; run with
// -race. Acting only reads the parameters; the training goroutine owns the
// gradients. The parameters are written between acting rounds, as a learner
// would after synchronizing with its actors.
func TestConcurrentTapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	m := newMLP(rng, 4, 16, 2)
	x := randInput(rng, 8, 4)
	want := make([]float32, 16)
	var ref tensor.Tape
	copy(want, m.forward(&ref, x).Data())

	done := make(chan []float32)
	for g := 0; g < 4; g++ {
		go func() {
			var tp tensor.Tape
			tp.SetGradEnabled(false)
			var out []float32
			for i := 0; i < 50; i++ {
				tp.Reset()
				out = m.forward(&tp, x).Data()
			}
			done <- append([]float32(nil), out...)
		}()
	}
	for g := 0; g < 4; g++ {
		got := <-done
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("goroutine result %v, want %v", got, want)
			}
		}
	}
	// Training afterwards on another tape sees the same parameters.
	opt := newAdam(m.params(), 1e-3)
	var tp tensor.Tape
	mlpStep(&tp, m, opt, x, randInput(rng, 8, 2))
}
