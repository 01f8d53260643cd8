package tensor_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/tensor"
)

func leaf(data []float32, shape ...int) *tensor.Tensor { return tensor.MustFromSlice(data, shape...) }

func checkTensor(t *testing.T, name string, got *tensor.Tensor, shape []int, want []float32, tol float64) {
	t.Helper()
	if !slices.Equal(got.Shape(), shape) {
		t.Errorf("%s: shape %v, want %v", name, got.Shape(), shape)
		return
	}
	for i, w := range want {
		g := got.Data()[i]
		if math.IsNaN(float64(w)) != math.IsNaN(float64(g)) || !math.IsNaN(float64(w)) && math.Abs(float64(g-w)) > tol*(1+math.Abs(float64(w))) {
			t.Errorf("%s: element %d = %v, want %v (all %v)", name, i, g, w, got.Data())
			return
		}
	}
}

// TestForward checks each operation's values on small inputs. Expected values
// are hand-computed; transcendental ones are the standard constants (e = 2.718…,
// ln 2, tanh 0.5, and softmax [1 2 3] = eⁱ/(e + e² + e³)).
func TestForward(t *testing.T) {
	var tp tensor.Tape
	m := leaf([]float32{1, 2, 3, 4}, 2, 2)
	row := leaf([]float32{10, 20}, 2)
	col := leaf([]float32{1, 2}, 2, 1)
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	cases := []struct {
		name  string
		got   *tensor.Tensor
		shape []int
		want  []float32
	}{
		{"Add row", tp.Add(m, row), []int{2, 2}, []float32{11, 22, 13, 24}},
		{"Sub col", tp.Sub(m, col), []int{2, 2}, []float32{0, 1, 1, 2}},
		{"Mul col×row", tp.Mul(col, row), []int{2, 2}, []float32{10, 20, 20, 40}},
		{"Div", tp.Div(m, leaf([]float32{2}, 1)), []int{2, 2}, []float32{0.5, 1, 1.5, 2}},
		{"Div by zero", tp.Div(leaf([]float32{1, -1, 0}, 3), leaf([]float32{0}, 1)), []int{3}, []float32{inf, -inf, nan}},
		{"Maximum", tp.Maximum(m, leaf([]float32{2.5}, 1)), []int{2, 2}, []float32{2.5, 2.5, 3, 4}},
		{"Minimum scalar", tp.Minimum(m, leaf([]float32{2.5})), []int{2, 2}, []float32{1, 2, 2.5, 2.5}},
		{"Where", tp.Where(leaf([]float32{1, 0}, 2), m, leaf([]float32{-1}, 1)), []int{2, 2}, []float32{1, -1, 3, -1}},
		{"Neg", tp.Neg(m), []int{2, 2}, []float32{-1, -2, -3, -4}},
		{"Exp", tp.Exp(leaf([]float32{0, 1}, 2)), []int{2}, []float32{1, math.E}},
		{"Log", tp.Log(leaf([]float32{1, math.E, 0, -1}, 4)), []int{4}, []float32{0, 1, -inf, nan}},
		{"Sqrt", tp.Sqrt(leaf([]float32{4, 2}, 2)), []int{2}, []float32{2, math.Sqrt2}},
		{"Abs", tp.Abs(leaf([]float32{-2, 0, 3}, 3)), []int{3}, []float32{2, 0, 3}},
		{"Pow", tp.Pow(leaf([]float32{2, 3}, 2), 3), []int{2}, []float32{8, 27}},
		{"Pow half", tp.Pow(leaf([]float32{9}, 1), 0.5), []int{1}, []float32{3}},
		{"Clamp", tp.Clamp(leaf([]float32{-2, 0.5, 2, nan}, 4), -1, 1), []int{4}, []float32{-1, 0.5, 1, nan}},
		{"AddScalar", tp.AddScalar(row, 1), []int{2}, []float32{11, 21}},
		{"MulScalar", tp.MulScalar(row, -0.5), []int{2}, []float32{-5, -10}},
		{"ReLU", tp.ReLU(leaf([]float32{-1, 0, 2, nan}, 4)), []int{4}, []float32{0, 0, 2, nan}},
		{"LeakyReLU", tp.LeakyReLU(leaf([]float32{-1, 2}, 2), 0.01), []int{2}, []float32{-0.01, 2}},
		// ELU(−1) = e⁻¹ − 1.
		{"ELU", tp.ELU(leaf([]float32{-1, 2}, 2), 1), []int{2}, []float32{-0.63212056, 2}},
		{"Tanh", tp.Tanh(leaf([]float32{0.5}, 1)), []int{1}, []float32{0.46211716}},
		// σ(±40) without overflow.
		{"Sigmoid", tp.Sigmoid(leaf([]float32{0, 40, -40}, 3)), []int{3}, []float32{0.5, 1, 4.248354e-18}},
		{"Softplus", tp.Softplus(leaf([]float32{0, 30, -30}, 3)), []int{3}, []float32{math.Ln2, 30, 9.357623e-14}},
		{"Sum", tp.Sum(m), []int{}, []float32{10}},
		{"Mean", tp.Mean(m), []int{}, []float32{2.5}},
		{"Max", tp.Max(m), []int{}, []float32{4}},
		{"Min", tp.Min(m), []int{}, []float32{1}},
		{"Max NaN", tp.Max(leaf([]float32{1, nan, 3}, 3)), []int{}, []float32{nan}},
		{"SumAxis 0", tp.SumAxis(m, 0, false), []int{2}, []float32{4, 6}},
		{"SumAxis -1 keep", tp.SumAxis(m, -1, true), []int{2, 1}, []float32{3, 7}},
		{"MeanAxis 1", tp.MeanAxis(m, 1, false), []int{2}, []float32{1.5, 3.5}},
		{"MaxAxis 0", tp.MaxAxis(leaf([]float32{1, 5, 3, 2}, 2, 2), 0, false), []int{2}, []float32{3, 5}},
		{"MinAxis 1 keep", tp.MinAxis(leaf([]float32{1, 5, 3, 2}, 2, 2), 1, true), []int{2, 1}, []float32{1, 2}},
		// [[1 2] [3 4]]·[[5 6] [7 8]].
		{"MatMul", tp.MatMul(m, leaf([]float32{5, 6, 7, 8}, 2, 2)), []int{2, 2}, []float32{19, 22, 43, 50}},
		// x·wᵀ + b with w rows e₁, e₂, e₁+e₂.
		{"Linear", tp.Linear(leaf([]float32{1, 2}, 1, 2), leaf([]float32{1, 0, 0, 1, 1, 1}, 3, 2), leaf([]float32{1, 2, 3}, 3)), []int{1, 3}, []float32{2, 4, 6}},
		{"Linear no bias 3-D", tp.Linear(leaf([]float32{1, 2, 3, 4}, 2, 1, 2), leaf([]float32{1, 1}, 1, 2), nil), []int{2, 1, 1}, []float32{3, 7}},
		// 3×3 input 1…9, 2×2 filter of ones: sums of 2×2 windows.
		{"Conv2d", tp.Conv2d(leaf([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9}, 1, 1, 3, 3), leaf([]float32{1, 1, 1, 1}, 1, 1, 2, 2), leaf([]float32{0.5}, 1), 1, 0), []int{1, 1, 2, 2}, []float32{12.5, 16.5, 24.5, 28.5}},
		// Padding 1, stride 2: windows at rows/cols {−1,0} and {1,2}.
		{"Conv2d pad stride", tp.Conv2d(leaf([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9}, 1, 1, 3, 3), leaf([]float32{1, 1, 1, 1}, 1, 1, 2, 2), nil, 2, 1), []int{1, 1, 2, 2}, []float32{1, 5, 11, 28}},
		// Two channels, two filters: filter 0 takes channel 0, filter 1 twice channel 1.
		{"Conv2d channels", tp.Conv2d(leaf([]float32{1, 2, 3, 4, 10, 20, 30, 40}, 1, 2, 2, 2), leaf([]float32{1, 0, 0, 2}, 2, 2, 1, 1), nil, 1, 0), []int{1, 2, 2, 2}, []float32{1, 2, 3, 4, 20, 40, 60, 80}},
		{"Softmax", tp.Softmax(leaf([]float32{1, 2, 3}, 1, 3), -1), []int{1, 3}, []float32{0.09003057, 0.24472847, 0.66524096}},
		{"Softmax axis 0", tp.Softmax(leaf([]float32{1, 5, 1, 5}, 2, 2), 0), []int{2, 2}, []float32{0.5, 0.5, 0.5, 0.5}},
		{"Softmax large", tp.Softmax(leaf([]float32{1000, 1000}, 2), 0), []int{2}, []float32{0.5, 0.5}},
		{"LogSoftmax", tp.LogSoftmax(leaf([]float32{1, 2, 3}, 3), 0), []int{3}, []float32{-2.40760596, -1.40760596, -0.40760596}},
		{"Gather", tp.Gather(leaf([]float32{1, 2, 3, 4}, 2, 2), 1, []int{1, 0}), []int{2}, []float32{2, 3}},
		{"Gather axis 0", tp.Gather(leaf([]float32{1, 2, 3, 4}, 2, 2), 0, []int{1, 0}), []int{2}, []float32{3, 2}},
		{"OneHot", tp.OneHot([]int{2, 0}, 3), []int{2, 3}, []float32{0, 0, 1, 1, 0, 0}},
		// [1 2 3]: mean 2, variance 2/3, so (x − 2)/√(2/3) = ∓1.2247449.
		{"LayerNorm", tp.LayerNorm(leaf([]float32{1, 2, 3}, 1, 3), nil, nil, 0), []int{1, 3}, []float32{-1.2247449, 0, 1.2247449}},
		{"LayerNorm affine", tp.LayerNorm(leaf([]float32{1, 2, 3}, 3), leaf([]float32{2, 2, 2}, 3), leaf([]float32{1, 1, 1}, 3), 0), []int{3}, []float32{-1.4494898, 1, 3.4494898}},
		{"MSE", tp.MSE(leaf([]float32{1, 2}, 2), leaf([]float32{0, 4}, 2)), []int{}, []float32{2.5}},
		// d = [0.5, −2] with delta 1: ½·0.25 and 1·(2 − ½).
		{"Huber", tp.Huber(leaf([]float32{0.5, -2}, 2), leaf([]float32{0, 0}, 2), 1), []int{}, []float32{0.8125}},
		{"CrossEntropy", tp.CrossEntropy(leaf([]float32{1, 2, 3, 1, 2, 3}, 2, 3), []int{2, 0}), []int{}, []float32{(0.40760596 + 2.40760596) / 2}},
		{"Reshape", tp.Reshape(m, -1), []int{4}, []float32{1, 2, 3, 4}},
		{"Flatten", tp.Flatten(leaf(make([]float32, 24), 2, 3, 4), 1, -1), []int{2, 12}, nil},
		{"Flatten scalar", tp.Flatten(leaf([]float32{7}), 0, -1), []int{1}, []float32{7}},
		{"Squeeze", tp.Squeeze(col, 1), []int{2}, []float32{1, 2}},
		{"Unsqueeze", tp.Unsqueeze(row, 0), []int{1, 2}, []float32{10, 20}},
		{"Unsqueeze end", tp.Unsqueeze(row, -1), []int{2, 1}, []float32{10, 20}},
		{"Transpose", tp.Transpose(leaf([]float32{1, 2, 3, 4, 5, 6}, 2, 3), 0, 1), []int{3, 2}, []float32{1, 4, 2, 5, 3, 6}},
		{"Transpose 3-D", tp.Transpose(leaf([]float32{0, 1, 2, 3, 4, 5, 6, 7}, 2, 2, 2), 0, 2), []int{2, 2, 2}, []float32{0, 4, 2, 6, 1, 5, 3, 7}},
		{"Slice rows", tp.Slice(leaf([]float32{1, 2, 3, 4, 5, 6}, 3, 2), 0, 1, 3), []int{2, 2}, []float32{3, 4, 5, 6}},
		{"Slice cols", tp.Slice(leaf([]float32{1, 2, 3, 4, 5, 6}, 2, 3), 1, 1, 3), []int{2, 2}, []float32{2, 3, 5, 6}},
		{"IndexSelect", tp.IndexSelect(leaf([]float32{1, 2, 3, 4, 5, 6}, 3, 2), 0, []int{2, 0, 2}), []int{3, 2}, []float32{5, 6, 1, 2, 5, 6}},
		{"IndexSelect axis 1", tp.IndexSelect(leaf([]float32{1, 2, 3, 4, 5, 6}, 2, 3), 1, []int{2, 1}), []int{2, 2}, []float32{3, 2, 6, 5}},
		{"Concat 0", tp.Concat(0, m, leaf([]float32{5, 6}, 1, 2)), []int{3, 2}, []float32{1, 2, 3, 4, 5, 6}},
		{"Concat 1", tp.Concat(-1, m, col), []int{2, 3}, []float32{1, 2, 1, 3, 4, 2}},
		{"Stack 0", tp.Stack(0, row, row), []int{2, 2}, []float32{10, 20, 10, 20}},
		{"Stack 1", tp.Stack(1, row, leaf([]float32{1, 2}, 2)), []int{2, 2}, []float32{10, 1, 20, 2}},
		{"Stack -1", tp.Stack(-1, m, m), []int{2, 2, 2}, []float32{1, 1, 2, 2, 3, 3, 4, 4}},
		{"Detach", tp.Detach(m), []int{2, 2}, []float32{1, 2, 3, 4}},
		{"Empty Sum", tp.Sum(leaf([]float32{}, 0)), []int{}, []float32{0}},
	}
	for _, c := range cases {
		checkTensor(t, c.name, c.got, c.shape, c.want, 1e-6)
	}
}

