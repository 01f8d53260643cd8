package pg

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// eps is added to the variance of the returns before dividing by its root
// (Tianshou's 1e-8).
const eps = 1e-8

// PG is REINFORCE (Williams, 1992), the vanilla policy gradient: it
// maximizes E[log π(a|s)·Gₜ] over whole collections, with Gₜ the discounted
// return of the rest of the episode, optionally standardized by running
// statistics. It is an algo.OnPolicy algorithm; its policy is a
// *policy.Actor (a Categorical over a Discrete action space, an
// actorcritic.NormalHead's Gaussian over a Box).
//
// With Config.Baseline it learns a critic V(s) beside the policy and
// weighs log π(a|s) by the advantage Gₜ − V(sₜ) (REINFORCE with baseline).
//
// A PG is driven by one goroutine at a time.
type PG struct {
	// Critic holds the Base; its GAE (with λ = 1) is used with Baseline.
	actorcritic.Critic
	cfg Config

	ep     algo.Episodic
	adv    []float32
	ret    []float32
	boot   []float32 // the value returns bootstrap from: μ of the returns
	retArr *nd.Array // ret, stored as "returns"
	stats  map[string]float64
}

// New returns a PG for an env with the given spaces, with its policy network
// built from cfg.Net (with a critic where cfg.Baseline). The network's weights and the seeds of the
// policy's and the minibatches' random sources are drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, and
// actorcritic.ErrConfig for spaces the network cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*PG, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	net, err := actorcritic.NewNet(cfg.Net, obs, act, cfg.Baseline, rng)
	if err != nil {
		return nil, err
	}
	return NewWithNet(cfg, net, act, rng)
}

// NewWithNet returns a PG learning with net in the action space act, which
// must be the one net was made for; cfg.Net is ignored. With cfg.Baseline
// net must have a critic; without, its critic, if it has one, is ignored
// (its parameters stay in the state but get no gradient). The seeds of the
// random sources are drawn from rng.
//
// It returns an error wrapping ErrConfig for an invalid cfg, and ErrConfig
// and actorcritic.ErrConfig for an action space that does not fit net or a
// baseline without critic.
func NewWithNet(cfg Config, net *actorcritic.Net, act env.Space, rng *rand.Rand) (*PG, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p := &PG{cfg: cfg, stats: map[string]float64{"loss": 0}}
	var err error
	if cfg.Baseline {
		p.stats["vf_loss"] = 0
		// λ = 1: the advantages are the Monte-Carlo returns minus V(s).
		err = p.Critic.Init(actorcritic.OnPolicy{Policy: cfg.Policy, Gamma: cfg.Gamma, GAELambda: 1,
			ReturnScaling: cfg.ReturnStandardization, Training: cfg.Training}, net, act, rng)
	} else {
		err = p.Base.Init(net, act, cfg.Policy, cfg.Training, rng)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return p, nil
}

// Config returns the configuration.
func (p *PG) Config() Config { return p.cfg }

// Preprocess computes the discounted returns Gₜ = Σₖ γᵏ·rₜ₊ₖ of the
// transitions of buf at indices (which list whole stretches in time order,
// as buf.SampleIndices(0, nil) does; see algo.Episodic) and stores them in b
// under "returns" (float32 [N], memory of the PG overwritten by the next
// Preprocess). Episodes cut off by truncation or by the end of the
// collection bootstrap from 0, or, with ReturnStandardization, from the
// running mean μ of the returns; the returns stored are then (G − μ)/√(σ² +
// 10⁻⁸) with the statistics of the earlier collections, and the collection's
// returns join the statistics. The first collection, which has no earlier
// statistics, bootstraps from the mean of its own returns (bootstrapped from
// 0) and is standardized with the statistics of its returns.
//
// With Baseline, Preprocess evaluates the critic on obs and obs_next, and
// stores the critic's targets as "returns" and the advantages as "adv"
// (actorcritic.GAE with λ = 1): Gₜ bootstraps from V(obs_next) where an
// episode is cut off, and Âₜ = Gₜ − V(sₜ). With ReturnStandardization the
// critic learns G/σ, σ = √(σ² + 10⁻⁸) of the running statistics of earlier
// collections' returns, and the advantages are divided by the statistics'
// σ once the collection's returns have joined them (so the first
// collection's are divided by its own).
func (p *PG) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	if p.cfg.Baseline {
		return p.baseline(b, buf, indices)
	}
	n := len(indices)
	if len(p.ret) != n || p.retArr == nil {
		p.ret, p.adv, p.boot = make([]float32, n), make([]float32, n), make([]float32, n)
		p.retArr, _ = nd.FromSlice(p.ret) // a slice of float32 always converts
	}
	if !p.cfg.ReturnStandardization {
		p.ep.AdvantagesTo(p.adv, p.ret, buf, indices, nil, nil, p.cfg.Gamma, 1)
		return b.Set(batch.KeyReturns, p.retArr)
	}
	rs := &p.Counters.Returns
	first := rs.Count == 0
	boot := rs.Mean
	if first {
		// No statistics yet: bootstrap from the mean of the collection's
		// own returns (bootstrapped from 0).
		p.ep.AdvantagesTo(p.adv, p.ret, buf, indices, nil, nil, p.cfg.Gamma, 1)
		var own actorcritic.RunningMeanStd
		own.Update(p.ret)
		boot = own.Mean
	}
	for i := range p.boot {
		p.boot[i] = float32(boot)
	}
	// With V = V′ = μ and λ = 1, the GAE returns Â + V are the discounted
	// returns bootstrapped from μ where an episode is cut off.
	p.ep.AdvantagesTo(p.adv, p.ret, buf, indices, p.boot, p.boot, p.cfg.Gamma, 1)
	mean, std := rs.Mean, rs.Std(eps)
	rs.Update(p.ret)
	if first {
		mean, std = rs.Mean, rs.Std(eps)
	}
	for i, g := range p.ret {
		p.ret[i] = float32((float64(g) - mean) / std)
	}
	return b.Set(batch.KeyReturns, p.retArr)
}

