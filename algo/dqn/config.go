package dqn

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate, New and the other
// constructors for an invalid configuration or networks that do not fit it.
var ErrConfig = errors.New("dqn: invalid configuration")

// Loss names the regression loss on the TD error.
type Loss string

const (
	// MSE is the mean squared TD error (Tianshou's default).
	MSE Loss = "mse"
	// Huber is the Huber loss with threshold HuberDelta (smooth L1 for
	// δ = 1, the loss of the Nature DQN; Tianshou's clip_loss_grad).
	Huber Loss = "huber"
)

// Mode names Machin's DQN modes, which map onto the options of Config (see
// Config.ApplyMode).
type Mode string

const (
	// Vanilla: no target network; targets come from the online network.
	Vanilla Mode = "vanilla"
	// FixedTarget: a target network gives the targets, max over its
	// values.
	FixedTarget Mode = "fixed_target"
	// Double: the online network picks the next action, the target network
	// values it (van Hasselt et al., 2016).
	Double Mode = "double"
)

// Config holds DQN's hyperparameters. DefaultConfig returns the settings of
// Tianshou's CartPole DQN test; a zero field means "off" or the default
// its comment names.
type Config struct {
	// Hidden lists the hidden layer sizes of the Q network, an MLP with
	// ReLU (for 1-d observations). Default [128, 128, 128, 128].
	Hidden []int `json:"hidden"`
	// Dueling, if set, splits the network after its hidden layers into a
	// value and an advantage stream (Wang et al., 2016): Q = V + A −
	// mean(A). Default nil: a plain Q head.
	Dueling *DuelingConfig `json:"dueling"`
	// CNN selects the Nature-DQN convolutional network (nn.NatureCNN) for
	// observations [channels, 84, 84] of raw pixels; Hidden is then ignored.
	// Default false.
	CNN bool `json:"cnn"`
	// Conv, when set, puts convolutions, each followed by a ReLU, before
	// the Hidden layers, for observations [channels, height, width] such
	// as MinAtar's grids: the MinAtar paper's network is one layer
	// {"out": 16, "kernel": 3} and Hidden [128]. Default nil: no
	// convolution.
	Conv []ConvLayer `json:"conv"`

	// Gamma is the discount factor γ in [0, 1]. Default 0.9.
	Gamma float64 `json:"gamma"`
	// NStep is the number of steps of the returns (n-step TD targets),
	// at least 1. Default 3.
	NStep int `json:"n_step"`
	// TargetUpdateFreq, when positive, keeps a target network copied from
	// the online network every TargetUpdateFreq gradient steps (a hard
	// update). Default 320.
	TargetUpdateFreq int `json:"target_update_freq"`
	// Tau, when positive, keeps a target network moved towards the online
	// network by Polyak averaging after every gradient step, θ′ ← τθ + (1 −
	// τ)θ′ (Machin's soft_update). At most one of TargetUpdateFreq and Tau
	// may be positive; with neither there is no target network. Default 0.
	Tau float64 `json:"tau"`
	// Double selects the next action with the online network and values it
	// with the target network (double DQN); without a target network it
	// changes nothing. Default true (Tianshou's is_double).
	Double bool `json:"double"`
	// Loss is MSE or Huber. Default MSE.
	Loss Loss `json:"loss"`
	// HuberDelta is the Huber loss's threshold δ > 0; 0 means 1.
	HuberDelta float64 `json:"huber_delta"`
	// Optim configures Adam. Default PyTorch's Adam with lr 1e-3.
	Optim optim.AdamConfig `json:"optim"`
	// MaxGradNorm, when positive, clips the gradients' global L2 norm
	// before each step. Default 0: no clipping.
	MaxGradNorm float64 `json:"max_grad_norm"`

	// EpsTrain is ε of ε-greedy exploration while collecting training data,
	// in [0, 1]. Default 0.1.
	EpsTrain float64 `json:"eps_train"`
	// EpsTrainFinal and EpsDecaySteps anneal the training ε linearly from
	// EpsTrain to EpsTrainFinal over the first EpsDecaySteps env steps
	// (the ε schedule). EpsDecaySteps 0 keeps EpsTrain. Default 0.
	EpsTrainFinal float64 `json:"eps_train_final"`
	EpsDecaySteps int64   `json:"eps_decay_steps"`
	// EpsTest is ε while testing, in [0, 1]. Default 0.05.
	EpsTest float64 `json:"eps_test"`
	// Hold makes the ε-greedy exploration temporally extended (εz-greedy,
	// policy.HoldConfig): an exploring env keeps its random action for a
	// duration drawn from a zeta distribution. Default off.
	Hold policy.HoldConfig `json:"ez_greedy"`

	// BetaFinal and BetaAnnealSteps anneal the importance-sampling exponent β
	// of a prioritized buffer linearly from its configured value to
	// BetaFinal over the first BetaAnnealSteps env steps. BetaAnnealSteps 0
	// leaves β alone. Default 0.
	BetaFinal       float64 `json:"beta_final"`
	BetaAnnealSteps int64   `json:"beta_anneal_steps"`
}

