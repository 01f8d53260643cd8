package discretecql

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// CQL is discrete conservative Q-learning: double DQN's n-step TD loss plus
// the conservative penalty on the Q network. It is an algo.OffPolicy
// algorithm, trained offline from a fixed buffer; its policy is a
// *policy.Q.
//
// A CQL is driven by one goroutine at a time.
type CQL struct {
	cfg    Config
	q      policy.Network
	target policy.Network
	qPs    nn.Params
	tgtPs  nn.Params
	opt    *optim.Adam
	pol    *policy.Q
	src    *rand.PCG // the policy's random source
	space  *env.Discrete
	nAct   int
	stats  map[string]float64

	counters counters

	// Scratch reused by every step.
	tp               tensor.Tape // the update, with gradients
	ntp              tensor.Tape // targets, without
	qCall            nn.Caller   // on the batch
	nextCall, tgCall nn.Caller   // on obs_next
	returns          algo.QReturns
	acts             algo.DiscreteActions
	nextAct          []int
	retT             *tensor.Tensor
	retN             *nd.Array // retT's memory as an array
	actIdx           []int
}

type counters struct {
	Updates int64 `json:"updates"` // gradient steps taken
}

// New returns a discrete CQL for an env with the given spaces, with its Q
// network and target network built from cfg: MLPs (Hidden, ReLU) from
// observations of a Box space of one axis to one value per action. The
// initial weights (Q network, then target network) and the seed of the
// policy's random source are drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, and one naming
// the space for an action space that is not Discrete or an observation space
// the networks cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*CQL, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	d, ok := act.(*env.Discrete)
	if !ok {
		return nil, fmt.Errorf("%w: discrete CQL needs a Discrete action space, not %v (use cql for Box actions)", ErrConfig, act)
	}
	box, ok := obs.(*env.Box)
	if !ok || len(box.Shape()) != 1 {
		return nil, fmt.Errorf("%w: the MLP needs a Box observation space of one axis, not %v", ErrConfig, obs)
	}
	mc := nn.MLPConfig{In: box.Shape()[0], Hidden: cfg.Hidden, Out: int(d.N())}
	var nets [2]policy.Network
	for i := range nets {
		mlp, err := nn.NewMLP(mc, rng)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		nets[i] = policy.ObsNet{Layer: mlp}
	}
	return NewWithNetworks(cfg, nets[0], nets[1], act, rng)
}

// NewWithNetworks returns a discrete CQL learning with q, a Q network whose
// output for k observations is [k, n] for the n actions of act, and target,
// a network of the same structure that starts as a copy of q. cfg.Hidden is
// ignored. The seed of the policy's random source is drawn from rng.
//
// It returns an error wrapping ErrConfig for an invalid cfg, an action space
// that is not Discrete, or a target whose parameters do not match q's.
func NewWithNetworks(cfg Config, q, target policy.Network, act env.Space, rng *rand.Rand) (*CQL, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	space, ok := act.(*env.Discrete)
	if !ok {
		return nil, fmt.Errorf("%w: discrete CQL needs a Discrete action space, not %v (use cql for Box actions)", ErrConfig, act)
	}
	if q == nil || target == nil {
		return nil, fmt.Errorf("%w: a network is missing", ErrConfig)
	}
	c := &CQL{
		cfg: cfg.clone(), q: q, target: target, qPs: q.Params(), tgtPs: target.Params(),
		space: space, nAct: int(space.N()),
		src:   rand.NewPCG(rng.Uint64(), rng.Uint64()),
		stats: map[string]float64{"loss": 0, "loss/td": 0, "loss/cql": 0},
	}
	if err := nn.Copy(c.tgtPs, c.qPs); err != nil {
		return nil, fmt.Errorf("%w: target network: %w", ErrConfig, err)
	}
	var err error
	if c.opt, err = optim.NewAdam(c.qPs, cfg.Optim); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if c.pol, err = policy.NewQ(q, space, rand.New(c.src)); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := c.pol.SetEps(cfg.Eps, cfg.Eps); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	c.ntp.SetGradEnabled(false)
	return c, nil
}

// Config returns the configuration.
func (c *CQL) Config() Config { return c.cfg.clone() }

// Policy returns the ε-greedy Q policy (a *policy.Q), with ε = Config.Eps
// when acting with exploration.
func (c *CQL) Policy() policy.Policy { return c.pol }

// Network returns the Q network.
func (c *CQL) Network() policy.Network { return c.q }

// Target returns the target network.
func (c *CQL) Target() policy.Network { return c.target }

// Updates returns the number of gradient steps taken.
func (c *CQL) Updates() int64 { return c.counters.Updates }

// Preprocess computes the n-step returns of the sampled transitions
// (algo.QReturns) with double Q-learning's target value Q′(s′, argmaxₐ
// Q(s′, a)), and stores them in b under "returns" (float32 [B]).
//
// It returns an error if the networks cannot take the stored observations or
// if b holds no obs_next for the windows' last steps.
func (c *CQL) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return c.returns.Preprocess(b, buf, indices, c.cfg.Gamma, c.cfg.NStep, c.targets)
}

