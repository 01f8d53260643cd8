package dqn

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/par"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// DQN is deep Q-learning (Mnih et al., 2015) with its common extensions:
// n-step returns, a target network (hard or soft updates), double Q-learning,
// dueling networks, Huber or MSE loss, prioritized replay and an ε-greedy
// schedule. It is an algo.OffPolicy algorithm; its policy is a *policy.Q.
//
// A DQN is driven by one goroutine at a time.
type DQN struct {
	cfg    Config
	net    policy.Network
	target policy.Network // nil without target network
	netPs  nn.Params
	tgtPs  nn.Params
	opt    *algo.QOptim
	pol    *policy.Q
	src    *rand.PCG // the policy's random source
	space  *env.Discrete
	nAct   int
	// weights counts the Q network's parameters (nextSplitWork).
	weights int

	counters counters

	// Scratch reused by every step.
	tp       tensor.Tape // the update, with gradients
	ntp      tensor.Tape // targets, without
	tgtTp    tensor.Tape // the target network's pass beside the online one
	next     nextPasses  // the two passes on obs_next as par tasks
	caller   nn.Caller   // online network on the batch
	nextCall nn.Caller   // online network on obs_next
	tgtCall  nn.Caller   // target network on obs_next
	returns  algo.QReturns
	acts     algo.DiscreteActions
	nextAct  []int
	nextMask env.ActionMask // action masks of obs_next
	rets     algo.Returns
	retT, wT *tensor.Tensor
	wN       *nd.Array // wT's memory as an array
	actIdx   []int
	td       []float64 // TD errors of the last update, for priorities
	stats    map[string]float64
}

// counters are the parts of the state that are not tensors.
type counters struct {
	Updates  int64   `json:"updates"`   // gradient steps taken
	EnvSteps int64   `json:"env_steps"` // last value given to Schedule
	EpsTrain float64 `json:"eps_train"` // current ε of the policy
	EpsTest  float64 `json:"eps_test"`
	algo.BetaSchedule
}

// New returns a DQN for an env with the given spaces, with its Q network
// built from cfg: an MLP (Hidden, optionally Dueling) for a Box observation
// space of one axis, or the Nature CNN (cfg.CNN) for [channels, 84, 84]. The
// networks' initial weights and the seed of the policy's random source are
// drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, an action space
// that is not Discrete, or an observation space the networks cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*DQN, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	d, ok := act.(*env.Discrete)
	if !ok {
		return nil, fmt.Errorf("%w: DQN needs a Discrete action space, not %v", ErrConfig, act)
	}
	net, err := buildNet(cfg, obs, int(d.N()), rng)
	if err != nil {
		return nil, err
	}
	var target policy.Network
	if cfg.target() {
		if target, err = buildNet(cfg, obs, int(d.N()), rng); err != nil {
			return nil, err
		}
	}
	return NewWithNetworks(cfg, net, target, act, rng)
}

// NewWithNetworks returns a DQN learning with net, a Q network whose output
// for k observations is [k, n] for the n actions of act, and target, a
// network of the same structure (built with the same constructor) that
// becomes the target network; target must be nil when cfg keeps no target
// network. target starts as a copy of net. cfg's network fields (Hidden,
// Dueling, CNN) are ignored. The seed of the policy's random source is drawn
// from rng.
//
// It returns an error wrapping ErrConfig for an invalid cfg, an action space
// that is not Discrete, a missing or unexpected target, or a target whose
// parameters do not match net's.
func NewWithNetworks(cfg Config, net, target policy.Network, act env.Space, rng *rand.Rand) (*DQN, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.HuberDelta == 0 {
		cfg.HuberDelta = 1
	}
	space, ok := act.(*env.Discrete)
	if !ok {
		return nil, fmt.Errorf("%w: DQN needs a Discrete action space, not %v", ErrConfig, act)
	}
	if (target != nil) != cfg.target() {
		return nil, fmt.Errorf("%w: target network given: %v, configured: %v", ErrConfig, target != nil, cfg.target())
	}
	cfg.Hidden = slices.Clone(cfg.Hidden)
	cfg.Conv = slices.Clone(cfg.Conv)
	d := &DQN{
		cfg: cfg, net: net, target: target, netPs: net.Params(), space: space, nAct: int(space.N()),
		src:   rand.NewPCG(rng.Uint64(), rng.Uint64()),
		stats: map[string]float64{"loss": 0},
	}
	if target != nil {
		d.tgtPs = target.Params()
	}
	for _, p := range d.netPs {
		d.weights += p.Tensor.Len()
	}
	var err error
	if d.opt, err = algo.NewQOptim(algo.QOptimConfig{Params: d.netPs, Online: d.netPs, Target: d.tgtPs, Adam: cfg.Optim,
		TargetUpdateFreq: cfg.TargetUpdateFreq, Tau: cfg.Tau, MaxGradNorm: cfg.MaxGradNorm, Updates: &d.counters.Updates}, ErrConfig); err != nil {
		return nil, err
	}
	if d.pol, err = policy.NewQ(net, space, rand.New(d.src)); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	d.counters.EpsTrain, d.counters.EpsTest = cfg.EpsTrain, cfg.EpsTest
	if err := d.pol.SetEps(cfg.EpsTrain, cfg.EpsTest); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := d.pol.SetHold(cfg.Hold); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	d.ntp.SetGradEnabled(false)
	d.tgtTp.SetGradEnabled(false)
	d.next.d = d
	return d, nil
}

