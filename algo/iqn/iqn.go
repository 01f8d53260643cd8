package iqn

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

// IQN is the implicit quantile network (Dabney et al., "Implicit Quantile
// Networks for Distributional Reinforcement Learning", 2018): the network
// maps a state and a fraction τ ~ U(0, 1) to the τ-quantile of each
// action's return, through a cosine embedding of τ
// (quantile.ImplicitNet). An update samples OnlineSampleSize fractions for
// the current quantiles and TargetSampleSize for the target's, and fits
// them with the quantile Huber loss; acting takes the mean over sampled
// fractions. It is an algo.OffPolicy algorithm with DQN's extensions
// (n-step returns, target network, double Q-learning, prioritized replay, ε
// and β schedules); its policy is a *policy.Q.
//
// An IQN is driven by one goroutine at a time.
type IQN struct {
	cfg    Config
	net    *quantile.ImplicitNet
	target *quantile.ImplicitNet // nil without target network
	core   *quantile.Core
	src    *rand.PCG // the fractions' random source
	rng    *rand.Rand

	tp, ntp   tensor.Tape // the update, the targets
	cur, next quantile.Const
	tgt, act  quantile.Const
	obs       obsCaller
	nextObs   obsCaller
}

// obsCaller reads the observations of a batch as a tensor: "obs", or
// "obs.obs" of a masked observation space (quantile.Input).
type obsCaller struct {
	c  nn.Caller
	in policy.Network
}

// get returns b's observations [k, In] on tp.
func (o *obsCaller) get(tp *tensor.Tape, b *batch.Batch) (*tensor.Tensor, error) {
	return o.c.Call(tp, o.in, b)
}

// New returns an IQN for an env with the given spaces: observations a Box
// of one axis (or a masked observation space of one, env.NewMasked),
// actions Discrete. The networks' initial weights and the
// seeds of the policy's and the fractions' random sources are drawn from
// rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, an action space
// that is not Discrete, or an observation space the MLP cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*IQN, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	space, err := quantile.Discrete("IQN", act, ErrConfig)
	if err != nil {
		return nil, err
	}
	box, ok := policy.NetSpace(obs).(*env.Box)
	if !ok || len(box.Shape()) != 1 {
		return nil, fmt.Errorf("%w: the MLP needs a Box observation space of one axis, not %v", ErrConfig, obs)
	}
	nc := quantile.ImplicitConfig{In: box.Shape()[0], Actions: int(space.N()), Hidden: cfg.Hidden, Cosines: cfg.Cosines, HeadHidden: cfg.HeadHidden}
	net, err := quantile.NewImplicitNet(nc, rng)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	var target *quantile.ImplicitNet
	var tps nn.Params
	if cfg.Target() {
		if target, err = quantile.NewImplicitNet(nc, rng); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		tps = target.Params()
	}
	cfg.Hidden, cfg.HeadHidden = slices.Clone(cfg.Hidden), slices.Clone(cfg.HeadHidden)
	q := &IQN{cfg: cfg, net: net, target: target}
	q.obs.in = quantile.Input(obs)
	q.nextObs.in = q.obs.in
	if q.core, err = quantile.NewCore("iqn", cfg.Common, net.Params(), tps, actor{q}, space, rng, ErrConfig); err != nil {
		return nil, err
	}
	q.src = rand.NewPCG(rng.Uint64(), rng.Uint64())
	q.rng = rand.New(q.src)
	q.ntp.SetGradEnabled(false)
	return q, nil
}

// actor is the network the policy acts with: the mean over sampled
// fractions of the online network's quantiles, Q(s, a) = (1/K) Σₖ Z(s,
// τₖ)ₐ, with K = OnlineSampleSize while the policy's training-step flag is
// on and SampleSize while it is off.
type actor struct{ q *IQN }

func (a actor) Inputs() []string  { return a.q.obs.in.Inputs() }
func (a actor) Params() nn.Params { return a.q.net.Params() }

func (a actor) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	q := a.q
	s := q.cfg.SampleSize
	if q.core.Policy().TrainingStep() {
		s = q.cfg.OnlineSampleSize
	}
	k := in[0].Dim(0)
	z := q.net.Quantiles(tp, q.net.Feature(tp, in[0]), q.act.Uniform(tp, q.rng, k, s))
	return tp.MeanAxis(z, 1, false)
}

// Config returns the configuration.
func (q *IQN) Config() Config { return q.cfg }

// Policy returns the ε-greedy policy (a *policy.Q) acting on the mean of
// the online network's quantiles at sampled fractions.
func (q *IQN) Policy() policy.Policy { return q.core.Policy() }

// Network returns the online network and Target the target network (nil
// without one).
func (q *IQN) Network() *quantile.ImplicitNet { return q.net }

// Target returns the target network, or nil.
func (q *IQN) Target() *quantile.ImplicitNet { return q.target }

