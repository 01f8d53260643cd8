package td3

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or an action space TD3 does not support.
var ErrConfig = errors.New("td3: invalid configuration")

// Config holds TD3's hyperparameters. DefaultConfig returns the settings of
// Tianshou's Pendulum TD3 test.
type Config struct {
	actorcritic.Continuous
	// MaxAction scales the actor's tanh output, Tianshou's max_action
	// (finite > 0). Default 1.
	MaxAction float64 `json:"max_action"`
	// Noise is the exploration noise added to the raw actions while
	// collecting training data.
	Noise policy.NoiseConfig `json:"noise"`
	// PolicyNoise is σ ≥ 0 of the target policy smoothing noise added to
	// the target actor's actions, in raw-action units. 0 turns smoothing
	// off.
	PolicyNoise float64 `json:"policy_noise"`
	// NoiseClip clips the smoothing noise to [−NoiseClip, NoiseClip]; 0
	// means no clipping (Tianshou's convention). At least 0.
	NoiseClip float64 `json:"noise_clip"`
	// UpdateActorFreq is the number of critic updates per actor update
	// (and target update), at least 1.
	UpdateActorFreq int `json:"update_actor_freq"`
}

// DefaultConfig returns Tianshou's Pendulum TD3 test settings
// (test/continuous/test_td3.py): actor and twin critic MLPs of 128-128, γ =
// 0.99, τ = 0.005, 3-step returns, Adam with lr 1e-4 for the actor and 1e-3
// for the critics, max_action 2, and, scaled by max_action as that test
// scales them, exploration σ 0.1, policy noise 0.2 and noise clip 0.5; the
// actor is updated every 2 critic updates.
func DefaultConfig() Config {
	c := Config{Continuous: actorcritic.DefaultContinuous(), MaxAction: 2,
		Noise:       policy.NoiseConfig{Kind: policy.GaussianNoise, Sigma: 0.1 * 2},
		PolicyNoise: 0.2 * 2, NoiseClip: 0.5 * 2, UpdateActorFreq: 2}
	c.ActorOptim.Optim.LR = 1e-4
	return c
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	if err := c.Continuous.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	finite := func(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }
	switch {
	case !(c.MaxAction > 0) || math.IsInf(c.MaxAction, 0):
		return fmt.Errorf("%w: max_action %v; want finite > 0", ErrConfig, c.MaxAction)
	case !finite(c.PolicyNoise):
		return fmt.Errorf("%w: policy_noise %v; want finite ≥ 0", ErrConfig, c.PolicyNoise)
	case !finite(c.NoiseClip):
		return fmt.Errorf("%w: noise_clip %v; want finite ≥ 0", ErrConfig, c.NoiseClip)
	case c.UpdateActorFreq < 1:
		return fmt.Errorf("%w: update_actor_freq %d < 1", ErrConfig, c.UpdateActorFreq)
	}
	if err := c.Noise.Validate(); err != nil {
		return fmt.Errorf("%w: noise: %w", ErrConfig, err)
	}
	return nil
}
