package npg

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/env"
)

// NPG is the natural policy gradient (Kakade, "A Natural Policy Gradient",
// 2001) with a GAE critic, as Tianshou trains it: on each minibatch the
// actor moves by ActorStepSize along (F + δI)⁻¹g, with g the gradient of
// the surrogate mean(π/π_old·Â) and F the Fisher information of the policy
// (the Hessian of the mean KL divergence), solved by the conjugate
// gradient; the critic takes CriticIters Adam steps. It is an
// algo.OnPolicy algorithm; its policy is a *policy.Actor (a Categorical
// over a Discrete action space, a Normal over a Box).
//
// NPG embeds actorcritic.Natural, which holds the update; Policy,
// Schedule, Postprocess, Save and Load come from there.
//
// An NPG is driven by one goroutine at a time.
type NPG struct {
	actorcritic.Natural
	cfg Config
}

// New returns an NPG for an env with the given spaces, with its actor and
// critic built from cfg.Net. The weights and the seeds of the random
// sources are drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, and
// actorcritic.ErrConfig for spaces the networks cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*NPG, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	net, err := actorcritic.NewNet(cfg.Net, obs, act, true, rng)
	if err != nil {
		return nil, err
	}
	return NewWithNet(cfg, net, act, rng)
}

// NewWithNet returns an NPG learning with net, which must have a critic
// apart from the actor and layers whose Fisher-vector product
// actorcritic.Natural knows, in the action space act it was made for;
// cfg.Net is ignored. The seeds of the random sources are drawn from rng.
//
// It returns an error wrapping ErrConfig for an invalid cfg or a net that
// does not fit.
func NewWithNet(cfg Config, net *actorcritic.Net, act env.Space, rng *rand.Rand) (*NPG, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	a := &NPG{cfg: cfg}
	if err := a.Init(cfg.NaturalConfig, actorcritic.NaturalStep{StepSize: cfg.ActorStepSize}, net, act, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return a, nil
}

// Config returns the configuration.
func (a *NPG) Config() Config { return a.cfg }
