package policy

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// Head turns a network's output into a distribution over actions: the
// last layer of a stochastic policy. A head may own parameters (a
// state-independent log standard deviation); it then also implements
// nn.Module and the policy's Params include them.
type Head interface {
	// New returns an empty distribution of the head's kind, for Set to
	// fill and refill (distributions are reused values).
	New() distribution.Distribution
	// Set sets d, made by New, to the distribution that out, the network's
	// output for k observations recorded on tp, parameterizes; its batch
	// shape is [k]. It returns the distribution's errors (NaN parameters:
	// a diverged network).
	Set(d distribution.Distribution, tp *tensor.Tape, out *tensor.Tensor) error
}

// CategoricalHead reads the network's output [k, n] as the logits of a
// Categorical distribution over n discrete actions.
type CategoricalHead struct{}

// New returns an empty *distribution.Categorical.
func (CategoricalHead) New() distribution.Distribution { return new(distribution.Categorical) }

// Set sets d, a *distribution.Categorical, to softmax(out) along the last
// axis. It panics if d is another type (a programmer error).
func (CategoricalHead) Set(d distribution.Distribution, tp *tensor.Tape, out *tensor.Tensor) error {
	return d.(*distribution.Categorical).SetLogits(tp, out)
}

// ActorConfig configures an Actor. The zero value samples in every mode
// and does not map actions.
type ActorConfig struct {
	// DeterministicEval makes the policy act with the distribution's mode
	// (argmax for a Categorical) while the training-step flag is off, as
	// Tianshou's deterministic_eval does; it samples otherwise. Default
	// false: always sample.
	DeterministicEval bool `json:"deterministic_eval"`
	// Map maps the actions of a Box action space to the env's (clipping,
	// rescaling); ignored for Discrete spaces.
	Map BoxMapConfig `json:"map"`
	// Noise is exploration noise added to the sampled actions of a Box
	// action space while collecting training data (explore and the
	// training-step flag both on), as Tianshou's exploration_noise of SAC
	// and REDQ; a Discrete space refuses it. Default none. The algorithms
	// that offer it carry it in their own configuration, so it is not part
	// of this one's JSON.
	Noise NoiseConfig `json:"-"`
}

// Actor is a stochastic policy: its network's output parameterizes a
// distribution (through a Head) from which it samples actions, or takes the
// most likely one when evaluating deterministically (Tianshou's
// ProbabilisticActorPolicy, the actor of PG, A2C and PPO). Discrete action
// spaces give int64 actions [k] (category plus the space's start); Box
// spaces of shape [m] give float32 actions [k, m], mapped to the env's bounds
// by MapActionTo. Explore adds nothing: sampling is the exploration.
//
// Learners compute the distribution of a training batch with Dist, on their
// own tape, so that gradients flow to the network.
//
// For a Discrete space, observations with action masks (see Mask) set the
// logits of forbidden actions to −Inf, in Act and in Dist: those actions
// are never sampled, get no gradient, and the entropy covers the allowed
// ones only.
type Actor struct {
	net   Network
	head  Head
	space env.Space
	disc  *env.Discrete // nil for a Box
	m     int           // action size of a Box
	bmap  *BoxMap
	noise Noise
	cfg   ActorConfig
	rng   *rand.Rand

	training bool
	tp       tensor.Tape
	caller   nn.Caller
	dist     distribution.Distribution
	ps       nn.Params

	learnCaller nn.Caller
	learnDist   distribution.Distribution
	mask        Mask // for Act
	learnMask   Mask // for Dist
}

// NewActor returns an Actor acting with net and head in space (a
// *env.Discrete, or a *env.Box of one axis), drawing samples from rng.
// It returns an error wrapping ErrConfig for another space, a nil rng, or a
// mapping the Box does not allow.
func NewActor(net Network, head Head, space env.Space, rng *rand.Rand, cfg ActorConfig) (*Actor, error) {
	if rng == nil {
		return nil, fmt.Errorf("%w: no random source", ErrConfig)
	}
	p := &Actor{net: net, head: head, space: space, cfg: cfg, rng: rng, dist: head.New(), learnDist: head.New()}
	switch s := space.(type) {
	case *env.Discrete:
		p.disc = s
		if cfg.Noise.Kind != NoNoise {
			return nil, fmt.Errorf("%w: exploration noise %q on a Discrete action space", ErrConfig, cfg.Noise.Kind)
		}
	case *env.Box:
		if len(s.Shape()) != 1 {
			return nil, fmt.Errorf("%w: an Actor needs a Box of one axis, not %v", ErrConfig, space)
		}
		p.m = s.Shape()[0]
		bm, err := NewBoxMap(s, cfg.Map)
		if err != nil {
			return nil, err
		}
		p.bmap = bm
		if p.noise, err = NewNoise(cfg.Noise); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%w: an Actor needs a Discrete or Box action space, not %v", ErrConfig, space)
	}
	p.ps = net.Params()
	if m, ok := head.(nn.Module); ok {
		p.ps = append(p.ps[:len(p.ps):len(p.ps)], m.Params().Prefixed("head")...)
	}
	p.tp.SetGradEnabled(false)
	return p, nil
}

