package crr

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// CRR is discrete critic regularized regression: a categorical actor
// trained by advantage-weighted cross entropy on the logged actions, and a
// critic Q(s, ·) trained by TD learning with the conservative penalty. It is
// an algo.OffPolicy algorithm, trained offline from a fixed buffer; its
// policy is a *policy.Actor over a Categorical.
//
// A CRR is driven by one goroutine at a time.
type CRR struct {
	cfg                     Config
	actor, critic           policy.Network
	tActor, tCritic         policy.Network
	ps, tps                 nn.Params // actor then critic, prefixed; their targets
	opt                     *algo.QOptim
	pol                     *policy.Actor
	src                     *rand.PCG // the policy's random source
	space                   *env.Discrete
	nAct                    int
	stats                   map[string]float64
	counters                counters
	tp, ntp                 tensor.Tape
	aCall, cCall            nn.Caller // on the batch
	taCall, tcCall          nn.Caller // on obs_next
	returns                 algo.QReturns
	acts                    algo.DiscreteActions
	actIdx                  []int
	rets                    algo.Returns
	retT, coefT             *tensor.Tensor
	coefSum, advPos, advSum float64
}

type counters struct {
	Updates int64 `json:"updates"` // gradient steps taken
}

// New returns a CRR for an env with the given spaces, with its networks
// built from cfg: an actor and a critic, MLPs (Hidden, ReLU) from
// observations of a Box space of one axis to one output per action, and
// their target networks. The initial weights (actor, critic, target actor,
// target critic) and the seed of the policy's random source are drawn from
// rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, and one naming
// the space for an action space that is not Discrete or an observation space
// the networks cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*CRR, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	nets, _, err := algo.QNetworks("CRR", obs, act, cfg.Hidden, 4, rng, ErrConfig)
	if err != nil {
		return nil, err
	}
	return NewWithNetworks(cfg, nets[0], nets[1], nets[2], nets[3], act, rng)
}

// NewWithNetworks returns a CRR learning with actor, whose output for k
// observations is [k, n], the logits of the n actions of act, and critic,
// whose output [k, n] are the actions' values; targetActor and targetCritic
// have the same structures and start as copies. The four networks must
// share no tensor. cfg.Hidden is ignored. The seed of the policy's random
// source is drawn from rng.
//
// It returns an error wrapping ErrConfig for an invalid cfg, an action space
// that is not Discrete, networks that share a tensor, or targets whose
// parameters do not match.
func NewWithNetworks(cfg Config, actor, critic, targetActor, targetCritic policy.Network, act env.Space, rng *rand.Rand) (*CRR, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	space, ok := act.(*env.Discrete)
	if !ok {
		return nil, fmt.Errorf("%w: CRR needs a Discrete action space, not %v", ErrConfig, act)
	}
	if actor == nil || critic == nil || targetActor == nil || targetCritic == nil {
		return nil, fmt.Errorf("%w: a network is missing", ErrConfig)
	}
	c := &CRR{cfg: cfg.clone(), actor: actor, critic: critic, tActor: targetActor, tCritic: targetCritic,
		space: space, nAct: int(space.N()), src: rand.NewPCG(rng.Uint64(), rng.Uint64()),
		stats: map[string]float64{"loss": 0, "loss/actor": 0, "loss/critic": 0, "loss/cql": 0, "weight": 0, "advantage": 0}}
	seen := map[*tensor.Tensor]bool{}
	for _, n := range []policy.Network{actor, critic, targetActor, targetCritic} {
		for _, p := range n.Params() {
			if seen[p.Tensor] {
				return nil, fmt.Errorf("%w: two networks share the tensor %q", ErrConfig, p.Name)
			}
			seen[p.Tensor] = true
		}
	}
	c.ps = append(actor.Params().Prefixed("actor"), critic.Params().Prefixed("critic")...)
	c.tps = append(targetActor.Params().Prefixed("actor"), targetCritic.Params().Prefixed("critic")...)
	var err error
	if c.opt, err = algo.NewQOptim(cfg.QOptim(c.ps, c.ps, c.tps, &c.counters.Updates), ErrConfig); err != nil {
		return nil, err
	}
	if c.pol, err = policy.NewActor(actor, policy.CategoricalHead{}, act, rand.New(c.src),
		policy.ActorConfig{DeterministicEval: cfg.DeterministicEval}); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	c.ntp.SetGradEnabled(false)
	return c, nil
}

