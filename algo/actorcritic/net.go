package actorcritic

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// Net holds the networks of an on-policy algorithm: a trunk that reads the
// observations (a policy.Network, called with named inputs), an actor layer
// from the trunk's features to the input of the policy head (the logits of a
// policy.CategoricalHead, the mean of a NormalHead), and, for actor-critic
// algorithms, a critic layer from the features to the state value [k, 1].
//
// A shared trunk (Tianshou's actor and critic over one preprocess net) is
// computed once for both heads (DistValue); separate actor and critic
// networks sit behind a trunk that passes the observations on
// (policy.ObsNet{Layer: nn.Identity}).
//
// The forward methods record on the caller's tape and keep one distribution
// of the head's kind, reset by the next call. A Net is driven by one
// goroutine at a time; its ActorNetwork, which the policy acts with, may be
// called by another one (it keeps no state).
type Net struct {
	trunk  policy.Network
	actor  nn.Layer
	critic nn.Layer // nil without critic
	head   policy.Head
	out    int // width of the actor's output

	caller nn.Caller
	dist   distribution.Distribution
	mask   policy.Mask // applied to the logits of a Discrete action space
	masked bool        // whether act is Discrete
	ps     nn.Params
}

// NewNet builds the networks cfg describes for a Box observation space of
// one axis (or a masked observation space of one, env.NewMasked, whose
// networks read only the real observation) and a Discrete action space (a Categorical head over the logits)
// or a Box action space of one axis (a NormalHead over the mean), with a
// critic when critic is set. Weights are drawn from rng.
//
// NewNet returns an error wrapping ErrConfig for an invalid cfg and for
// spaces the networks cannot take.
func NewNet(cfg NetConfig, obs, act env.Space, critic bool, rng *rand.Rand) (*Net, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	box, ok := policy.NetSpace(obs).(*env.Box)
	if !ok || len(box.Shape()) != 1 {
		return nil, fmt.Errorf("%w: the MLP needs a Box observation space of one axis, not %v", ErrConfig, obs)
	}
	out, err := actionWidth(act)
	if err != nil {
		return nil, err
	}
	var head policy.Head = policy.CategoricalHead{}
	var sde *SDEHead
	if _, ok := act.(*env.Box); ok {
		head = NewNormalHead(out, float32(cfg.LogStdInit))
	} else if cfg.SDE {
		return nil, fmt.Errorf("%w: state-dependent exploration needs a Box action space, not %v", ErrConfig, act)
	}
	if cfg.SDE {
		// The actor ends at the last hidden layer, whose features the
		// head reads.
		sde = NewSDEHead(cfg.Hidden[len(cfg.Hidden)-1], out, float32(cfg.LogStdInit), cfg.SDESampleFreq, rng)
		head, out = sde, 0
	}
	in := box.Shape()[0]
	mlp := func(out int) (*nn.MLP, error) {
		m, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: cfg.Hidden, Out: out, Activation: cfg.Activation}, rng)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		return m, nil
	}
	var trunk policy.Network
	var actor, crit nn.Layer
	if cfg.Shared {
		body, err := mlp(0)
		if err != nil {
			return nil, err
		}
		trunk = policy.NewObsNet(body, obs)
		h := cfg.Hidden[len(cfg.Hidden)-1]
		actor = nn.Identity
		if sde == nil {
			actor = nn.NewLinear(h, out, rng)
		}
		if critic {
			crit = nn.NewLinear(h, 1, rng)
		}
	} else {
		trunk = policy.NewObsNet(nn.Identity, obs)
		a, err := mlp(out)
		if err != nil {
			return nil, err
		}
		actor = a
		if critic {
			c, err := mlp(1)
			if err != nil {
				return nil, err
			}
			crit = c
		}
	}
	if cfg.OrthogonalGain > 0 {
		layers := []nn.Module{trunk, actor}
		if crit != nil {
			layers = append(layers, crit)
		}
		if sde != nil {
			layers = append(layers, sde.Mean)
		}
		for _, l := range layers {
			for _, p := range l.Params() {
				if p.Tensor.NDim() >= 2 {
					p.Tensor.FillOrthogonal(rng, cfg.OrthogonalGain)
				} else {
					p.Tensor.Fill(0)
				}
			}
		}
	}
	return NewNetFrom(trunk, actor, crit, head, act)
}

