package rppo

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or spaces the algorithm does not support.
var ErrConfig = errors.New("rppo: invalid configuration")

// Config holds the hyperparameters of recurrent PPO. A zero field means
// "off" where its comment says so; DefaultConfig fills the others.
type Config struct {
	// Cell is the recurrent cell, CellGRU or CellLSTM. Default "gru".
	Cell string `json:"cell"`
	// Hidden is the size of the cell's hidden state (an LSTM keeps a cell
	// state of the same size beside it). Default 64.
	Hidden int `json:"hidden"`
	// SeparateTrunks gives the critic a recurrent cell of its own instead
	// of sharing the actor's; both states are stored with each
	// transition. Default false: shared.
	SeparateTrunks bool `json:"separate_trunks"`
	// HeadHidden are the hidden layers (tanh) of the actor's and the
	// critic's MLPs after the cell; empty means linear heads. Default [64].
	HeadHidden []int `json:"head_hidden"`
	// LogStdInit is the initial log standard deviation of the Gaussian
	// over Box actions: of its state-independent σ, or with SDE of σ per
	// feature and action dimension. Default 0.
	LogStdInit float64 `json:"log_std_init"`
	// SDE explores a Box action space with generalized state-dependent
	// exploration (actorcritic.SDEHead) instead of independent Gaussian
	// noise at every step, as PPO's net.use_sde: the noise is the actor's
	// features times an exploration matrix, the features being the output
	// of the last of HeadHidden's layers, or the cell's output h when
	// HeadHidden is empty. Default false.
	SDE bool `json:"use_sde"`
	// SDESampleFreq is the number of samples (acting steps) between two
	// draws of the exploration matrices with SDE; 0 means every sample.
	// The matrices are redrawn at the start of every collection as well.
	// It needs SDE. Default 0.
	SDESampleFreq int `json:"sde_sample_freq"`
	// SeqLen is the length of the sequences the update learns from
	// (actorcritic.Chunks): longer ones carry gradients further back in
	// time. Default 16.
	SeqLen int `json:"seq_len"`
	// Training holds Adam's settings and the gradient-norm clip.
	// Default lr 1e-3, clip 0.5.
	Training actorcritic.Training `json:"training"`
	// Gamma and GAELambda are γ and λ of GAE, in [0, 1]. Default 0.98 and
	// 0.8.
	Gamma     float64 `json:"gamma"`
	GAELambda float64 `json:"gae_lambda"`
	// EpsClip is ε of the clipped objective, in (0, 1). Default 0.2.
	EpsClip float64 `json:"eps_clip"`
	// VFCoef weighs the value loss, ≥ 0. Default 0.5.
	VFCoef float64 `json:"vf_coef"`
	// EntCoef weighs the entropy bonus, ≥ 0. Default 0: off.
	EntCoef float64 `json:"ent_coef"`
	// AdvantageNormalization standardizes the advantages of every
	// minibatch. Default true.
	AdvantageNormalization bool `json:"advantage_normalization"`
	// DeterministicEval acts with the most likely action while the
	// training-step flag is off. Default true.
	DeterministicEval bool `json:"deterministic_eval"`
	// RewardScale multiplies the rewards the advantages and the critic's
	// returns are computed from, > 0: large returns (Pendulum's) would
	// otherwise dominate the clipped gradient of a shared optimizer step.
	// Default 1.
	RewardScale float64 `json:"reward_scale"`
	// ActionMap maps the Gaussian's actions to a Box action space (bound
	// and scaling, Tianshou's action_bound_method and action_scaling);
	// unused for Discrete actions. Default clip to [−1, 1], then scale to
	// the Box.
	ActionMap policy.BoxMapConfig `json:"action_map"`
}

// DefaultConfig returns the settings the velocity-free CartPole was solved
// with: a GRU of 64 shared by actor and critic, each with one tanh layer of
// 64, sequences of 16 steps, Adam with lr 1e-3, gradient norm clipped at
// 0.5, γ = 0.98, λ = 0.8, ε = 0.2, value coefficient 0.5, no entropy bonus,
// advantage normalization and deterministic evaluation; rewards unscaled,
// Box actions (unused there) clipped to [−1, 1] and scaled to the Box.
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	return Config{
		Cell:                   CellGRU,
		Hidden:                 64,
		HeadHidden:             []int{64},
		SeqLen:                 16,
		Training:               actorcritic.Training{Optim: o, MaxGradNorm: 0.5},
		Gamma:                  0.98,
		GAELambda:              0.8,
		EpsClip:                0.2,
		VFCoef:                 0.5,
		AdvantageNormalization: true,
		DeterministicEval:      true,
		RewardScale:            1,
		ActionMap:              policy.BoxMapConfig{Bound: policy.Clip, Scale: true},
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
	}
	in01 := func(v float64) bool { return v >= 0 && v <= 1 }
	switch {
	case c.Cell != CellGRU && c.Cell != CellLSTM:
		return bad("cell %q; want %q or %q", c.Cell, CellGRU, CellLSTM)
	case c.Hidden < 1:
		return bad("hidden %d; want ≥ 1", c.Hidden)
	case c.SeqLen < 1:
		return bad("seq_len %d; want ≥ 1", c.SeqLen)
	case !in01(c.Gamma):
		return bad("gamma %v outside [0, 1]", c.Gamma)
	case !in01(c.GAELambda):
		return bad("gae_lambda %v outside [0, 1]", c.GAELambda)
	case !(c.EpsClip > 0 && c.EpsClip < 1):
		return bad("eps_clip %v outside (0, 1)", c.EpsClip)
	case !(c.VFCoef >= 0) || math.IsInf(c.VFCoef, 0):
		return bad("vf_coef %v; want finite ≥ 0", c.VFCoef)
	case !(c.EntCoef >= 0) || math.IsInf(c.EntCoef, 0):
		return bad("ent_coef %v; want finite ≥ 0", c.EntCoef)
	case !(c.RewardScale > 0) || math.IsInf(c.RewardScale, 0):
		return bad("reward_scale %v; want finite > 0", c.RewardScale)
	case math.IsNaN(c.LogStdInit) || math.IsInf(c.LogStdInit, 0):
		return bad("log_std_init %v; want finite", c.LogStdInit)
	case c.SDESampleFreq < 0:
		return bad("sde_sample_freq %d; want ≥ 0", c.SDESampleFreq)
	case c.SDESampleFreq != 0 && !c.SDE:
		return bad("sde_sample_freq %d without use_sde", c.SDESampleFreq)
	}
	if err := c.ActionMap.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	for _, h := range c.HeadHidden {
		if h < 1 {
			return bad("head_hidden %v; want sizes ≥ 1", c.HeadHidden)
		}
	}
	if err := c.Training.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}
