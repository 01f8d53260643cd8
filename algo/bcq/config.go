package bcq

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gorl/gorl/optim"
)

// ErrConfig is wrapped by the errors of Validate, New and NewWithNetworks
// for an invalid configuration or networks that do not fit it.
var ErrConfig = errors.New("bcq: invalid configuration")

// Config holds the hyperparameters of discrete BCQ. DefaultConfig returns
// the settings of Tianshou's CartPole test; a zero field means "off" or the
// default its comment names.
type Config struct {
	// Hidden lists the hidden layer sizes of the Q network and of the
	// imitation network, two MLPs with ReLU of the same shape. Default
	// [64, 64].
	Hidden []int `json:"hidden"`

	// Gamma is the discount factor γ in [0, 1]. Default 0.99.
	Gamma float64 `json:"gamma"`
	// NStep is the number of steps of the returns, at least 1. Default 3.
	NStep int `json:"n_step"`
	// TargetUpdateFreq, when positive, copies the Q network into the
	// target network every TargetUpdateFreq gradient steps (a hard update).
	// Default 320.
	TargetUpdateFreq int `json:"target_update_freq"`
	// Tau, when positive, moves the target network towards the Q network
	// by Polyak averaging after every gradient step, θ′ ← τθ + (1 − τ)θ′
	// (the paper's choice outside Atari, τ = 0.005). Exactly one of
	// TargetUpdateFreq and Tau must be positive. Default 0.
	Tau float64 `json:"tau"`

	// Threshold is the paper's τ in [0, 1]: an action is eligible when
	// its imitation probability is at least Threshold times the largest
	// one, G(a|s)/max G(·|s) ≥ τ; 0 makes every action eligible (DQN),
	// 1 only the most likely (behaviour cloning). Default 0.6.
	Threshold float64 `json:"threshold"`
	// ImitationPenalty is the weight λ of the imitation logits' mean
	// square in the loss, ≥ 0. Default 0.01.
	ImitationPenalty float64 `json:"imitation_penalty"`

	// Optim configures Adam, over the parameters of both networks. Default
	// PyTorch's Adam with lr 3e-4.
	Optim optim.AdamConfig `json:"optim"`
	// MaxGradNorm, when positive, clips the gradients' global L2 norm
	// before each step. Default 0: no clipping.
	MaxGradNorm float64 `json:"max_grad_norm"`

	// Eps is ε of ε-greedy exploration, in [0, 1], applied when the policy
	// acts with exploration on (a test collector with exploration, as
	// Tianshou's test does with eval_eps). Default 0.001.
	Eps float64 `json:"eps"`
}

// DefaultConfig returns the settings of Tianshou's CartPole test of discrete
// BCQ (test/offline/test_discrete_bcq.py): MLPs with two hidden layers of
// 64, γ = 0.99, 3-step returns, a target network copied every 320 gradient
// steps, threshold 0.6, imitation penalty 0.01, Adam with lr 3e-4, ε 0.001.
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 3e-4
	return Config{
		Hidden:           []int{64, 64},
		Gamma:            0.99,
		NStep:            3,
		TargetUpdateFreq: 320,
		Threshold:        0.6,
		ImitationPenalty: 0.01,
		Optim:            o,
		Eps:              0.001,
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
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
	case (c.TargetUpdateFreq > 0) == (c.Tau > 0):
		return bad("set exactly one of target_update_freq (%d) and tau (%v)", c.TargetUpdateFreq, c.Tau)
	case !unit(c.Threshold):
		return bad("threshold %v outside [0, 1]", c.Threshold)
	case !(c.ImitationPenalty >= 0) || math.IsInf(c.ImitationPenalty, 0):
		return bad("imitation_penalty %v", c.ImitationPenalty)
	case !(c.MaxGradNorm >= 0) || math.IsInf(c.MaxGradNorm, 0):
		return bad("max_grad_norm %v", c.MaxGradNorm)
	case !unit(c.Eps):
		return bad("eps %v outside [0, 1]", c.Eps)
	}
	for _, h := range c.Hidden {
		if h < 1 {
			return bad("hidden sizes %v", c.Hidden)
		}
	}
	if err := c.Optim.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}

func (c Config) clone() Config {
	c.Hidden = slices.Clone(c.Hidden)
	return c
}
