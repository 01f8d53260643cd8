package npg

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
var ErrConfig = errors.New("npg: invalid configuration")

// Config holds the hyperparameters of NPG: the natural-gradient settings
// it shares with TRPO (embedded, so their fields sit at the top level of
// the JSON) and the step size. DefaultConfig returns the settings for a
// Discrete action space, ContinuousConfig those of Tianshou's Pendulum
// test.
type Config struct {
	actorcritic.NaturalConfig
	// ActorStepSize is the step η > 0 along the natural direction:
	// θ ← θ + η·(F + δI)⁻¹g. Default 0.5 (Tianshou's test).
	ActorStepSize float64 `json:"actor_step_size"`
}

// ContinuousConfig returns the settings of Tianshou's Pendulum NPG test
// (test/continuous/test_npg.py): separate actor and critic MLPs with two
// hidden layers of 64 and tanh, orthogonal weights (gain 1) and zero
// biases, a Normal head with a state-independent σ starting at 1, the
// critic's Adam with lr 1e-3 and 5 steps per minibatch, γ = 0.95, λ =
// 0.95, return scaling and advantage normalization, step size 0.5, and
// Tianshou's damping 0.1 and 10 conjugate-gradient steps; actions clipped
// to [−1, 1] and scaled to the Box, deterministic evaluation.
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
		ActorStepSize: 0.5,
	}
}

// DefaultConfig returns ContinuousConfig with γ = 0.99: Tianshou has no
// NPG test for a Discrete action space, and CartPole's 500-step episodes
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
	if !(c.ActorStepSize > 0) || math.IsInf(c.ActorStepSize, 0) {
		return fmt.Errorf("%w: actor_step_size %v; want finite > 0", ErrConfig, c.ActorStepSize)
	}
	return nil
}
