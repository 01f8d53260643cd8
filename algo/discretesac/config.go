package discretesac

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or a space discrete SAC does not support.
var ErrConfig = errors.New("discretesac: invalid configuration")

// Config holds discrete SAC's hyperparameters. DefaultConfig returns the
// settings of Tianshou's CartPole discrete SAC test.
type Config struct {
	// ActorHidden and CriticHidden list the hidden layer sizes (ReLU) of
	// the actor, an MLP to the logits of the actions, and of each critic,
	// an MLP to the values Q(s, ·) of all actions; each at least 1.
	ActorHidden  []int `json:"actor_hidden"`
	CriticHidden []int `json:"critic_hidden"`
	// Gamma is the discount factor γ in [0, 1].
	Gamma float64 `json:"gamma"`
	// Tau is the Polyak coefficient τ in (0, 1] of the target critics'
	// updates, θ′ ← τθ + (1 − τ)θ′ (1 copies).
	Tau float64 `json:"tau"`
	// NStep is the number of steps of the returns (algo.NStep), at least 1.
	NStep int `json:"n_step"`
	// ActorOptim and CriticOptim configure the actor's and the critics'
	// Adam.
	ActorOptim  actorcritic.Training `json:"actor_optim"`
	CriticOptim actorcritic.Training `json:"critic_optim"`
	// Temperature sets α: fixed at 0.05 by default, as Tianshou's test
	// (which finds automatic tuning worse on CartPole).
	actorcritic.Temperature
	// TargetEntropyRatio sets the entropy AutoAlpha aims at to
	// TargetEntropyRatio·log|A|, a fraction of the uniform policy's
	// entropy, in (0, 1]. Default 0.98, Tianshou's.
	TargetEntropyRatio float64 `json:"target_entropy_ratio"`
	// DeterministicEval makes the policy act with the most probable action
	// when not collecting training data. Default true.
	DeterministicEval bool `json:"deterministic_eval"`
	// Hold and HoldEps add temporally extended random actions to the
	// training collection (εz-greedy, policy.HoldConfig): an env that holds
	// no random action starts one with probability HoldEps in [0, 1],
	// keeps it for a duration drawn from a zeta distribution, and
	// otherwise samples the actor. Default off.
	Hold    policy.HoldConfig `json:"ez_greedy"`
	HoldEps float64           `json:"ez_eps"`
}

// DefaultConfig returns Tianshou's CartPole discrete SAC test settings
// (test/discrete/test_discrete_sac.py): an actor and twin critics of 64-64,
// Adam with lr 1e-4 for the actor and 1e-3 for the critics, γ = 0.95, τ =
// 0.005, 3-step returns, a fixed α = 0.05 (Adam lr 3e-4 and a target of
// 0.98·log|A| when tuned), and deterministic evaluation.
func DefaultConfig() Config {
	adam := func(lr float64) actorcritic.Training {
		o := optim.DefaultAdamConfig()
		o.LR = lr
		return actorcritic.Training{Optim: o}
	}
	t := actorcritic.DefaultTemperature()
	t.Alpha, t.AutoAlpha = 0.05, false
	return Config{ActorHidden: []int{64, 64}, CriticHidden: []int{64, 64}, Gamma: 0.95, Tau: 0.005, NStep: 3,
		ActorOptim: adam(1e-4), CriticOptim: adam(1e-3), Temperature: t, TargetEntropyRatio: 0.98,
		DeterministicEval: true}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
	}
	switch {
	case len(c.ActorHidden) == 0:
		return bad("actor_hidden is empty")
	case len(c.CriticHidden) == 0:
		return bad("critic_hidden is empty")
	case !(c.Gamma >= 0 && c.Gamma <= 1):
		return bad("gamma %v outside [0, 1]", c.Gamma)
	case !(c.Tau > 0 && c.Tau <= 1):
		return bad("tau %v outside (0, 1]", c.Tau)
	case c.NStep < 1:
		return bad("n_step %d < 1", c.NStep)
	case !(c.TargetEntropyRatio > 0 && c.TargetEntropyRatio <= 1) || math.IsNaN(c.TargetEntropyRatio):
		return bad("target_entropy_ratio %v outside (0, 1]", c.TargetEntropyRatio)
	case !(c.HoldEps >= 0 && c.HoldEps <= 1):
		return bad("ez_eps %v outside [0, 1]", c.HoldEps)
	}
	if err := c.Hold.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	for _, h := range append(c.ActorHidden[:len(c.ActorHidden):len(c.ActorHidden)], c.CriticHidden...) {
		if h < 1 {
			return bad("hidden sizes %v and %v", c.ActorHidden, c.CriticHidden)
		}
	}
	if err := c.ActorOptim.Validate(); err != nil {
		return bad("actor_optim: %v", err)
	}
	if err := c.CriticOptim.Validate(); err != nil {
		return bad("critic_optim: %v", err)
	}
	if err := c.Temperature.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}
