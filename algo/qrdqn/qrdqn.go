package qrdqn

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/quantile"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// QRDQN is quantile regression DQN (Dabney et al., "Distributional
// Reinforcement Learning with Quantile Regression", 2018): the network
// gives N quantiles of the return distribution of each action at the fixed
// fractions τ̂ᵢ = (2i + 1)/(2N), trained with the quantile Huber loss
// towards the n-step Bellman targets of the target network's quantiles; it
// acts ε-greedily on their mean. It is an algo.OffPolicy algorithm with
// DQN's extensions (n-step returns, target network, double Q-learning,
// prioritized replay, ε and β schedules); its policy is a *policy.Q.
//
// A QRDQN is driven by one goroutine at a time.
type QRDQN struct {
	cfg    Config
	net    *Net
	target *Net // nil without target network
	core   *quantile.Core
	tau    *tensor.Tensor // τ̂ [N]

	tp       tensor.Tape // the update, with gradients
	ntp      tensor.Tape // targets, without
	caller   nn.Caller
	nextCall nn.Caller
	tgtCall  nn.Caller
}

// New returns a QR-DQN for an env with the given spaces: observations a
// Box of one axis (or a masked observation space of one, env.NewMasked),
// actions Discrete. The networks' initial weights and the
// seed of the policy's random source are drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, an action space
// that is not Discrete, or an observation space the MLP cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*QRDQN, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	space, err := quantile.Discrete("QR-DQN", act, ErrConfig)
	if err != nil {
		return nil, err
	}
	box, ok := policy.NetSpace(obs).(*env.Box)
	if !ok || len(box.Shape()) != 1 {
		return nil, fmt.Errorf("%w: the MLP needs a Box observation space of one axis, not %v", ErrConfig, obs)
	}
	in, nAct := box.Shape()[0], int(space.N())
	net, err := NewNet(in, cfg.Hidden, cfg.NumQuantiles, nAct, rng)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	inputs := quantile.Input(obs).Inputs()
	net.inputs = inputs
	var target *Net
	var tps nn.Params
	if cfg.Target() {
		if target, err = NewNet(in, cfg.Hidden, cfg.NumQuantiles, nAct, rng); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		target.inputs = inputs
		tps = target.Params()
	}
	cfg.Hidden = slices.Clone(cfg.Hidden)
	q := &QRDQN{cfg: cfg, net: net, target: target, tau: Fractions(cfg.NumQuantiles)}
	if q.core, err = quantile.NewCore("qrdqn", cfg.Common, net.Params(), tps, QValues{net}, space, rng, ErrConfig); err != nil {
		return nil, err
	}
	q.ntp.SetGradEnabled(false)
	return q, nil
}

// Fractions returns the fixed fractions τ̂ᵢ = (2i + 1)/(2n), i = 0 … n−1,
// of QR-DQN's n quantiles: the midpoints of n equal intervals of [0, 1].
func Fractions(n int) *tensor.Tensor {
	t := tensor.New(n)
	for i, d := 0, t.Data(); i < n; i++ {
		d[i] = float32(2*i+1) / float32(2*n)
	}
	return t
}

// Config returns the configuration.
func (q *QRDQN) Config() Config { return q.cfg }

// Policy returns the ε-greedy policy (a *policy.Q) acting on the mean of
// the online network's quantiles.
func (q *QRDQN) Policy() policy.Policy { return q.core.Policy() }

// Network returns the online quantile network and Target the target
// network (nil without one).
func (q *QRDQN) Network() *Net { return q.net }

// Target returns the target network, or nil.
func (q *QRDQN) Target() *Net { return q.target }

// Params returns the online network's parameters.
func (q *QRDQN) Params() nn.Params { return q.net.Params() }

// Updates returns the number of gradient steps taken.
func (q *QRDQN) Updates() int64 { return q.core.Updates() }

// Schedule sets ε and records the env steps for β (algo.Scheduled).
func (q *QRDQN) Schedule(envSteps int64) { q.core.Schedule(envSteps) }

// Preprocess stores in b under "returns" the n-step distributional targets
// [B, N] of the sampled transitions: Gₜ,ⱼ = Σ γᵏ rₜ₊ₖ + γᵐ·Z′ⱼ, with Z′ the
// target network's quantiles (the online network's without one) of the
// next action, chosen by the online network's mean with Double, else by
// the target's. When the next observations carry action masks
// (env.ActionMask), the next action is the best allowed one, and the
// targets of one that allows none are the discounted rewards alone.
//
// It returns an error if the networks cannot take the stored observations
// or if b holds no obs_next for the windows' last steps.
func (q *QRDQN) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return q.core.Returns.PreprocessRows(b, buf, indices, q.cfg.Gamma, q.cfg.NStep, q.cfg.NumQuantiles, q.targets)
}

