package trpo

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/env"
)

// TRPO is trust region policy optimization (Schulman et al., "Trust
// Region Policy Optimization", 2015) with a GAE critic, as Tianshou trains
// it: NPG's natural direction x = (F + δI)⁻¹g, scaled to the step s·x with
// s = √(2·MaxKL / xᵀ(F + δI)x), then shortened by BacktrackCoeff until the
// mean KL divergence from the old policy is below MaxKL and the surrogate
// loss is below the old one, at most MaxBacktracks tries; when none
// passes, the actor stays where it was. The critic takes CriticIters Adam
// steps per minibatch. It is an algo.OnPolicy algorithm; its policy is a
// *policy.Actor (a Categorical over a Discrete action space, a Normal over
// a Box).
//
// TRPO embeds actorcritic.Natural, which holds the update NPG shares;
// Policy, Schedule, Postprocess, Save and Load come from there.
//
// A TRPO is driven by one goroutine at a time.
type TRPO struct {
	actorcritic.Natural
	cfg Config
}

// New returns a TRPO for an env with the given spaces, with its actor and
// critic built from cfg.Net. The weights and the seeds of the random
// sources are drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, and
// actorcritic.ErrConfig for spaces the networks cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*TRPO, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	net, err := actorcritic.NewNet(cfg.Net, obs, act, true, rng)
	if err != nil {
		return nil, err
	}
	return NewWithNet(cfg, net, act, rng)
}

// NewWithNet returns a TRPO learning with net, which must have a critic
// apart from the actor and layers whose Fisher-vector product
// actorcritic.Natural knows, in the action space act it was made for;
// cfg.Net is ignored. The seeds of the random sources are drawn from rng.
//
// It returns an error wrapping ErrConfig for an invalid cfg or a net that
// does not fit.
func NewWithNet(cfg Config, net *actorcritic.Net, act env.Space, rng *rand.Rand) (*TRPO, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	a := &TRPO{cfg: cfg}
	st := actorcritic.NaturalStep{MaxKL: cfg.MaxKL, BacktrackCoeff: cfg.BacktrackCoeff, MaxBacktracks: cfg.MaxBacktracks}
	if err := a.Init(cfg.NaturalConfig, st, net, act, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return a, nil
}

// Config returns the configuration.
func (a *TRPO) Config() Config { return a.cfg }
