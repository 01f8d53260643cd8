package r2d2

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or spaces the algorithm does not support.
var ErrConfig = errors.New("r2d2: invalid configuration")

// The recurrent cells Config.Cell names.
const (
	LSTM = "lstm"
	GRU  = "gru"
)

// Config holds R2D2's hyperparameters. A zero field means "off" where its
// comment says so; DefaultConfig fills the others.
type Config struct {
	// Cell is the recurrent cell, LSTM (the paper's) or GRU. Default GRU.
	Cell string `json:"cell"`
	// Hidden is the size of the cell's hidden state (an LSTM keeps h and c,
	// twice as many numbers). Default 64.
	Hidden int `json:"hidden"`
	// HeadHidden are the hidden layers (ReLU) of the Q head after the cell;
	// empty means a linear head. Default [64].
	HeadHidden []int `json:"head_hidden"`
	// Dueling splits the head into a value and an advantage stream, each
	// an MLP with HeadHidden (Wang et al., 2016). Default false.
	Dueling bool `json:"dueling"`

	// BurnIn is the number of steps before each sequence's first trained
	// step that the networks are stepped through, without gradient, from
	// the state stored there, to refresh a stale stored state. Fewer at an
	// episode's start. Default 8; 0 starts from the stored state itself.
	BurnIn int `json:"burn_in"`
	// SeqLen is the number of trained steps of a sequence, at least 1;
	// fewer where its episode ends first. Default 16.
	SeqLen int `json:"seq_len"`
	// NStep is n of the n-step double-Q targets, at least 1. Default 3.
	NStep int `json:"n_step"`
	// Gamma is the discount factor γ in [0, 1]. Default 0.99.
	Gamma float64 `json:"gamma"`
	// Double values the online network's greedy next action with the
	// target network (double Q-learning). Default true.
	Double bool `json:"double"`
	// TargetUpdateFreq copies the online network into the target network
	// every TargetUpdateFreq gradient steps, at least 1. Default 200.
	TargetUpdateFreq int `json:"target_update_freq"`
	// Eta is η of a sequence's priority, η·max|δ| + (1 − η)·mean|δ| over
	// its trained steps, in [0, 1]. Default 0.9 (the paper's).
	Eta float64 `json:"eta"`
	// ValueRescale learns Q in the rescaled space h(x) = sign(x)(√(|x|+1)
	// − 1) + εx of Pohlen et al. (2018): targets h(Σγᵏr + γⁿh⁻¹(Q′)).
	// Default false.
	ValueRescale bool `json:"value_rescale"`
	// RescaleEps is ε of h, > 0 when ValueRescale is set. Default 1e-3.
	RescaleEps float64 `json:"rescale_eps"`

	// Optim configures Adam. Default lr 1e-3.
	Optim optim.AdamConfig `json:"optim"`
	// MaxGradNorm, when positive, clips the gradients' global L2 norm
	// before each step. Default 10.
	MaxGradNorm float64 `json:"max_grad_norm"`

	// EpsTrain is ε of ε-greedy exploration while collecting training
	// data, in [0, 1], annealed linearly to EpsTrainFinal over the first
	// EpsDecaySteps env steps (0 keeps EpsTrain). Default 1 to 0.05 over
	// 10,000 steps.
	EpsTrain      float64 `json:"eps_train"`
	EpsTrainFinal float64 `json:"eps_train_final"`
	EpsDecaySteps int64   `json:"eps_decay_steps"`
	// EpsTest is ε while testing, in [0, 1]. Default 0.
	EpsTest float64 `json:"eps_test"`
	// Hold makes the ε-greedy exploration temporally extended (εz-greedy,
	// policy.HoldConfig), as DQN's option of the same name: an exploring
	// env keeps its random action for a duration drawn from a zeta
	// distribution. Default off.
	Hold policy.HoldConfig `json:"ez_greedy"`

	// BetaFinal and BetaAnnealSteps anneal the importance-sampling exponent
	// β of a prioritized buffer linearly from its configured value to
	// BetaFinal over the first BetaAnnealSteps env steps. BetaAnnealSteps 0
	// leaves β alone. Default 0.
	BetaFinal       float64 `json:"beta_final"`
	BetaAnnealSteps int64   `json:"beta_anneal_steps"`
}

// DefaultConfig returns the settings the velocity-free CartPole is learned
// with: a GRU of 64 and a ReLU layer of 64 before the Q-values, 8 burn-in
// and 16 trained steps per sequence, 3-step double-Q targets with γ = 0.99,
// a target network copied every 200 gradient steps, η = 0.9, no value
// rescaling, Adam with lr 1e-3, gradient norm clipped at 10, and ε from 1
// to 0.05 over 10,000 env steps (0 when testing).
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 1e-3
	return Config{
		Cell:             GRU,
		Hidden:           64,
		HeadHidden:       []int{64},
		BurnIn:           8,
		SeqLen:           16,
		NStep:            3,
		Gamma:            0.99,
		Double:           true,
		TargetUpdateFreq: 200,
		Eta:              0.9,
		RescaleEps:       1e-3,
		Optim:            o,
		MaxGradNorm:      10,
		EpsTrain:         1,
		EpsTrainFinal:    0.05,
		EpsDecaySteps:    10_000,
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
	}
	unit := func(x float64) bool { return x >= 0 && x <= 1 }
	switch {
	case c.Cell != LSTM && c.Cell != GRU:
		return bad("cell %q (want %s or %s)", c.Cell, LSTM, GRU)
	case c.Hidden < 1:
		return bad("hidden %d; want ≥ 1", c.Hidden)
	case c.BurnIn < 0:
		return bad("burn_in %d; want ≥ 0", c.BurnIn)
	case c.SeqLen < 1:
		return bad("seq_len %d; want ≥ 1", c.SeqLen)
	case c.NStep < 1:
		return bad("n_step %d; want ≥ 1", c.NStep)
	case !unit(c.Gamma):
		return bad("gamma %v outside [0, 1]", c.Gamma)
	case c.TargetUpdateFreq < 1:
		return bad("target_update_freq %d; want ≥ 1", c.TargetUpdateFreq)
	case !unit(c.Eta):
		return bad("eta %v outside [0, 1]", c.Eta)
	case c.ValueRescale && !(c.RescaleEps > 0 && !math.IsInf(c.RescaleEps, 0)):
		return bad("rescale_eps %v; want finite > 0", c.RescaleEps)
	case !(c.MaxGradNorm >= 0):
		return bad("max_grad_norm %v; want ≥ 0", c.MaxGradNorm)
	case !unit(c.EpsTrain) || !unit(c.EpsTest) || !unit(c.EpsTrainFinal):
		return bad("ε (train %v, final %v, test %v) outside [0, 1]", c.EpsTrain, c.EpsTrainFinal, c.EpsTest)
	case c.EpsDecaySteps < 0 || c.BetaAnnealSteps < 0:
		return bad("negative schedule length")
	case c.BetaAnnealSteps > 0 && !(c.BetaFinal >= 0 && !math.IsInf(c.BetaFinal, 0)):
		return bad("beta_final %v", c.BetaFinal)
	}
	if err := c.Hold.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	for _, h := range c.HeadHidden {
		if h < 1 {
			return bad("head_hidden %v; want sizes ≥ 1", c.HeadHidden)
		}
	}
	if err := c.Optim.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}
