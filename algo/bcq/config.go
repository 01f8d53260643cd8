package bcq

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gorl/gorl/algo"
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

	// Threshold is the paper's τ in [0, 1]: an action is eligible when
	// its imitation probability is at least Threshold times the largest
	// one, G(a|s)/max G(·|s) ≥ τ; 0 makes every action eligible (DQN),
	// 1 only the most likely (behaviour cloning). Default 0.6.
	Threshold float64 `json:"threshold"`
	// ImitationPenalty is the weight λ of the imitation logits' mean
	// square in the loss, ≥ 0. Default 0.01.
	ImitationPenalty float64 `json:"imitation_penalty"`

	// Eps is ε of ε-greedy exploration, in [0, 1], applied when the policy
	// acts with exploration on (a test collector with exploration, as
	// Tianshou's test does with eval_eps). Default 0.001.
	Eps float64 `json:"eps"`

	// QSettings are γ, the returns' steps, the target update, Adam (over
	// both networks' parameters) and clipping. Default γ 0.99, 3-step
	// returns, a copy every 320 steps, lr 3e-4, no clipping. Tau 0.005 is
	// the paper's choice outside Atari.
	algo.QSettings
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
		Threshold:        0.6,
		ImitationPenalty: 0.01,
		Eps:              0.001,
		QSettings:        algo.QSettings{Gamma: 0.99, NStep: 3, TargetUpdateFreq: 320, Optim: o},
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
	}
	unit := func(x float64) bool { return x >= 0 && x <= 1 }
	if err := c.QSettings.Validate(ErrConfig); err != nil {
		return err
	}
	switch {
	case !unit(c.Threshold):
		return bad("threshold %v outside [0, 1]", c.Threshold)
	case !(c.ImitationPenalty >= 0) || math.IsInf(c.ImitationPenalty, 0):
		return bad("imitation_penalty %v", c.ImitationPenalty)
	case !unit(c.Eps):
		return bad("eps %v outside [0, 1]", c.Eps)
	}
	for _, h := range c.Hidden {
		if h < 1 {
			return bad("hidden sizes %v", c.Hidden)
		}
	}
	return nil
}

func (c Config) clone() Config {
	c.Hidden = slices.Clone(c.Hidden)
	return c
}