// ConvLayer is one convolution of Config.Conv, without padding.
type ConvLayer = nn.ConvSpec

// DuelingConfig configures the two streams of a dueling head, each an MLP
// from the last hidden layer: the value stream to 1 output, the advantage
// stream to one output per action.
type DuelingConfig struct {
	// ValueHidden and AdvantageHidden list the hidden sizes of the two
	// streams; empty means one linear layer.
	ValueHidden     []int `json:"value_hidden"`
	AdvantageHidden []int `json:"advantage_hidden"`
}

// DefaultConfig returns the settings of Tianshou's CartPole DQN test
// (test/discrete/test_dqn.py): an MLP with four hidden layers of 128, γ =
// 0.9, 3-step returns, a target network copied every 320 gradient steps,
// double Q-learning, MSE, Adam with lr 1e-3, ε 0.1 while training and 0.05
// while testing.
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 1e-3
	return Config{
		Hidden:           []int{128, 128, 128, 128},
		Gamma:            0.9,
		NStep:            3,
		TargetUpdateFreq: 320,
		Double:           true,
		Loss:             MSE,
		HuberDelta:       1,
		Optim:            o,
		EpsTrain:         0.1,
		EpsTest:          0.05,
	}
}

// ApplyMode sets the options of one of Machin's DQN modes: Vanilla removes
// the target network; FixedTarget and Double keep it (a hard copy every
// TargetUpdateFreq steps, or a soft update with Tau; if neither is set,
// Machin's default soft update with τ = 0.005) and turn double Q-learning
// off or on. It returns an error wrapping ErrConfig for another mode.
func (c *Config) ApplyMode(m Mode) error {
	switch m {
	case Vanilla:
		c.TargetUpdateFreq, c.Tau, c.Double = 0, 0, false
		return nil
	case FixedTarget, Double:
		if c.TargetUpdateFreq <= 0 && c.Tau <= 0 {
			c.Tau = 0.005
		}
		c.Double = m == Double
		return nil
	}
	return fmt.Errorf("%w: unknown mode %q (want vanilla, fixed_target or double)", ErrConfig, m)
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
	}
	unit := func(x float64) bool { return x >= 0 && x <= 1 }
	switch {
	case !c.CNN && len(c.Hidden) == 0 && c.Dueling != nil:
		return bad("a dueling head needs hidden layers")
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
	case c.Loss != MSE && c.Loss != Huber:
		return bad("loss %q (want mse or huber)", c.Loss)
	case !(c.HuberDelta >= 0 && !math.IsInf(c.HuberDelta, 0)):
		return bad("huber_delta %v", c.HuberDelta)
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
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	for _, h := range c.Hidden {
		if h < 1 {
			return bad("hidden sizes %v", c.Hidden)
		}
	}
	if len(c.Conv) > 0 && c.CNN {
		return bad("both cnn and conv are set")
	}
	for _, l := range c.Conv {
		if err := l.Validate(); err != nil {
			return fmt.Errorf("%w: %w", ErrConfig, err)
		}
	}
	return c.Optim.Validate()
}

// target reports whether the configuration keeps a target network.
func (c Config) target() bool { return c.TargetUpdateFreq > 0 || c.Tau > 0 }