// headWidth returns the width of the input of head in the action space
// act: the action width, or the features a head with InputWidth reads.
func headWidth(head policy.Head, act env.Space) (int, error) {
	w, err := actionWidth(act)
	if h, ok := head.(interface{ InputWidth() int }); ok && err == nil {
		w = h.InputWidth()
	}
	return w, err
}

// actionWidth returns the width of the actor's output for an action space:
// the number of actions of a Discrete space, the size of a Box of one axis.
func actionWidth(act env.Space) (int, error) {
	switch s := act.(type) {
	case *env.Discrete:
		return int(s.N()), nil
	case *env.Box:
		if len(s.Shape()) == 1 {
			return s.Shape()[0], nil
		}
	}
	return 0, fmt.Errorf("%w: the actor needs a Discrete action space or a Box of one axis, not %v", ErrConfig, act)
}

// NewNetFrom returns a Net of the user's own layers: trunk reads the
// observations, actor maps its features to the head's input of one row per
// observation ([k, n] logits for the n actions of a Discrete act, [k, m] for
// a Box of m dimensions), critic (nil for none) maps them to values [k, 1],
// and head turns the actor's output into the action distribution
// (policy.CategoricalHead for a Discrete space, a NormalHead for a Box).
// Sharing layers between actor and critic other than through the trunk
// would make Params list their tensors twice.
//
// NewNetFrom returns an error wrapping ErrConfig for a nil trunk, actor or
// head, or an action space the actor cannot serve.
func NewNetFrom(trunk policy.Network, actor, critic nn.Layer, head policy.Head, act env.Space) (*Net, error) {
	if trunk == nil || actor == nil || head == nil {
		return nil, fmt.Errorf("%w: a Net needs a trunk, an actor and a head", ErrConfig)
	}
	out, err := headWidth(head, act)
	if err != nil {
		return nil, err
	}
	n := &Net{trunk: trunk, actor: actor, critic: critic, head: head, out: out}
	_, n.masked = act.(*env.Discrete)
	n.ps = n.ActorParams()
	if critic != nil {
		n.ps = append(n.ps, critic.Params().Prefixed("critic")...)
	}
	if m, ok := head.(nn.Module); ok {
		n.ps = append(n.ps, m.Params().Prefixed("head")...)
	}
	return n, nil
}

// Params returns every parameter: the trunk's (prefixed "trunk"), the
// actor's ("actor"), the critic's ("critic") and the head's ("head"), the
// tensors an optimizer trains and a saved state holds. It returns the same
// slice every call.
func (n *Net) Params() nn.Params { return n.ps }

// ActorParams returns a new list of the trunk's and the actor's parameters
// (prefixed "trunk" and "actor"): the network the policy acts with.
func (n *Net) ActorParams() nn.Params {
	return append(n.trunk.Params().Prefixed("trunk"), n.actor.Params().Prefixed("actor")...)
}

// CriticParams returns a new list of the critic's parameters (prefixed
// "critic"), empty without a critic: what an algorithm that trains the
// critic apart from the actor (NPG, TRPO) gives the critic's optimizer.
func (n *Net) CriticParams() nn.Params {
	if n.critic == nil {
		return nil
	}
	return n.critic.Params().Prefixed("critic")
}

// Head returns the policy head.
func (n *Net) Head() policy.Head { return n.head }

// HasCritic reports whether the Net has a critic.
func (n *Net) HasCritic() bool { return n.critic != nil }

// ActorNetwork returns the policy's network: the trunk followed by the actor
// layer, with the trunk's inputs and ActorParams as its parameters.
func (n *Net) ActorNetwork() policy.Network {
	return actorNet{trunk: n.trunk, actor: n.actor, ps: n.ActorParams()}
}

// actorNet is the trunk followed by the actor layer.
type actorNet struct {
	trunk policy.Network
	actor nn.Layer
	ps    nn.Params
}

