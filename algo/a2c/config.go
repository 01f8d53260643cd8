package a2c

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/pg"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration.
var ErrConfig = errors.New("a2c: invalid configuration")

// Config holds the hyperparameters of A2C. DefaultConfig returns the
// settings of Tianshou's CartPole A2C test; a zero field means "off" or the
// default its comment names. PPO's configuration (package ppo) embeds it.
type Config struct {
	// Net describes the actor and critic networks.
	Net pg.NetConfig `json:"net"`
	// Policy configures the acting policy. Default pg.DefaultPolicy().
	Policy policy.ActorConfig `json:"policy"`
	// Gamma is the discount factor γ in [0, 1]. Default 0.9.
	Gamma float64 `json:"gamma"`
	// GAELambda is λ of generalized advantage estimation in [0, 1]: 0
	// gives one-step TD errors, 1 Monte-Carlo returns minus the value.
	// Default 1.
	GAELambda float64 `json:"gae_lambda"`
	// VFCoef weighs the value loss mean((G − V(s))²) in the total loss,
	// ≥ 0. Default 0.5.
	VFCoef float64 `json:"vf_coef"`
	// EntCoef weighs the entropy bonus: the loss subtracts EntCoef times
	// the policy's mean entropy, ≥ 0. Default 0.
	EntCoef float64 `json:"ent_coef"`
	// ReturnScaling divides the returns the critic learns by the running
	// standard deviation of all returns so far, √(σ² + 10⁻⁸), and
	// multiplies the critic's values by it when estimating advantages
	// (Tianshou's return_scaling). Default false.
	ReturnScaling bool `json:"return_scaling"`
	pg.Training
}

// DefaultConfig returns the settings of Tianshou's CartPole A2C test
// (test/discrete/test_a2c_with_il.py): one MLP trunk with two hidden layers
// of 64 shared by a linear actor and a linear critic, PyTorch's default
// initialization, γ = 0.9, λ = 1, value coefficient 0.5, no entropy bonus,
// no gradient clipping, Adam with lr 1e-3; and deterministic evaluation,
// which that test leaves off.
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 1e-3
	return Config{
		Net:       pg.NetConfig{Hidden: []int{64, 64}, Shared: true},
		Policy:    pg.DefaultPolicy(),
		Gamma:     0.9,
		GAELambda: 1,
		VFCoef:    0.5,
		Training:  pg.Training{Optim: o},
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	if err := c.Net.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	unit := func(x float64) bool { return x >= 0 && x <= 1 }
	nonneg := func(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }
	switch {
	case !unit(c.Gamma):
		return fmt.Errorf("%w: gamma %v outside [0, 1]", ErrConfig, c.Gamma)
	case !unit(c.GAELambda):
		return fmt.Errorf("%w: gae_lambda %v outside [0, 1]", ErrConfig, c.GAELambda)
	case !nonneg(c.VFCoef) || !nonneg(c.EntCoef):
		return fmt.Errorf("%w: vf_coef %v, ent_coef %v; want finite ≥ 0", ErrConfig, c.VFCoef, c.EntCoef)
	}
	if err := c.Policy.Map.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := c.Training.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}
