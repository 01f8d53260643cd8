package quantile

import (
	"fmt"
	"math"

	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
)

// Common holds the hyperparameters the quantile algorithms share with DQN.
// Each algorithm's Config embeds it, so its JSON fields sit beside the
// algorithm's own.
type Common struct {
	// Gamma is the discount factor γ in [0, 1].
	Gamma float64 `json:"gamma"`
	// NStep is the number of steps of the returns, at least 1.
	NStep int `json:"n_step"`
	// TargetUpdateFreq, when positive, keeps a target network copied from
	// the online network every TargetUpdateFreq gradient steps.
	TargetUpdateFreq int `json:"target_update_freq"`
	// Tau, when positive, moves the target network towards the online one
	// by Polyak averaging after every gradient step. At most one of
	// TargetUpdateFreq and Tau may be positive; with neither there is no
	// target network.
	Tau float64 `json:"tau"`
	// Double picks the next action with the online network and takes its
	// quantiles from the target network (Tianshou's behaviour); off, the
	// target network picks by its own Q-values. Without a target network
	// it changes nothing.
	Double bool `json:"double"`
	// Kappa is the threshold κ > 0 of the quantile Huber loss; 0 means 1.
	Kappa float64 `json:"kappa"`
	// Optim configures Adam for the quantile network.
	Optim optim.AdamConfig `json:"optim"`
	// MaxGradNorm, when positive, clips the gradients' global L2 norm before
	// each step. 0: no clipping.
	MaxGradNorm float64 `json:"max_grad_norm"`

	// EpsTrain is ε of ε-greedy exploration while collecting, in [0, 1];
	// EpsTrainFinal and EpsDecaySteps anneal it linearly over the first
	// EpsDecaySteps env steps (0 keeps EpsTrain). EpsTest is ε while
	// testing.
	EpsTrain      float64 `json:"eps_train"`
	EpsTrainFinal float64 `json:"eps_train_final"`
	EpsDecaySteps int64   `json:"eps_decay_steps"`
	EpsTest       float64 `json:"eps_test"`
	// Hold makes the ε-greedy exploration temporally extended (εz-greedy,
	// policy.HoldConfig): an exploring env keeps its random action for a
	// duration drawn from a zeta distribution. Default off.
	Hold policy.HoldConfig `json:"ez_greedy"`

	// BetaFinal and BetaAnnealSteps anneal the importance-sampling exponent β
	// of a prioritized buffer linearly to BetaFinal over the first
	// BetaAnnealSteps env steps (0 leaves β alone).
	BetaFinal       float64 `json:"beta_final"`
	BetaAnnealSteps int64   `json:"beta_anneal_steps"`
}

// Validate returns an error wrapping errConfig naming the first invalid
// field, or nil.
func (c Common) Validate(errConfig error) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{errConfig}, args...)...)
	}
	unit := func(x float64) bool { return x >= 0 && x <= 1 }
	switch {
	case !unit(c.Gamma):
		return bad("gamma %v outside [0, 1]", c.Gamma)
	case c.NStep < 1:
		return bad("n_step %d < 1", c.NStep)
	case c.TargetUpdateFreq < 0:
		return bad("target_update_freq %d < 0", c.TargetUpdateFreq)
	case !unit(c.Tau):
		return bad("tau %v outside [0, 1]", c.Tau)
	case c.TargetUpdateFreq > 0 && c.Tau > 0:
		return bad("both target_update_freq and tau are set")
	case !(c.Kappa >= 0 && !math.IsInf(c.Kappa, 0)):
		return bad("kappa %v", c.Kappa)
	case !(c.MaxGradNorm >= 0):
		return bad("max_grad_norm %v < 0", c.MaxGradNorm)
	case !unit(c.EpsTrain) || !unit(c.EpsTest) || !unit(c.EpsTrainFinal):
		return bad("ε (train %v, final %v, test %v) outside [0, 1]", c.EpsTrain, c.EpsTrainFinal, c.EpsTest)
	case c.EpsDecaySteps < 0 || c.BetaAnnealSteps < 0:
		return bad("negative schedule length")
	case c.BetaAnnealSteps > 0 && !(c.BetaFinal >= 0 && !math.IsInf(c.BetaFinal, 0)):
		return bad("beta_final %v", c.BetaFinal)
	}
	if err := c.Hold.Validate(); err != nil {
		return fmt.Errorf("%w: %w", errConfig, err)
	}
	if err := c.Optim.Validate(); err != nil {
		return fmt.Errorf("%w: %w", errConfig, err)
	}
	return nil
}

// Target reports whether the configuration keeps a target network.
func (c Common) Target() bool { return c.TargetUpdateFreq > 0 || c.Tau > 0 }