func (a actorNet) Inputs() []string  { return a.trunk.Inputs() }
func (a actorNet) Params() nn.Params { return a.ps }
func (a actorNet) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	return a.actor.Forward(tp, a.trunk.Call(tp, in))
}

// Dist records on tp the action distribution for the observations in obs
// (the inputs the trunk names, looked up as nn.Caller does), so that
// gradients flow to the trunk, the actor and the head. For a Discrete
// action space, the action masks of obs (policy.Mask) forbid actions as the
// policy does when acting. The distribution is memory of the Net, reset by
// the next call of Dist or DistValue.
//
// Dist returns an error for observations the trunk cannot take, an actor
// output that does not fit the action space (wrapping ErrConfig), and the
// head's errors (a distribution with NaN parameters: a diverged network).
func (n *Net) Dist(tp *tensor.Tape, obs *batch.Batch) (distribution.Distribution, error) {
	f, err := n.features(tp, obs)
	if err != nil {
		return nil, err
	}
	return n.setDist(tp, f, obs)
}

// Value records on tp the critic's values [k] of the k observations in obs.
// It returns an error for observations the trunk cannot take, and one
// wrapping ErrConfig without a critic or for a critic output other than
// [k, 1].
func (n *Net) Value(tp *tensor.Tape, obs *batch.Batch) (*tensor.Tensor, error) {
	f, err := n.features(tp, obs)
	if err != nil {
		return nil, err
	}
	return n.value(tp, f)
}

// DistValue records both, from one pass of the trunk, with Dist's and
// Value's errors.
func (n *Net) DistValue(tp *tensor.Tape, obs *batch.Batch) (distribution.Distribution, *tensor.Tensor, error) {
	f, err := n.features(tp, obs)
	if err != nil {
		return nil, nil, err
	}
	v, err := n.value(tp, f)
	if err != nil {
		return nil, nil, err
	}
	d, err := n.setDist(tp, f, obs)
	if err != nil {
		return nil, nil, err
	}
	return d, v, nil
}

func (n *Net) features(tp *tensor.Tape, obs *batch.Batch) (*tensor.Tensor, error) {
	f, err := n.caller.Call(tp, n.trunk, obs)
	if err != nil {
		return nil, fmt.Errorf("actorcritic: trunk: %w", err)
	}
	if f.NDim() < 1 {
		return nil, fmt.Errorf("%w: trunk output of shape %v has no batch axis", ErrConfig, f.Shape())
	}
	return f, nil
}

func (n *Net) setDist(tp *tensor.Tape, f *tensor.Tensor, obs *batch.Batch) (distribution.Distribution, error) {
	out := n.actor.Forward(tp, f)
	if out.NDim() != 2 || out.Dim(0) != f.Dim(0) || out.Dim(1) != n.out {
		return nil, fmt.Errorf("%w: actor output of shape %v for %d observations; want [%d %d]", ErrConfig, out.Shape(), f.Dim(0), f.Dim(0), n.out)
	}
	if n.masked {
		var err error
		if out, err = n.mask.Logits(tp, out, obs); err != nil {
			return nil, fmt.Errorf("actorcritic: action mask: %w", err)
		}
	}
	if n.dist == nil {
		n.dist = n.head.New()
	}
	if err := n.head.Set(n.dist, tp, out); err != nil {
		return nil, fmt.Errorf("actorcritic: action distribution: %w", err)
	}
	return n.dist, nil
}

func (n *Net) value(tp *tensor.Tape, f *tensor.Tensor) (*tensor.Tensor, error) {
	if n.critic == nil {
		return nil, fmt.Errorf("%w: the Net has no critic", ErrConfig)
	}
	v := n.critic.Forward(tp, f)
	if v.NDim() != 2 || v.Dim(0) != f.Dim(0) || v.Dim(1) != 1 {
		return nil, fmt.Errorf("%w: critic output of shape %v for %d observations; want [%d 1]", ErrConfig, v.Shape(), f.Dim(0), f.Dim(0))
	}
	return tp.Squeeze(v, 1), nil
}
