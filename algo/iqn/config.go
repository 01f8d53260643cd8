package iqn

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gorl/gorl/algo/quantile"
	"github.com/gorl/gorl/optim"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or an action space IQN cannot use.
var ErrConfig = errors.New("iqn: invalid configuration")

// Config holds IQN's hyperparameters: its network's, its sample sizes, and
// the ones the quantile family shares with DQN (quantile.Common, whose JSON
// fields sit beside these). DefaultConfig returns the settings of
// Tianshou's CartPole IQN test.
type Config struct {
	// Hidden lists the feature MLP's layer sizes, the last being the
	// feature size (quantile.ImplicitConfig). Default [64, 64, 64].
	Hidden []int `json:"hidden"`
	// Cosines is the number of cosine features of a fraction. Default 64.
	Cosines int `json:"num_cosines"`
	// HeadHidden lists the hidden sizes of the head after the product of
	// features and fraction embedding; empty: one linear layer. Default
	// empty.
	HeadHidden []int `json:"head_hidden"`
	// SampleSize is the number of fractions sampled to act while testing,
	// OnlineSampleSize while collecting and for the online network in an
	// update (the current quantiles, and the next action with Double), and
	// TargetSampleSize for the target quantiles. Defaults 32, 8, 8.
	SampleSize       int `json:"sample_size"`
	OnlineSampleSize int `json:"online_sample_size"`
	TargetSampleSize int `json:"target_sample_size"`

	quantile.Common
}

// DefaultConfig returns the settings of Tianshou's CartPole IQN test
// (test/discrete/test_iqn.py): features 4→64→64→64, 64 cosines, a linear
// head, 32/8/8 sampled fractions, γ = 0.9, 3-step returns, a target network
// copied every 320 gradient steps, double Q-learning, κ = 1, Adam with lr
// 3e-3, ε 0.1 while training and 0.05 while testing (the test's later decay
// of ε is left out, as for QR-DQN).
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 3e-3
	return Config{
		Hidden: []int{64, 64, 64}, Cosines: 64,
		SampleSize: 32, OnlineSampleSize: 8, TargetSampleSize: 8,
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
	case c.SampleSize < 1 || c.OnlineSampleSize < 1 || c.TargetSampleSize < 1:
		return fmt.Errorf("%w: sample sizes %d, %d, %d (want ≥ 1)", ErrConfig, c.SampleSize, c.OnlineSampleSize, c.TargetSampleSize)
	}
	return c.Common.Validate(ErrConfig)
}