// Config returns the configuration.
func (c *CRR) Config() Config { return c.cfg.clone() }

// Policy returns the actor's policy (a *policy.Actor over a Categorical).
func (c *CRR) Policy() policy.Policy { return c.pol }

// Params returns the actor's and the critic's parameters (prefixed "actor"
// and "critic"), then their targets' (prefixed "target_actor" and
// "target_critic").
func (c *CRR) Params() nn.Params {
	ps := append(nn.Params(nil), c.ps...)
	ps = append(ps, c.tActor.Params().Prefixed("target_actor")...)
	return append(ps, c.tCritic.Params().Prefixed("target_critic")...)
}

// Updates returns the number of gradient steps taken.
func (c *CRR) Updates() int64 { return c.counters.Updates }

// Preprocess computes the critic's n-step returns (algo.QReturns) with the
// target value Σₐ π′(a|s′)·Q′(s′, a) of the target actor and critic, and
// stores them in b under "returns" (float32 [B]).
//
// It returns an error if the networks cannot take the stored observations or
// if b holds no obs_next for the windows' last steps.
func (c *CRR) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return c.returns.Preprocess(b, buf, indices, c.cfg.Gamma, c.cfg.NStep, c.targets)
}

func (c *CRR) targets(tq []float32, next *batch.Batch) error {
	n := len(tq)
	c.ntp.Reset()
	logits, err := c.taCall.Call(&c.ntp, c.tActor, next)
	if err != nil {
		return fmt.Errorf("crr: target actor on obs_next: %w", err)
	}
	q, err := c.tcCall.Call(&c.ntp, c.tCritic, next)
	if err != nil {
		return fmt.Errorf("crr: target critic on obs_next: %w", err)
	}
	if err := c.check(logits, q, n); err != nil {
		return err
	}
	v := c.ntp.SumAxis(c.ntp.Mul(c.ntp.Softmax(logits, 1), q), 1, false).Data()
	copy(tq, v)
	return nil
}

// check checks that the actor's logits and the critic's values are [n, A].
func (c *CRR) check(logits, q *tensor.Tensor, n int) error {
	for _, t := range []struct {
		name string
		x    *tensor.Tensor
	}{{"actor logits", logits}, {"critic values", q}} {
		if t.x.NDim() != 2 || t.x.Dim(0) != n || t.x.Dim(1) != c.nAct {
			return fmt.Errorf("%w: %s of shape %v for %d observations and %d actions", ErrConfig, t.name, t.x.Shape(), n, c.nAct)
		}
	}
	return nil
}

