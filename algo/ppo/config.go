package ppo

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/optim"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration.
var ErrConfig = errors.New("ppo: invalid configuration")

// Config holds the hyperparameters of PPO: the actor-critic settings it
// shares with A2C (embedded, so their fields sit at the top level of the
// JSON; VFCoef weighs the value loss L_V) and the clipping options. DefaultConfig
// returns the settings of Tianshou's CartPole PPO test, ContinuousConfig
// those of its Pendulum test; a zero field means "off" or the default its
// comment names.
type Config struct {
	actorcritic.OnPolicy
	// EpsClip is ε of the clipped objective, the ratio π/π_old being
	// clipped to [1 − ε, 1 + ε], in (0, 1). Default 0.2.
	EpsClip float64 `json:"eps_clip"`
	// DualClip, when positive, is the lower bound c > 1 of the dual-clip
	// objective (Ye et al., "Mastering Complex Control in MOBA Games with
	// Deep Reinforcement Learning", 2020): for negative advantages the
	// objective is max(min(r·Â, clip(r)·Â), c·Â). Default 0: off.
	DualClip float64 `json:"dual_clip"`
	// ValueClip clips the value loss as the policy's: max((G − V)², (G −
	// V_clip)²) with V_clip = V_old + clip(V − V_old, −ε, ε). Default false.
	ValueClip bool `json:"value_clip"`
	// AdvantageNormalization standardizes the advantages of every
	// minibatch, (Â − mean)/(std + 10⁻⁸) with the sample standard deviation.
	// Default false.
	AdvantageNormalization bool `json:"advantage_normalization"`
	// RecomputeAdvantage recomputes the values, returns and advantages with
	// the current critic before every pass after the first (Andrychowicz
	// et al., "What Matters in On-Policy Reinforcement Learning?", 2020).
	// Default false.
	RecomputeAdvantage bool `json:"recompute_advantage"`
}

// DefaultConfig returns the settings of Tianshou's CartPole PPO test
// (test/discrete/test_ppo_discrete.py): one MLP trunk with two hidden layers
// of 64 shared by a linear actor and a linear critic, orthogonal weights
// (gain 1) and zero biases, Adam with lr 3e-4, γ = 0.99, λ = 0.95, ε = 0.2,
// value coefficient 0.5, no entropy bonus, gradient norm clipped at 0.5, no
// value clipping, no advantage normalization, deterministic evaluation.
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 3e-4
	return Config{
		OnPolicy: actorcritic.OnPolicy{
			Net:       actorcritic.NetConfig{Hidden: []int{64, 64}, Shared: true, OrthogonalGain: 1},
			Policy:    actorcritic.DefaultPolicy(),
			Gamma:     0.99,
			GAELambda: 0.95,
			VFCoef:    0.5,
			Training:  actorcritic.Training{Optim: o, MaxGradNorm: 0.5},
		},
		EpsClip: 0.2,
	}
}

// ContinuousConfig returns the settings of Tianshou's Pendulum PPO test
// (test/continuous/test_ppo.py): separate actor and critic MLPs with two
// hidden layers of 64, orthogonal weights (gain 1) and zero biases, a Normal
// head with a state-independent σ starting at 1, Adam with lr 1e-3, γ =
// 0.95, λ = 0.95, ε = 0.2, value coefficient 0.25, no entropy bonus, gradient
// norm clipped at 0.5, return scaling, value clipping and advantage
// normalization; actions clipped to [−1, 1] and scaled to the Box; and
// deterministic evaluation, which that test leaves off.
func ContinuousConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 1e-3
	return Config{
		OnPolicy: actorcritic.OnPolicy{
			Net:           actorcritic.NetConfig{Hidden: []int{64, 64}, OrthogonalGain: 1},
			Policy:        actorcritic.DefaultPolicy(),
			Gamma:         0.95,
			GAELambda:     0.95,
			VFCoef:        0.25,
			ReturnScaling: true,
			Training:      actorcritic.Training{Optim: o, MaxGradNorm: 0.5},
		},
		EpsClip:                0.2,
		ValueClip:              true,
		AdvantageNormalization: true,
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	if err := c.OnPolicy.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	switch {
	case !(c.EpsClip > 0 && c.EpsClip < 1):
		return fmt.Errorf("%w: eps_clip %v outside (0, 1)", ErrConfig, c.EpsClip)
	case c.DualClip != 0 && !(c.DualClip > 1 && !math.IsInf(c.DualClip, 0)):
		return fmt.Errorf("%w: dual_clip %v; want 0 (off) or finite > 1", ErrConfig, c.DualClip)
	}
	return nil
}
