package ppo

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/tensor"
)

// PPO is proximal policy optimization with the clipped objective (Schulman
// et al., "Proximal Policy Optimization Algorithms", 2017): with the ratio
// rₜ = π(aₜ|sₜ)/π_old(aₜ|sₜ) against the policy that collected the data,
//
//	L = −mean(min(rₜÂₜ, clip(rₜ, 1 − ε, 1 + ε)Âₜ)) + VFCoef·L_V − EntCoef·mean(H[π(·|sₜ)]),
//
// with the dual clip, value clipping, per-minibatch advantage
// normalization and advantage recomputation as options, minimized over
// several passes of shuffled minibatches of each collection. It is an
// algo.OnPolicy algorithm; its policy is a *policy.Actor (a Categorical over
// a Discrete action space, a actorcritic.NormalHead's Gaussian over a Box).
//
// A PPO is driven by one goroutine at a time.
type PPO struct {
	actorcritic.Critic
	cfg Config

	ntp     tensor.Tape // old log-probabilities, without gradients
	buf     buffer.Buffer
	indices []int // of the last Preprocess, for recomputing advantages
	stats   map[string]float64
}

// New returns a PPO for an env with the given spaces, with its actor and
// critic built from cfg.Net: a Categorical head for a Discrete action space,
// a actorcritic.NormalHead for a Box. The weights and the seeds of the random sources
// are drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, and
// actorcritic.ErrConfig for spaces the networks cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*PPO, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	net, err := actorcritic.NewNet(cfg.Net, obs, act, true, rng)
	if err != nil {
		return nil, err
	}
	return NewWithNet(cfg, net, act, rng)
}

// NewWithNet returns a PPO learning with net, which must have a critic, in
// the action space act it was made for; cfg.Net is ignored. The seeds of the
// random sources are drawn from rng.
//
// It returns an error wrapping ErrConfig for an invalid cfg, and
// ErrConfig and actorcritic.ErrConfig for a net without critic or an action
// space that does not fit net.
func NewWithNet(cfg Config, net *actorcritic.Net, act env.Space, rng *rand.Rand) (*PPO, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p := &PPO{cfg: cfg, stats: map[string]float64{"loss": 0, "clip_loss": 0, "vf_loss": 0, "entropy": 0}}
	if err := p.Init(cfg.OnPolicy, net, act, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	p.ntp.SetGradEnabled(false)
	return p, nil
}

// Config returns the configuration.
func (p *PPO) Config() Config { return p.cfg }

// columns are the keys Preprocess adds.
var columns = [...]string{batch.KeyVS, batch.KeyReturns, batch.KeyAdv, batch.KeyLogpOld}

// Preprocess evaluates the networks on the collection b (obs, act and
// obs_next of the transitions of buf at indices, in time order as
// buf.SampleIndices(0, nil) lists them) and stores in b the values "v_s",
// the returns "returns" and the GAE advantages "adv" (see actorcritic.GAE), and the
// log-probabilities of the actions under the current policy, "logp_old", as
// float32 arrays [N] that are memory of the PPO, overwritten by its next
// Preprocess or UpdateRepeat. With RecomputeAdvantage it keeps buf and a
// copy of indices for UpdateRepeat.
//
// It returns an error if b lacks a key or holds observations or actions the
// networks cannot take.
func (p *PPO) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	if err := p.Estimate(b, buf, indices); err != nil {
		return err
	}
	r := &p.Roll
	p.ntp.Reset()
	d, err := p.Net.Dist(&p.ntp, r.Obs())
	if err != nil {
		return err
	}
	copy(r.Column(batch.KeyLogpOld).Data(), d.LogProb(r.Act()).Data())
	p.buf, p.indices = nil, p.indices[:0]
	if p.cfg.RecomputeAdvantage {
		p.buf, p.indices = buf, append(p.indices, indices...)
	}
	for _, k := range columns {
		if err := r.Store(b, k); err != nil {
			return err
		}
	}
	return nil
}

// entropic is a distribution with an entropy (Categorical, Normal and
// Independent over a Normal).
type entropic interface{ Entropy() *tensor.Tensor }

