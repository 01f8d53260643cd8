package a2c

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/tensor"
)

// A2C is the synchronous advantage actor-critic (Mnih et al., "Asynchronous
// Methods for Deep Reinforcement Learning", 2016, in its synchronous form):
// a policy-gradient actor weighted by GAE advantages, a critic fitted to the
// returns, and an entropy bonus, in one loss
//
//	L = −mean(log π(a|s)·Â) + VFCoef·mean((G − V(s))²) − EntCoef·mean(H[π(·|s)]),
//
// minimized over minibatches of whole collections. It is an algo.OnPolicy
// algorithm; its policy is a *policy.Actor.
//
// An A2C is driven by one goroutine at a time.
type A2C struct {
	actorcritic.Critic
	cfg   Config
	stats map[string]float64
}

// New returns an A2C for an env with the given spaces, with its actor and
// critic built from cfg.Net. The weights and the seeds of the random sources
// are drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, and
// actorcritic.ErrConfig for spaces the networks cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*A2C, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	net, err := actorcritic.NewNet(cfg.Net, obs, act, true, rng)
	if err != nil {
		return nil, err
	}
	return NewWithNet(cfg, net, act, rng)
}

// NewWithNet returns an A2C learning with net, which must have a critic, in
// the action space act it was made for; cfg.Net is ignored. The seeds of the
// random sources are drawn from rng.
//
// It returns an error wrapping ErrConfig for an invalid cfg, and
// ErrConfig and actorcritic.ErrConfig for a net without critic or an action
// space that does not fit net.
func NewWithNet(cfg Config, net *actorcritic.Net, act env.Space, rng *rand.Rand) (*A2C, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	a := &A2C{cfg: cfg, stats: map[string]float64{"loss": 0, "actor_loss": 0, "vf_loss": 0, "entropy": 0}}
	if err := a.Init(cfg.OnPolicy, net, act, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return a, nil
}

// Config returns the configuration.
func (a *A2C) Config() Config { return a.cfg }

// Preprocess evaluates the critic on the collection b (obs and obs_next of
// the transitions of buf at indices, in time order as
// buf.SampleIndices(0, nil) lists them) and stores in b the values "v_s",
// the returns "returns" and the GAE advantages "adv" (see
// actorcritic.GAE), as float32
// arrays [N] that are memory of the A2C, overwritten by its next Preprocess
// or UpdateRepeat. It returns an error if b lacks a key or holds
// observations or actions the networks cannot take.
func (a *A2C) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	if err := a.Estimate(b, buf, indices); err != nil {
		return err
	}
	for _, k := range columns {
		if err := a.Roll.Store(b, k); err != nil {
			return err
		}
	}
	return nil
}

// columns are the keys Preprocess adds.
var columns = [...]string{batch.KeyVS, batch.KeyReturns, batch.KeyAdv}

// entropic is a distribution with an entropy (Categorical, Normal and
// Independent over a Normal).
type entropic interface{ Entropy() *tensor.Tensor }

// UpdateRepeat learns from b, a collection holding obs, act, returns and
// adv (Preprocess), in repeat passes over shuffled minibatches of batchSize
// transitions (0: all at once; the remainder joins the last minibatch): one
// step of the Optimizer on L per minibatch. It returns the means over the
// minibatches of "loss" (L), "actor_loss", "vf_loss" and "entropy", in a map
// owned by the A2C.
//
// UpdateRepeat returns an error if b lacks a key or holds actions outside
// the action space (changing nothing), or if the policy's distribution
// diverges (NaN parameters), which stops the update after the steps taken.
// It panics as actorcritic.CheckRepeat does for invalid arguments, and with
// a runtime error if the head's distribution has no entropy.
func (a *A2C) UpdateRepeat(b *batch.Batch, batchSize, repeat int) (map[string]float64, error) {
	actorcritic.CheckRepeat(batchSize, repeat)
	r := &a.Roll
	if err := r.Load(b, a.Space, false); err != nil {
		return nil, err
	}
	for _, k := range [...]string{batch.KeyReturns, batch.KeyAdv} {
		if err := r.Read(b, k); err != nil {
			return nil, fmt.Errorf("%w (run Preprocess first)", err)
		}
	}
	ret, adv, act := r.Column(batch.KeyReturns), r.Column(batch.KeyAdv), r.Act()
	var sum, actorSum, vfSum, entSum float64
	steps := 0
	defer func() { a.Counters.Updates += int64(steps) }()
	for range repeat {
		r.Shuffle(a.Shuffle)
		for i := range r.Minibatches(batchSize) {
			rows := r.Rows(i, batchSize)
			tp := &a.Tape
			tp.Reset()
			loss, actorLoss, vfLoss, ent, err := a.loss(tp, rows, ret, adv, act)
			if err != nil {
				return nil, err
			}
			a.Opt.Step(tp, loss)
			sum += float64(loss.Item())
			actorSum += float64(actorLoss.Item())
			vfSum += float64(vfLoss.Item())
			entSum += float64(ent.Item())
			steps++
		}
	}
	k := float64(steps)
	a.stats["loss"], a.stats["actor_loss"], a.stats["vf_loss"], a.stats["entropy"] = sum/k, actorSum/k, vfSum/k, entSum/k
	return a.stats, nil
}

// loss records L on tp for the rows of the loaded collection, with its
// three terms: the actor's loss, the value loss and the mean entropy.
func (a *A2C) loss(tp *tensor.Tape, rows []int, ret, adv, act *tensor.Tensor) (loss, actorLoss, vfLoss, ent *tensor.Tensor, err error) {
	d, v, err := a.Net.DistValue(tp, a.Roll.ObsRows(tp, rows))
	if err != nil {
		return nil, nil, nil, nil, err
	}
	logp := d.LogProb(tp.IndexSelect(act, 0, rows))
	actorLoss = tp.Neg(tp.Mean(tp.Mul(logp, tp.IndexSelect(adv, 0, rows))))
	vfLoss = tp.MSE(v, tp.IndexSelect(ret, 0, rows))
	ent = tp.Mean(d.(entropic).Entropy())
	loss = tp.Add(actorLoss, tp.MulScalar(vfLoss, float32(a.cfg.VFCoef)))
	if a.cfg.EntCoef != 0 {
		loss = tp.Sub(loss, tp.MulScalar(ent, float32(a.cfg.EntCoef)))
	}
	return loss, actorLoss, vfLoss, ent, nil
}
