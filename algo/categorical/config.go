package categorical

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate and Init for an invalid
// configuration, or networks that do not fit the spaces.
var ErrConfig = errors.New("categorical: invalid configuration")

// Settings holds the hyperparameters C51 and Rainbow share. They embed it,
// so its fields sit at the top level of their JSON; each algorithm's
// DefaultConfig fills it.
type Settings struct {
	// Hidden lists the hidden layer sizes of the network's trunk, an MLP
	// with ReLU (for 1-d observations), each at least 1.
	Hidden []int `json:"hidden"`
	// CNN selects the Nature-DQN convolutional trunk (nn.NatureCNN, 512
	// features) for observations [channels, 84, 84] of raw pixels; Hidden
	// is then ignored.
	CNN bool `json:"cnn"`
	// Conv, when set, puts convolutions, each followed by a ReLU, before
	// the Hidden layers, for observations [channels, height, width] such as
	// MinAtar's grids.
	Conv []nn.ConvSpec `json:"conv"`

	// NumAtoms is the number of atoms N ≥ 2 of the return distribution,
	// evenly spaced over [VMin, VMax].
	NumAtoms int `json:"num_atoms"`
	// VMin < VMax bound the support of the return distribution.
	VMin float64 `json:"v_min"`
	VMax float64 `json:"v_max"`

	// Gamma is the discount factor γ in [0, 1].
	Gamma float64 `json:"gamma"`
	// NStep is the number of steps of the returns, at least 1.
	NStep int `json:"n_step"`
	// TargetUpdateFreq, when positive, keeps a target network copied from
	// the online network every TargetUpdateFreq gradient steps.
	TargetUpdateFreq int `json:"target_update_freq"`
	// Tau, when positive, moves a target network towards the online
	// network by Polyak averaging after every gradient step instead. At
	// most one of TargetUpdateFreq and Tau may be positive; with neither
	// there is no target network.
	Tau float64 `json:"tau"`
	// Optim configures Adam.
	Optim optim.AdamConfig `json:"optim"`
	// MaxGradNorm, when positive, clips the gradients' global L2 norm
	// before each step; 0 does not clip.
	MaxGradNorm float64 `json:"max_grad_norm"`

	// BetaFinal and BetaAnnealSteps anneal the importance-sampling exponent
	// β of a prioritized buffer linearly from its configured value to
	// BetaFinal over the first BetaAnnealSteps env steps; 0 steps leaves β
	// alone.
	BetaFinal       float64 `json:"beta_final"`
	BetaAnnealSteps int64   `json:"beta_anneal_steps"`
}

