package nn

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/tensor/tensortest"
)

func randn(rng *rand.Rand, shape ...int) *tensor.Tensor {
	t := tensor.New(shape...)
	t.FillNormal(rng, 0, 1)
	return t
}

// naiveAffine returns W·x + b for row r of x, in float64: W [rows, in].
func naiveAffine(w, b *tensor.Tensor, x []float32) []float64 {
	rows, in := w.Dim(0), w.Dim(1)
	out := make([]float64, rows)
	for i := range out {
		s := float64(b.Data()[i])
		for j := 0; j < in; j++ {
			s += float64(w.Data()[i*in+j]) * float64(x[j])
		}
		out[i] = s
	}
	return out
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func closeTo(t *testing.T, what string, got []float32, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if math.Abs(float64(got[i])-want[i]) > tol {
			t.Fatalf("%s[%d] = %v, want %v", what, i, got[i], want[i])
		}
	}
}

// TestGRUCellNaive checks the cell against PyTorch's GRUCell equations (the
// doc comment) evaluated row by row in float64, gate rows r, z, n.
func TestGRUCellNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	const in, hs, n = 3, 4, 2
	c := NewGRUCell(in, hs, rng)
	x, h := randn(rng, n, in), randn(rng, n, hs)
	got := c.Forward(nil, x, h)
	var want []float64
	for r := 0; r < n; r++ {
		xr, hr := x.Data()[r*in:(r+1)*in], h.Data()[r*hs:(r+1)*hs]
		gi, gh := naiveAffine(c.WeightIH, c.BiasIH, xr), naiveAffine(c.WeightHH, c.BiasHH, hr)
		for k := 0; k < hs; k++ {
			rg := sigmoid(gi[k] + gh[k])
			z := sigmoid(gi[hs+k] + gh[hs+k])
			nn := math.Tanh(gi[2*hs+k] + rg*gh[2*hs+k])
			want = append(want, (1-z)*nn+z*float64(hr[k]))
		}
	}
	closeTo(t, "h'", got.Data(), want, 1e-5)
	names := []string{"weight_ih", "weight_hh", "bias_ih", "bias_hh"}
	shapes := [][]int{{3 * hs, in}, {3 * hs, hs}, {3 * hs}, {3 * hs}}
	for i, p := range c.Params() {
		if p.Name != names[i] || !slices.Equal(p.Tensor.Shape(), shapes[i]) {
			t.Errorf("parameter %d: %s %v, want %s %v", i, p.Name, p.Tensor.Shape(), names[i], shapes[i])
		}
	}
}

// TestLSTMCellNaive checks the cell against PyTorch's LSTMCell equations
// evaluated in float64, gate rows i, f, g, o.
func TestLSTMCellNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 1))
	const in, hs, n = 3, 4, 2
	l := NewLSTMCell(in, hs, rng)
	x, h, c := randn(rng, n, in), randn(rng, n, hs), randn(rng, n, hs)
	gotH, gotC := l.Forward(nil, x, h, c)
	var wantH, wantC []float64
	for r := 0; r < n; r++ {
		gi := naiveAffine(l.WeightIH, l.BiasIH, x.Data()[r*in:(r+1)*in])
		gh := naiveAffine(l.WeightHH, l.BiasHH, h.Data()[r*hs:(r+1)*hs])
		for k := 0; k < hs; k++ {
			i := sigmoid(gi[k] + gh[k])
			f := sigmoid(gi[hs+k] + gh[hs+k])
			g := math.Tanh(gi[2*hs+k] + gh[2*hs+k])
			o := sigmoid(gi[3*hs+k] + gh[3*hs+k])
			c2 := f*float64(c.Data()[r*hs+k]) + i*g
			wantC = append(wantC, c2)
			wantH = append(wantH, o*math.Tanh(c2))
		}
	}
	closeTo(t, "c'", gotC.Data(), wantC, 1e-5)
	closeTo(t, "h'", gotH.Data(), wantH, 1e-5)
	if got := l.Params()[0].Tensor.Shape(); !slices.Equal(got, []int{4 * hs, in}) {
		t.Errorf("weight_ih shape %v", got)
	}
}

