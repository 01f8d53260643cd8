package gail

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/optim"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration.
var ErrConfig = errors.New("gail: invalid configuration")

// Config holds PPO's settings (embedded: its fields sit at the top level
// of the JSON) and the discriminator's.
type Config struct {
	ppo.Config
	// DiscHidden are the hidden layers of the discriminator (tanh).
	// Default [64, 64].
	DiscHidden []int `json:"disc_hidden"`
	// DiscOptim configures the discriminator's Adam. Default lr 5e-4.
	DiscOptim optim.AdamConfig `json:"disc_optim"`
	// DiscUpdateNum is the number of discriminator steps per update, ≥ 1.
	// Default 2.
	DiscUpdateNum int `json:"disc_update_num"`
}

// DefaultConfig returns the settings of Tianshou's GAIL test on Pendulum
// (test/offline/test_gail.py): PPO's Pendulum settings (ppo.ContinuousConfig,
// which are that test's too) and a discriminator MLP with two tanh hidden
// layers of 64, orthogonal weights (gain √2) and zero biases, Adam with lr
// 5e-4, 2 steps per update.
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 5e-4
	return Config{Config: ppo.ContinuousConfig(), DiscHidden: []int{64, 64}, DiscOptim: o, DiscUpdateNum: 2}
}

// DiscreteConfig returns DefaultConfig with PPO's CartPole settings
// (ppo.DefaultConfig) for Discrete action spaces; Tianshou has no GAIL test
// with discrete actions.
func DiscreteConfig() Config {
	c := DefaultConfig()
	c.Config = ppo.DefaultConfig()
	return c
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	if err := c.Config.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	switch {
	case slices.ContainsFunc(c.DiscHidden, func(h int) bool { return h < 1 }):
		return fmt.Errorf("%w: disc_hidden %v; want sizes ≥ 1", ErrConfig, c.DiscHidden)
	case c.DiscUpdateNum < 1:
		return fmt.Errorf("%w: disc_update_num %d < 1", ErrConfig, c.DiscUpdateNum)
	}
	if err := c.DiscOptim.Validate(); err != nil {
		return fmt.Errorf("%w: disc_optim: %w", ErrConfig, err)
	}
	return nil
}
