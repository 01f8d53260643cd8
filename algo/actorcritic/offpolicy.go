package actorcritic

import (
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// Continuous holds the settings the off-policy actor-critics for Box
// actions share (DDPG, TD3, SAC, REDQ). They embed it, so its fields sit at
// the top level of their JSON; each algorithm's DefaultConfig fills it.
type Continuous struct {
	// ActorHidden lists the actor MLP's hidden layer sizes (ReLU), each at
	// least 1.
	ActorHidden []int `json:"actor_hidden"`
	// Critic describes each critic Q(s, a).
	Critic CriticConfig `json:"critic"`
	// Gamma is the discount factor γ in [0, 1].
	Gamma float64 `json:"gamma"`
	// Tau is the Polyak coefficient τ in (0, 1] of the target networks'
	// updates, θ′ ← τθ + (1 − τ)θ′ (1 copies).
	Tau float64 `json:"tau"`
	// NStep is the number of steps of the returns (algo.NStep), at least 1.
	NStep int `json:"n_step"`
	// ActorOptim and CriticOptim configure the actor's and the critics'
	// Adam (with gradient-norm clipping when MaxGradNorm is positive).
	ActorOptim  Training `json:"actor_optim"`
	CriticOptim Training `json:"critic_optim"`
	// Map maps the policy's raw actions to the Box: Tianshou's default
	// clips them to [−1, 1] and scales them to the bounds.
	Map policy.BoxMapConfig `json:"map"`
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Continuous) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
	}
	switch {
	case len(c.ActorHidden) == 0:
		return bad("actor_hidden is empty")
	case !(c.Gamma >= 0 && c.Gamma <= 1):
		return bad("gamma %v outside [0, 1]", c.Gamma)
	case !(c.Tau > 0 && c.Tau <= 1):
		return bad("tau %v outside (0, 1]", c.Tau)
	case c.NStep < 1:
		return bad("n_step %d < 1", c.NStep)
	}
	for _, h := range c.ActorHidden {
		if h < 1 {
			return bad("actor_hidden %v", c.ActorHidden)
		}
	}
	for _, h := range c.Critic.Hidden {
		if h < 1 {
			return bad("critic.hidden %v", c.Critic.Hidden)
		}
	}
	if c.Critic.ActionLater && len(c.Critic.Hidden) == 0 {
		return bad("critic.action_later needs critic.hidden")
	}
	if err := c.ActorOptim.Validate(); err != nil {
		return bad("actor_optim: %v", err)
	}
	if err := c.CriticOptim.Validate(); err != nil {
		return bad("critic_optim: %v", err)
	}
	if err := c.Map.Validate(); err != nil {
		return bad("map: %v", err)
	}
	return nil
}

// DefaultContinuous returns the settings Tianshou's Pendulum tests of DDPG,
// TD3 and SAC share: actor and critics with two hidden layers of 128, γ =
// 0.99, τ = 0.005, 3-step returns, Adam with lr 1e-3 for both, actions
// clipped to [−1, 1] and scaled to the bounds.
func DefaultContinuous() Continuous {
	adam := func(lr float64) Training {
		o := optim.DefaultAdamConfig()
		o.LR = lr
		return Training{Optim: o}
	}
	return Continuous{
		ActorHidden: []int{128, 128},
		Critic:      CriticConfig{Hidden: []int{128, 128}},
		Gamma:       0.99,
		Tau:         0.005,
		NStep:       3,
		ActorOptim:  adam(1e-3),
		CriticOptim: adam(1e-3),
		Map:         policy.BoxMapConfig{Bound: policy.Clip, Scale: true},
	}
}

// QBatch reads the columns an off-policy actor-critic's update needs from a
// preprocessed batch, as tensors on a tape: the zero value is ready to use.
type QBatch struct {
	Obs, Act, Returns *tensor.Tensor
}

// Read sets q's tensors, on tp, to b's "obs" [k, n], "act" [k, m] and
// "returns" [k] (float arrays; float32 ones are used without copying). It
// returns an error naming a key that is missing or has another shape.
func (q *QBatch) Read(tp *tensor.Tape, b *batch.Batch, m int) error {
	get := func(key string) (*tensor.Tensor, error) {
		a, err := b.Array(key)
		if err != nil {
			return nil, fmt.Errorf("actorcritic: %w", err)
		}
		t, err := tp.FromND(a)
		if err != nil {
			return nil, fmt.Errorf("actorcritic: %s: %w", key, err)
		}
		return t, nil
	}
	var err error
	if q.Obs, err = get(batch.KeyObs); err != nil {
		return err
	}
	if q.Act, err = get(batch.KeyAct); err != nil {
		return err
	}
	if q.Returns, err = get(batch.KeyReturns); err != nil {
		return fmt.Errorf("%w (run Preprocess first)", err)
	}
	k := q.Obs.Dim(0)
	switch {
	case q.Obs.NDim() != 2:
		return fmt.Errorf("actorcritic: obs of shape %v; want [k, n]", q.Obs.Shape())
	case q.Act.NDim() != 2 || q.Act.Dim(0) != k || q.Act.Dim(1) != m:
		return fmt.Errorf("actorcritic: act of shape %v; want [%d %d]", q.Act.Shape(), k, m)
	case q.Returns.NDim() != 1 || q.Returns.Dim(0) != k:
		return fmt.Errorf("actorcritic: returns of shape %v; want [%d]", q.Returns.Shape(), k)
	}
	return nil
}

// ReadObs returns b's "obs" as a tensor on tp, for the actor's step on
// another tape than the critics'.
func ReadObs(tp *tensor.Tape, b *batch.Batch) (*tensor.Tensor, error) {
	a, err := b.Array(batch.KeyObs)
	if err != nil {
		return nil, fmt.Errorf("actorcritic: %w", err)
	}
	t, err := tp.FromND(a)
	if err != nil {
		return nil, fmt.Errorf("actorcritic: obs: %w", err)
	}
	return t, nil
}

// NextObs returns the observations of a batch a target function of
// algo.QReturns receives ("obs" holding obs_next) as a tensor on tp.
func NextObs(tp *tensor.Tape, next *batch.Batch) (*tensor.Tensor, error) {
	a, err := next.Array(batch.KeyObs)
	if err != nil {
		return nil, fmt.Errorf("actorcritic: obs_next: %w", err)
	}
	t, err := tp.FromND(a)
	if err != nil {
		return nil, fmt.Errorf("actorcritic: obs_next: %w", err)
	}
	if t.NDim() != 2 {
		return nil, fmt.Errorf("actorcritic: obs_next of shape %v; want [k, n]", t.Shape())
	}
	return t, nil
}
