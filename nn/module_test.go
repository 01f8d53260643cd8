package nn

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/tensor"
)

func TestMLPNamesLikePyTorch(t *testing.T) {
	// Expected names: PyTorch's state_dict keys of
	// nn.Sequential(Linear(4,128), ReLU(), Linear(128,128), ReLU(), Linear(128,2)).
	rng := rand.New(rand.NewPCG(1, 2))
	m, err := NewMLP(MLPConfig{In: 4, Hidden: []int{128, 128}, Out: 2}, rng)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var shapes [][]int
	for n, p := range m.Params().All() {
		names = append(names, n)
		shapes = append(shapes, p.Shape())
	}
	want := []string{"0.weight", "0.bias", "2.weight", "2.bias", "4.weight", "4.bias"}
	if !slices.Equal(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
	wantShapes := [][]int{{128, 4}, {128}, {128, 128}, {128}, {2, 128}, {2}}
	for i := range wantShapes {
		if !slices.Equal(shapes[i], wantShapes[i]) {
			t.Errorf("%s shape %v, want %v", want[i], shapes[i], wantShapes[i])
		}
	}
	// 4·128 + 128 + 128·128 + 128 + 128·2 + 2 parameters.
	if got := m.Params().Count(); got != 17410 {
		t.Errorf("Count = %d, want 17410", got)
	}
}

func TestMLPLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		cfg   MLPConfig
		names []string
		out   int
	}{
		{MLPConfig{In: 3, Out: 2}, []string{"0.weight", "0.bias"}, 2},
		{MLPConfig{In: 3, Hidden: []int{5}, Out: 2, Activation: Identity}, []string{"0.weight", "0.bias", "1.weight", "1.bias"}, 2},
		{MLPConfig{In: 3, Hidden: []int{5, 6}, Activation: Tanh}, []string{"0.weight", "0.bias", "2.weight", "2.bias"}, 6},
		{MLPConfig{In: 3, Hidden: []int{5}, Out: 2, OutputActivation: Tanh}, []string{"0.weight", "0.bias", "2.weight", "2.bias"}, 2},
	} {
		m, err := NewMLP(tc.cfg, rng)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for n := range m.Params().All() {
			names = append(names, n)
		}
		if !slices.Equal(names, tc.names) || m.OutSize() != tc.out {
			t.Errorf("%+v: names %v, out %d; want %v, %d", tc.cfg, names, m.OutSize(), tc.names, tc.out)
		}
		y := m.Forward(nil, tensor.New(7, 3))
		if !slices.Equal(y.Shape(), []int{7, tc.out}) {
			t.Errorf("%+v: output shape %v", tc.cfg, y.Shape())
		}
	}
}

func TestMLPConfigErrors(t *testing.T) {
	for _, c := range []MLPConfig{
		{In: 0, Out: 1},
		{In: 1, Out: 0},
		{In: 1, Out: -1, Hidden: []int{2}},
		{In: 1, Hidden: []int{0}, Out: 1},
		{In: 1, Out: 1, Activation: "swish"},
		{In: 1, Out: 1, OutputActivation: "softmax"},
	} {
		if _, err := NewMLP(c, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, ErrConfig) {
			t.Errorf("NewMLP(%+v) error = %v, want ErrConfig", c, err)
		}
	}
}

func TestLinearInitBounds(t *testing.T) {
	// PyTorch's default: weight and bias both in U(−1/√in, 1/√in); with 64·32
	// draws the extremes come within a few percent of the bound.
	rng := rand.New(rand.NewPCG(3, 4))
	l := NewLinear(64, 32, rng)
	bound := 1 / math.Sqrt(64)
	for _, p := range l.Params() {
		lo, hi := slices.Min(p.Tensor.Data()), slices.Max(p.Tensor.Data())
		if float64(-lo) > bound || float64(hi) > bound {
			t.Errorf("%s outside ±%g: [%g, %g]", p.Name, bound, lo, hi)
		}
		if p.Name == "weight" && (float64(-lo) < 0.95*bound || float64(hi) < 0.95*bound) {
			t.Errorf("weight does not fill ±%g: [%g, %g]", bound, lo, hi)
		}
	}
	if !l.Weight.RequiresGrad() || !l.Bias.RequiresGrad() {
		t.Error("parameters do not require gradients")
	}
}

