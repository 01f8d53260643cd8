package bdqn

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// BDQN is the branching dueling Q-network (Tavakoli et al., "Action
// Branching Architectures for Deep Reinforcement Learning", 2018) as
// Tianshou trains it: one Q-value head per action dimension over a shared
// trunk and state value, the target
//
//	y = Σₜ γᵗ rₜ + γⁿ · mean_d Q′ᵈ(s′, argmax_a Qᵈ(s′, a))
//
// (the n-step return, no bootstrap after termination; with Double false
// the target's own maximum), and the loss mean_{b,d}(y_b − Qᵈ(s_b, a_bᵈ))²,
// with a target network copied every TargetUpdateFreq gradient steps. It is
// an algo.OffPolicy algorithm for a MultiDiscrete action space of one axis
// whose dimensions all have the same number of actions, or a Box of one
// axis discretized into Bins points per dimension as
// env.ContinuousToDiscrete does.
//
// A BDQN is driven by one goroutine at a time.
type BDQN struct {
	cfg         Config
	net, target *Branching
	netPs       nn.Params
	tgtPs       nn.Params
	opt         *algo.QOptim
	pol         *branchPolicy
	src         *rand.PCG
	d, a        int

	counters counters

	tp, ntp         tensor.Tape
	caller          nn.Caller
	nextCall        nn.Caller
	tgtCall         nn.Caller
	returns         algo.QReturns
	actF, retF      *nd.Array // the batch's actions [B, D] and returns [B] as float64
	actIdx, nextAct []int
	retT            *tensor.Tensor // y repeated over the branches [B·D]
	flat            []int          // the shape [B·D, A] of the Q-values' rows
	stats           map[string]float64
}

// counters are the parts of the state that are not tensors.
type counters struct {
	Updates  int64   `json:"updates"`
	EnvSteps int64   `json:"env_steps"`
	EpsTrain float64 `json:"eps_train"`
}