// Params returns the online network's parameters.
func (q *IQN) Params() nn.Params { return q.net.Params() }

// Updates returns the number of gradient steps taken.
func (q *IQN) Updates() int64 { return q.core.Updates() }

// Schedule sets ε and records the env steps for β (algo.Scheduled).
func (q *IQN) Schedule(envSteps int64) { q.core.Schedule(envSteps) }

// Preprocess stores in b under "returns" the n-step distributional targets
// [B, TargetSampleSize] of the sampled transitions: the target network's
// quantiles (the online network's without one) at TargetSampleSize sampled
// fractions, of the next action, chosen by the mean of the online
// network's quantiles at OnlineSampleSize fractions with Double, else by
// the target's.
//
// When the next observations carry action masks (env.ActionMask), the next
// action is the best allowed one (quantile.Core.GreedyNext).
//
// It returns an error if the networks cannot take the stored observations
// or if b holds no obs_next for the windows' last steps.
func (q *IQN) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return q.core.Returns.PreprocessRows(b, buf, indices, q.cfg.Gamma, q.cfg.NStep, q.cfg.TargetSampleSize, q.targets)
}

func (q *IQN) targets(dst []float32, next *batch.Batch) error {
	m := q.cfg.TargetSampleSize
	k := len(dst) / m
	tp := &q.ntp
	tp.Reset()
	obs, err := q.nextObs.get(tp, next)
	if err != nil {
		return fmt.Errorf("iqn: obs_next: %w", err)
	}
	if obs.NDim() != 2 || obs.Dim(0) != k {
		return fmt.Errorf("iqn: obs_next of shape %v for %d transitions", obs.Shape(), k)
	}
	values := q.net
	if q.target != nil {
		values = q.target
	}
	z := values.Quantiles(tp, values.Feature(tp, obs), q.tgt.Uniform(tp, q.rng, k, m))
	if err := q.core.Check(z, k, m); err != nil {
		return err
	}
	chooser := z
	if q.target != nil && q.cfg.Double {
		chooser = q.net.Quantiles(tp, q.net.Feature(tp, obs), q.next.Uniform(tp, q.rng, k, q.cfg.OnlineSampleSize))
	}
	acts, err := q.core.GreedyNext(tp.MeanAxis(chooser, 1, false), next)
	if err != nil {
		return err
	}
	quantile.PickTo(dst, z, acts)
	return nil
}

// Update makes one gradient step on b, which holds obs, act, returns
// (Preprocess) and, from a prioritized buffer, importance weights under
// "weight": the loss is the mean over the batch of w·ℓ, ℓ the quantile Huber
// loss (κ = Kappa) of the taken action's quantiles at OnlineSampleSize
// sampled fractions against the returns. Then the target network is
// updated. It returns {"loss": the loss}, a map owned by the IQN.
//
// Update returns an error, changing nothing, if b lacks a key, an action
// is outside the action space, or the network cannot take the observations.
func (q *IQN) Update(b *batch.Batch) (map[string]float64, error) {
	acts, ret, w, err := q.core.Read(b, q.cfg.TargetSampleSize)
	if err != nil {
		return nil, err
	}
	tp := &q.tp
	tp.Reset()
	obs, err := q.obs.get(tp, b)
	if err != nil {
		return nil, fmt.Errorf("iqn: obs: %w", err)
	}
	k := len(acts)
	if obs.NDim() != 2 || obs.Dim(0) != k {
		return nil, fmt.Errorf("iqn: obs of shape %v for %d actions", obs.Shape(), k)
	}
	tau := q.cur.Uniform(tp, q.rng, k, q.cfg.OnlineSampleSize)
	z := q.net.Quantiles(tp, q.net.Feature(tp, obs), tau)
	if err := q.core.Check(z, k, q.cfg.OnlineSampleSize); err != nil {
		return nil, err
	}
	rows := tp.QuantileHuber(q.core.Taken(tp, z, acts), ret, tau, float32(q.core.Common().Kappa))
	return q.core.Step(tp, rows, w), nil
}

// Postprocess gives a prioritized buffer the transitions' losses of the
// last Update as priorities and moves its β along the schedule; other
// buffers are left alone.
func (q *IQN) Postprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return q.core.Postprocess(b, buf, indices)
}

// Save writes the state: the online and target networks, Adam's state, the
// fractions' and the policy's random sources and the counters, with
// algo.SaveParts.
func (q *IQN) Save(w io.Writer) error { return algo.SaveParts(w, q.parts()...) }

// Load restores a state written by Save into an IQN made with the same
// configuration. It returns an error wrapping algo.ErrState for a state
// that does not fit; the IQN may then be partly restored.
func (q *IQN) Load(r io.Reader) error {
	if err := algo.LoadParts(r, q.parts()...); err != nil {
		return err
	}
	return q.core.Loaded()
}

func (q *IQN) parts() []algo.Part { return q.core.Parts(algo.BinaryPart("tau_rng", q.src)) }