// baseline is Preprocess with Baseline.
func (p *PG) baseline(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	if err := p.Estimate(b, buf, indices); err != nil {
		return err
	}
	if p.cfg.ReturnStandardization {
		s := p.Counters.Returns.Std(eps)
		adv := p.Roll.Column(batch.KeyAdv).Data()
		for i, a := range adv {
			adv[i] = float32(float64(a) / s)
		}
	}
	for _, k := range [...]string{batch.KeyReturns, batch.KeyAdv} {
		if err := p.Roll.Store(b, k); err != nil {
			return err
		}
	}
	return nil
}

// entropic is a distribution with an entropy (Categorical, Normal and
// Independent over a Normal).
type entropic interface{ Entropy() *tensor.Tensor }

// UpdateRepeat learns from b, a collection holding obs, act and returns
// (Preprocess), in repeat passes over shuffled minibatches of batchSize
// transitions (0: all at once; the remainder joins the last minibatch): one
// step of the Optimizer on the loss −mean(log π(a|s)·G) − EntCoef·mean(H[π(·|s)])
// per minibatch. With Baseline b holds adv too, and the loss is
// −mean(log π(a|s)·Â) + VFCoef·mean((G − V(s))²) − EntCoef·mean(H[π(·|s)]).
// It returns {"loss": the mean loss over the minibatches} (and with
// Baseline "vf_loss", the critic's mean squared error), a map owned by the
// PG.
//
// UpdateRepeat returns an error if b lacks a key or holds actions outside
// the action space (changing nothing), or if the policy's distribution
// diverges (NaN parameters), which stops the update after the steps taken.
// It panics as actorcritic.CheckRepeat does for invalid arguments.
func (p *PG) UpdateRepeat(b *batch.Batch, batchSize, repeat int) (map[string]float64, error) {
	actorcritic.CheckRepeat(batchSize, repeat)
	r := &p.Roll
	if err := r.Load(b, p.Space, false); err != nil {
		return nil, err
	}
	keys := [...]string{batch.KeyReturns, batch.KeyAdv}
	n := 1
	if p.cfg.Baseline {
		n = 2
	}
	for _, k := range keys[:n] {
		if err := r.Read(b, k); err != nil {
			return nil, fmt.Errorf("%w (run Preprocess first)", err)
		}
	}
	ret, act := r.Column(batch.KeyReturns), r.Act()
	w := ret // the weights of log π: G, or Â with Baseline
	if p.cfg.Baseline {
		w = r.Column(batch.KeyAdv)
	}
	var sum, vfSum float64
	steps := 0
	defer func() { p.Counters.Updates += int64(steps) }()
	for range repeat {
		r.Shuffle(p.Shuffle)
		for i := range r.Minibatches(batchSize) {
			rows := r.Rows(i, batchSize)
			tp := &p.Tape
			tp.Reset()
			d, v, err := p.dist(tp, rows)
			if err != nil {
				return nil, err
			}
			logp := d.LogProb(tp.IndexSelect(act, 0, rows))
			loss := tp.Neg(tp.Mean(tp.Mul(logp, tp.IndexSelect(w, 0, rows))))
			if v != nil {
				vf := tp.MSE(v, tp.IndexSelect(ret, 0, rows))
				vfSum += float64(vf.Item())
				loss = tp.Add(loss, tp.MulScalar(vf, float32(p.cfg.VFCoef)))
			}
			if p.cfg.EntCoef != 0 {
				ent := tp.Mean(d.(entropic).Entropy())
				loss = tp.Sub(loss, tp.MulScalar(ent, float32(p.cfg.EntCoef)))
			}
			p.Opt.Step(tp, loss)
			sum += float64(loss.Item())
			steps++
		}
	}
	p.stats["loss"] = sum / float64(steps)
	if p.cfg.Baseline {
		p.stats["vf_loss"] = vfSum / float64(steps)
	}
	return p.stats, nil
}

// dist records the policy's distribution on the rows of the loaded
// collection, and with Baseline the critic's values (else nil).
func (p *PG) dist(tp *tensor.Tape, rows []int) (distribution.Distribution, *tensor.Tensor, error) {
	obs := p.Roll.ObsRows(tp, rows)
	if p.cfg.Baseline {
		return p.Net.DistValue(tp, obs)
	}
	d, err := p.Net.Dist(tp, obs)
	return d, nil, err
}