func (q *QRDQN) targets(dst []float32, next *batch.Batch) error {
	k := len(dst) / q.cfg.NumQuantiles
	q.ntp.Reset()
	var online, values *tensor.Tensor
	var err error
	if q.target == nil || q.cfg.Double {
		if online, err = q.nextCall.Call(&q.ntp, q.net, next); err != nil {
			return fmt.Errorf("qrdqn: quantile network on obs_next: %w", err)
		}
		if err := q.core.Check(online, k, q.cfg.NumQuantiles); err != nil {
			return err
		}
	}
	values = online
	if q.target != nil {
		if values, err = q.tgtCall.Call(&q.ntp, q.target, next); err != nil {
			return fmt.Errorf("qrdqn: target network on obs_next: %w", err)
		}
		if err := q.core.Check(values, k, q.cfg.NumQuantiles); err != nil {
			return err
		}
	}
	chooser := values
	if q.cfg.Double {
		chooser = online
	}
	acts, err := q.core.GreedyNext(q.ntp.MeanAxis(chooser, 1, false), next)
	if err != nil {
		return err
	}
	quantile.PickTo(dst, values, acts)
	return nil
}

// Update makes one gradient step on b, which holds obs, act, returns
// (Preprocess) and, from a prioritized buffer, importance weights under
// "weight": the loss is the mean over the batch of w·ℓ, ℓ the quantile Huber
// loss (κ = Kappa) of the taken action's quantiles against the returns.
// Then the target network is updated. It returns {"loss": the loss}, a map
// owned by the QRDQN.
//
// Update returns an error, changing nothing, if b lacks a key, an action
// is outside the action space, or the network cannot take the observations.
func (q *QRDQN) Update(b *batch.Batch) (map[string]float64, error) {
	return q.UpdateWith(b, nil)
}

// Regularizer is a term added to QR-DQN's loss by UpdateWith.
type Regularizer interface {
	// Loss records on tp a scalar function of the Q-values q [B, A] (the
	// means of the online network's quantiles) and the logged actions
	// acts (indices), valid during the call.
	Loss(tp *tensor.Tape, q *tensor.Tensor, acts []int) *tensor.Tensor
}

// UpdateWith is Update with reg's loss (none for a nil reg) added to the
// quantile loss before the gradient step: discrete CQL's conservative
// penalty is such a term (Tianshou's DiscreteCQLPolicy is its QR-DQN with
// that term added).
func (q *QRDQN) UpdateWith(b *batch.Batch, reg Regularizer) (map[string]float64, error) {
	acts, ret, w, err := q.core.Read(b, q.cfg.NumQuantiles)
	if err != nil {
		return nil, err
	}
	tp := &q.tp
	tp.Reset()
	z, err := q.caller.Call(tp, q.net, b)
	if err != nil {
		return nil, fmt.Errorf("qrdqn: quantile network: %w", err)
	}
	if err := q.core.Check(z, len(acts), q.cfg.NumQuantiles); err != nil {
		return nil, err
	}
	rows := tp.QuantileHuber(q.core.Taken(tp, z, acts), ret, q.tau, float32(q.core.Common().Kappa))
	var extra *tensor.Tensor
	if reg != nil {
		extra = reg.Loss(tp, tp.MeanAxis(z, 1, false), acts)
	}
	return q.core.StepWith(tp, rows, w, extra), nil
}

// Postprocess gives a prioritized buffer the transitions' losses of the
// last Update as priorities and moves its β along the schedule; other
// buffers are left alone.
func (q *QRDQN) Postprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return q.core.Postprocess(b, buf, indices)
}

// Save writes the state: the online and target networks, Adam's state, the
// policy's random source and the counters, with algo.SaveParts.
func (q *QRDQN) Save(w io.Writer) error { return algo.SaveParts(w, q.core.Parts()...) }

// Load restores a state written by Save into a QRDQN made with the same
// configuration. It returns an error wrapping algo.ErrState for a state
// that does not fit; the QRDQN may then be partly restored.
func (q *QRDQN) Load(r io.Reader) error {
	if err := algo.LoadParts(r, q.core.Parts()...); err != nil {
		return err
	}
	return q.core.Loaded()
}