// Config returns the configuration.
func (d *DQN) Config() Config { return d.cfg }

// Policy returns the ε-greedy Q policy (a *policy.Q) acting with the online
// network.
func (d *DQN) Policy() policy.Policy { return d.pol }

// Network returns the online Q network and Target the target network (nil
// without one).
func (d *DQN) Network() policy.Network { return d.net }

// Target returns the target network, or nil.
func (d *DQN) Target() policy.Network { return d.target }

// Updates returns the number of gradient steps taken.
func (d *DQN) Updates() int64 { return d.counters.Updates }

// Schedule sets the training ε for envSteps env steps of training: EpsTrain
// annealed linearly to EpsTrainFinal over EpsDecaySteps. It also records
// envSteps for the β schedule of a prioritized buffer (applied in
// Postprocess). It implements algo.Scheduled.
func (d *DQN) Schedule(envSteps int64) {
	d.counters.EnvSteps = envSteps
	if d.cfg.EpsDecaySteps > 0 {
		eps := algo.Anneal(d.cfg.EpsTrain, d.cfg.EpsTrainFinal, envSteps, d.cfg.EpsDecaySteps)
		d.counters.EpsTrain = eps
		d.pol.SetEps(eps, d.counters.EpsTest) // in [0, 1]: both ends are
	}
}

// Preprocess computes the n-step returns of the sampled transitions
// (algo.QReturns), with target values from the target network (the online
// network without one; with Double, of the action the online network
// chooses), and stores them in b under "returns" (float32 [B]). When the
// next observations carry action masks (env.ActionMask), the maximum and
// Double's choice range over their allowed actions only.
//
// It returns an error if the networks cannot take the stored observations or
// if b holds no obs_next for the windows' last steps.
func (d *DQN) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return d.returns.Preprocess(b, buf, indices, d.cfg.Gamma, d.cfg.NStep, d.targets)
}

// targets stores in tq the target values of the len(tq) next observations
// whose network inputs are in next.
func (d *DQN) targets(tq []float32, next *batch.Batch) error {
	n := len(tq)
	if err := d.next.run(next, n); err != nil {
		return err
	}
	online, values := d.next.online, d.next.values
	if online != nil {
		if err := d.checkQ(online, n); err != nil {
			return err
		}
	}
	if d.target == nil {
		values = online
	} else if err := d.checkQ(values, n); err != nil {
		return err
	}
	v := values.Data()
	mask, err := d.nextMask.Read(next, n, d.nAct)
	if err != nil {
		return fmt.Errorf("dqn: obs_next: %w", err)
	}
	if mask != nil {
		d.maskedTargets(tq, v, online, nd.Data[float32](mask))
		return nil
	}
	if d.target != nil && d.cfg.Double {
		d.nextAct = tensor.ArgMaxTo(slices.Grow(d.nextAct[:0], n)[:n], online, 1)
		for k, a := range d.nextAct {
			tq[k] = v[k*d.nAct+a]
		}
		return nil
	}
	for k := range tq {
		row := v[k*d.nAct : (k+1)*d.nAct]
		m := row[0]
		for _, x := range row[1:] {
			if x > m {
				m = x
			}
		}
		tq[k] = m
	}
	return nil
}

// nextSplitWork is the fewest multiply-adds of a pass on obs_next, counted
// as the network's parameters times the batch's rows, for which the two
// passes go to two workers. Below it, as for the classic tasks' Q
// networks, handing one pass to a helper cost more than it saved
// (BENCHMARKS.md, "DQN's passes on obs_next").
const nextSplitWork = 1 << 24

// nextPasses runs the networks' passes on obs_next that targets needs: the
// online network's (task 0; without a target network, or for Double's
// choice) and the target network's (task 1). The two are independent, each
// on its own tape and Caller, so they run on two workers where the pool has
// them and give the same bits on any number.
type nextPasses struct {
	d              *DQN
	batch          *batch.Batch
	online, values *tensor.Tensor
	errs           [2]error
}

