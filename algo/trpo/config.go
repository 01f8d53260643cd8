package trpo

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration.
var ErrConfig = errors.New("trpo: invalid configuration")

// Config holds the hyperparameters of TRPO: the natural-gradient settings
// it shares with NPG (embedded, so their fields sit at the top level of
// the JSON) and those of the line search. DefaultConfig returns the
// settings for a Discrete action space, ContinuousConfig those of
// Tianshou's Pendulum test.
type Config struct {
	actorcritic.NaturalConfig
	// MaxKL bounds the mean KL divergence of a step from the policy that
	// collected the data, > 0. Default 0.005 (Tianshou's test; its class
	// default is 0.01).
	MaxKL float64 `json:"max_kl"`
	// BacktrackCoeff shrinks the step after each rejected try, in (0, 1).
	// Default 0.8.
	BacktrackCoeff float64 `json:"backtrack_coeff"`
	// MaxBacktracks is the number of tries, ≥ 1. Default 10.
	MaxBacktracks int `json:"max_backtracks"`
}

// ContinuousConfig returns the settings of Tianshou's Pendulum TRPO test
// (test/continuous/test_trpo.py): separate actor and critic MLPs with two
// hidden layers of 64 and tanh, orthogonal weights (gain 1) and zero
// biases, a Normal head with a state-independent σ starting at 1, the
// critic's Adam with lr 1e-3 and 5 steps per minibatch, γ = 0.95, λ =
// 0.95, return scaling and advantage normalization, max KL 0.005,
// backtracking by 0.8 up to 10 times, and Tianshou's damping 0.1 and 10
// conjugate-gradient steps; actions clipped to [−1, 1] and scaled to the
// Box, deterministic evaluation.
func ContinuousConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 1e-3
	return Config{
		NaturalConfig: actorcritic.NaturalConfig{
			OnPolicy: actorcritic.OnPolicy{
				Net:           actorcritic.NetConfig{Hidden: []int{64, 64}, Activation: nn.Tanh, OrthogonalGain: 1},
				Policy:        actorcritic.DefaultPolicy(),
				Gamma:         0.95,
				GAELambda:     0.95,
				ReturnScaling: true,
				Training:      actorcritic.Training{Optim: o},
			},
			AdvantageNormalization: true,
			CriticIters:            5,
			Damping:                0.1,
			CGSteps:                10,
		},
		MaxKL:          0.005,
		BacktrackCoeff: 0.8,
		MaxBacktracks:  10,
	}
}

// DefaultConfig returns ContinuousConfig with γ = 0.99: Tianshou has no
// TRPO test for a Discrete action space, and CartPole's 500-step episodes
// want the longer horizon; a Categorical head stands in for the Normal.
func DefaultConfig() Config {
	c := ContinuousConfig()
	c.Gamma = 0.99
	return c
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	if err := c.NaturalConfig.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	switch {
	case !(c.MaxKL > 0) || math.IsInf(c.MaxKL, 0):
		return fmt.Errorf("%w: max_kl %v; want finite > 0", ErrConfig, c.MaxKL)
	case !(c.BacktrackCoeff > 0 && c.BacktrackCoeff < 1):
		return fmt.Errorf("%w: backtrack_coeff %v outside (0, 1)", ErrConfig, c.BacktrackCoeff)
	case c.MaxBacktracks < 1:
		return fmt.Errorf("%w: max_backtracks %d < 1", ErrConfig, c.MaxBacktracks)
	}
	return nil
}
