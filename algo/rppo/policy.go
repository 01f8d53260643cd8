package rppo

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// KeyStateIn is the key, under "policy", of the hidden state a Policy acted
// from ([k, hidden] float32): stored with each transition at collection, it
// is the state a sequence of the update starts from.
const KeyStateIn = "state_in"

// Policy acts with a Net's GRU and actor: it reads the hidden state the
// collector keeps per env (zero at an episode's start), returns the next
// one under "state", and stores the state it acted from under
// "policy.state_in". Actions are sampled from the Categorical over the
// logits, or its mode with DeterministicEval while the training-step flag
// is off. It is a policy.Policy for a Discrete action space; acting with
// the arrays of the previous call allocates nothing.
type Policy struct {
	net           *Net
	space         *env.Discrete
	rng           *rand.Rand
	deterministic bool
	training      bool

	tp      tensor.Tape
	x, h    *tensor.Tensor
	dist    distribution.Categorical
	pdata   *batch.Batch
	in, out *nd.Array // the state acted from and the next one, [k, hidden]
}

func newPolicy(net *Net, space *env.Discrete, rng *rand.Rand, deterministic bool) *Policy {
	p := &Policy{net: net, space: space, rng: rng, deterministic: deterministic}
	p.tp.SetGradEnabled(false)
	return p
}

// Params returns the GRU's and the actor's parameters.
func (p *Policy) Params() nn.Params { return p.net.ActorParams() }

// ActionSpace returns the Discrete space the policy acts in.
func (p *Policy) ActionSpace() env.Space { return p.space }

// SetTrainingStep sets the training-step flag.
func (p *Policy) SetTrainingStep(on bool) { p.training = on }

// TrainingStep reports the training-step flag.
func (p *Policy) TrainingStep() bool { return p.training }

// Act writes "act", "state" and "policy.state_in" for the k observations
// under "obs" (an array [k, in]) and the hidden state state ([k, hidden],
// or nil for zeros). It returns an error wrapping policy.ErrObs for other
// observations or states, and the distribution's error for NaN logits.
func (p *Policy) Act(dst, obs *batch.Batch, state any, explore bool) error {
	o, err := obs.Array(batch.KeyObs)
	hs := p.net.GRU.WeightHH.Dim(1)
	in := p.net.GRU.WeightIH.Dim(1)
	if err != nil || o.Ndim() != 2 || o.Dim(1) != in {
		return fmt.Errorf("%w: rppo wants observations [k, %d]", policy.ErrObs, in)
	}
	k := o.Dim(0)
	if p.x == nil || p.x.Dim(0) != k {
		p.x, p.h = tensor.New(k, in), tensor.New(k, hs)
		p.in, p.out = p.h.ND(), nd.Zeros(nd.Float32, k, hs)
		p.pdata = &batch.Batch{}
	}
	if err := nd.CopyTo(p.x.ND(), o); err != nil {
		return fmt.Errorf("%w: %w", policy.ErrObs, err)
	}
	switch s := state.(type) {
	case nil:
		p.h.Fill(0)
	case *nd.Array:
		if s.Ndim() != 2 || s.Dim(0) != k || s.Dim(1) != hs {
			return fmt.Errorf("%w: a hidden state of shape %v; want [%d %d]", policy.ErrObs, s.Shape(), k, hs)
		}
		if err := nd.CopyTo(p.in, s); err != nil {
			return fmt.Errorf("%w: %w", policy.ErrObs, err)
		}
	default:
		return fmt.Errorf("%w: a hidden state of type %T", policy.ErrObs, state)
	}
	p.tp.Reset()
	h := p.net.GRU.Forward(&p.tp, p.x, p.h)
	if err := p.dist.SetLogits(&p.tp, p.net.Actor.Forward(&p.tp, h)); err != nil {
		return err
	}
	var a *tensor.Tensor
	if p.deterministic && !p.training {
		a = p.dist.Mode()
	} else {
		a = p.dist.Sample(p.rng)
	}
	act := policy.DiscreteActTo(dst, k)
	start := p.space.Start()
	for i, v := range a.Data() {
		act[i] = start + int64(v)
	}
	copy(nd.Data[float32](p.out), h.Data())
	if err := dst.Set(batch.KeyState, p.out); err != nil {
		return err
	}
	if err := p.pdata.Set(KeyStateIn, p.in); err != nil {
		return err
	}
	return dst.Set(batch.KeyPolicy, p.pdata)
}
