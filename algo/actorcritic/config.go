package actorcritic

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
)

// ErrConfig is wrapped by the errors of Validate, the constructors and
// Init for an invalid configuration or networks that do not fit the env's
// spaces.
var ErrConfig = errors.New("actorcritic: invalid configuration")

// NetConfig describes the networks New builds for a Box observation space
// of one axis: MLPs from the observation to the actor's output (the logits
// of a Discrete action space, the mean of a Normal over a Box action space)
// and, for actor-critic algorithms, to the state value.
type NetConfig struct {
	// Hidden lists the hidden layer sizes of the MLPs, each at least 1.
	// Default [64, 64].
	Hidden []int `json:"hidden"`
	// Activation follows every hidden layer. "" means ReLU.
	Activation nn.Activation `json:"activation"`
	// Shared makes the actor and the critic one network with two heads:
	// a trunk of the hidden layers and a linear layer each for the actor
	// and the critic (Tianshou's actor and critic over one preprocess net).
	// Without it they are separate MLPs with the same hidden sizes. It needs
	// hidden layers. Default false.
	Shared bool `json:"shared"`
	// OrthogonalGain, when positive, initializes every weight matrix
	// orthogonally with this gain and every bias with 0, as Tianshou's
	// on-policy tests do (gain 1 for PPO, √2 for REINFORCE); 0 keeps
	// PyTorch's default initialization. Default √2.
	OrthogonalGain float64 `json:"orthogonal_gain"`
	// LogStdInit is the initial log standard deviation of the Normal head
	// of a Box action space (a parameter of the policy, independent of the
	// observation). Default 0: σ = 1.
	LogStdInit float64 `json:"log_std_init"`
	// SDE explores a Box action space with generalized state-dependent
	// exploration (an SDEHead over the actor's last hidden layer) instead
	// of independent Gaussian noise at every step; LogStdInit then starts
	// its σ per feature and action dimension. It needs hidden layers.
	// Default false.
	SDE bool `json:"use_sde"`
	// SDESampleFreq is the number of samples (acting steps) between two
	// draws of the exploration matrices with SDE; 0 means every sample.
	// With one env and the collection's length it draws once per
	// collection, as Stable-Baselines3's sde_sample_freq = −1 does.
	SDESampleFreq int `json:"sde_sample_freq"`
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c NetConfig) Validate() error {
	for _, h := range c.Hidden {
		if h < 1 {
			return fmt.Errorf("%w: hidden sizes %v", ErrConfig, c.Hidden)
		}
	}
	if c.SDE && len(c.Hidden) == 0 {
		return fmt.Errorf("%w: state-dependent exploration needs hidden layers", ErrConfig)
	}
	if c.SDESampleFreq < 0 {
		return fmt.Errorf("%w: sde_sample_freq %d < 0", ErrConfig, c.SDESampleFreq)
	}
	if c.Shared && len(c.Hidden) == 0 {
		return fmt.Errorf("%w: a shared trunk needs hidden layers", ErrConfig)
	}
	if c.Activation != "" {
		if err := c.Activation.Validate(); err != nil {
			return fmt.Errorf("%w: %w", ErrConfig, err)
		}
	}
	if math.IsNaN(c.LogStdInit) || math.IsInf(c.LogStdInit, 0) {
		return fmt.Errorf("%w: log_std_init %v", ErrConfig, c.LogStdInit)
	}
	if !(c.OrthogonalGain >= 0) || math.IsInf(c.OrthogonalGain, 0) {
		return fmt.Errorf("%w: orthogonal_gain %v", ErrConfig, c.OrthogonalGain)
	}
	return nil
}

