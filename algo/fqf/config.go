package fqf

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gorl/gorl/algo/quantile"
	"github.com/gorl/gorl/optim"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or an action space FQF cannot use.
var ErrConfig = errors.New("fqf: invalid configuration")

// Config holds FQF's hyperparameters: its quantile function's (IQN's
// network), its fraction proposal network's, and the ones the quantile
// family shares with DQN (quantile.Common, whose JSON fields sit beside
// these). DefaultConfig returns the settings of Tianshou's CartPole FQF
// test.
type Config struct {
	// Hidden lists the feature MLP's layer sizes, the last being the
	// feature size (quantile.ImplicitConfig). Default [64, 64, 64].
	Hidden []int `json:"hidden"`
	// Cosines is the number of cosine features of a fraction. Default 64.
	Cosines int `json:"num_cosines"`
	// HeadHidden lists the hidden sizes of the head after the product of
	// features and fraction embedding; empty: one linear layer. Default
	// [64, 64, 64].
	HeadHidden []int `json:"head_hidden"`
	// NumFractions is the number N ≥ 1 of fractions the proposal network
	// gives each state. Default 32.
	NumFractions int `json:"num_fractions"`
	// EntCoef weighs the entropy of the proposed fractions in the fraction
	// loss (a bonus, ≥ 0). Default 10.
	EntCoef float64 `json:"ent_coef"`
	// FractionOptim configures the proposal network's RMSprop. Default
	// PyTorch's RMSprop with lr 2.5e-9.
	FractionOptim optim.RMSpropConfig `json:"fraction_optim"`

	quantile.Common
}

// DefaultConfig returns the settings of Tianshou's CartPole FQF test
// (test/discrete/test_fqf.py): features 4→64→64→64, 64 cosines, a head with
// hidden layers 64, 64, 64, 32 fractions, entropy coefficient 10, RMSprop
// with lr 2.5e-9 for the proposal network, γ = 0.9, 3-step returns, a
// target network copied every 320 gradient steps, double Q-learning, κ = 1,
// Adam with lr 3e-3, ε 0.1 while training and 0.05 while testing (the
// test's later decay of ε is left out, as for QR-DQN).
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 3e-3
	f := optim.DefaultRMSpropConfig()
	f.LR = 2.5e-9
	return Config{
		Hidden: []int{64, 64, 64}, Cosines: 64, HeadHidden: []int{64, 64, 64},
		NumFractions: 32, EntCoef: 10, FractionOptim: f,
		Common: quantile.Common{
			Gamma: 0.9, NStep: 3, TargetUpdateFreq: 320, Double: true, Kappa: 1,
			Optim: o, EpsTrain: 0.1, EpsTest: 0.05,
		},
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	bad := func(h int) bool { return h < 1 }
	switch {
	case len(c.Hidden) == 0 || slices.ContainsFunc(c.Hidden, bad):
		return fmt.Errorf("%w: hidden sizes %v (want at least one, each ≥ 1)", ErrConfig, c.Hidden)
	case slices.ContainsFunc(c.HeadHidden, bad):
		return fmt.Errorf("%w: head_hidden sizes %v", ErrConfig, c.HeadHidden)
	case c.Cosines < 1:
		return fmt.Errorf("%w: num_cosines %d < 1", ErrConfig, c.Cosines)
	case c.NumFractions < 1:
		return fmt.Errorf("%w: num_fractions %d < 1", ErrConfig, c.NumFractions)
	case !(c.EntCoef >= 0 && !math.IsInf(c.EntCoef, 0)):
		return fmt.Errorf("%w: ent_coef %v", ErrConfig, c.EntCoef)
	}
	if err := c.FractionOptim.Validate(); err != nil {
		return fmt.Errorf("%w: fraction_optim: %w", ErrConfig, err)
	}
	return c.Common.Validate(ErrConfig)
}
