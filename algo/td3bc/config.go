package td3bc

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or an action space TD3+BC does not support.
var ErrConfig = errors.New("td3bc: invalid configuration")

// Config holds TD3+BC's hyperparameters. DefaultConfig returns the settings
// of Tianshou's Pendulum TD3+BC test.
type Config struct {
	actorcritic.Continuous
	// MaxAction scales the actor's tanh output, in the env's action units
	// (finite ≥ 0); 0 takes h from an action space [−h, h] in every
	// dimension. Default 0.
	MaxAction float64 `json:"max_action"`
	// PolicyNoise is σ ≥ 0 of the target policy smoothing noise, in action
	// units; 0 turns smoothing off.
	PolicyNoise float64 `json:"policy_noise"`
	// NoiseClip clips the smoothing noise to [−NoiseClip, NoiseClip]; 0
	// means no clipping. At least 0.
	NoiseClip float64 `json:"noise_clip"`
	// UpdateActorFreq is the number of critic updates per actor update
	// (and target update), at least 1.
	UpdateActorFreq int `json:"update_actor_freq"`
	// Alpha is α > 0, the weight of the Q term against the behaviour
	// cloning term: the actor's loss is −λ·mean Q(s, μ(s)) + mean (μ(s) −
	// a)², λ = α / mean |Q(s, μ(s))|.
	Alpha float64 `json:"alpha"`
	// NormalizeObs normalizes observations by the mean and standard
	// deviation of the dataset's, computed at the first Preprocess (the
	// TD3+BC paper's state normalization). Default true.
	NormalizeObs bool `json:"normalize_obs"`
}

// DefaultConfig returns Tianshou's Pendulum TD3+BC test settings
// (test/offline/test_td3_bc.py): actor and twin critic MLPs of 64-64, γ =
// 0.99, τ = 0.005, 3-step returns, Adam with lr 1e-3 for both, policy noise
// 0.2 clipped to 0.5, the actor updated every 2 critic updates, α = 2.5.
// Actions are in the env's units (max_action the space's bound, no action
// map), the form datasets store. Observation normalization is on, as in the
// paper and Tianshou's D4RL example (its Pendulum test leaves it off).
func DefaultConfig() Config {
	c := Config{Continuous: actorcritic.DefaultContinuous(), PolicyNoise: 0.2, NoiseClip: 0.5,
		UpdateActorFreq: 2, Alpha: 2.5, NormalizeObs: true}
	c.ActorHidden, c.Critic.Hidden = []int{64, 64}, []int{64, 64}
	c.Map = policy.BoxMapConfig{}
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
	case !finite(c.MaxAction):
		return fmt.Errorf("%w: max_action %v; want finite ≥ 0 (0: the action space's bound)", ErrConfig, c.MaxAction)
	case !finite(c.PolicyNoise):
		return fmt.Errorf("%w: policy_noise %v; want finite ≥ 0", ErrConfig, c.PolicyNoise)
	case !finite(c.NoiseClip):
		return fmt.Errorf("%w: noise_clip %v; want finite ≥ 0", ErrConfig, c.NoiseClip)
	case c.UpdateActorFreq < 1:
		return fmt.Errorf("%w: update_actor_freq %d < 1", ErrConfig, c.UpdateActorFreq)
	case !(c.Alpha > 0) || math.IsInf(c.Alpha, 0):
		return fmt.Errorf("%w: alpha %v; want finite > 0", ErrConfig, c.Alpha)
	}
	return nil
}
