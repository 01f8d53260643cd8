package pg

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration; errors about networks that do not fit the env's spaces
// wrap actorcritic.ErrConfig too.
var ErrConfig = errors.New("pg: invalid configuration")

// Config holds the hyperparameters of REINFORCE. DefaultConfig returns the
// settings of Tianshou's CartPole policy-gradient test; a zero field means
// "off" or the default its comment names.
type Config struct {
	// Net describes the policy network.
	Net actorcritic.NetConfig `json:"net"`
	// Policy configures the acting policy: the most likely action when
	// testing, and the mapping of raw actions to a Box action space's
	// bounds. Default actorcritic.DefaultPolicy().
	Policy policy.ActorConfig `json:"policy"`
	// Gamma is the discount factor γ in [0, 1]. Default 0.95.
	Gamma float64 `json:"gamma"`
	// ReturnStandardization standardizes the returns by the running mean
	// and standard deviation of all returns computed before, (G − μ)/√(σ² +
	// 10⁻⁸), and bootstraps episodes cut off by truncation or by the end of
	// the collection with μ (Tianshou's return_standardization); the first
	// collection uses its own statistics. Default true.
	ReturnStandardization bool `json:"return_standardization"`
	// EntCoef weighs an entropy bonus: the loss subtracts EntCoef times
	// the policy's mean entropy over the minibatch, ≥ 0. Tianshou's
	// REINFORCE has none; it is gorl's option, as in A2C and PPO. Default
	// 0: off.
	EntCoef float64 `json:"ent_coef"`
	// Baseline learns a state-value baseline ("REINFORCE with baseline",
	// Williams 1992; Sutton and Barto §13.4): a critic V(s), fitted to the
	// Monte-Carlo returns, and the policy gradient weighted by G − V(s)
	// instead of G. Episodes cut off by truncation or by the end of the
	// collection bootstrap from V of the next observation; nothing else
	// bootstraps. With ReturnStandardization the critic learns the returns
	// divided by the running standard deviation σ of the returns, and the
	// advantages are divided by σ too (see Preprocess). Tianshou's
	// REINFORCE has none. Default false.
	Baseline bool `json:"baseline"`
	// VFCoef weighs the critic's loss mean((G − V(s))²) against the
	// policy's with Baseline; > 0 there, ignored without. Default 0.5.
	VFCoef float64 `json:"vf_coef"`
	actorcritic.Training
}

// DefaultConfig returns the settings of Tianshou's CartPole REINFORCE test
// (test/discrete/test_reinforce.py): an MLP with two hidden layers of 64,
// orthogonally initialized with gain √2, γ = 0.95, standardized returns, Adam
// with lr 1e-3; and deterministic evaluation, which that test leaves off.
// The baseline is off; its value coefficient is 0.5 (A2C's) for when it is
// turned on.
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 1e-3
	return Config{
		Net:                   actorcritic.NetConfig{Hidden: []int{64, 64}, OrthogonalGain: math.Sqrt2},
		Policy:                actorcritic.DefaultPolicy(),
		Gamma:                 0.95,
		ReturnStandardization: true,
		VFCoef:                0.5,
		Training:              actorcritic.Training{Optim: o},
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	if err := c.Net.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if !(c.Gamma >= 0 && c.Gamma <= 1) {
		return fmt.Errorf("%w: gamma %v outside [0, 1]", ErrConfig, c.Gamma)
	}
	if !(c.EntCoef >= 0) || math.IsInf(c.EntCoef, 0) {
		return fmt.Errorf("%w: ent_coef %v", ErrConfig, c.EntCoef)
	}
	if !(c.VFCoef >= 0) || math.IsInf(c.VFCoef, 0) || c.Baseline && c.VFCoef == 0 {
		return fmt.Errorf("%w: vf_coef %v (baseline %v)", ErrConfig, c.VFCoef, c.Baseline)
	}
	if err := c.Policy.Map.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := c.Training.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}