// TestArgMaxTo checks greedy actions; the expected indices are read off the
// inputs.
func TestArgMaxTo(t *testing.T) {
	q := leaf([]float32{1, 3, 2, 5, 5, 0}, 2, 3)
	if got := tensor.ArgMaxTo(make([]int, 2), q, 1); !slices.Equal(got, []int{1, 0}) {
		t.Errorf("ArgMaxTo axis 1 = %v, want [1 0] (ties go to the first)", got)
	}
	if got := tensor.ArgMaxTo(make([]int, 3), q, 0); !slices.Equal(got, []int{1, 1, 0}) {
		t.Errorf("ArgMaxTo axis 0 = %v, want [1 1 0]", got)
	}
	expectPanic(t, "ArgMaxTo short dst", tensor.ErrShape, func() { tensor.ArgMaxTo(make([]int, 1), q, 1) })
}

// expectPanic runs f and checks that it panics with an error wrapping want.
func expectPanic(t *testing.T, name string, want error, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		err, ok := r.(error)
		if !ok || !errors.Is(err, want) {
			t.Errorf("%s: panic %v, want one wrapping %v", name, r, want)
		}
	}()
	f()
}

func TestPanics(t *testing.T) {
	var tp tensor.Tape
	a, b := tensor.New(2, 3), tensor.New(3, 2)
	cases := []struct {
		name string
		want error
		f    func()
	}{
		{"Add no broadcast", tensor.ErrShape, func() { tp.Add(a, b) }},
		{"Where no broadcast", tensor.ErrShape, func() { tp.Where(tensor.New(4), a, a) }},
		{"MatMul inner", tensor.ErrShape, func() { tp.MatMul(a, a) }},
		{"Linear weight", tensor.ErrShape, func() { tp.Linear(a, b, nil) }},
		{"Linear bias", tensor.ErrShape, func() { tp.Linear(a, a, tensor.New(3)) }},
		{"Conv2d channels", tensor.ErrShape, func() { tp.Conv2d(tensor.New(1, 2, 5, 5), tensor.New(1, 3, 2, 2), nil, 1, 0) }},
		{"Conv2d empty", tensor.ErrShape, func() { tp.Conv2d(tensor.New(1, 1, 2, 2), tensor.New(1, 1, 3, 3), nil, 1, 0) }},
		{"Conv2d stride", tensor.ErrArg, func() { tp.Conv2d(tensor.New(1, 1, 5, 5), tensor.New(1, 1, 3, 3), nil, 0, 0) }},
		{"Axis", tensor.ErrShape, func() { tp.SumAxis(a, 2, false) }},
		{"Negative axis", tensor.ErrShape, func() { tp.Softmax(a, -3) }},
		{"MaxAxis empty", tensor.ErrShape, func() { tp.MaxAxis(tensor.New(2, 0), 1, false) }},
		{"Reshape", tensor.ErrShape, func() { tp.Reshape(a, 4, -1) }},
		{"Reshape two -1", tensor.ErrShape, func() { tp.Reshape(a, -1, -1) }},
		{"Squeeze", tensor.ErrShape, func() { tp.Squeeze(a, 0) }},
		{"Flatten order", tensor.ErrShape, func() { tp.Flatten(a, 1, 0) }},
		{"Slice", tensor.ErrIndex, func() { tp.Slice(a, 0, 1, 3) }},
		{"IndexSelect", tensor.ErrIndex, func() { tp.IndexSelect(a, 1, []int{3}) }},
		{"Gather index", tensor.ErrIndex, func() { tp.Gather(a, 1, []int{0, -1}) }},
		{"Gather count", tensor.ErrShape, func() { tp.Gather(a, 1, []int{0}) }},
		{"OneHot", tensor.ErrIndex, func() { tp.OneHot([]int{3}, 3) }},
		{"CrossEntropy label", tensor.ErrIndex, func() { tp.CrossEntropy(a, []int{0, 3}) }},
		{"CrossEntropy rows", tensor.ErrShape, func() { tp.CrossEntropy(a, []int{0}) }},
		{"MSE", tensor.ErrShape, func() { tp.MSE(a, b) }},
		{"Huber delta", tensor.ErrArg, func() { tp.Huber(a, a, 0) }},
		{"Dropout p", tensor.ErrArg, func() { tp.Dropout(a, 1.5, nil) }},
		{"Concat none", tensor.ErrShape, func() { tp.Concat(0) }},
		{"Concat shapes", tensor.ErrShape, func() { tp.Concat(0, a, b) }},
		{"Stack shapes", tensor.ErrShape, func() { tp.Stack(0, a, b) }},
		{"LayerNorm gamma", tensor.ErrShape, func() { tp.LayerNorm(a, tensor.New(2), nil, 1e-5) }},
		{"Item", tensor.ErrShape, func() { a.Item() }},
		{"New", tensor.ErrShape, func() { tensor.New(2, -1) }},
		{"Fans", tensor.ErrShape, func() { tensor.Fans([]int{3}) }},
	}
	for _, c := range cases {
		expectPanic(t, c.name, c.want, c.f)
	}
}

