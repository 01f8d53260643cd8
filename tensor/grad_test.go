package tensor_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/tensor/tensortest"
)

// uniform returns a leaf of the given shape with values drawn from U(lo, hi)
// but at least margin away from each of kinks (points where the function under
// test is not differentiable), so central differences stay on one side.
func uniform(rng *rand.Rand, lo, hi float32, kinks []float32, shape ...int) *tensor.Tensor {
	const margin = 0.05
	t := tensor.New(shape...)
	d := t.Data()
	for i := range d {
	draw:
		v := lo + (hi-lo)*rng.Float32()
		for _, k := range kinks {
			if math.Abs(float64(v-k)) < margin {
				goto draw
			}
		}
		d[i] = v
	}
	return t
}

// distinct returns a leaf whose values are a random permutation of evenly
// spaced values 0.1 apart, shifted by off, so that no two elements tie (for
// Max, Min, Maximum, Minimum).
func distinct(rng *rand.Rand, off float32, shape ...int) *tensor.Tensor {
	t := tensor.New(shape...)
	d := t.Data()
	for i, p := range rng.Perm(len(d)) {
		d[i] = off + 0.1*float32(p)
	}
	return t
}

type gradCase struct {
	name   string
	inputs func(rng *rand.Rand) []*tensor.Tensor
	f      tensortest.Func
	cfg    tensortest.Config
}

func unaryCase(name string, lo, hi float32, kinks []float32, f func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor) gradCase {
	return gradCase{
		name:   name,
		inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, lo, hi, kinks, 2, 3)} },
		f:      func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return f(tp, in[0]) },
	}
}

func binaryCase(name string, sa, sb []int, f func(tp *tensor.Tape, a, b *tensor.Tensor) *tensor.Tensor) gradCase {
	return gradCase{
		name: name,
		inputs: func(rng *rand.Rand) []*tensor.Tensor {
			// Positive, tie-free operands in different ranges suit every
			// binary op (Div needs b away from 0, Maximum no ties).
			return []*tensor.Tensor{distinct(rng, 0.5, sa...), distinct(rng, 0.55, sb...)}
		},
		f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return f(tp, in[0], in[1]) },
	}
}