// New returns a BDQN for an env with a Box observation space of one axis
// and the action space act, its weights and the seed of its policy's
// random source drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg or spaces it
// cannot take: a Discrete action space (use DQN), a MultiDiscrete one whose
// dimensions differ in size or with more than one axis, a Box that is not
// float32 with finite bounds and one axis.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*BDQN, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	ob, ok := obs.(*env.Box)
	if !ok || len(ob.Shape()) != 1 {
		return nil, fmt.Errorf("%w: BDQN needs a Box observation space of one axis, not %v", ErrConfig, obs)
	}
	cfg.CommonHidden = slices.Clone(cfg.CommonHidden)
	cfg.ValueHidden = slices.Clone(cfg.ValueHidden)
	cfg.ActionHidden = slices.Clone(cfg.ActionHidden)
	pol := &branchPolicy{space: act}
	switch s := act.(type) {
	case *env.MultiDiscrete:
		nvec := nd.ToSlice[int64](s.NVec())
		if len(s.Shape()) != 1 || slices.Min(nvec) != slices.Max(nvec) || nvec[0] < 2 {
			return nil, fmt.Errorf("%w: BDQN needs a MultiDiscrete action space of one axis with the same number (≥ 2) of actions in every dimension, not %v", ErrConfig, act)
		}
		pol.d, pol.a, pol.start = len(nvec), int(nvec[0]), nd.ToSlice[int64](s.Start())
	case *env.Box:
		mesh, err := env.ActionMesh(s, cfg.Bins)
		if err != nil || s.DType() != nd.Float32 {
			return nil, fmt.Errorf("%w: BDQN discretizes a float32 Box action space of one axis with finite bounds, not %v", ErrConfig, act)
		}
		pol.d, pol.a, pol.mesh = len(mesh), cfg.Bins, mesh
	default:
		return nil, fmt.Errorf("%w: BDQN needs a MultiDiscrete or Box action space, not %v (a Discrete space is DQN's)", ErrConfig, act)
	}
	b := &BDQN{cfg: cfg, d: pol.d, a: pol.a, stats: map[string]float64{"loss": 0}}
	var err error
	if b.net, err = newBranching(cfg, ob.Shape()[0], b.d, b.a, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if b.target, err = newBranching(cfg, ob.Shape()[0], b.d, b.a, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	b.netPs, b.tgtPs = b.net.Params(), b.target.Params()
	if b.opt, err = algo.NewQOptim(algo.QOptimConfig{Params: b.netPs, Online: b.netPs, Target: b.tgtPs, Adam: cfg.Optim,
		TargetUpdateFreq: cfg.TargetUpdateFreq, Updates: &b.counters.Updates}, ErrConfig); err != nil {
		return nil, err
	}
	b.src = rand.NewPCG(rng.Uint64(), rng.Uint64())
	pol.net, pol.ps, pol.rng = b.net, b.netPs, rand.New(b.src)
	if pol.hold, err = policy.NewHold(cfg.Hold); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	pol.drawFn = pol.draw
	pol.tp.SetGradEnabled(false)
	b.pol = pol
	b.counters.EpsTrain = cfg.EpsTrain
	b.setEps()
	b.ntp.SetGradEnabled(false)
	return b, nil
}

// Config returns the configuration.
func (b *BDQN) Config() Config { return b.cfg }

// Policy returns the ε-greedy branching policy, which maps the indices of a
// discretized Box to its points (collector.ActionMapper).
func (b *BDQN) Policy() policy.Policy { return b.pol }

// Network returns the online network and Target the target network.
func (b *BDQN) Network() *Branching { return b.net }

// Target returns the target network.
func (b *BDQN) Target() *Branching { return b.target }

// Updates returns the number of gradient steps taken.
func (b *BDQN) Updates() int64 { return b.counters.Updates }

// SetEps sets the policy's ε for training (until the next Schedule) and
// testing. It returns an error wrapping ErrConfig unless both are in [0,
// 1].
func (b *BDQN) SetEps(train, test float64) error {
	if !(train >= 0 && train <= 1 && test >= 0 && test <= 1) {
		return fmt.Errorf("%w: ε train %v, test %v: want values in [0, 1]", ErrConfig, train, test)
	}
	b.counters.EpsTrain, b.cfg.EpsTest = train, test
	b.setEps()
	return nil
}

func (b *BDQN) setEps() { b.pol.epsTrain, b.pol.epsTest = b.counters.EpsTrain, b.cfg.EpsTest }

// Schedule sets the training ε for envSteps env steps of training:
// max(EpsTrain·(1 − EpsDecay)^envSteps, EpsTest). It implements
// algo.Scheduled.
func (b *BDQN) Schedule(envSteps int64) {
	b.counters.EnvSteps = envSteps
	b.counters.EpsTrain = math.Max(b.cfg.EpsTrain*math.Pow(1-b.cfg.EpsDecay, float64(envSteps)), b.cfg.EpsTest)
	b.setEps()
}

// Preprocess stores in b the targets y of the sampled transitions under
// "returns" (float32 [B], see algo.QReturns), memory of the BDQN. It
// returns an error if the networks cannot take the observations or b holds
// no obs_next.
func (b *BDQN) Preprocess(bt *batch.Batch, buf buffer.Buffer, indices []int) error {
	return b.returns.Preprocess(bt, buf, indices, b.cfg.Gamma, b.cfg.NStep, b.targets)
}

// targets stores in tq the mean over the branches of the target network's
// values of the next observations in next.
func (b *BDQN) targets(tq []float32, next *batch.Batch) error {
	b.ntp.Reset()
	tv, err := b.tgtCall.Call(&b.ntp, b.target, next)
	if err != nil {
		return fmt.Errorf("bdqn: target network on obs_next: %w", err)
	}
	n, d, a := len(tq), b.d, b.a
	b.nextAct = slices.Grow(b.nextAct[:0], n*d)[:n*d]
	if b.cfg.Double {
		on, err := b.nextCall.Call(&b.ntp, b.net, next)
		if err != nil {
			return fmt.Errorf("bdqn: network on obs_next: %w", err)
		}
		tensor.ArgMaxTo(b.nextAct, on, 2)
	} else {
		tensor.ArgMaxTo(b.nextAct, tv, 2)
	}
	v := tv.Data()
	for i := range n {
		var s float32
		for j := range d {
			s += v[(i*d+j)*a+b.nextAct[i*d+j]]
		}
		tq[i] = s / float32(d)
	}
	return nil
}

// Update makes one gradient step on bt, which holds obs, act [B, D] and
// returns (Preprocess): Adam on mean_{b,d}(y_b − Qᵈ(s_b, a_bᵈ))², then the
// target network's copy every TargetUpdateFreq steps. It returns {"loss":
// the loss}, a map owned by the BDQN, and an error, changing nothing, if bt
// lacks a key, an action is outside the space or the network cannot take
// the observations.
func (b *BDQN) Update(bt *batch.Batch) (map[string]float64, error) {
	n, err := b.readBatch(bt)
	if err != nil {
		return nil, err
	}
	tp := &b.tp
	tp.Reset()
	q, err := b.caller.Call(tp, b.net, bt)
	if err != nil {
		return nil, fmt.Errorf("bdqn: network: %w", err)
	}
	b.flat = append(b.flat[:0], n*b.d, b.a)
	qa := tp.Gather(tp.Reshape(q, b.flat...), 1, b.actIdx)
	loss := tp.MSE(qa, b.retT)
	b.opt.Step(tp, loss)
	b.stats["loss"] = float64(loss.Item())
	return b.stats, nil
}

// readBatch checks bt's act and returns and copies them into the update's
// scratch: the action indices [B·D] and the returns repeated per branch.
func (b *BDQN) readBatch(bt *batch.Batch) (int, error) {
	act, err := bt.Array(batch.KeyAct)
	if err != nil {
		return 0, fmt.Errorf("bdqn: %w", err)
	}
	if act.Ndim() != 2 || act.Dim(1) != b.d {
		return 0, fmt.Errorf("bdqn: act of shape %v; want [B %d]", act.Shape(), b.d)
	}
	n := act.Dim(0)
	ret, err := bt.Array(batch.KeyReturns)
	if err != nil {
		return 0, fmt.Errorf("bdqn: %w (run Preprocess first)", err)
	}
	if ret.Ndim() != 1 || ret.Dim(0) != n || !ret.DType().IsFloat() {
		return 0, fmt.Errorf("bdqn: returns of shape %v for %d actions; want float [%d]", ret.Shape(), n, n)
	}
	if b.actF == nil || b.actF.Dim(0) != n {
		b.actF, b.retF = nd.Zeros(nd.Float64, n, b.d), nd.Zeros(nd.Float64, n)
		b.retT = tensor.New(n * b.d)
	}
	if err := nd.CopyTo(b.actF, act); err != nil {
		return 0, fmt.Errorf("bdqn: act: %w", err)
	}
	b.actIdx = slices.Grow(b.actIdx[:0], n*b.d)[:n*b.d]
	for i, v := range nd.Data[float64](b.actF) {
		j := v
		if b.pol.start != nil {
			j -= float64(b.pol.start[i%b.d])
		}
		if j != math.Trunc(j) || j < 0 || j >= float64(b.a) {
			return 0, fmt.Errorf("bdqn: action %v of branch %d outside its %d actions", v, i%b.d, b.a)
		}
		b.actIdx[i] = int(j)
	}
	if err := nd.CopyTo(b.retF, ret); err != nil {
		return 0, fmt.Errorf("bdqn: returns: %w", err)
	}
	r := b.retT.Data()
	for i, v := range nd.Data[float64](b.retF) {
		y := float32(v)
		for j := range b.d {
			r[i*b.d+j] = y
		}
	}
	return n, nil
}

// Postprocess does nothing: BDQN gives nothing back to the buffer.
func (b *BDQN) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Save writes the state: the online and target networks, Adam's state, the
// policy's random source and the counters (gradient steps, env steps, ε),
// with algo.SaveParts.
func (b *BDQN) Save(w io.Writer) error { return algo.SaveParts(w, b.parts()...) }

// Load restores a state written by Save into a BDQN made with the same
// configuration. It returns an error wrapping algo.ErrState for a state
// that does not fit; the BDQN may then be partly restored.
func (b *BDQN) Load(r io.Reader) error {
	if err := algo.LoadParts(r, b.parts()...); err != nil {
		return err
	}
	if !(b.counters.EpsTrain >= 0 && b.counters.EpsTrain <= 1) {
		return fmt.Errorf("%w: ε %v", algo.ErrState, b.counters.EpsTrain)
	}
	b.setEps()
	return nil
}

func (b *BDQN) parts() []algo.Part {
	return []algo.Part{
		algo.ParamsPart("q", b.netPs),
		algo.ParamsPart("target", b.tgtPs),
		b.opt.Part(),
		algo.BinaryPart("rng", b.src),
		algo.JSONPart("counters", &b.counters),
	}
}
