package cql

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/optim"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or an action space CQL does not support.
var ErrConfig = errors.New("cql: invalid configuration")

// Config holds CQL's hyperparameters. DefaultConfig returns the settings of
// Tianshou's Pendulum CQL test.
type Config struct {
	actorcritic.Continuous
	// Temperature sets SAC's entropy temperature α: tuned by default, from
	// log α₀ = 0.
	actorcritic.Temperature
	// TargetEntropy is the entropy AutoAlpha aims at; nil means −dim(A).
	TargetEntropy *float64 `json:"target_entropy"`
	// DeterministicEval makes the policy act with tanh of the mean when not
	// in a training step. Default true.
	DeterministicEval bool `json:"deterministic_eval"`

	// CQLWeight scales the conservative penalty, w > 0. Default 1.
	CQLWeight float64 `json:"cql_weight"`
	// CQLTemperature is the temperature T > 0 of the log-sum-exp,
	// T·log Σ exp(Q/T). Default 1.
	CQLTemperature float64 `json:"cql_temperature"`
	// NumRepeatActions is the number N ≥ 1 of actions drawn per
	// observation from each of the three proposals (uniform, the policy at
	// s, the policy at s′). Default 10.
	NumRepeatActions int `json:"num_repeat_actions"`
	// WithLagrange tunes the penalty's multiplier α′ by dual gradient
	// descent so that the weighted penalty stays near CQLTargetActionGap;
	// without it the penalty enters the loss as it is. Default true.
	WithLagrange bool `json:"with_lagrange"`
	// CQLTargetActionGap is the threshold τ of the Lagrangian form, the
	// gap between the log-sum-exp of the proposals' values and the data's
	// values that α′ aims at (Tianshou's lagrange_threshold). Default 10.
	CQLTargetActionGap float64 `json:"cql_target_action_gap"`
	// CQLAlphaOptim configures the Adam of log α′, which starts at 0.
	// Default lr 1e-3.
	CQLAlphaOptim optim.AdamConfig `json:"cql_alpha_optim"`
	// CQLAlphaMin and CQLAlphaMax bound α′ = exp(log α′). Default 0 and
	// 1e6.
	CQLAlphaMin float64 `json:"cql_alpha_min"`
	CQLAlphaMax float64 `json:"cql_alpha_max"`
}

// DefaultConfig returns Tianshou's Pendulum CQL test settings
// (test/offline/test_cql.py) with the defaults of its CQL: an actor with a
// state-dependent log σ and twin critics, all of 64-64, Adam with lr 1e-3
// for both, the critics' gradients clipped to a norm of 1, γ = 0.99, τ =
// 0.005, one-step returns, α tuned from log α₀ = 0 with lr 1e-3 towards
// −dim(A), w = 1, T = 1, N = 10, the Lagrangian form with τ = 10 and lr
// 1e-3, α′ in [0, 10⁶], and deterministic evaluation.
func DefaultConfig() Config {
	c := actorcritic.DefaultContinuous()
	c.ActorHidden, c.Critic.Hidden = []int{64, 64}, []int{64, 64}
	c.NStep = 1
	c.CriticOptim.MaxGradNorm = 1
	t := actorcritic.DefaultTemperature()
	t.AlphaOptim.LR = 1e-3
	a := optim.DefaultAdamConfig()
	a.LR = 1e-3
	return Config{Continuous: c, Temperature: t, DeterministicEval: true,
		CQLWeight: 1, CQLTemperature: 1, NumRepeatActions: 10,
		WithLagrange: true, CQLTargetActionGap: 10, CQLAlphaOptim: a, CQLAlphaMin: 0, CQLAlphaMax: 1e6}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	if err := c.Continuous.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := c.Temperature.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case c.TargetEntropy != nil && !finite(*c.TargetEntropy):
		return bad("target_entropy %v", *c.TargetEntropy)
	case !(c.CQLWeight > 0) || !finite(c.CQLWeight):
		return bad("cql_weight %v; want finite > 0", c.CQLWeight)
	case !(c.CQLTemperature > 0) || !finite(c.CQLTemperature):
		return bad("cql_temperature %v; want finite > 0", c.CQLTemperature)
	case c.NumRepeatActions < 1:
		return bad("num_repeat_actions %d < 1", c.NumRepeatActions)
	case !finite(c.CQLTargetActionGap):
		return bad("cql_target_action_gap %v", c.CQLTargetActionGap)
	case !(c.CQLAlphaMin >= 0) || !(c.CQLAlphaMax >= c.CQLAlphaMin) || !finite(c.CQLAlphaMax):
		return bad("cql_alpha_min %v, cql_alpha_max %v; want 0 ≤ min ≤ max, finite", c.CQLAlphaMin, c.CQLAlphaMax)
	}
	if err := c.CQLAlphaOptim.Validate(); err != nil {
		return bad("cql_alpha_optim: %v", err)
	}
	return nil
}