func gradCases() []gradCase {
	inf := float32(math.Inf(1))
	cases := []gradCase{
		unaryCase("Neg", -2, 2, nil, (*tensor.Tape).Neg),
		unaryCase("Exp", -2, 2, nil, (*tensor.Tape).Exp),
		unaryCase("Log", 0.2, 3, nil, (*tensor.Tape).Log),
		unaryCase("Sqrt", 0.2, 3, nil, (*tensor.Tape).Sqrt),
		unaryCase("Abs", -2, 2, []float32{0}, (*tensor.Tape).Abs),
		unaryCase("Pow2", -2, 2, nil, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor { return tp.Pow(x, 2) }),
		unaryCase("Pow3", -2, 2, nil, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor { return tp.Pow(x, 3) }),
		unaryCase("Pow1", -2, 2, nil, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor { return tp.Pow(x, 1) }),
		unaryCase("PowHalf", 0.2, 3, nil, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor { return tp.Pow(x, 0.5) }),
		unaryCase("PowNeg", 0.3, 3, nil, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor { return tp.Pow(x, -1.5) }),
		unaryCase("Clamp", -2, 2, []float32{-1, 0.5}, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor { return tp.Clamp(x, -1, 0.5) }),
		unaryCase("ClampOpen", -2, 2, []float32{0.5}, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor { return tp.Clamp(x, -inf, 0.5) }),
		unaryCase("AddScalar", -2, 2, nil, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor { return tp.AddScalar(x, 3) }),
		unaryCase("MulScalar", -2, 2, nil, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor { return tp.MulScalar(x, -0.7) }),
		unaryCase("ReLU", -2, 2, []float32{0}, (*tensor.Tape).ReLU),
		unaryCase("LeakyReLU", -2, 2, []float32{0}, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor { return tp.LeakyReLU(x, 0.1) }),
		unaryCase("ELU", -2, 2, []float32{0}, func(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor { return tp.ELU(x, 1.3) }),
		unaryCase("Tanh", -2, 2, nil, (*tensor.Tape).Tanh),
		unaryCase("Sigmoid", -4, 4, nil, (*tensor.Tape).Sigmoid),
		unaryCase("Softplus", -4, 4, nil, (*tensor.Tape).Softplus),
		unaryCase("SoftplusLarge", 21, 30, nil, (*tensor.Tape).Softplus),

		binaryCase("Add", []int{2, 3}, []int{2, 3}, (*tensor.Tape).Add),
		binaryCase("Sub", []int{2, 3}, []int{2, 3}, (*tensor.Tape).Sub),
		binaryCase("Mul", []int{2, 3}, []int{2, 3}, (*tensor.Tape).Mul),
		binaryCase("Div", []int{2, 3}, []int{2, 3}, (*tensor.Tape).Div),
		binaryCase("Maximum", []int{2, 3}, []int{2, 3}, (*tensor.Tape).Maximum),
		binaryCase("Minimum", []int{2, 3}, []int{2, 3}, (*tensor.Tape).Minimum),
		// Broadcasting: a bias row, a column against a row, a scalar, and
		// operands of different rank.
		binaryCase("AddRow", []int{2, 3}, []int{3}, (*tensor.Tape).Add),
		binaryCase("SubColRow", []int{2, 1}, []int{1, 3}, (*tensor.Tape).Sub),
		binaryCase("MulScalarTensor", []int{}, []int{2, 3}, (*tensor.Tape).Mul),
		binaryCase("DivRank3", []int{4, 1, 3}, []int{2, 1}, (*tensor.Tape).Div),
		binaryCase("MaximumBroadcast", []int{2, 3}, []int{2, 1}, (*tensor.Tape).Maximum),
		binaryCase("MinimumBroadcast", []int{3}, []int{2, 3}, (*tensor.Tape).Minimum),
		{
			name: "SameInputTwice",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -2, 2, nil, 3)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Mul(in[0], in[0]) },
		},
		{
			name: "Where",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -2, 2, nil, 2, 3), uniform(rng, -2, 2, nil, 3)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				cond := tensor.MustFromSlice([]float32{1, 0, 1, 0, 0, 1}, 2, 3)
				return tp.Where(cond, in[0], in[1])
			},
		},
		unaryCase("Sum", -2, 2, nil, (*tensor.Tape).Sum),
		unaryCase("Mean", -2, 2, nil, (*tensor.Tape).Mean),
		{
			name:   "Max",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{distinct(rng, -1, 2, 3)} },
			f:      func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Max(in[0]) },
		},
		{
			name:   "Min",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{distinct(rng, -1, 2, 3)} },
			f:      func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Min(in[0]) },
		},
	}
	for _, ax := range []int{0, 1, -1} {
		for _, keep := range []bool{false, true} {
			ax, keep := ax, keep
			cases = append(cases,
				gradCase{
					name:   "SumAxis",
					inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 2, 3, 4)} },
					f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
						return tp.SumAxis(in[0], ax, keep)
					},
				},
				gradCase{
					name:   "MeanAxis",
					inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 2, 3, 4)} },
					f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
						return tp.MeanAxis(in[0], ax, keep)
					},
				},
				gradCase{
					name:   "MaxAxis",
					inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{distinct(rng, -1, 2, 3, 4)} },
					f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
						return tp.MaxAxis(in[0], ax, keep)
					},
				},
				gradCase{
					name:   "MinAxis",
					inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{distinct(rng, -1, 2, 3, 4)} },
					f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
						return tp.MinAxis(in[0], ax, keep)
					},
				},
			)
		}
	}
	cases = append(cases,
		gradCase{
			name: "MatMul",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -1, 1, nil, 3, 4), uniform(rng, -1, 1, nil, 4, 5)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.MatMul(in[0], in[1]) },
		},
		gradCase{
			// Large enough (9·40·33 multiply-adds) to reach the selected BLAS
			// rather than the small-product loop.
			name: "MatMulLarge",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -1, 1, nil, 9, 40), uniform(rng, -1, 1, nil, 40, 33)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.MatMul(in[0], in[1]) },
		},
		gradCase{
			name: "Linear",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -1, 1, nil, 3, 4), uniform(rng, -1, 1, nil, 5, 4), uniform(rng, -1, 1, nil, 5)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Linear(in[0], in[1], in[2]) },
		},
		gradCase{
			name: "LinearLargeNoBias3D",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -1, 1, nil, 2, 5, 24), uniform(rng, -1, 1, nil, 40, 24)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Linear(in[0], in[1], nil) },
		},
		gradCase{
			// A batch of rows: the forward and both backward products
			// go through the tile kernels where the CPU has them, with
			// rows a multiple of 8 (transposed in blocks) and not.
			name: "LinearBatch",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -1, 1, nil, 48, 16), uniform(rng, -1, 1, nil, 24, 16), uniform(rng, -1, 1, nil, 24)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Linear(in[0], in[1], in[2]) },
		},
		gradCase{
			// x and w used twice: the second backward adds to the
			// gradients the first wrote.
			name: "LinearBatchShared",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -1, 1, nil, 41, 8), uniform(rng, -1, 1, nil, 3, 8)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.Add(tp.Linear(in[0], in[1], nil), tp.Tanh(tp.Linear(in[0], in[1], nil)))
			},
		},
		gradCase{
			name: "Conv2dPad",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -1, 1, nil, 2, 2, 5, 4), uniform(rng, -1, 1, nil, 3, 2, 3, 3), uniform(rng, -1, 1, nil, 3)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Conv2d(in[0], in[1], in[2], 1, 1) },
		},
		gradCase{
			name: "Conv2dStride",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -1, 1, nil, 2, 3, 9, 8), uniform(rng, -1, 1, nil, 4, 3, 4, 3)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Conv2d(in[0], in[1], nil, 2, 0) },
		},
		gradCase{
			name: "Conv2dStridePad",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -1, 1, nil, 1, 2, 7, 7), uniform(rng, -1, 1, nil, 2, 2, 3, 3), uniform(rng, -1, 1, nil, 2)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Conv2d(in[0], in[1], in[2], 3, 2) },
		},
		gradCase{
			// Kernel widths 8 and 4 (the Nature CNN's) and 2 take their own
			// unrolling paths.
			name: "Conv2dKernel8",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -1, 1, nil, 2, 2, 12, 16), uniform(rng, -1, 1, nil, 2, 2, 8, 8), uniform(rng, -1, 1, nil, 2)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Conv2d(in[0], in[1], in[2], 4, 0) },
		},
		gradCase{
			name: "Conv2dKernel4",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -1, 1, nil, 2, 3, 8, 7), uniform(rng, -1, 1, nil, 2, 3, 4, 4), uniform(rng, -1, 1, nil, 2)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Conv2d(in[0], in[1], in[2], 2, 1) },
		},
		gradCase{
			// 16 and 32 filters over 16·KH·KW inputs: every product of the
			// forward and backward passes goes through the tile kernels on
			// CPUs with AVX2 and FMA (32 columns with AVX-512).
			name: "Conv2dTiles16",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -1, 1, nil, 2, 16, 5, 5), uniform(rng, -1, 1, nil, 16, 16, 1, 1), uniform(rng, -1, 1, nil, 16)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Conv2d(in[0], in[1], in[2], 1, 0) },
		},
		gradCase{
			name: "Conv2dTiles32",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -1, 1, nil, 1, 16, 5, 4), uniform(rng, -1, 1, nil, 32, 16, 3, 2), uniform(rng, -1, 1, nil, 32)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Conv2d(in[0], in[1], in[2], 1, 1) },
		},
		gradCase{
			name: "Conv2dKernel5x2",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -1, 1, nil, 1, 2, 7, 6), uniform(rng, -1, 1, nil, 3, 2, 5, 2)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Conv2d(in[0], in[1], nil, 1, 0) },
		},
		gradCase{
			name:   "SoftmaxLast",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 3, 4)} },
			f:      func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Softmax(in[0], -1) },
		},
		gradCase{
			name:   "SoftmaxMiddle",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 2, 3, 4)} },
			f:      func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Softmax(in[0], 1) },
		},
		gradCase{
			name:   "LogSoftmaxLast",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 3, 4)} },
			f:      func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.LogSoftmax(in[0], -1) },
		},
		gradCase{
			name:   "LogSoftmaxFirst",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 3, 4)} },
			f:      func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.LogSoftmax(in[0], 0) },
		},
		gradCase{
			name:   "GatherRows",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 4, 3)} },
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.Gather(in[0], 1, []int{2, 0, 0, 1})
			},
		},
		gradCase{
			name:   "GatherAxis0",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 3, 2, 2)} },
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.Gather(in[0], 0, []int{2, 0, 1, 2})
			},
		},
		gradCase{
			name: "LayerNorm",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -2, 2, nil, 3, 5), uniform(rng, 0.5, 1.5, nil, 5), uniform(rng, -1, 1, nil, 5)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.LayerNorm(in[0], in[1], in[2], 1e-5)
			},
		},
		gradCase{
			name:   "LayerNormPlain",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 2, 2, 4)} },
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.LayerNorm(in[0], nil, nil, 1e-5)
			},
		},
		gradCase{
			name:   "Dropout",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 4, 5)} },
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.Dropout(in[0], 0.3, rand.New(rand.NewPCG(7, 7)))
			},
		},
		gradCase{
			name: "MSE",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -2, 2, nil, 3, 2), uniform(rng, -2, 2, nil, 3, 2)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.MSE(in[0], in[1]) },
		},
		gradCase{
			// Differences on both sides of delta = 0.5 (kinks of d at ±delta
			// are avoided by fixing the target and keeping pred away from
			// target ± delta).
			name: "Huber",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -2, 2, []float32{-0.5, 0.5}, 8)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.Huber(in[0], tensor.New(8), 0.5)
			},
		},
		gradCase{
			name: "HuberTarget",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -2, 2, []float32{-1, 1}, 2, 3)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.Huber(tensor.New(2, 3), in[0], 1)
			},
		},
		gradCase{
			// Targets fixed at −1.5, 0.25, 1.75 in every row; predictions
			// kept away from target ± κ (κ = 1), the kinks of the Huber
			// function (u = 0 is smooth: the loss and its slope are 0 there
			// on both sides).
			name: "QuantileHuber",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -2, 2, []float32{-2.5, -0.5, -0.75, 1.25, 0.75, 2.75}, 3, 4)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				target, _ := tensor.FromSlice([]float32{-1.5, 0.25, 1.75, -1.5, 0.25, 1.75, -1.5, 0.25, 1.75}, 3, 3)
				tau, _ := tensor.FromSlice([]float32{0.125, 0.375, 0.625, 0.875}, 4)
				return tp.QuantileHuber(in[0], target, tau, 1)
			},
		},
		gradCase{
			// Fractions per row ([B, N], IQN's sampled τ) and κ = 0.5.
			name: "QuantileHuberRows",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -2, 2, []float32{-2, -1, 0.5, 1, -0.25, 0.75}, 2, 3)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				target, _ := tensor.FromSlice([]float32{-1.5, 0.25, 1.5, -1.5, 0.25, 1.5}, 2, 3)
				tau, _ := tensor.FromSlice([]float32{0.1, 0.5, 0.7, 0.9, 0.2, 0.4}, 2, 3)
				return tp.QuantileHuber(in[0], target, tau, 0.5)
			},
		},
		gradCase{
			name:   "Cosines",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, 0, 1, nil, 2, 3)} },
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.Cosines(in[0], 4)
			},
			// The fourth feature turns fast (cos 4πτ): a smaller step.
			cfg: tensortest.Config{Step: 2e-3, AbsTol: 2e-3, RelTol: 2e-2},
		},
		gradCase{
			name:   "CrossEntropy",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 3, 4)} },
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.CrossEntropy(in[0], []int{3, 0, 1})
			},
		},
		gradCase{
			name:   "Reshape",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 2, 6)} },
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.Mul(tp.Reshape(in[0], 3, -1), tp.Reshape(in[0], 3, 4))
			},
		},
		gradCase{
			name:   "FlattenSqueezeUnsqueeze",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 2, 1, 3)} },
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				s := tp.Unsqueeze(tp.Squeeze(in[0], 1), -1)
				return tp.Mul(tp.Flatten(s, 0, -1), tp.Flatten(tp.Flatten(in[0], 1, 2), 0, 1))
			},
		},
		gradCase{
			name:   "Transpose2D",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 3, 4)} },
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.Mul(tp.Transpose(in[0], 0, 1), tensor.MustFromSlice([]float32{1, 2, 3}, 3))
			},
		},
		gradCase{
			name:   "Transpose3D",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 2, 3, 4)} },
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.Transpose(in[0], 0, -1)
			},
		},
		gradCase{
			name:   "SliceView",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 4, 3)} },
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.Slice(in[0], 0, 1, 3)
			},
		},
		gradCase{
			name:   "SliceCopy",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 2, 4, 3)} },
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.Slice(in[0], 1, 2, 4)
			},
		},
		gradCase{
			name:   "IndexSelect",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 4, 3)} },
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.IndexSelect(in[0], 0, []int{3, 1, 3, 0, 3})
			},
		},
		gradCase{
			name:   "IndexSelectAxis1",
			inputs: func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, -2, 2, nil, 2, 4, 3)} },
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.IndexSelect(in[0], 1, []int{2, 2, 0})
			},
		},
		gradCase{
			name: "Concat",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -2, 2, nil, 2, 3), uniform(rng, -2, 2, nil, 2, 1), uniform(rng, -2, 2, nil, 2, 2)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.Concat(1, in[0], in[1], in[2], in[0])
			},
		},
		gradCase{
			name: "ConcatAxis0",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -2, 2, nil, 2, 3), uniform(rng, -2, 2, nil, 1, 3)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Concat(0, in[0], in[1]) },
		},
		gradCase{
			name: "Stack",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -2, 2, nil, 2, 3), uniform(rng, -2, 2, nil, 2, 3)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				return tp.Add(tp.Stack(0, in[0], in[1]), tp.Stack(1, in[1], in[0]))
			},
		},
		gradCase{
			name: "StackLast",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{uniform(rng, -2, 2, nil, 2, 3), uniform(rng, -2, 2, nil, 2, 3)}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor { return tp.Stack(-1, in[0], in[1], in[0]) },
		},
		gradCase{
			name: "MLP",
			inputs: func(rng *rand.Rand) []*tensor.Tensor {
				return []*tensor.Tensor{
					uniform(rng, -1, 1, nil, 5, 3),
					uniform(rng, -1, 1, nil, 4, 3), uniform(rng, -1, 1, nil, 4),
					uniform(rng, -1, 1, nil, 2, 4), uniform(rng, -1, 1, nil, 2),
				}
			},
			f: func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
				h := tp.Tanh(tp.Linear(in[0], in[1], in[2]))
				return tp.MSE(tp.Linear(h, in[3], in[4]), tensor.New(5, 2))
			},
		},
	)
	return cases
}

func TestGradients(t *testing.T) {
	for _, c := range gradCases() {
		rng := rand.New(rand.NewPCG(1, 2))
		if err := tensortest.CheckGrad(c.f, c.inputs(rng), c.cfg); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