// run runs the passes on next, a batch of rows observations.
func (p *nextPasses) run(next *batch.Batch, rows int) error {
	d := p.d
	p.batch, p.online, p.values, p.errs = next, nil, nil, [2]error{}
	d.ntp.Reset()
	d.tgtTp.Reset()
	tasks := 1
	if d.target != nil {
		tasks = 2
	}
	workers := par.Workers()
	if rows*d.weights < nextSplitWork {
		workers = 1
	}
	par.Run(tasks, workers, p)
	p.batch = nil
	return cmp.Or(p.errs[0], p.errs[1])
}

// Task runs pass i (par.Tasks).
func (p *nextPasses) Task(i, _ int) {
	d := p.d
	if i == 0 {
		if d.target == nil || d.cfg.Double {
			if p.online, p.errs[0] = d.nextCall.Call(&d.ntp, d.net, p.batch); p.errs[0] != nil {
				p.errs[0] = fmt.Errorf("dqn: Q network on obs_next: %w", p.errs[0])
			}
		}
		return
	}
	if p.values, p.errs[1] = d.tgtCall.Call(&d.tgtTp, d.target, p.batch); p.errs[1] != nil {
		p.errs[1] = fmt.Errorf("dqn: target network on obs_next: %w", p.errs[1])
	}
}

// maskedTargets is targets for next observations with action masks m: the
// maximum (or with Double the online network's choice) over the allowed
// actions only, and 0 for an observation that allows none (the last of an
// episode, whose value a terminated step does not use).
func (d *DQN) maskedTargets(tq, v []float32, online *tensor.Tensor, m []float32) {
	choose := v
	if d.target != nil && d.cfg.Double {
		choose = online.Data()
	}
	for k := range tq {
		row := k * d.nAct
		a := policy.ArgMaxValid(choose[row:row+d.nAct], m[row:row+d.nAct])
		tq[k] = 0
		if a >= 0 {
			tq[k] = v[row+a]
		}
	}
}

// NextValues stores in dst the bootstrap values of the len(dst) next
// observations in next (under "obs"): maxₐ Q of the target network, or
// with Double the target network's value of the online network's choice
// (the online network's maximum without a target network). It is
// Preprocess's target for callers that gather n-step returns themselves
// (Ape-X's learner and actors).
func (d *DQN) NextValues(dst []float32, next *batch.Batch) error { return d.targets(dst, next) }

// TD returns the TD errors G − Q(s, a) of the batch of the last Update, in
// its row order: the new priorities of prioritized replay. The slice is
// owned by the DQN and overwritten by the next Update.
func (d *DQN) TD() []float64 { return d.td }

// TDErrorsTo stores in dst |G − Q(s, a)| for the rows of b (obs, act and
// returns, as Update reads them) without changing the DQN: the initial
// priorities Ape-X's actors compute.
func (d *DQN) TDErrorsTo(dst []float64, b *batch.Batch) error {
	n, err := d.readBatch(b)
	if err != nil {
		return err
	}
	if len(dst) != n {
		return fmt.Errorf("%w: %d slots for the TD errors of %d transitions", ErrConfig, len(dst), n)
	}
	tp := &d.ntp
	tp.Reset()
	q, err := d.caller.Call(tp, d.net, b)
	if err != nil {
		return fmt.Errorf("dqn: Q network: %w", err)
	}
	if err := d.checkQ(q, n); err != nil {
		return err
	}
	v, ret := q.Data(), d.retT.Data()
	for k := range dst {
		dst[k] = math.Abs(float64(ret[k] - v[k*d.nAct+d.actIdx[k]]))
	}
	return nil
}

func (d *DQN) checkQ(q *tensor.Tensor, n int) error {
	if q.NDim() != 2 || q.Dim(0) != n || q.Dim(1) != d.nAct {
		return fmt.Errorf("%w: Q-values of shape %v for %d observations and %d actions", ErrConfig, q.Shape(), n, d.nAct)
	}
	return nil
}