func TestLinearPanicsOnBadSize(t *testing.T) {
	defer func() {
		if err, _ := recover().(error); !errors.Is(err, ErrConfig) {
			t.Errorf("recovered %v, want ErrConfig", err)
		}
	}()
	NewLinear(0, 3, rand.New(rand.NewPCG(1, 1)))
}

// pair returns two parameter sets of the same structure with the values
// given.
func pair(a, b []float32) (Params, Params) {
	mk := func(v []float32) Params {
		return Params{
			{Name: "w", Tensor: tensor.MustFromSlice(append([]float32(nil), v...)).SetRequiresGrad(true)},
			{Name: "eps", Tensor: tensor.MustFromSlice([]float32{float32(len(v))}), Buffer: true},
		}
	}
	return mk(a), mk(b)
}

func TestSoftUpdate(t *testing.T) {
	// Hand-computed: τ·θ + (1 − τ)·θ' with τ = 0.25, θ = [4, 8], θ' = [0, 1]
	// gives [1, 2.75]; the buffer is left alone.
	dst, src := pair([]float32{0, 1}, []float32{4, 8})
	src[1].Tensor.Data()[0] = 9
	if err := SoftUpdate(dst, src, 0.25); err != nil {
		t.Fatal(err)
	}
	if got := dst[0].Tensor.Data(); got[0] != 1 || got[1] != 2.75 {
		t.Errorf("soft update gave %v, want [1 2.75]", got)
	}
	if got := dst[1].Tensor.Data()[0]; got != 2 {
		t.Errorf("soft update changed the buffer to %v", got)
	}
	if err := Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if got := dst[0].Tensor.Data(); got[0] != 4 || got[1] != 8 || dst[1].Tensor.Data()[0] != 9 {
		t.Errorf("copy gave %v and buffer %v", got, dst[1].Tensor.Data())
	}
	for _, tau := range []float32{-0.1, 1.5, float32(math.NaN())} {
		if err := SoftUpdate(dst, src, tau); !errors.Is(err, ErrConfig) {
			t.Errorf("τ = %v: error %v, want ErrConfig", tau, err)
		}
	}
}

func TestUpdateMismatch(t *testing.T) {
	a, _ := pair([]float32{0, 1}, nil)
	for name, b := range map[string]Params{
		"length": a[:1],
		"name":   {{Name: "v", Tensor: tensor.New(2)}, a[1]},
		"shape":  {{Name: "w", Tensor: tensor.New(3)}, a[1]},
		"buffer": {{Name: "w", Tensor: tensor.New(2), Buffer: true}, a[1]},
	} {
		before := slices.Clone(a[0].Tensor.Data())
		if err := SoftUpdate(a, b, 0.5); !errors.Is(err, ErrMismatch) {
			t.Errorf("%s: SoftUpdate error %v, want ErrMismatch", name, err)
		}
		if err := Copy(a, b); !errors.Is(err, ErrMismatch) {
			t.Errorf("%s: Copy error %v, want ErrMismatch", name, err)
		}
		if !slices.Equal(before, a[0].Tensor.Data()) {
			t.Errorf("%s: destination changed on error", name)
		}
	}
}

func TestSoftUpdateNoAlloc(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	cfg := MLPConfig{In: 4, Hidden: []int{64, 64}, Out: 2}
	a, _ := NewMLP(cfg, rng)
	b, _ := NewMLP(cfg, rng)
	pa, pb := a.Params(), b.Params()
	if n := testing.AllocsPerRun(10, func() {
		if err := SoftUpdate(pa, pb, 0.005); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("SoftUpdate allocates %v times", n)
	}
}

func TestClone(t *testing.T) {
	a, _ := pair([]float32{1, 2}, nil)
	c := a.Clone()
	if err := Match(c, a); err != nil {
		t.Fatal(err)
	}
	c[0].Tensor.Data()[0] = 7
	if a[0].Tensor.Data()[0] != 1 {
		t.Error("Clone shares memory")
	}
	if !c[0].Tensor.RequiresGrad() || c[1].Tensor.RequiresGrad() {
		t.Error("Clone lost the gradient flags")
	}
	if got := a.Trainable(); len(got) != 1 || got[0].Name != "w" || a.Count() != 2 {
		t.Errorf("Trainable %v, Count %d", got, a.Count())
	}
	if a.Lookup("eps") != a[1].Tensor || a.Lookup("x") != nil {
		t.Error("Lookup")
	}
}
