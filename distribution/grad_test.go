package distribution_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/tensor/tensortest"
)

// uniform returns a leaf of the given shape with values drawn from U(lo, hi).
func uniform(rng *rand.Rand, lo, hi float32, shape ...int) *tensor.Tensor {
	t := tensor.New(shape...)
	t.FillUniform(rng, lo, hi)
	return t
}

func categorical(tp *tensor.Tape, probs bool, x *tensor.Tensor) *distribution.Categorical {
	var d distribution.Categorical
	var err error
	if probs {
		err = d.SetProbs(tp, x)
	} else {
		err = d.SetLogits(tp, x)
	}
	if err != nil {
		panic(err)
	}
	return &d
}

func normal(tp *tensor.Tape, loc, scale *tensor.Tensor) *distribution.Normal {
	var d distribution.Normal
	if err := d.Set(tp, loc, scale); err != nil {
		panic(err)
	}
	return &d
}

func tanhNormal(tp *tensor.Tape, loc, scale *tensor.Tensor) *distribution.TanhNormal {
	var d distribution.TanhNormal
	if err := d.Set(tp, loc, scale); err != nil {
		panic(err)
	}
	return &d
}

type gradCase struct {
	name   string
	inputs func(rng *rand.Rand) []*tensor.Tensor
	f      tensortest.Func
}

// gradCases lists, for every differentiable operation, a function of the
// distribution's parameters that tensortest.CheckGrad compares with central
// differences (float64 sums of float32 evaluations).
func gradCases() []gradCase {
	acts := leaf([]int{4}, 0, 2, 1, 2)
	cases := []gradCase{}
	for _, probs := range []bool{false, true} {
		name := "Categorical logits "
		lo, hi := float32(-2), float32(2)
		if probs {
			// Probabilities away from 0 keep PyTorch's clamp inactive.
			name, lo, hi = "Categorical probs ", 0.3, 1
		}
		in := func(rng *rand.Rand) []*tensor.Tensor { return []*tensor.Tensor{uniform(rng, lo, hi, 4, 3)} }
		cases = append(cases,
			gradCase{name + "LogProb", in, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				return categorical(tp, probs, x[0]).LogProb(acts)
			}},
			gradCase{name + "LogProb broadcast", in, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				return categorical(tp, probs, x[0]).LogProb(leaf([]int{2, 1}, 1, 2))
			}},
			gradCase{name + "Entropy", in, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				return categorical(tp, probs, x[0]).Entropy()
			}},
			gradCase{name + "Probs", in, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				return categorical(tp, probs, x[0]).Probs()
			}},
			gradCase{name + "Logits", in, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				return categorical(tp, probs, x[0]).Logits()
			}},
		)
	}
	locScale := func(ls, ss []int) func(rng *rand.Rand) []*tensor.Tensor {
		return func(rng *rand.Rand) []*tensor.Tensor {
			return []*tensor.Tensor{uniform(rng, -1, 1, ls...), uniform(rng, 0.5, 2, ss...), uniform(rng, -2, 2, 2, 3)}
		}
	}
	for _, shapes := range [][2][]int{{{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{2, 1}, {1, 3}}} {
		in := locScale(shapes[0], shapes[1])
		cases = append(cases,
			gradCase{"Normal LogProb", in, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				return normal(tp, x[0], x[1]).LogProb(x[2])
			}},
			gradCase{"Normal Entropy", in, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				return normal(tp, x[0], x[1]).Entropy()
			}},
			gradCase{"Normal RSample", in, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				return normal(tp, x[0], x[1]).RSample(rand.New(rand.NewPCG(1, 1)))
			}},
			gradCase{"Normal Mode", in, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				return tp.Mul(normal(tp, x[0], x[1]).Mode(), x[1])
			}},
		)
	}
	for _, shapes := range [][2][]int{{{2, 3}, {2, 3}}, {{2, 3}, {3}}} {
		in := locScale(shapes[0], shapes[1])
		tanhIn := func(rng *rand.Rand) []*tensor.Tensor {
			x := in(rng)
			x[2].FillUniform(rng, -0.9, 0.9) // values inside (−1, 1)
			return x
		}
		cases = append(cases,
			gradCase{"TanhNormal RSample", in, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				return tanhNormal(tp, x[0], x[1]).RSample(rand.New(rand.NewPCG(1, 1)))
			}},
			gradCase{"TanhNormal LogProb of its RSample", in, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				d := tanhNormal(tp, x[0], x[1])
				return d.LogProb(d.RSample(rand.New(rand.NewPCG(1, 1))))
			}},
			gradCase{"TanhNormal LogProb", tanhIn, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				return tanhNormal(tp, x[0], x[1]).LogProb(x[2])
			}},
			gradCase{"TanhNormal Mode", in, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				return tanhNormal(tp, x[0], x[1]).Mode()
			}},
			gradCase{"Independent Normal LogProb", in, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				var d distribution.Independent
				d.Set(tp, normal(tp, x[0], x[1]), 1)
				return d.LogProb(x[2])
			}},
			gradCase{"Independent Normal Entropy", in, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
				var d distribution.Independent
				d.Set(tp, normal(tp, x[0], x[1]), 2)
				return d.Entropy()
			}},
		)
	}
	// A location of zeros: the scale is repeated along the broadcast axis
	// where the location (the condition that expands it) is 0 as well.
	cases = append(cases, gradCase{"Normal LogProb zero location", func(rng *rand.Rand) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.New(2, 1), uniform(rng, 0.5, 2, 1, 3), uniform(rng, -2, 2, 2, 3)}
	}, func(tp *tensor.Tape, x []*tensor.Tensor) *tensor.Tensor {
		return normal(tp, x[0], x[1]).LogProb(x[2])
	}})
	return cases
}

func TestGradients(t *testing.T) {
	for _, c := range gradCases() {
		rng := rand.New(rand.NewPCG(1, 2))
		if err := tensortest.CheckGrad(c.f, c.inputs(rng), tensortest.Config{}); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
