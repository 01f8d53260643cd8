package distribution_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/tensor"
)

// show formats a tensor's values with three decimals.
func show(t *tensor.Tensor) string {
	parts := make([]string, t.Len())
	for i, v := range t.Data() {
		parts[i] = fmt.Sprintf("%.3f", v)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func ExampleCategorical() {
	// Two rows of logits over three actions, as a policy network outputs
	// them; a Tape records the operations so that a loss built on them can
	// be differentiated.
	tp := new(tensor.Tape)
	logits := tensor.MustFromSlice([]float32{1, 2, 3, 0, 0, 0}, 2, 3).SetRequiresGrad(true)
	var d distribution.Categorical
	if err := d.SetLogits(tp, logits); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("batch shape:", d.BatchShape())
	fmt.Println("probs:", show(d.Probs()))
	act := d.Sample(rand.New(rand.NewPCG(1, 2)))
	fmt.Println("sampled actions:", act)
	fmt.Println("log-prob:", show(d.LogProb(act)))
	fmt.Println("entropy:", show(d.Entropy()))
	fmt.Println("mode:", d.Mode())

	// The gradient of the summed log-probabilities reaches the logits.
	tp.Backward(tp.Sum(d.LogProb(act)))
	fmt.Println("d/dlogits:", show(tensor.MustFromSlice(logits.Grad())))
	// Output:
	// batch shape: [2]
	// probs: [0.090 0.245 0.665 0.333 0.333 0.333]
	// sampled actions: [2 1]
	// log-prob: [-0.408 -1.099]
	// entropy: [0.832 1.099]
	// mode: [2 0]
	// d/dlogits: [-0.090 -0.245 0.335 -0.333 0.667 -0.333]
}

func ExampleNormal() {
	// Seed 001 §5's Normal(loc=[0, 1, 2], scale=[1, 1, 1]) with the actions
	// [0.5, 1.5, 2.5]; no tape (nil) for one-off computations.
	var d distribution.Normal
	loc := tensor.MustFromSlice([]float32{0, 1, 2})
	if err := d.Set(nil, loc, tensor.MustFromSlice([]float32{1, 1, 1})); err != nil {
		fmt.Println(err)
		return
	}
	act := tensor.MustFromSlice([]float32{0.5, 1.5, 2.5})
	fmt.Println("mean:", d.Loc())
	fmt.Println("log-prob:", show(d.LogProb(act)))
	fmt.Println("entropy:", show(d.Entropy()))
	fmt.Println("sample:", show(d.Sample(rand.New(rand.NewPCG(1, 2)))))
	// Output:
	// mean: [0 1 2]
	// log-prob: [-1.044 -1.044 -1.044]
	// entropy: [1.419 1.419 1.419]
	// sample: [0.379 1.075 2.200]
}

func ExampleNormal_RSample() {
	// A reparameterized sample lets the gradient reach the parameters: with
	// a = loc + scale·ε, ∂a/∂loc = 1 and ∂a/∂scale = ε.
	tp := new(tensor.Tape)
	loc := tensor.MustFromSlice([]float32{0, 10}).SetRequiresGrad(true)
	scale := tensor.MustFromSlice([]float32{1, 2}).SetRequiresGrad(true)
	var d distribution.Normal
	if err := d.Set(tp, loc, scale); err != nil {
		fmt.Println(err)
		return
	}
	a := d.RSample(rand.New(rand.NewPCG(3, 4)))
	tp.Backward(tp.Sum(a))
	fmt.Println("a:", show(a))
	fmt.Println("∂a/∂loc:", show(tensor.MustFromSlice(loc.Grad())))
	fmt.Println("∂a/∂scale:", show(tensor.MustFromSlice(scale.Grad())))
	// Output:
	// a: [0.789 9.848]
	// ∂a/∂loc: [1.000 1.000]
	// ∂a/∂scale: [0.789 -0.076]
}

func ExampleCategorical_SetLogits() {
	// A policy whose weights diverged outputs NaN: Set refuses it, as
	// PyTorch's argument validation does, and the distribution keeps its
	// previous parameters.
	var d distribution.Categorical
	if err := d.SetLogits(nil, tensor.MustFromSlice([]float32{0, 0})); err != nil {
		fmt.Println(err)
		return
	}
	nan := float32(math.NaN())
	err := d.SetLogits(nil, tensor.MustFromSlice([]float32{nan, 0}))
	fmt.Println(errors.Is(err, distribution.ErrParam))
	fmt.Println(err)
	fmt.Println("probs:", show(d.Probs()))
	// Output:
	// true
	// distribution: invalid parameter: Categorical logit NaN in row 0
	// probs: [0.500 0.500]
}