// TestGradients checks the composite modules' gradients with respect to their
// inputs and parameters against finite differences.
func TestGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1))
	gru := NewGRUCell(3, 4, rng)
	lstm := NewLSTMCell(3, 4, rng)
	noisy := NewNoisyLinear(3, 4, 0.5, rng)
	duel := &Dueling{Value: NewLinear(3, 1, rng), Advantage: NewLinear(3, 4, rng)}
	duelAtoms := &Dueling{Value: NewLinear(3, 3, rng), Advantage: NewLinear(3, 6, rng), Atoms: 3}
	conv := NewConv2d(2, 3, 3, 2, 1, rng)
	mlp, err := NewMLP(MLPConfig{In: 3, Hidden: []int{5}, Out: 2, Activation: Tanh}, rng)
	if err != nil {
		t.Fatal(err)
	}
	x, h, c := randn(rng, 2, 3), randn(rng, 2, 4), randn(rng, 2, 4)
	img := randn(rng, 2, 2, 5, 5)
	for _, tc := range []struct {
		name   string
		f      tensortest.Func
		inputs []*tensor.Tensor
	}{
		{"gru", func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return gru.Forward(tp, in[0], in[1]) },
			append([]*tensor.Tensor{x, h}, gru.Params().tensors()...)},
		{"lstm h", func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
			h2, _ := lstm.Forward(tp, in[0], in[1], in[2])
			return h2
		}, append([]*tensor.Tensor{x, h, c}, lstm.Params().tensors()...)},
		{"lstm c", func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
			_, c2 := lstm.Forward(tp, in[0], in[1], in[2])
			return c2
		}, append([]*tensor.Tensor{x, h, c}, lstm.Params().tensors()...)},
		{"noisy", func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return noisy.Forward(tp, in[0]) },
			append([]*tensor.Tensor{x}, noisy.Params().Trainable().tensors()...)},
		{"dueling", func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return duel.Forward(tp, in[0]) },
			append([]*tensor.Tensor{x}, duel.Params().tensors()...)},
		{"dueling atoms", func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return duelAtoms.Forward(tp, in[0]) },
			append([]*tensor.Tensor{x}, duelAtoms.Params().tensors()...)},
		{"conv", func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return conv.Forward(tp, in[0]) },
			append([]*tensor.Tensor{img}, conv.Params().tensors()...)},
		{"mlp", func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return mlp.Forward(tp, in[0]) },
			append([]*tensor.Tensor{x}, mlp.Params().tensors()...)},
	} {
		if err := tensortest.CheckGrad(tc.f, tc.inputs, tensortest.Config{}); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// tensors lists the tensors of ps, for gradient checks.
func (ps Params) tensors() []*tensor.Tensor {
	var out []*tensor.Tensor
	for _, p := range ps {
		out = append(out, p.Tensor)
	}
	return out
}

func TestNoisyLinear(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 1))
	const in, out = 3, 2
	l := NewNoisyLinear(in, out, 0.5, rng)
	var names []string
	for _, p := range l.Params() {
		names = append(names, p.Name)
	}
	if want := []string{"weight_mu", "weight_sigma", "bias_mu", "bias_sigma", "weight_epsilon", "bias_epsilon"}; !slices.Equal(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
	// σ starts at σ₀/√in; the weight noise is the outer product of the
	// output and input noise, the bias noise is the output noise.
	if got, want := l.WeightSigma.Data()[0], float32(0.5/math.Sqrt(in)); got != want {
		t.Errorf("σ = %v, want %v", got, want)
	}
	we, be := l.WeightEps.Data(), l.BiasEps.Data()
	for i := 0; i < out; i++ {
		for j := 0; j < in; j++ {
			if we[i*in+j] != be[i]*l.fIn[j] {
				t.Fatalf("weight noise (%d, %d) = %v, want %v·%v", i, j, we[i*in+j], be[i], l.fIn[j])
			}
		}
	}
	x := randn(rng, 1, in)
	noisy := slices.Clone(l.Forward(nil, x).Data())
	// Training output: x·(μ + σ⊙ε)ᵀ + μᵇ + σᵇ⊙εᵇ computed by hand.
	for i := 0; i < out; i++ {
		s := float64(l.BiasMu.Data()[i] + l.BiasSigma.Data()[i]*be[i])
		for j := 0; j < in; j++ {
			k := i*in + j
			s += float64(x.Data()[j]) * float64(l.WeightMu.Data()[k]+l.WeightSigma.Data()[k]*we[k])
		}
		if math.Abs(s-float64(noisy[i])) > 1e-5 {
			t.Errorf("training output %d = %v, want %v", i, noisy[i], s)
		}
	}
	SetTraining(l, false)
	mean := l.Forward(nil, x).Data()
	want := naiveAffine(l.WeightMu, l.BiasMu, x.Data())
	closeTo(t, "evaluation output", mean, want, 1e-5)
	SetTraining(l, true)
	old := slices.Clone(we)
	l.ResetNoise(rng)
	if slices.Equal(old, l.WeightEps.Data()) {
		t.Error("ResetNoise kept the noise")
	}
	if n := testing.AllocsPerRun(10, func() { l.ResetNoise(rng) }); n != 0 {
		t.Errorf("ResetNoise allocates %v times", n)
	}
	// The same seed gives the same layer.
	a, b := NewNoisyLinear(5, 3, 0.5, rand.New(rand.NewPCG(9, 9))), NewNoisyLinear(5, 3, 0.5, rand.New(rand.NewPCG(9, 9)))
	if !slices.Equal(a.WeightEps.Data(), b.WeightEps.Data()) || !slices.Equal(a.WeightMu.Data(), b.WeightMu.Data()) {
		t.Error("the same seed gave different layers")
	}
	if got := l.Params().Count(); got != 2*(in*out+out) {
		t.Errorf("Count = %d, want %d (buffers excluded)", got, 2*(in*out+out))
	}
}