// Update makes one gradient step on b, which holds obs, act and returns
// (Preprocess) and, from a prioritized buffer, importance weights under
// "weight": the loss is the mean over the batch of w·ℓ(G − Q(s, a)), ℓ the
// squared error or the Huber function (w = 1 without weights). Then the
// target network is updated (a copy every TargetUpdateFreq steps, or a
// Polyak step with Tau). It returns {"loss": the loss}, a map owned by the
// DQN.
//
// Update returns an error, changing nothing, if b lacks a key, an action
// is outside the action space, or the networks cannot take the
// observations.
func (d *DQN) Update(b *batch.Batch) (map[string]float64, error) {
	n, err := d.readBatch(b)
	if err != nil {
		return nil, err
	}
	tp := &d.tp
	tp.Reset()
	q, err := d.caller.Call(tp, d.net, b)
	if err != nil {
		return nil, fmt.Errorf("dqn: Q network: %w", err)
	}
	if err := d.checkQ(q, n); err != nil {
		return nil, err
	}
	qa := tp.Gather(q, 1, d.actIdx)
	var loss *tensor.Tensor
	weighted := b.Has(batch.KeyWeight)
	switch {
	case !weighted && d.cfg.Loss == MSE:
		loss = tp.MSE(qa, d.retT)
	case !weighted:
		loss = tp.Huber(qa, d.retT, float32(d.cfg.HuberDelta))
	default:
		diff := tp.Sub(qa, d.retT)
		var l *tensor.Tensor
		if d.cfg.Loss == MSE {
			l = tp.Mul(diff, diff)
		} else {
			// ½m² + δ(|d| − m) with m = min(|d|, δ): the Huber function
			// elementwise.
			delta := float32(d.cfg.HuberDelta)
			a := tp.Abs(diff)
			m := tp.Clamp(a, 0, delta)
			l = tp.Add(tp.MulScalar(tp.Mul(m, m), 0.5), tp.MulScalar(tp.Sub(a, m), delta))
		}
		loss = tp.Mean(tp.Mul(d.wT, l))
	}
	d.opt.Step(tp, loss)
	ret, qv := d.retT.Data(), qa.Data()
	for i := range d.td {
		d.td[i] = float64(ret[i] - qv[i])
	}
	d.stats["loss"] = float64(loss.Item())
	return d.stats, nil
}

// readBatch checks b's act, returns and weight, and copies them into the
// update's scratch: action indices, the returns and weights as tensors.
func (d *DQN) readBatch(b *batch.Batch) (int, error) {
	idx, err := d.acts.Read(b, d.space)
	if err != nil {
		return 0, fmt.Errorf("dqn: %w", err)
	}
	n := len(idx)
	if d.retT, err = d.rets.Read(b, n, 0); err != nil {
		return 0, fmt.Errorf("dqn: %w", err)
	}
	if d.wT == nil || d.wT.Len() != n {
		d.wT = tensor.New(n)
		d.wN = d.wT.ND()
		d.td = make([]float64, n)
	}
	d.actIdx = idx
	if w, ok := b.Get(batch.KeyWeight); ok {
		wa, ok := w.(*nd.Array)
		if !ok || wa.Ndim() != 1 || wa.Dim(0) != n {
			return 0, fmt.Errorf("dqn: weight is %v; want an array [%d]", w, n)
		}
		if err := copyFloats(d.wN, wa); err != nil {
			return 0, fmt.Errorf("dqn: weight: %w", err)
		}
	}
	return n, nil
}

// copyFloats copies a float32 or float64 array of dst's shape into dst.
func copyFloats(dst, a *nd.Array) error {
	if !a.DType().IsFloat() {
		return fmt.Errorf("dtype %v; want float32 or float64", a.DType())
	}
	return nd.CopyTo(dst, a)
}

// Postprocess gives a prioritized buffer (buffer.Prioritizer) the new
// priorities of the transitions at indices, their absolute TD errors from the
// last Update, and moves its β along the schedule (BetaFinal,
// BetaAnnealSteps). Other buffers are left alone.
func (d *DQN) Postprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	err := d.counters.Prioritize(buf, indices, d.td, d.cfg.BetaFinal, d.counters.EnvSteps, d.cfg.BetaAnnealSteps)
	if err != nil {
		return fmt.Errorf("dqn: %w", err)
	}
	return nil
}

// Save writes the DQN's state: the online and target networks, Adam's state,
// the policy's random source, and the counters (gradient steps, env steps,
// ε, β schedule), with algo.SaveParts.
func (d *DQN) Save(w io.Writer) error { return algo.SaveParts(w, d.parts()...) }

// Load restores a state written by Save into a DQN made with the same
// configuration. It returns an error wrapping algo.ErrState for a state that
// does not fit; the DQN may then be partly restored.
func (d *DQN) Load(r io.Reader) error {
	if err := algo.LoadParts(r, d.parts()...); err != nil {
		return err
	}
	if err := d.pol.SetEps(d.counters.EpsTrain, d.counters.EpsTest); err != nil {
		return fmt.Errorf("%w: %w", algo.ErrState, err)
	}
	return nil
}

func (d *DQN) parts() []algo.Part {
	ps := []algo.Part{algo.ParamsPart("q", d.netPs)}
	if d.target != nil {
		ps = append(ps, algo.ParamsPart("target", d.tgtPs))
	}
	return append(ps,
		d.opt.Part(),
		algo.BinaryPart("rng", d.src),
		algo.JSONPart("counters", &d.counters))
}
