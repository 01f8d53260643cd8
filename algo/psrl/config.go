package psrl

import (
	"errors"
	"fmt"
	"math"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration.
var ErrConfig = errors.New("psrl: invalid configuration")

// Config holds the priors and solver settings of PSRL. DefaultConfig gives
// those of Tianshou's PSRL test on NChain.
type Config struct {
	// TransCountPrior is the Dirichlet prior count c₀ of every next state,
	// > 0. Default 1.
	TransCountPrior float64 `json:"trans_count_prior"`
	// RewMeanPrior is the prior mean μ₀ of every mean reward. Default 0.
	RewMeanPrior float64 `json:"rew_mean_prior"`
	// RewStdPrior is the prior scale σ₀ > 0 of the rewards: the precision's
	// prior mean is 1/σ₀². Default 1.
	RewStdPrior float64 `json:"rew_std_prior"`
	// RewPriorCount is κ₀ > 0, the weight of μ₀ in observations. Default 1.
	RewPriorCount float64 `json:"rew_prior_count"`
	// RewPriorShape is α₀ > 0, the shape of the precision's Gamma prior.
	// Default 1.
	RewPriorShape float64 `json:"rew_prior_shape"`
	// Gamma is the discount γ in [0, 1) of value iteration. Default 0.99.
	Gamma float64 `json:"gamma"`
	// Epsilon > 0 ends value iteration once no state value changes by
	// more. Default 0.01.
	Epsilon float64 `json:"eps"`
}

// DefaultConfig returns the settings of Tianshou's PSRL test
// (test/modelbased/test_psrl.py): transition prior counts 1, reward prior
// mean 0 and scale 1, γ = 0.99, value iteration to 0.01; κ₀ = α₀ = 1.
func DefaultConfig() Config {
	return Config{TransCountPrior: 1, RewStdPrior: 1, RewPriorCount: 1, RewPriorShape: 1, Gamma: 0.99, Epsilon: 0.01}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	pos := func(name string, v float64) error {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %s %v; want a finite number > 0", ErrConfig, name, v)
		}
		return nil
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"trans_count_prior", c.TransCountPrior}, {"rew_std_prior", c.RewStdPrior}, {"rew_prior_count", c.RewPriorCount},
		{"rew_prior_shape", c.RewPriorShape}, {"eps", c.Epsilon}} {
		if err := pos(f.name, f.v); err != nil {
			return err
		}
	}
	switch {
	case math.IsNaN(c.RewMeanPrior) || math.IsInf(c.RewMeanPrior, 0):
		return fmt.Errorf("%w: rew_mean_prior %v; want a finite number", ErrConfig, c.RewMeanPrior)
	case !(c.Gamma >= 0 && c.Gamma < 1):
		return fmt.Errorf("%w: gamma %v outside [0, 1)", ErrConfig, c.Gamma)
	}
	return nil
}