func TestDueling(t *testing.T) {
	// Hand-computed: V = 1, A = [1, 2, 6] (mean 3) gives Q = [−1, 0, 4].
	v := &Linear{Weight: tensor.MustFromSlice([]float32{0}, 1, 1), Bias: tensor.MustFromSlice([]float32{1})}
	a := &Linear{Weight: tensor.MustFromSlice([]float32{0, 0, 0}, 3, 1), Bias: tensor.MustFromSlice([]float32{1, 2, 6})}
	d := &Dueling{Value: v, Advantage: a}
	q := d.Forward(nil, tensor.New(2, 1))
	if want := []float32{-1, 0, 4, -1, 0, 4}; !slices.Equal(q.Data(), want) || !slices.Equal(q.Shape(), []int{2, 3}) {
		t.Errorf("Q = %v %v, want %v [2 3]", q.Data(), q.Shape(), want)
	}
	var names []string
	for n := range d.Params().All() {
		names = append(names, n)
	}
	if want := []string{"value.weight", "value.bias", "advantage.weight", "advantage.bias"}; !slices.Equal(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
	// Two actions of three atoms: V = (1, 2, 3), A = ((1, 0, 4), (3, 2, 0)),
	// mean over the actions (2, 1, 2); V + A − mean = ((0, 1, 5), (2, 3, 1)).
	va := &Linear{Weight: tensor.New(3, 1), Bias: tensor.MustFromSlice([]float32{1, 2, 3})}
	aa := &Linear{Weight: tensor.New(6, 1), Bias: tensor.MustFromSlice([]float32{1, 0, 4, 3, 2, 0})}
	q = (&Dueling{Value: va, Advantage: aa, Atoms: 3}).Forward(nil, tensor.New(1, 1))
	if want := []float32{0, 1, 5, 2, 3, 1}; !slices.Equal(q.Data(), want) || !slices.Equal(q.Shape(), []int{1, 6}) {
		t.Errorf("distributional Q = %v %v, want %v [1 6]", q.Data(), q.Shape(), want)
	}
	bad := &Dueling{Value: a, Advantage: a}
	defer func() {
		if err, _ := recover().(error); !errors.Is(err, tensor.ErrShape) {
			t.Errorf("a value stream of width 3 recovered %v, want tensor.ErrShape", err)
		}
	}()
	bad.Forward(nil, tensor.New(2, 1))
}

func TestNatureCNN(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	m := NewNatureCNN(4, 6, rng)
	var names []string
	for n := range m.Params().All() {
		names = append(names, n)
	}
	// CleanRL's QNetwork state_dict without the "network." prefix.
	want := []string{"0.weight", "0.bias", "2.weight", "2.bias", "4.weight", "4.bias", "7.weight", "7.bias", "9.weight", "9.bias"}
	if !slices.Equal(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
	// Parameters of the Nature network: 8·8·4·32+32, 4·4·32·64+64, 3·3·64·64+64,
	// 3136·512+512, 512·6+6 (hand-computed).
	if got := m.Params().Count(); got != 8224+32832+36928+1606144+3078 {
		t.Errorf("Count = %d", got)
	}
	x := tensor.New(2, 4, 84, 84)
	x.FillUniform(rng, 0, 255)
	q := m.Forward(nil, x)
	if !slices.Equal(q.Shape(), []int{2, 6}) {
		t.Errorf("output shape %v", q.Shape())
	}
	// Scale: raw pixels with Scale 1/255 equal pre-divided pixels with Scale 1.
	y := tensor.New(2, 4, 84, 84)
	for i, v := range x.Data() {
		y.Data()[i] = v / 255
	}
	m.Scale = 1
	closeTo(t, "scaled", m.Forward(nil, y).Data(), f64(q.Data()), 1e-4)
	// The gradients agree too: the scale folded into the first filters
	// against the input scaled beforehand.
	ps := m.Params()
	grads := func(scale float32, in *tensor.Tensor) [][]float32 {
		m.Scale = scale
		var tp tensor.Tape
		ps.ZeroGrad()
		tp.Backward(tp.Sum(m.Forward(&tp, in)))
		var out [][]float32
		for _, p := range ps {
			out = append(out, slices.Clone(p.Tensor.Grad()))
		}
		return out
	}
	folded, direct := grads(1.0/255, x), grads(1, y)
	for i := range folded {
		closeTo(t, "gradient of "+ps[i].Name, folded[i], f64(direct[i]), 1e-3*(1+float64(slices.Max(direct[i]))))
	}
	if f := NewNatureCNN(1, 0, rng).Forward(nil, tensor.New(1, 1, 84, 84)); !slices.Equal(f.Shape(), []int{1, 512}) {
		t.Errorf("torso output shape %v", f.Shape())
	}
}

func f64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func TestConv2dInit(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	c := NewConv2d(4, 8, 3, 1, 1, rng)
	bound := 1 / math.Sqrt(4*3*3) // fan-in = in·k²
	for _, p := range c.Params() {
		if lo, hi := slices.Min(p.Tensor.Data()), slices.Max(p.Tensor.Data()); float64(-lo) > bound || float64(hi) > bound {
			t.Errorf("%s outside ±%g", p.Name, bound)
		}
	}
	if y := c.Forward(nil, tensor.New(2, 4, 5, 5)); !slices.Equal(y.Shape(), []int{2, 8, 5, 5}) {
		t.Errorf("output shape %v", y.Shape())
	}
	for _, f := range []func(){
		func() { NewConv2d(0, 1, 1, 1, 0, rng) },
		func() { NewConv2d(1, 1, 1, 0, 0, rng) },
		func() { NewConv2d(1, 1, 1, 1, -1, rng) },
		func() { NewGRUCell(0, 1, rng) },
		func() { NewNoisyLinear(1, 1, -1, rng) },
		func() { NewNatureCNN(0, 1, rng) },
	} {
		func() {
			defer func() {
				if err, _ := recover().(error); !errors.Is(err, ErrConfig) {
					t.Errorf("recovered %v, want ErrConfig", err)
				}
			}()
			f()
		}()
	}
}

func TestDropoutModes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	net := Sequential{NewLinear(4, 64, rng), NewDropout(0.5, rng), &Dueling{Value: NewLinear(64, 1, rng), Advantage: NewNoisyLinear(64, 2, 0.5, rng)}}
	x := randn(rng, 3, 4)
	h := net[:2].Forward(nil, x).Data()
	zeros := 0
	for _, v := range h {
		if v == 0 {
			zeros++
		}
	}
	if zeros < 48 || zeros > 144 { // 192 values, each dropped with p = 0.5
		t.Errorf("%d of 192 values dropped in training mode", zeros)
	}
	SetTraining(net, false)
	if got, want := net[:2].Forward(nil, x).Data(), net[0].Forward(nil, x).Data(); !slices.Equal(got, want) {
		t.Error("Dropout changed its input in evaluation mode")
	}
	if net[2].(*Dueling).Advantage.(*NoisyLinear).training {
		t.Error("SetTraining did not reach the noisy layer inside the dueling head")
	}
}