// Training holds the optimization settings the on-policy algorithms of this
// family share (embedded in their Configs, so its fields sit at the top level
// of their JSON): Adam, gradient-norm clipping and learning-rate decay.
type Training struct {
	// Optim configures Adam. Default PyTorch's Adam with the learning rate
	// the algorithm's DefaultConfig names.
	Optim optim.AdamConfig `json:"optim"`
	// MaxGradNorm, when positive, clips the gradients' global L2 norm
	// before each step. Default 0: no clipping.
	MaxGradNorm float64 `json:"max_grad_norm"`
	// LRDecaySteps, when positive, decays the learning rate linearly from
	// Optim.LR to 0 over that many env steps of training (applied through
	// algo.Scheduled; Tianshou's and CleanRL's linear learning-rate
	// annealing). Default 0: a constant rate.
	LRDecaySteps int64 `json:"lr_decay_steps"`
}

// Validate returns an error naming the first invalid field, or nil.
func (t Training) Validate() error {
	switch {
	case !(t.MaxGradNorm >= 0) || math.IsInf(t.MaxGradNorm, 0):
		return fmt.Errorf("max_grad_norm %v", t.MaxGradNorm)
	case t.LRDecaySteps < 0:
		return fmt.Errorf("lr_decay_steps %d < 0", t.LRDecaySteps)
	}
	return t.Optim.Validate()
}

// DefaultPolicy returns the acting configuration of the on-policy
// algorithms' defaults: the most likely action when testing (Tianshou's
// deterministic_eval), and Box actions clipped to [−1, 1] and scaled to the
// space's bounds (Tianshou's action_bound_method "clip" with
// action_scaling).
func DefaultPolicy() policy.ActorConfig {
	return policy.ActorConfig{DeterministicEval: true, Map: policy.BoxMapConfig{Bound: policy.Clip, Scale: true}}
}

// OnPolicy holds the settings the actor-critic algorithms with GAE share
// (A2C, and PPO, which adds its clipping options). They embed it, so its
// fields sit at the top level of their JSON; a zero field means "off" or the
// default its comment names, and each algorithm's DefaultConfig fills it.
type OnPolicy struct {
	// Net describes the actor and critic networks.
	Net NetConfig `json:"net"`
	// Policy configures the acting policy. Default DefaultPolicy().
	Policy policy.ActorConfig `json:"policy"`
	// Gamma is the discount factor γ in [0, 1].
	Gamma float64 `json:"gamma"`
	// GAELambda is λ of generalized advantage estimation in [0, 1]: 0
	// gives one-step TD errors, 1 Monte-Carlo returns minus the value.
	GAELambda float64 `json:"gae_lambda"`
	// VFCoef weighs the value loss in the total loss, ≥ 0.
	VFCoef float64 `json:"vf_coef"`
	// EntCoef weighs the entropy bonus: the loss subtracts EntCoef times
	// the policy's mean entropy, ≥ 0. Default 0.
	EntCoef float64 `json:"ent_coef"`
	// ReturnScaling divides the returns the critic learns by the running
	// standard deviation of all returns so far, √(σ² + 10⁻⁸), and
	// multiplies the critic's values by it when estimating advantages
	// (Tianshou's return_scaling; see GAE). Default false.
	ReturnScaling bool `json:"return_scaling"`
	Training
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c OnPolicy) Validate() error {
	if err := c.Net.Validate(); err != nil {
		return err
	}
	unit := func(x float64) bool { return x >= 0 && x <= 1 }
	nonneg := func(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }
	switch {
	case !unit(c.Gamma):
		return fmt.Errorf("%w: gamma %v outside [0, 1]", ErrConfig, c.Gamma)
	case !unit(c.GAELambda):
		return fmt.Errorf("%w: gae_lambda %v outside [0, 1]", ErrConfig, c.GAELambda)
	case !nonneg(c.VFCoef) || !nonneg(c.EntCoef):
		return fmt.Errorf("%w: vf_coef %v, ent_coef %v; want finite ≥ 0", ErrConfig, c.VFCoef, c.EntCoef)
	}
	if err := c.Policy.Map.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := c.Training.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}