// Params returns the network's parameters, followed by the head's (prefixed
// "head") if it has any.
func (p *Actor) Params() nn.Params { return p.ps }

// ActionSpace returns the action space.
func (p *Actor) ActionSpace() env.Space { return p.space }

// SetTrainingStep sets the training-step flag: with DeterministicEval the
// policy samples only while it is on.
func (p *Actor) SetTrainingStep(on bool) { p.training = on }

// TrainingStep reports the training-step flag.
func (p *Actor) TrainingStep() bool { return p.training }

// Noise returns the exploration noise, nil for none.
func (p *Actor) Noise() Noise { return p.noise }

// Head returns the head.
func (p *Actor) Head() Head { return p.head }

// Dist returns the action distribution for the observations in obs
// ("obs", and whatever inputs the network names), recorded on tp so that
// gradients flow to the network (and the head's parameters): what a learner
// needs for log-probabilities and entropies of a training batch. The
// distribution is memory of the Actor, reset by the next Dist call; Act
// uses other memory.
//
// Dist returns an error wrapping ErrObs if the network cannot take obs,
// and the head's errors.
func (p *Actor) Dist(tp *tensor.Tape, obs *batch.Batch) (distribution.Distribution, error) {
	out, err := p.learnCaller.Call(tp, p.net, obs)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrObs, err)
	}
	if p.disc != nil {
		if out, err = p.learnMask.Logits(tp, out, obs); err != nil {
			return nil, err
		}
	}
	if err := p.head.Set(p.learnDist, tp, out); err != nil {
		return nil, err
	}
	return p.learnDist, nil
}

// Act writes under "act" the actions for the observations in obs: samples
// of the distribution, or its mode when DeterministicEval is set and the
// training-step flag is off, with the exploration noise of a Box space
// added when explore and the training-step flag are on (a stateful noise
// keeps its state in state and "state", as Deterministic's). It does not
// allocate when dst, obs and their arrays are those of the previous call.
//
// Act returns an error wrapping ErrObs if the network cannot take obs,
// ErrConfig if the distribution does not fit the action space, and the
// head's errors.
func (p *Actor) Act(dst, obs *batch.Batch, state any, explore bool) error {
	p.tp.Reset()
	out, err := p.caller.Call(&p.tp, p.net, obs)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrObs, err)
	}
	if p.disc != nil {
		if out, err = p.mask.Logits(&p.tp, out, obs); err != nil {
			return err
		}
	}
	if err := p.head.Set(p.dist, &p.tp, out); err != nil {
		return err
	}
	var a *tensor.Tensor
	if p.cfg.DeterministicEval && !p.training {
		a = p.dist.Mode()
	} else {
		a = p.dist.Sample(p.rng)
	}
	vals := a.Data()
	if p.disc != nil {
		if a.NDim() != 1 {
			return fmt.Errorf("%w: actions of shape %v for a Discrete space", ErrConfig, a.Shape())
		}
		act := DiscreteActTo(dst, a.Dim(0))
		start := p.disc.Start()
		for i, v := range vals {
			act[i] = start + int64(v)
		}
		return nil
	}
	if a.NDim() != 2 || a.Dim(1) != p.m {
		return fmt.Errorf("%w: actions of shape %v for a Box of %d", ErrConfig, a.Shape(), p.m)
	}
	act := BoxActTo(dst, a.Dim(0), p.m)
	copy(act, vals)
	if !explore || !p.training || p.noise == nil {
		return nil
	}
	return addNoise(dst, act, state, a.Dim(0), p.m, p.noise, p.rng)
}

// MapActionTo writes into env the env actions for the actions act: a copy
// for a Discrete space, BoxMap's mapping for a Box.
func (p *Actor) MapActionTo(env, act *nd.Array) error {
	if p.bmap == nil {
		if err := nd.CopyTo(env, act); err != nil {
			return fmt.Errorf("%w: %w", ErrAction, err)
		}
		return nil
	}
	return p.bmap.MapActionTo(env, act)
}

// UnmapActionTo writes into act the actions for the env actions env: a
// copy for a Discrete space, BoxMap's inverse for a Box.
func (p *Actor) UnmapActionTo(act, env *nd.Array) error {
	if p.bmap == nil {
		if err := nd.CopyTo(act, env); err != nil {
			return fmt.Errorf("%w: %w", ErrAction, err)
		}
		return nil
	}
	return p.bmap.UnmapActionTo(act, env)
}
