package icm

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gorl/gorl/optim"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration.
var ErrConfig = errors.New("icm: invalid configuration")

// Config holds the module's settings. DefaultConfig gives those of
// Tianshou's DQN + ICM test on CartPole.
type Config struct {
	// FeatureHidden are the hidden layers of the feature net φ (ReLU).
	// Default [128, 128, 128].
	FeatureHidden []int `json:"feature_hidden"`
	// FeatureDim is the size of φ's output (linear). Default 128.
	FeatureDim int `json:"feature_dim"`
	// ModelHidden are the hidden layers of the forward and inverse models
	// (ReLU). Default [128].
	ModelHidden []int `json:"model_hidden"`
	// Optim configures the module's Adam. Default lr 1e-3.
	Optim optim.AdamConfig `json:"optim"`
	// LRScale multiplies the module's loss, > 0. Default 1.
	LRScale float64 `json:"lr_scale"`
	// RewardScale is η ≥ 0, the weight of the intrinsic reward. Default
	// 0.01.
	RewardScale float64 `json:"reward_scale"`
	// ForwardLossWeight is β in [0, 1], the weight of the forward loss
	// against the inverse loss. Default 0.2.
	ForwardLossWeight float64 `json:"forward_loss_weight"`
	// RewardScaleFinal and RewardScaleDecaySteps anneal η linearly from
	// RewardScale to RewardScaleFinal over the first RewardScaleDecaySteps
	// env steps (through Schedule), as DQN's ε schedule does.
	// RewardScaleDecaySteps 0 keeps RewardScale. Default 0.
	RewardScaleFinal      float64 `json:"reward_scale_final"`
	RewardScaleDecaySteps int64   `json:"reward_scale_decay_steps"`
	// RewardNorm divides ℓ_F by a running mean of ℓ_F before η is
	// applied: an exponential average, with weight 0.01, of the mean ℓ_F of
	// each sampled batch, started at the first batch's. The bonus is then
	// η times the transition's surprise relative to recent ones, whatever
	// the scale of the features. Default false.
	RewardNorm bool `json:"reward_norm"`
	// RewardClip, when positive, caps the intrinsic reward of a
	// transition at RewardClip. Default 0 (no cap).
	RewardClip float64 `json:"reward_clip"`
	// ObsNorm maps each observation coordinate whose Box bounds are finite
	// onto [−1, 1] before the feature net; other coordinates pass as they
	// are. Default false (Tianshou feeds raw observations).
	ObsNorm bool `json:"obs_norm"`
	// NStep is the n-step horizon of the wrapped algorithm's targets: the
	// intrinsic reward is added on every step of each sampled transition's
	// window of NStep steps. Default 1 (0 means 1).
	NStep int `json:"n_step"`
}

// DefaultConfig returns the settings of Tianshou's DQN + ICM test
// (test/modelbased/test_dqn_icm.py): hidden sizes [128, 128, 128, 128] of
// which the feature net takes all but the last as hidden layers and the
// last as its output, models with one hidden layer of 128, Adam with lr
// 1e-3, lr scale 1, reward scale 0.01, forward-loss weight 0.2; n-step 3,
// the test's DQN horizon.
func DefaultConfig() Config {
	return Config{
		FeatureHidden: []int{128, 128, 128}, FeatureDim: 128, ModelHidden: []int{128},
		Optim: optim.DefaultAdamConfig(), LRScale: 1, RewardScale: 0.01, ForwardLossWeight: 0.2, NStep: 3,
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	if slices.ContainsFunc(c.FeatureHidden, func(h int) bool { return h < 1 }) || slices.ContainsFunc(c.ModelHidden, func(h int) bool { return h < 1 }) {
		return fmt.Errorf("%w: hidden sizes %v and %v; want sizes ≥ 1", ErrConfig, c.FeatureHidden, c.ModelHidden)
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case c.FeatureDim < 1:
		return fmt.Errorf("%w: feature_dim %d < 1", ErrConfig, c.FeatureDim)
	case !(c.LRScale > 0) || !finite(c.LRScale):
		return fmt.Errorf("%w: lr_scale %v; want a finite number > 0", ErrConfig, c.LRScale)
	case !(c.RewardScale >= 0) || !finite(c.RewardScale):
		return fmt.Errorf("%w: reward_scale %v; want a finite number ≥ 0", ErrConfig, c.RewardScale)
	case !(c.RewardScaleFinal >= 0) || !finite(c.RewardScaleFinal):
		return fmt.Errorf("%w: reward_scale_final %v; want a finite number ≥ 0", ErrConfig, c.RewardScaleFinal)
	case !(c.RewardClip >= 0) || !finite(c.RewardClip):
		return fmt.Errorf("%w: reward_clip %v; want a finite number ≥ 0", ErrConfig, c.RewardClip)
	case c.RewardScaleDecaySteps < 0:
		return fmt.Errorf("%w: reward_scale_decay_steps %d < 0", ErrConfig, c.RewardScaleDecaySteps)
	case !(c.ForwardLossWeight >= 0 && c.ForwardLossWeight <= 1):
		return fmt.Errorf("%w: forward_loss_weight %v outside [0, 1]", ErrConfig, c.ForwardLossWeight)
	case c.NStep < 0:
		return fmt.Errorf("%w: n_step %d < 0", ErrConfig, c.NStep)
	}
	if err := c.Optim.Validate(); err != nil {
		return fmt.Errorf("%w: optim: %w", ErrConfig, err)
	}
	return nil
}