// Update makes one Adam step on b, which holds obs, act and returns
// (Preprocess), on the sum of three losses (Tianshou's DiscreteCRR):
//
//	−mean(f(Â)·log π(a|s))                           the actor's weighted cross entropy
//	½·mean((Q(s, a) − G)²)                            the critic's TD error
//	w·(mean log Σₐ′ exp Q(s, a′) − mean Q(s, a))       the conservative penalty
//
// with a the logged action, G the return, Â = Q(s, a) − Σₐ′ π(a′|s)·Q(s, a′)
// the advantage and f the filter (Exp: min(exp(Â/β), RatioUpperBound);
// Binary: 1 where Â > 0; All: 1), taken as a constant. Then the target
// networks are updated (a copy every TargetUpdateFreq steps, or a Polyak
// step with Tau). It returns the total under "loss", the terms under
// "loss/actor", "loss/critic" and "loss/cql" (the penalty without w), and
// the means of f(Â) and Â under "weight" and "advantage", in a map owned by
// the CRR.
//
// Update returns an error, changing nothing, if b lacks a key, an action is
// outside the action space, or the networks cannot take the observations.
func (c *CRR) Update(b *batch.Batch) (map[string]float64, error) {
	n, err := c.readBatch(b)
	if err != nil {
		return nil, err
	}
	tp := &c.tp
	tp.Reset()
	logits, err := c.aCall.Call(tp, c.actor, b)
	if err != nil {
		return nil, fmt.Errorf("crr: actor: %w", err)
	}
	q, err := c.cCall.Call(tp, c.critic, b)
	if err != nil {
		return nil, fmt.Errorf("crr: critic: %w", err)
	}
	if err := c.check(logits, q, n); err != nil {
		return nil, err
	}
	logp := tp.LogSoftmax(logits, 1)
	qa := tp.Gather(q, 1, c.actIdx)
	c.weights(logp.Data(), q.Data(), qa.Data())
	actorLoss := tp.Neg(tp.Mean(tp.Mul(tp.Gather(logp, 1, c.actIdx), c.coefT)))
	criticLoss := tp.MulScalar(tp.MSE(qa, c.retT), 0.5)
	pen := algo.ConservativePenalty(tp, q, qa)
	loss := tp.Add(tp.Add(actorLoss, criticLoss), tp.MulScalar(pen, float32(c.cfg.MinQWeight)))
	c.opt.Step(tp, loss)
	c.stats["loss"] = float64(loss.Item())
	c.stats["loss/actor"] = float64(actorLoss.Item())
	c.stats["loss/critic"] = float64(criticLoss.Item())
	c.stats["loss/cql"] = float64(pen.Item())
	c.stats["weight"] = c.coefSum / float64(n)
	c.stats["advantage"] = c.advSum / float64(n)
	return c.stats, nil
}

// weights stores in coefT the filter f(Â) of each row, from the
// log-probabilities logp and values q (rows of nAct) and the logged
// actions' values qa: Â = qa − Σₐ π(a)·q(a), computed in float64.
func (c *CRR) weights(logp, q, qa []float32) {
	coef := c.coefT.Data()
	c.coefSum, c.advSum = 0, 0
	for i := range coef {
		var v float64
		for a := range c.nAct {
			v += math.Exp(float64(logp[i*c.nAct+a])) * float64(q[i*c.nAct+a])
		}
		adv := float64(qa[i]) - v
		var f float64
		switch c.cfg.Filter {
		case Exp:
			f = min(math.Exp(adv/c.cfg.Beta), c.cfg.RatioUpperBound)
		case Binary:
			if adv > 0 {
				f = 1
			}
		default:
			f = 1
		}
		coef[i] = float32(f)
		c.coefSum += f
		c.advSum += adv
	}
}

// readBatch checks b's act and returns and copies them into the update's
// scratch.
func (c *CRR) readBatch(b *batch.Batch) (int, error) {
	idx, err := c.acts.Read(b, c.space)
	if err != nil {
		return 0, fmt.Errorf("crr: %w", err)
	}
	n := len(idx)
	if c.retT, err = c.rets.Read(b, n, 0); err != nil {
		return 0, fmt.Errorf("crr: %w", err)
	}
	if c.coefT == nil || c.coefT.Len() != n {
		c.coefT = tensor.New(n)
	}
	c.actIdx = idx
	return n, nil
}

// Postprocess does nothing: a prioritized buffer keeps its priorities.
func (c *CRR) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Save writes the state: the actor and critic, their targets, Adam's state,
// the policy's random source and the number of updates, with
// algo.SaveParts.
func (c *CRR) Save(w io.Writer) error { return algo.SaveParts(w, c.parts()...) }

// Load restores a state written by Save into a CRR made with the same
// configuration. It returns an error wrapping algo.ErrState for a state that
// does not fit; the CRR may then be partly restored.
func (c *CRR) Load(r io.Reader) error { return algo.LoadParts(r, c.parts()...) }

func (c *CRR) parts() []algo.Part {
	return []algo.Part{
		algo.ParamsPart("nets", c.ps),
		algo.ParamsPart("targets", c.tps),
		c.opt.Part(),
		algo.BinaryPart("rng", c.src),
		algo.JSONPart("counters", &c.counters),
	}
}