func (c *CQL) targets(tq []float32, next *batch.Batch) error {
	n := len(tq)
	c.ntp.Reset()
	q, err := c.nextCall.Call(&c.ntp, c.q, next)
	if err != nil {
		return fmt.Errorf("discretecql: Q network on obs_next: %w", err)
	}
	tgt, err := c.tgCall.Call(&c.ntp, c.target, next)
	if err != nil {
		return fmt.Errorf("discretecql: target network on obs_next: %w", err)
	}
	if err := c.checkQ(q, n); err != nil {
		return err
	}
	if err := c.checkQ(tgt, n); err != nil {
		return fmt.Errorf("target network: %w", err)
	}
	c.nextAct = tensor.ArgMaxTo(slices.Grow(c.nextAct[:0], n)[:n], q, 1)
	v := tgt.Data()
	for k, a := range c.nextAct {
		tq[k] = v[k*c.nAct+a]
	}
	return nil
}

func (c *CQL) checkQ(q *tensor.Tensor, n int) error {
	if q.NDim() != 2 || q.Dim(0) != n || q.Dim(1) != c.nAct {
		return fmt.Errorf("%w: Q-values of shape %v for %d observations and %d actions", ErrConfig, q.Shape(), n, c.nAct)
	}
	return nil
}

// Update makes one gradient step on b, which holds obs, act and returns
// (Preprocess), on
//
//	Huber(Q(s, a) − G) + w·(mean log Σₐ′ exp Q(s, a′) − mean Q(s, a))
//
// (the TD loss with δ = 1 and the conservative penalty, means over the
// batch, w = MinQWeight), then updates the target network (a copy every
// TargetUpdateFreq steps, or a Polyak step with Tau). It returns the total
// under "loss", the TD loss under "loss/td" and the penalty (without w)
// under "loss/cql", in a map owned by the CQL. Importance weights of a
// prioritized buffer are not applied.
//
// Update returns an error, changing nothing, if b lacks a key, an action is
// outside the action space, or the network cannot take the observations.
func (c *CQL) Update(b *batch.Batch) (map[string]float64, error) {
	n, err := c.readBatch(b)
	if err != nil {
		return nil, err
	}
	tp := &c.tp
	tp.Reset()
	q, err := c.qCall.Call(tp, c.q, b)
	if err != nil {
		return nil, fmt.Errorf("discretecql: Q network: %w", err)
	}
	if err := c.checkQ(q, n); err != nil {
		return nil, err
	}
	qa := tp.Gather(q, 1, c.actIdx)
	td := tp.Huber(qa, c.retT, 1)
	pen := algo.ConservativePenalty(tp, q, qa)
	loss := tp.Add(td, tp.MulScalar(pen, float32(c.cfg.MinQWeight)))
	c.opt.ZeroGrad()
	tp.Backward(loss)
	if c.cfg.MaxGradNorm > 0 {
		optim.ClipGradNorm(c.qPs, c.cfg.MaxGradNorm)
	}
	c.opt.Step()
	c.counters.Updates++
	algo.UpdateTarget(c.tgtPs, c.qPs, c.counters.Updates, c.cfg.TargetUpdateFreq, c.cfg.Tau)
	c.stats["loss"] = float64(loss.Item())
	c.stats["loss/td"] = float64(td.Item())
	c.stats["loss/cql"] = float64(pen.Item())
	return c.stats, nil
}

// readBatch checks b's act and returns and copies them into the update's
// scratch.
func (c *CQL) readBatch(b *batch.Batch) (int, error) {
	idx, err := c.acts.Read(b, c.space)
	if err != nil {
		return 0, fmt.Errorf("discretecql: %w", err)
	}
	n := len(idx)
	ret, err := b.Array(batch.KeyReturns)
	if err != nil {
		return 0, fmt.Errorf("discretecql: %w (run Preprocess first)", err)
	}
	if ret.Ndim() != 1 || ret.Dim(0) != n {
		return 0, fmt.Errorf("discretecql: returns of shape %v for %d actions; want [%d]", ret.Shape(), n, n)
	}
	if !ret.DType().IsFloat() {
		return 0, fmt.Errorf("discretecql: returns of dtype %v; want float32 or float64", ret.DType())
	}
	if c.retT == nil || c.retT.Len() != n {
		c.retT = tensor.New(n)
		c.retN = c.retT.ND()
	}
	if err := nd.CopyTo(c.retN, ret); err != nil {
		return 0, fmt.Errorf("discretecql: returns: %w", err)
	}
	c.actIdx = idx
	return n, nil
}

// Postprocess does nothing: a prioritized buffer keeps its priorities.
func (c *CQL) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Save writes the state: the Q and target networks, Adam's state, the
// policy's random source and the number of updates, with algo.SaveParts.
func (c *CQL) Save(w io.Writer) error { return algo.SaveParts(w, c.parts()...) }

// Load restores a state written by Save into a CQL made with the same
// configuration. It returns an error wrapping algo.ErrState for a state that
// does not fit; the CQL may then be partly restored.
func (c *CQL) Load(r io.Reader) error { return algo.LoadParts(r, c.parts()...) }

func (c *CQL) parts() []algo.Part {
	return []algo.Part{
		algo.ParamsPart("q", c.qPs),
		algo.ParamsPart("target", c.tgtPs),
		{Name: "optim", Save: c.opt.Save, Load: c.opt.Load},
		algo.BinaryPart("rng", c.src),
		algo.JSONPart("counters", &c.counters),
	}
}
