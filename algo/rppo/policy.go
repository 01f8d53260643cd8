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
// from ([k, StateWidth] float32): stored with each transition at
// collection, it is the state a sequence of the update starts from.
const KeyStateIn = "state_in"

// Policy acts with a Net's trunks and actor: it reads the hidden state the
// collector keeps per env (zero at an episode's start), returns the next
// one under "state", and stores the state it acted from under
// "policy.state_in". Actions are sampled from the Categorical over the
// logits (Discrete) or the Gaussian (Box; with state-dependent noise under
// Config.SDE), or its mode with
// DeterministicEval while the training-step flag is off. It is a
// policy.Policy and a policy.ActionMapper (Box actions are mapped by a
// policy.BoxMap); acting with the arrays of the previous call allocates
// nothing.
type Policy struct {
	net           *Net
	space         env.Space
	disc          *env.Discrete // nil for a Box
	bmap          *policy.BoxMap
	m             int // Box dimensions
	rng           *rand.Rand
	deterministic bool
	training      bool

	tp      tensor.Tape
	x, h    *tensor.Tensor
	dist    distribution.Distribution
	pdata   *batch.Batch
	in, out *nd.Array // the state acted from and the next one, [k, StateWidth]
}

func newPolicy(net *Net, space env.Space, bmap *policy.BoxMap, rng *rand.Rand, deterministic bool) *Policy {
	p := &Policy{net: net, space: space, bmap: bmap, rng: rng, deterministic: deterministic, dist: net.newDist()}
	p.disc, _ = space.(*env.Discrete)
	if box, ok := space.(*env.Box); ok {
		p.m = box.Shape()[0]
	}
	p.tp.SetGradEnabled(false)
	return p
}

// Params returns the parameters the policy acts with (Net.ActorParams).
func (p *Policy) Params() nn.Params { return p.net.ActorParams() }

// ActionSpace returns the space the policy acts in.
func (p *Policy) ActionSpace() env.Space { return p.space }

// SetTrainingStep sets the training-step flag.
func (p *Policy) SetTrainingStep(on bool) { p.training = on }

// TrainingStep reports the training-step flag.
func (p *Policy) TrainingStep() bool { return p.training }

// Act writes "act", "state" and "policy.state_in" for the k observations
// under "obs" (an array [k, in]) and the hidden state state
// ([k, StateWidth], or nil for zeros). It returns an error wrapping
// policy.ErrObs for other observations or states, and the distribution's
// error for outputs that are not finite.
func (p *Policy) Act(dst, obs *batch.Batch, state any, explore bool) error {
	o, err := obs.Array(batch.KeyObs)
	hs, in := p.net.StateWidth(), p.net.In()
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
	h := p.net.Step(&p.tp, p.x, p.h)
	if err := p.net.SetDist(p.dist, &p.tp, p.net.ActorOut(&p.tp, h)); err != nil {
		return err
	}
	var a *tensor.Tensor
	if p.deterministic && !p.training {
		a = p.dist.Mode()
	} else {
		a = p.dist.Sample(p.rng)
	}
	if p.disc != nil {
		act := policy.DiscreteActTo(dst, k)
		start := p.disc.Start()
		for i, v := range a.Data() {
			act[i] = start + int64(v)
		}
	} else {
		copy(policy.BoxActTo(dst, k, p.m), a.Data())
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

// MapActionTo writes into env the env actions for the actions act: a copy
// for a Discrete space, the BoxMap's mapping for a Box.
func (p *Policy) MapActionTo(env, act *nd.Array) error {
	if p.bmap == nil {
		if err := nd.CopyTo(env, act); err != nil {
			return fmt.Errorf("%w: %w", policy.ErrAction, err)
		}
		return nil
	}
	return p.bmap.MapActionTo(env, act)
}

// UnmapActionTo writes into act the actions for the env actions env: a
// copy for a Discrete space, the BoxMap's inverse for a Box.
func (p *Policy) UnmapActionTo(act, env *nd.Array) error {
	if p.bmap == nil {
		if err := nd.CopyTo(act, env); err != nil {
			return fmt.Errorf("%w: %w", policy.ErrAction, err)
		}
		return nil
	}
	return p.bmap.UnmapActionTo(act, env)
}
