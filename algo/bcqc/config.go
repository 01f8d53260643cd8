package bcqc

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/optim"
)

// ErrConfig is wrapped by the errors of Validate and New for an invalid
// configuration or a space continuous BCQ does not support.
var ErrConfig = errors.New("bcqc: invalid configuration")

// Config holds continuous BCQ's hyperparameters. DefaultConfig returns the
// settings of Tianshou's Pendulum BCQ test.
type Config struct {
	// ActorHidden lists the hidden layer sizes of the perturbation network
	// Φ(s, a) (ReLU), each at least 1.
	ActorHidden []int `json:"actor_hidden"`
	// Critic describes each of the twin critics Q(s, a).
	Critic actorcritic.CriticConfig `json:"critic"`
	// VAEHidden lists the hidden layer sizes (ReLU) of the VAE's encoder
	// and decoder, at least one, each at least 1.
	VAEHidden []int `json:"vae_hidden"`
	// LatentDim is the VAE's latent size; 0 means twice the action size.
	LatentDim int `json:"latent_dim"`
	// Gamma is the discount factor γ in [0, 1].
	Gamma float64 `json:"gamma"`
	// Tau is the Polyak coefficient τ in (0, 1] of the perturbation
	// network's and the critics' targets.
	Tau float64 `json:"tau"`
	// Lambda is λ in [0, 1] of the target λ·min(Q′₁, Q′₂) + (1 − λ)·max(Q′₁,
	// Q′₂) (BCQ's soft clipped double Q-learning).
	Lambda float64 `json:"lambda"`
	// Phi is Φ's largest perturbation, as a fraction of MaxAction, in [0, 1].
	Phi float64 `json:"phi"`
	// NumSampledAction is the number of actions decoded and perturbed per
	// next observation for the target, whose largest value is taken (at
	// least 1).
	NumSampledAction int `json:"num_sampled_action"`
	// ForwardSampledTimes is the number of actions decoded and perturbed
	// per observation when acting, the one of largest Q₁ taken (at least 1).
	ForwardSampledTimes int `json:"forward_sampled_times"`
	// MaxAction is the action bound h in the env's units (finite ≥ 0); 0
	// takes it from an action space [−h, h] in every dimension.
	MaxAction float64 `json:"max_action"`
	// ActorOptim, CriticOptim and VAEOptim configure the three Adams.
	ActorOptim  actorcritic.Training `json:"actor_optim"`
	CriticOptim actorcritic.Training `json:"critic_optim"`
	VAEOptim    actorcritic.Training `json:"vae_optim"`
}

// DefaultConfig returns Tianshou's Pendulum BCQ test settings
// (test/offline/test_bcq.py, with its BCQ's defaults): Φ and the critics
// with one hidden layer of 64, a VAE of 32-32 with a latent of twice the
// action size, γ = 0.99, τ = 0.005, λ = 0.75, φ = 0.05, 10 sampled actions
// per target, 100 per action taken, Adam with lr 1e-3 for all three.
func DefaultConfig() Config {
	adam := func(lr float64) actorcritic.Training {
		o := optim.DefaultAdamConfig()
		o.LR = lr
		return actorcritic.Training{Optim: o}
	}
	return Config{
		ActorHidden: []int{64}, Critic: actorcritic.CriticConfig{Hidden: []int{64}}, VAEHidden: []int{32, 32},
		Gamma: 0.99, Tau: 0.005, Lambda: 0.75, Phi: 0.05, NumSampledAction: 10, ForwardSampledTimes: 100,
		ActorOptim: adam(1e-3), CriticOptim: adam(1e-3), VAEOptim: adam(1e-3),
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
	}
	sizes := func(name string, hs []int, empty bool) error {
		if len(hs) == 0 && !empty {
			return bad("%s is empty", name)
		}
		for _, h := range hs {
			if h < 1 {
				return bad("%s %v", name, hs)
			}
		}
		return nil
	}
	for _, s := range []struct {
		name  string
		hs    []int
		empty bool
	}{{"actor_hidden", c.ActorHidden, true}, {"critic.hidden", c.Critic.Hidden, true}, {"vae_hidden", c.VAEHidden, false}} {
		if err := sizes(s.name, s.hs, s.empty); err != nil {
			return err
		}
	}
	switch {
	case c.Critic.ActionLater && len(c.Critic.Hidden) == 0:
		return bad("critic.action_later needs critic.hidden")
	case c.LatentDim < 0:
		return bad("latent_dim %d < 0", c.LatentDim)
	case !(c.Gamma >= 0 && c.Gamma <= 1):
		return bad("gamma %v outside [0, 1]", c.Gamma)
	case !(c.Tau > 0 && c.Tau <= 1):
		return bad("tau %v outside (0, 1]", c.Tau)
	case !(c.Lambda >= 0 && c.Lambda <= 1):
		return bad("lambda %v outside [0, 1]", c.Lambda)
	case !(c.Phi >= 0 && c.Phi <= 1):
		return bad("phi %v outside [0, 1]", c.Phi)
	case c.NumSampledAction < 1:
		return bad("num_sampled_action %d < 1", c.NumSampledAction)
	case c.ForwardSampledTimes < 1:
		return bad("forward_sampled_times %d < 1", c.ForwardSampledTimes)
	case !(c.MaxAction >= 0) || math.IsInf(c.MaxAction, 0):
		return bad("max_action %v; want finite ≥ 0 (0: the action space's bound)", c.MaxAction)
	}
	for _, o := range []struct {
		name string
		t    actorcritic.Training
	}{{"actor_optim", c.ActorOptim}, {"critic_optim", c.CriticOptim}, {"vae_optim", c.VAEOptim}} {
		if err := o.t.Validate(); err != nil {
			return bad("%s: %v", o.name, err)
		}
	}
	return nil
}
