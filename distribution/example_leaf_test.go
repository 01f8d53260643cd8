package distribution_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// Seed 001 §5: a Categorical in a Batch is sliced with the Batch's arrays.
func Example_batchSlicing() {
	probs := tensor.MustFromSlice([]float32{0.3, 0.7, 0.4, 0.6, 0.5, 0.5}, 3, 2)
	dist := new(distribution.Categorical)
	if err := dist.SetProbs(nil, probs); err != nil {
		fmt.Println(err)
		return
	}
	b := batch.MustNew("dist", dist, "values", []int{1, 2, 3})

	n, _ := b.Len()
	fmt.Println("Original batch length:", n)
	v, _ := b.Get("dist")
	fmt.Println("Original dist probs shape:", v.(*distribution.Categorical).Probs().Shape())

	sliced := b.Index(nd.Range(0, 2)) // batch[0:2]
	n, _ = sliced.Len()
	fmt.Println("\nSliced batch length:", n)
	v, _ = sliced.Get("dist")
	fmt.Println("Sliced dist probs shape:", v.(*distribution.Categorical).Probs().Shape())
	values, _ := sliced.Array("values")
	fmt.Println("Sliced values:", values.Str())
	// Output:
	// Original batch length: 3
	// Original dist probs shape: [3 2]
	//
	// Sliced batch length: 2
	// Sliced dist probs shape: [2 2]
	// Sliced values: [1 2]
}

// Seed 001 §5: indexing a Batch with one element gives a scalar Normal.
func ExampleNormal_Index() {
	dist := new(distribution.Normal)
	loc := tensor.MustFromSlice([]float32{0, 1, 2})
	if err := dist.Set(nil, loc, tensor.MustFromSlice([]float32{1, 1, 1})); err != nil {
		fmt.Println(err)
		return
	}
	b := batch.MustNew("dist", dist, "actions", []float64{0.5, 1.5, 2.5})
	fmt.Println("Original mean:", dist.Loc())

	single := b.Index(nd.I(1)) // batch_normal[1]
	v, _ := single.Get("dist")
	fmt.Printf("Single element mean: %.1f\n", v.(*distribution.Normal).Loc().Item())
	act, _ := single.Array("actions")
	fmt.Println("Single element action:", act.Item())
	// Output:
	// Original mean: [0 1 2]
	// Single element mean: 1.0
	// Single element action: 1.5
}

// Seed 001 §5's dist_to_atleast_2d: a distribution without batch axis gets
// one of length 1, alone (Stack of itself) or inside a Batch
// (batch.ToAtLeast2D).
func ExampleCategorical_Stack() {
	scalar := new(distribution.Categorical)
	if err := scalar.SetProbs(nil, tensor.MustFromSlice([]float32{0.3, 0.7})); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("Scalar dist batch_shape:", scalar.BatchShape())
	batched, err := scalar.Stack(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("Batched dist batch_shape:", batched.BatchShape())

	ones := new(distribution.Categorical)
	if err := ones.SetProbs(nil, tensor.MustFromSlice([]float32{1, 1, 1})); err != nil {
		fmt.Println(err)
		return
	}
	b := batch.MustNew("a", 1, "b", 2, "dist", ones)
	v, _ := b.Get("dist")
	fmt.Println("\nBefore to_at_least_2d:", v.(distribution.Distribution).BatchShape())
	b2, err := batch.ToAtLeast2D(b)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ = b2.Get("dist")
	fmt.Println("After to_at_least_2d:", v.(distribution.Distribution).BatchShape())
	// Output:
	// Scalar dist batch_shape: []
	// Batched dist batch_shape: [1]
	//
	// Before to_at_least_2d: []
	// After to_at_least_2d: [1]
}

// A diagonal Gaussian policy for 2-dimensional actions, as PPO uses it for
// continuous control: per-state means and a state-independent log standard
// deviation.
func ExampleIndependent() {
	tp := new(tensor.Tape)
	mean := tensor.MustFromSlice([]float32{0, 0, 1, -1}, 2, 2) // [states, action dims]
	logStd := tensor.MustFromSlice([]float32{0, -0.5}).SetRequiresGrad(true)
	var normal distribution.Normal
	if err := normal.Set(tp, mean, tp.Exp(logStd)); err != nil {
		fmt.Println(err)
		return
	}
	var pi distribution.Independent
	pi.Set(tp, &normal, 1)
	fmt.Println("batch shape:", pi.BatchShape(), "event shape:", pi.EventShape())
	act := tensor.MustFromSlice([]float32{0, 0, 1, -1}, 2, 2)
	fmt.Println("log-prob:", show(pi.LogProb(act)))
	fmt.Println("entropy:", show(pi.Entropy()))
	tp.Backward(tp.Mean(pi.Entropy()))
	fmt.Println("d entropy / d logStd:", show(tensor.MustFromSlice(logStd.Grad())))
	// Output:
	// batch shape: [2] event shape: [2]
	// log-prob: [-1.338 -1.338]
	// entropy: [2.338 2.338]
	// d entropy / d logStd: [1.000 1.000]
}

// SAC's actor: a reparameterized squashed-Gaussian action and its
// log-probability, both differentiable with respect to the network outputs.
func ExampleTanhNormal() {
	tp := new(tensor.Tape)
	loc := tensor.MustFromSlice([]float32{0.2, -1}, 1, 2).SetRequiresGrad(true)
	scale := tensor.MustFromSlice([]float32{0.5, 0.3}, 1, 2)
	var sq distribution.TanhNormal
	if err := sq.Set(tp, loc, scale); err != nil {
		fmt.Println(err)
		return
	}
	var pi distribution.Independent
	pi.Set(tp, &sq, 1) // one log-probability per state
	a := pi.RSample(rand.New(rand.NewPCG(1, 2)))
	logp := pi.LogProb(a)
	fmt.Println("action:", show(a))
	fmt.Println("log-prob:", show(logp))
	fmt.Println("deterministic action:", show(pi.Mode()))
	// Along the reparameterized path the Gaussian term does not depend on
	// loc; the correction's derivative is 2·tanh(u) = 2a.
	tp.Backward(tp.Sum(logp))
	fmt.Println("d log-prob / d loc:", show(tensor.MustFromSlice(loc.Grad())))
	// Output:
	// action: [0.371 -0.752]
	// log-prob: [0.966]
	// deterministic action: [0.197 -0.762]
	// d log-prob / d loc: [0.742 -1.504]
}