// DefaultSettings returns what Tianshou's CartPole tests of C51 and Rainbow
// share (test/discrete/test_c51.py, test_rainbow.py): a trunk of four
// hidden layers of 128, 51 atoms over [−10, 10], γ = 0.9, 3-step returns, a
// target network copied every 320 gradient steps, Adam with lr 1e-3.
func DefaultSettings() Settings {
	o := optim.DefaultAdamConfig()
	o.LR = 1e-3
	return Settings{
		Hidden:   []int{128, 128, 128, 128},
		NumAtoms: 51, VMin: -10, VMax: 10,
		Gamma: 0.9, NStep: 3, TargetUpdateFreq: 320,
		Optim: o,
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (s Settings) Validate() error {
	unit := func(x float64) bool { return x >= 0 && x <= 1 }
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case !s.CNN && len(s.Hidden) == 0:
		return bad("hidden is empty")
	case s.NumAtoms < 2:
		return bad("num_atoms %d < 2", s.NumAtoms)
	case !finite(s.VMin) || !finite(s.VMax) || !(s.VMin < s.VMax):
		return bad("v_min %v, v_max %v: want finite v_min < v_max", s.VMin, s.VMax)
	case !unit(s.Gamma):
		return bad("gamma %v outside [0, 1]", s.Gamma)
	case s.NStep < 1:
		return bad("n_step %d < 1", s.NStep)
	case s.TargetUpdateFreq < 0:
		return bad("target_update_freq %d < 0", s.TargetUpdateFreq)
	case !unit(s.Tau):
		return bad("tau %v outside [0, 1]", s.Tau)
	case s.TargetUpdateFreq > 0 && s.Tau > 0:
		return bad("both target_update_freq and tau are set")
	case !(s.MaxGradNorm >= 0) || math.IsInf(s.MaxGradNorm, 0):
		return bad("max_grad_norm %v", s.MaxGradNorm)
	case s.BetaAnnealSteps < 0:
		return bad("beta_anneal_steps %d < 0", s.BetaAnnealSteps)
	case s.CNN && len(s.Conv) > 0:
		return bad("both cnn and conv are set")
	case s.BetaAnnealSteps > 0 && !(s.BetaFinal >= 0 && finite(s.BetaFinal)):
		return bad("beta_final %v", s.BetaFinal)
	}
	if err := sizes("hidden", s.Hidden); err != nil {
		return err
	}
	for _, l := range s.Conv {
		if err := l.Validate(); err != nil {
			return fmt.Errorf("%w: %w", ErrConfig, err)
		}
	}
	if err := s.Optim.Validate(); err != nil {
		return bad("optim: %v", err)
	}
	return nil
}

// target reports whether the settings keep a target network.
func (s Settings) target() bool { return s.TargetUpdateFreq > 0 || s.Tau > 0 }

// Head describes the layers after the trunk.
type Head struct {
	// Dueling splits the head into a value stream (NumAtoms outputs) and
	// an advantage stream (actions × NumAtoms), combined atom by atom
	// (nn.Dueling with Atoms); otherwise one stream gives the logits.
	Dueling bool `json:"dueling"`
	// ValueHidden and AdvantageHidden list the hidden sizes of the two
	// dueling streams; empty means one layer each.
	ValueHidden     []int `json:"value_hidden"`
	AdvantageHidden []int `json:"advantage_hidden"`
	// NoisyStd σ₀, when positive, makes every layer of the head a
	// nn.NoisyLinear with σ initialized to σ₀/√in, its noise drawn anew at
	// every update; 0 keeps plain linear layers.
	NoisyStd float64 `json:"noisy_std"`
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (h Head) Validate() error {
	if !(h.NoisyStd >= 0) || math.IsInf(h.NoisyStd, 0) {
		return bad("noisy_std %v", h.NoisyStd)
	}
	if err := sizes("value_hidden", h.ValueHidden); err != nil {
		return err
	}
	return sizes("advantage_hidden", h.AdvantageHidden)
}

// Exploration is the ε-greedy exploration of an algorithm without noisy
// layers: ε while collecting training data, annealed linearly from EpsTrain
// to EpsTrainFinal over the first EpsDecaySteps env steps (0: constant),
// and EpsTest while testing. Its fields sit at the top level of the JSON of
// the Config that embeds it.
type Exploration struct {
	EpsTrain      float64 `json:"eps_train"`
	EpsTrainFinal float64 `json:"eps_train_final"`
	EpsDecaySteps int64   `json:"eps_decay_steps"`
	EpsTest       float64 `json:"eps_test"`
	// Hold makes the ε-greedy exploration temporally extended (εz-greedy,
	// policy.HoldConfig): an exploring env keeps its random action for a
	// duration drawn from a zeta distribution. Default off.
	Hold policy.HoldConfig `json:"ez_greedy"`
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (e Exploration) Validate() error {
	unit := func(x float64) bool { return x >= 0 && x <= 1 }
	switch {
	case !unit(e.EpsTrain) || !unit(e.EpsTrainFinal) || !unit(e.EpsTest):
		return bad("ε (eps_train %v, eps_train_final %v, eps_test %v) outside [0, 1]", e.EpsTrain, e.EpsTrainFinal, e.EpsTest)
	case e.EpsDecaySteps < 0:
		return bad("eps_decay_steps %d < 0", e.EpsDecaySteps)
	}
	if err := e.Hold.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
}

func sizes(name string, hs []int) error {
	for _, h := range hs {
		if h < 1 {
			return bad("%s %v", name, hs)
		}
	}
	return nil
}