// UpdateRepeat learns from b, a collection holding obs, act, v_s, returns,
// adv and logp_old (Preprocess; obs_next too with RecomputeAdvantage), in
// repeat passes over shuffled minibatches of batchSize transitions (0: all
// at once; the remainder joins the last minibatch): one step of the
// Optimizer on L per minibatch. With RecomputeAdvantage the values, returns
// and advantages are recomputed before every pass after the first, from the
// buffer and indices of the last Preprocess. It returns the means over the
// minibatches of "loss" (L), "clip_loss", "vf_loss" and "entropy", in a map
// owned by the PPO.
//
// UpdateRepeat returns an error if b lacks a key or holds actions outside
// the action space, or if RecomputeAdvantage is set and Preprocess has not
// run (changing nothing), and if the policy's distribution diverges (NaN
// parameters), which stops the update after the steps taken. It panics as
// actorcritic.CheckRepeat does for invalid arguments, and with a runtime error if the
// head's distribution has no entropy.
func (p *PPO) UpdateRepeat(b *batch.Batch, batchSize, repeat int) (map[string]float64, error) {
	actorcritic.CheckRepeat(batchSize, repeat)
	recompute := p.cfg.RecomputeAdvantage && repeat > 1
	if recompute && p.buf == nil {
		return nil, fmt.Errorf("ppo: recomputing advantages needs the buffer of a Preprocess")
	}
	r := &p.Roll
	if err := r.Load(b, p.Space, recompute); err != nil {
		return nil, err
	}
	for _, k := range columns {
		if err := r.Read(b, k); err != nil {
			return nil, fmt.Errorf("%w (run Preprocess first)", err)
		}
	}
	if recompute && len(p.indices) != r.Len() {
		return nil, fmt.Errorf("ppo: %d transitions for the %d indices of the last Preprocess", r.Len(), len(p.indices))
	}
	cols := [...]*tensor.Tensor{r.Column(batch.KeyReturns), r.Column(batch.KeyAdv), r.Column(batch.KeyVS), r.Column(batch.KeyLogpOld)}
	var sum, clipSum, vfSum, entSum float64
	steps := 0
	defer func() { p.Counters.Updates += int64(steps) }()
	for pass := range repeat {
		if recompute && pass > 0 {
			if err := p.GAE.Compute(r, p.Net, p.buf, p.indices, &p.Counters.Returns); err != nil {
				return nil, err
			}
		}
		r.Shuffle(p.Shuffle)
		for i := range r.Minibatches(batchSize) {
			rows := r.Rows(i, batchSize)
			tp := &p.Tape
			tp.Reset()
			d, v, err := p.Net.DistValue(tp, r.ObsRows(tp, rows))
			if err != nil {
				return nil, err
			}
			ret, adv := tp.IndexSelect(cols[0], 0, rows), tp.IndexSelect(cols[1], 0, rows)
			if p.cfg.AdvantageNormalization {
				actorcritic.Standardize(adv.Data())
			}
			logp := d.LogProb(tp.IndexSelect(r.Act(), 0, rows))
			clipLoss := p.clipLoss(tp, logp, tp.IndexSelect(cols[3], 0, rows), adv)
			vfLoss := p.valueLoss(tp, v, ret, cols[2], rows)
			ent := tp.Mean(d.(entropic).Entropy())
			loss := tp.Add(clipLoss, tp.MulScalar(vfLoss, float32(p.cfg.VFCoef)))
			if p.cfg.EntCoef != 0 {
				loss = tp.Sub(loss, tp.MulScalar(ent, float32(p.cfg.EntCoef)))
			}
			p.Opt.Step(tp, loss)
			sum += float64(loss.Item())
			clipSum += float64(clipLoss.Item())
			vfSum += float64(vfLoss.Item())
			entSum += float64(ent.Item())
			steps++
		}
	}
	k := float64(steps)
	p.stats["loss"], p.stats["clip_loss"], p.stats["vf_loss"], p.stats["entropy"] = sum/k, clipSum/k, vfSum/k, entSum/k
	return p.stats, nil
}

// clipLoss records −mean(min(r·Â, clip(r, 1 − ε, 1 + ε)·Â)) with r =
// exp(logp − logpOld), and with DualClip max(…, c·Â) where Â < 0.
func (p *PPO) clipLoss(tp *tensor.Tape, logp, logpOld, adv *tensor.Tensor) *tensor.Tensor {
	eps := float32(p.cfg.EpsClip)
	ratio := tp.Exp(tp.Sub(logp, logpOld))
	surr := tp.Minimum(tp.Mul(ratio, adv), tp.Mul(tp.Clamp(ratio, 1-eps, 1+eps), adv))
	if p.cfg.DualClip > 0 {
		// The mask of negative advantages: new memory of the tape
		// (AddScalar of a tensor without gradient), overwritten.
		neg := tp.AddScalar(adv, 0)
		m := neg.Data()
		for i, a := range adv.Data() {
			m[i] = 0
			if a < 0 {
				m[i] = 1
			}
		}
		surr = tp.Where(neg, tp.Maximum(surr, tp.MulScalar(adv, float32(p.cfg.DualClip))), surr)
	}
	return tp.Neg(tp.Mean(surr))
}

// valueLoss records mean((G − V)²), or with ValueClip mean(max((G − V)², (G
// − V_clip)²)) with V_clip = V_old + clip(V − V_old, −ε, ε) and V_old the
// values of the rows in vOld.
func (p *PPO) valueLoss(tp *tensor.Tape, v, ret, vOld *tensor.Tensor, rows []int) *tensor.Tensor {
	if !p.cfg.ValueClip {
		return tp.MSE(v, ret)
	}
	eps := float32(p.cfg.EpsClip)
	old := tp.IndexSelect(vOld, 0, rows)
	clipped := tp.Add(old, tp.Clamp(tp.Sub(v, old), -eps, eps))
	d1, d2 := tp.Sub(ret, v), tp.Sub(ret, clipped)
	return tp.Mean(tp.Maximum(tp.Mul(d1, d1), tp.Mul(d2, d2)))
}