func TestFromSliceErrors(t *testing.T) {
	if _, err := tensor.FromSlice(make([]float32, 5), 2, 3); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("FromSlice of 5 values as [2 3]: error %v, want ErrShape", err)
	}
	if _, err := tensor.FromSlice(nil, -1); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("FromSlice with a negative dimension: error %v, want ErrShape", err)
	}
	x, err := tensor.FromSlice([]float32{1, 2, 3})
	if err != nil || !slices.Equal(x.Shape(), []int{3}) {
		t.Errorf("FromSlice without shape: %v, %v; want shape [3]", x, err)
	}
}

// TestConv2dNaive checks Conv2d against the definition, a direct loop over
// output positions and filter taps (PyTorch's conv2d: cross-correlation with
// zero padding), for square kernels of widths 1 to 9 with strides 1 to 4 and
// paddings 0 to 2. Odd widths get 16 output channels, which go through the
// tiled product on CPUs with AVX2 and FMA, even widths 2.
func TestConv2dNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var tp tensor.Tape
	for k := 1; k <= 9; k++ {
		for stride := 1; stride <= 4; stride++ {
			for pad := 0; pad <= 2; pad++ {
				n, c, oc, h, w := 2, 3, 2+14*(k%2), 11+k, 10+k
				x, f, b := randn(rng, n, c, h, w), randn(rng, oc, c, k, k), randn(rng, oc)
				tp.Reset()
				y := tp.Conv2d(x, f, b, stride, pad)
				oh, ow := (h+2*pad-k)/stride+1, (w+2*pad-k)/stride+1
				if got := y.Shape(); !slices.Equal(got, []int{n, oc, oh, ow}) {
					t.Fatalf("k=%d stride=%d pad=%d: shape %v", k, stride, pad, got)
				}
				xd, fd, yd := x.Data(), f.Data(), y.Data()
				for s := 0; s < n; s++ {
					for o := 0; o < oc; o++ {
						for oy := 0; oy < oh; oy++ {
							for ox := 0; ox < ow; ox++ {
								want := float64(b.Data()[o])
								for ci := 0; ci < c; ci++ {
									for i := 0; i < k; i++ {
										for j := 0; j < k; j++ {
											iy, ix := oy*stride-pad+i, ox*stride-pad+j
											if iy < 0 || iy >= h || ix < 0 || ix >= w {
												continue
											}
											want += float64(xd[((s*c+ci)*h+iy)*w+ix]) * float64(fd[((o*c+ci)*k+i)*k+j])
										}
									}
								}
								got := yd[((s*oc+o)*oh+oy)*ow+ox]
								if math.Abs(float64(got)-want) > 1e-4*(1+math.Abs(want)) {
									t.Fatalf("k=%d stride=%d pad=%d: y[%d,%d,%d,%d] = %v, want %v", k, stride, pad, s, o, oy, ox, got, want)
								}
							}
						}
					}
				}
			}
		}
	}
}

