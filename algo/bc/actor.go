package bc

import (
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// actor is the policy behaviour cloning trains, Tianshou's ImitationPolicy:
// for a Discrete space the action of largest logit, for a Box the network's
// output, mapped to the env's bounds by MapActionTo. It never samples and
// adds no exploration noise, so the training-step flag and explore change
// nothing.
type actor struct {
	net   policy.Network
	space env.Space
	disc  *env.Discrete // nil for a Box
	out   int           // network outputs per observation: actions or action size
	bmap  *policy.BoxMap
	ps    nn.Params

	training bool
	tp       tensor.Tape
	caller   nn.Caller
	argmax   []int
}

func newActor(net policy.Network, space env.Space, m policy.BoxMapConfig) (*actor, error) {
	a := &actor{net: net, space: space, ps: net.Params()}
	switch s := space.(type) {
	case *env.Discrete:
		a.disc, a.out = s, int(s.N())
	case *env.Box:
		if len(s.Shape()) != 1 {
			return nil, fmt.Errorf("%w: a Box action space of one axis, not %v", ErrConfig, space)
		}
		a.out = s.Shape()[0]
		bm, err := policy.NewBoxMap(s, m)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		a.bmap = bm
	default:
		return nil, fmt.Errorf("%w: behaviour cloning needs a Discrete or Box action space, not %v", ErrConfig, space)
	}
	a.tp.SetGradEnabled(false)
	return a, nil
}

// Params returns the network's parameters.
func (a *actor) Params() nn.Params { return a.ps }

// ActionSpace returns the action space.
func (a *actor) ActionSpace() env.Space { return a.space }

// SetTrainingStep sets the training-step flag, which changes nothing: the
// policy is deterministic.
func (a *actor) SetTrainingStep(on bool) { a.training = on }

// TrainingStep reports the training-step flag.
func (a *actor) TrainingStep() bool { return a.training }

// Act writes under "act" the actions for the observations in obs: int64 [k]
// (the largest logit's action, ties to the first) for a Discrete space,
// float32 [k, m] (the network's output) for a Box. It ignores state and
// explore and does not allocate when dst, obs and their arrays are those of
// the previous call.
//
// Act returns an error wrapping policy.ErrObs if the network cannot take
// obs, and policy.ErrConfig if its output is not [k, outputs].
func (a *actor) Act(dst, obs *batch.Batch, state any, explore bool) error {
	a.tp.Reset()
	out, err := a.caller.Call(&a.tp, a.net, obs)
	if err != nil {
		return fmt.Errorf("%w: %w", policy.ErrObs, err)
	}
	if out.NDim() != 2 || out.Dim(1) != a.out {
		return fmt.Errorf("%w: network output of shape %v for %d outputs", policy.ErrConfig, out.Shape(), a.out)
	}
	k := out.Dim(0)
	if a.disc == nil {
		copy(policy.BoxActTo(dst, k, a.out), out.Data())
		return nil
	}
	act := policy.DiscreteActTo(dst, k)
	if cap(a.argmax) < k {
		a.argmax = make([]int, k)
	}
	a.argmax = tensor.ArgMaxTo(a.argmax[:k], out, 1)
	start := a.disc.Start()
	for i, j := range a.argmax {
		act[i] = start + int64(j)
	}
	return nil
}

// MapActionTo writes into env the env actions for the actions act: a copy
// for a Discrete space, the Map of the Config for a Box.
func (a *actor) MapActionTo(env, act *nd.Array) error {
	if a.bmap == nil {
		if err := nd.CopyTo(env, act); err != nil {
			return fmt.Errorf("%w: %w", policy.ErrAction, err)
		}
		return nil
	}
	return a.bmap.MapActionTo(env, act)
}

// UnmapActionTo writes into act the policy actions for the env actions env,
// the inverse of MapActionTo.
func (a *actor) UnmapActionTo(act, env *nd.Array) error {
	if a.bmap == nil {
		if err := nd.CopyTo(act, env); err != nil {
			return fmt.Errorf("%w: %w", policy.ErrAction, err)
		}
		return nil
	}
	return a.bmap.UnmapActionTo(act, env)
}
