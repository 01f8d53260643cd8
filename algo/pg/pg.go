package pg

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// eps is added to the variance of the returns before standardizing by it
// (Tianshou's 1e-8).
const eps = 1e-8

// PG is REINFORCE (Williams, 1992), the vanilla policy gradient: it
// maximizes E[log π(a|s)·Gₜ] over whole collections, with Gₜ the discounted
// return of the rest of the episode, optionally standardized by running
// statistics. It is an algo.OnPolicy algorithm; its policy is a
// *policy.Actor (Categorical over a Discrete action space, a NormalHead's
// Gaussian over a Box).
//
// A PG is driven by one goroutine at a time.
type PG struct {
	cfg   Config
	net   *Net
	opt   *Optimizer
	pol   *policy.Actor
	src   *rand.PCG // the policy's random source
	shuf  *rand.PCG // the minibatches' order
	rng   *rand.Rand
	space env.Space
	c     counters

	roll   Rollout
	ep     algo.Episodic
	adv    []float32
	ret    []float32
	boot   []float32 // the values returns bootstrap from: μ of the returns
	retArr *nd.Array // ret, stored as "returns"
	tp     tensor.Tape
	stats  map[string]float64
}

// counters are the parts of the state that are not tensors.
type counters struct {
	Updates  int64          `json:"updates"`   // gradient steps taken
	EnvSteps int64          `json:"env_steps"` // last value given to Schedule
	Returns  RunningMeanStd `json:"returns"`   // statistics of the returns
}

// New returns a PG for an env with the given spaces, with its policy network
// built from cfg.Net (no critic). The network's weights and the seeds of the
// policy's and the minibatches' random sources are drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg and for spaces
// the network cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*PG, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	net, err := NewNet(cfg.Net, obs, act, false, rng)
	if err != nil {
		return nil, err
	}
	return NewWithNet(cfg, net, act, rng)
}

// NewWithNet returns a PG learning with net (its critic, if any, is
// trained by nothing and ignored) in the action space act, which must be the
// one net was made for; cfg.Net is ignored. The seeds of the random sources
// are drawn from rng.
//
// It returns an error wrapping ErrConfig for an invalid cfg or an action
// space that does not fit net.
func NewWithNet(cfg Config, net *Net, act env.Space, rng *rand.Rand) (*PG, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	pol, src, err := NewPolicy(net, act, cfg.Policy, rng)
	if err != nil {
		return nil, err
	}
	opt, err := NewOptimizer(net.Params(), cfg.Training)
	if err != nil {
		return nil, err
	}
	p := &PG{cfg: cfg, net: net, opt: opt, pol: pol, src: src, space: act,
		shuf: rand.NewPCG(rng.Uint64(), rng.Uint64()), stats: map[string]float64{"loss": 0}}
	p.rng = rand.New(p.shuf)
	return p, nil
}

// NewPolicy returns the actor policy acting with net's actor in act with
// cfg, and the random source it samples from, seeded from rng (part of an
// algorithm's saved state). It returns an error wrapping ErrConfig if act
// is not the action space net was made for or cfg does not fit it.
func NewPolicy(net *Net, act env.Space, cfg policy.ActorConfig, rng *rand.Rand) (*policy.Actor, *rand.PCG, error) {
	w, err := actionWidth(act)
	if err != nil {
		return nil, nil, err
	}
	if w != net.out {
		return nil, nil, fmt.Errorf("%w: the actor outputs %d values for %v", ErrConfig, net.out, act)
	}
	src := rand.NewPCG(rng.Uint64(), rng.Uint64())
	pol, err := policy.NewActor(net.ActorNetwork(), net.Head(), act, rand.New(src), cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return pol, src, nil
}

// Config returns the configuration.
func (p *PG) Config() Config { return p.cfg }

// Policy returns the actor policy (a *policy.Actor).
func (p *PG) Policy() policy.Policy { return p.pol }

// Net returns the networks.
func (p *PG) Net() *Net { return p.net }

// Updates returns the number of gradient steps taken.
func (p *PG) Updates() int64 { return p.c.Updates }

// ReturnStats returns the running statistics of the returns (updated only
// with ReturnStandardization).
func (p *PG) ReturnStats() RunningMeanStd { return p.c.Returns }

// Schedule sets the learning rate for envSteps env steps of training (see
// Training.LRDecaySteps). It implements algo.Scheduled.
func (p *PG) Schedule(envSteps int64) {
	p.c.EnvSteps = envSteps
	p.opt.Schedule(envSteps)
}

// Preprocess computes the discounted returns Gₜ = Σₖ γᵏ·rₜ₊ₖ of the
// transitions of buf at indices (which list whole stretches in time order,
// as buf.SampleIndices(0, nil) does; see algo.Episodic) and stores them in b
// under "returns" (float32 [N], memory of the PG overwritten by the next
// Preprocess). Episodes that end by truncation or with the collection
// bootstrap from 0, or from the running mean μ with ReturnStandardization,
// which then stores (G − μ)/√(σ² + 10⁻⁸) with the statistics before this
// collection, and adds the collection's returns to them.
func (p *PG) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	n := len(indices)
	if len(p.ret) != n || p.retArr == nil {
		p.ret, p.adv, p.boot = make([]float32, n), make([]float32, n), make([]float32, n)
		p.retArr, _ = nd.FromSlice(p.ret) // a slice of float32 always converts
	}
	if !p.cfg.ReturnStandardization {
		p.ep.AdvantagesTo(p.adv, p.ret, buf, indices, nil, nil, p.cfg.Gamma, 1)
		return b.Set("returns", p.retArr)
	}
	rs := &p.c.Returns
	mean, std := rs.Mean, rs.Std(eps)
	for i := range p.boot {
		p.boot[i] = float32(mean)
	}
	p.ep.AdvantagesTo(p.adv, p.ret, buf, indices, p.boot, p.boot, p.cfg.Gamma, 1)
	rs.Update(p.ret)
	for i, g := range p.ret {
		p.ret[i] = float32((float64(g) - mean) / std)
	}
	return b.Set("returns", p.retArr)
}