func randn(rng *rand.Rand, shape ...int) *tensor.Tensor {
	x := tensor.New(shape...)
	x.FillNormal(rng, 0, 1)
	return x
}

// TestConv2dInputGradNaive checks the gradient of Conv2d with respect to its
// input against the definition's adjoint, dx[s,c,y,x] = Σ g[s,o,oy,ox]·
// w[o,c,i,j] over the output positions whose patch covers (y, x), on an input
// large enough for the backward pass to fold the unrolled gradient back in
// several blocks (2·62·62 rows of 27).
func TestConv2dInputGradNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n, c, oc, h, w, k, stride, pad = 2, 3, 4, 64, 64, 3, 1, 0
	x := randn(rng, n, c, h, w).SetRequiresGrad(true)
	f, g := randn(rng, oc, c, k, k), randn(rng, n, oc, h-k+1, w-k+1)
	var tp tensor.Tape
	tp.Backward(tp.Sum(tp.Mul(tp.Conv2d(x, f, nil, stride, pad), g)))
	oh, ow := h-k+1, w-k+1
	want := make([]float64, n*c*h*w)
	fd, gd := f.Data(), g.Data()
	for s := 0; s < n; s++ {
		for o := 0; o < oc; o++ {
			for oy := 0; oy < oh; oy++ {
				for ox := 0; ox < ow; ox++ {
					gv := float64(gd[((s*oc+o)*oh+oy)*ow+ox])
					for ci := 0; ci < c; ci++ {
						for i := 0; i < k; i++ {
							for j := 0; j < k; j++ {
								want[((s*c+ci)*h+oy+i)*w+ox+j] += gv * float64(fd[((o*c+ci)*k+i)*k+j])
							}
						}
					}
				}
			}
		}
	}
	for i, got := range x.Grad() {
		if math.Abs(float64(got)-want[i]) > 1e-4*(1+math.Abs(want[i])) {
			t.Fatalf("dx[%d] = %v, want %v", i, got, want[i])
		}
	}
}
