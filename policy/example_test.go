package policy_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// A Q policy acts greedily on the Q-values of its network; with explore it
// takes a random action with probability ε (εTrain while the training-step
// flag is on).
func ExampleQ() {
	// Q(s) = (s₀, s₁): the greedy action is the larger coordinate.
	net := policy.ObsNet{Layer: &nn.Linear{Weight: tensor.MustFromSlice([]float32{1, 0, 0, 1}, 2, 2)}}
	space, _ := env.NewDiscrete(2, 0)
	q, err := policy.NewQ(net, space, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	q.SetEps(0.1, 0.05)
	obs := batch.MustNew("obs", nd.MustNew([][]float32{{1, 0}, {0, 1}, {3, 2}}))
	var out batch.Batch
	if err := q.Act(&out, obs, nil, false); err != nil {
		panic(err)
	}
	fmt.Println(out.Get("act"))
	// Output: array([0, 1, 0]) true
}

// A policy written outside this package gets the array its actions go to
// from DiscreteActTo (or BoxActTo): the first call stores a new one under
// "act", later calls with the same k reuse it.
func ExampleDiscreteActTo() {
	var dst batch.Batch
	act := policy.DiscreteActTo(&dst, 3)
	for i := range act {
		act[i] = int64(2 - i)
	}
	fmt.Println(dst.Get("act"))
	// Output: array([2, 1, 0]) true
}

// ComputeAction acts on one observation (Tianshou's compute_action).
func ExampleComputeAction() {
	net := policy.ObsNet{Layer: &nn.Linear{Weight: tensor.MustFromSlice([]float32{1, 0, 0, 1}, 2, 2)}}
	space, _ := env.NewDiscrete(2, 0)
	q, _ := policy.NewQ(net, space, rand.New(rand.NewPCG(1, 2)))
	act, err := policy.ComputeAction(q, nd.MustNew([]float32{0.2, 0.7}))
	fmt.Println(act, err)
	// Output: array(1) <nil>
}

// An Actor samples from the distribution its network parameterizes while
// training, and takes the most likely action when evaluating with
// DeterministicEval.
func ExampleActor() {
	// Logits (0, 2) for every observation (a constant bias).
	net := policy.ObsNet{Layer: &nn.Linear{
		Weight: tensor.MustFromSlice([]float32{0, 0}, 2, 1),
		Bias:   tensor.MustFromSlice([]float32{0, 2}, 2),
	}}
	space, _ := env.NewDiscrete(2, 0)
	actor, err := policy.NewActor(net, policy.CategoricalHead{}, space, rand.New(rand.NewPCG(1, 2)),
		policy.ActorConfig{DeterministicEval: true})
	if err != nil {
		panic(err)
	}
	obs := batch.MustNew("obs", nd.Zeros(nd.Float32, 1000, 1))
	var out batch.Batch
	actor.SetTrainingStep(true)
	actor.Act(&out, obs, nil, true)
	a, _ := out.Array("act")
	sum, _ := nd.Sum(a)
	fmt.Printf("sampled action 1 in %v of 1000 rows (p = %.3f)\n", sum.Item(), 1/(1+1/7.389056))
	actor.SetTrainingStep(false)
	actor.Act(&out, obs.Index(nd.Range(0, 3)), nil, false)
	fmt.Println(out.Get("act"))
	// Output:
	// sampled action 1 in 886 of 1000 rows (p = 0.881)
	// array([1, 1, 1]) true
}

// A BoxMap turns actions in [−1, 1] into the env's bounds.
func ExampleBoxMap() {
	box, _ := env.NewBox(-2.0, 2.0, []int{1}, nd.Float32)
	m, _ := policy.NewBoxMap(box, policy.BoxMapConfig{Bound: policy.Clip, Scale: true})
	envAct := nd.Zeros(nd.Float32, 3, 1)
	m.MapActionTo(envAct, nd.MustNew([][]float32{{-1.5}, {0.25}, {1}}))
	fmt.Println(envAct)
	// Output: array([[-2. ],
	//        [ 0.5],
	//        [ 2. ]], dtype=float32)
}