// UpdateRepeat learns from b, a collection holding obs, act and returns
// (Preprocess), in repeat passes over shuffled minibatches of batchSize
// transitions (0: all at once; the remainder joins the last minibatch): one
// step of the Optimizer on the loss −mean(log π(a|s)·G) per minibatch. It
// returns {"loss": the mean loss over the minibatches}, a map owned by the
// PG.
//
// UpdateRepeat returns an error if b lacks a key or holds actions outside
// the action space (changing nothing), or if the policy's distribution
// diverges (NaN parameters), which stops the update after the steps taken.
// It panics with an *algo.Error wrapping algo.ErrValue if repeat < 1 or
// batchSize < 0.
func (p *PG) UpdateRepeat(b *batch.Batch, batchSize, repeat int) (map[string]float64, error) {
	checkRepeat(batchSize, repeat)
	r := &p.roll
	if err := r.Load(b, p.space, false); err != nil {
		return nil, err
	}
	if err := r.Read(b, "returns"); err != nil {
		return nil, fmt.Errorf("%w (run Preprocess first)", err)
	}
	ret, act := r.Column("returns"), r.Act()
	var sum float64
	var steps int64
	for range repeat {
		r.Shuffle(p.rng)
		for i := range r.Minibatches(batchSize) {
			rows := r.Rows(i, batchSize)
			tp := &p.tp
			tp.Reset()
			d, err := p.net.Dist(tp, r.ObsRows(tp, rows))
			if err != nil {
				p.c.Updates += steps
				return nil, err
			}
			logp := d.LogProb(tp.IndexSelect(act, 0, rows))
			loss := tp.Neg(tp.Mean(tp.Mul(logp, tp.IndexSelect(ret, 0, rows))))
			p.opt.Step(tp, loss)
			sum += float64(loss.Item())
			steps++
		}
	}
	p.c.Updates += steps
	p.stats["loss"] = sum / float64(steps)
	return p.stats, nil
}

// checkRepeat panics with an *algo.Error wrapping algo.ErrValue for invalid
// arguments of UpdateRepeat.
func checkRepeat(batchSize, repeat int) {
	if repeat < 1 || batchSize < 0 {
		panic(&algo.Error{Kind: algo.ErrValue, Msg: fmt.Sprintf("UpdateRepeat: batch size %d, repeat %d; want ≥ 0 and ≥ 1", batchSize, repeat)})
	}
}

// Postprocess does nothing: REINFORCE gives nothing back to the buffer.
func (p *PG) Postprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error { return nil }

// Save writes the PG's state: the networks, Adam's state, the random sources
// of the policy and of the minibatches, and the counters (gradient steps,
// env steps, return statistics), with algo.SaveParts.
func (p *PG) Save(w io.Writer) error { return algo.SaveParts(w, p.parts()...) }

// Load restores a state written by Save into a PG made with the same
// configuration. It returns an error wrapping algo.ErrState for a state that
// does not fit; the PG may then be partly restored.
func (p *PG) Load(r io.Reader) error { return algo.LoadParts(r, p.parts()...) }

func (p *PG) parts() []algo.Part {
	return []algo.Part{
		algo.ParamsPart("net", p.net.Params()),
		{Name: "optim", Save: p.opt.Save, Load: p.opt.Load},
		algo.BinaryPart("policy_rng", p.src),
		algo.BinaryPart("shuffle_rng", p.shuf),
		algo.JSONPart("counters", &p.c),
	}
}
