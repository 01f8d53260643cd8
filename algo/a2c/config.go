package a2c

import (
	"errors"
	"fmt"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/optim"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration.
var ErrConfig = errors.New("a2c: invalid configuration")

// Config holds the hyperparameters of A2C: the actor-critic settings
// (embedded, so their fields sit at the top level of the JSON). In A2C,
// VFCoef weighs the value loss mean((G − V(s))²). DefaultConfig returns the
// settings of Tianshou's CartPole A2C test.
type Config struct {
	actorcritic.OnPolicy
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
	return Config{actorcritic.OnPolicy{
		Net:       actorcritic.NetConfig{Hidden: []int{64, 64}, Shared: true},
		Policy:    actorcritic.DefaultPolicy(),
		Gamma:     0.9,
		GAELambda: 1,
		VFCoef:    0.5,
		Training:  actorcritic.Training{Optim: o},
	}}
}

// Validate returns an error wrapping ErrConfig (and actorcritic.ErrConfig)
// naming the first invalid field, or nil.
func (c Config) Validate() error {
	if err := c.OnPolicy.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}
