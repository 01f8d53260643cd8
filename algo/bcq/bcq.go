package bcq

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// ErrDiverged is wrapped by the errors of acting and of Preprocess when the
// imitation network's logits hold a NaN, so that no action is eligible.
var ErrDiverged = errors.New("bcq: imitation logits are NaN")

// BCQ is discrete batch-constrained deep Q-learning (Fujimoto, Conti,
// Ghavamzadeh and Pineau, "Benchmarking Batch Deep Reinforcement Learning
// Algorithms", 2019), as Tianshou's DiscreteBCQPolicy: a Q network, a target
// network and an imitation network G that learns the logged actions. Actions
// are chosen, when acting and in the targets, among those whose imitation
// probability is at least τ times the largest. It is an algo.OffPolicy
// algorithm, trained offline from a fixed buffer.
//
// A BCQ is driven by one goroutine at a time.
type BCQ struct {
	cfg    Config
	q      policy.Network
	target policy.Network
	imit   policy.Network
	qPs    nn.Params
	tgtPs  nn.Params
	imitPs nn.Params
	opt    *algo.QOptim // Adam over q then imitator, prefixed
	pol    *bcqPolicy
	src    *rand.PCG // the policy's random source
	space  *env.Discrete
	nAct   int
	stats  map[string]float64

	counters counters

	// Scratch reused by every step.
	tp                    tensor.Tape // the update, with gradients
	ntp                   tensor.Tape // targets, without
	qCall, iCall          nn.Caller   // on the batch
	nextQ, nextI, tgtCall nn.Caller   // on obs_next
	returns               algo.QReturns
	acts                  algo.DiscreteActions
	nextAct               []int
	rets                  algo.Returns
	retT                  *tensor.Tensor
	actIdx                []int
}

type counters struct {
	Updates int64 `json:"updates"` // gradient steps taken
}

// New returns a BCQ for an env with the given spaces, with its networks
// built from cfg: a Q network, a target network and an imitation network,
// each an MLP (Hidden, ReLU) from observations of a Box space of one axis to
// one output per action. The initial weights (Q network, then target network,
// then imitation network) and the seed of the policy's random source are
// drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, an action space
// that is not Discrete, or an observation space the networks cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*BCQ, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	nets, _, err := algo.QNetworks("BCQ", obs, act, cfg.Hidden, 3, rng, ErrConfig)
	if err != nil {
		return nil, err
	}
	return NewWithNetworks(cfg, nets[0], nets[1], nets[2], act, rng)
}

// NewWithNetworks returns a BCQ learning with q, a Q network whose output for
// k observations is [k, n] for the n actions of act; target, a network of
// the same structure (built with the same constructor) that starts as a copy
// of q; and imit, an imitation network whose output [k, n] are the logits of
// the logged actions' distribution. q and imit must not share parameters
// (one Adam updates both). cfg.Hidden is ignored. The seed of the policy's
// random source is drawn from rng.
//
// It returns an error wrapping ErrConfig for an invalid cfg, an action space
// that is not Discrete, or a target whose parameters do not match q's.
func NewWithNetworks(cfg Config, q, target, imit policy.Network, act env.Space, rng *rand.Rand) (*BCQ, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	space, ok := act.(*env.Discrete)
	if !ok {
		return nil, fmt.Errorf("%w: BCQ needs a Discrete action space, not %v", ErrConfig, act)
	}
	if q == nil || target == nil || imit == nil {
		return nil, fmt.Errorf("%w: a network is missing", ErrConfig)
	}
	b := &BCQ{
		cfg: cfg.clone(), q: q, target: target, imit: imit, qPs: q.Params(), tgtPs: target.Params(),
		space: space, nAct: int(space.N()),
		src:   rand.NewPCG(rng.Uint64(), rng.Uint64()),
		stats: map[string]float64{"loss": 0, "loss/q": 0, "loss/imitation": 0, "loss/reg": 0},
	}
	if err := disjoint(b.qPs, b.tgtPs, imit.Params()); err != nil {
		return nil, err
	}
	b.imitPs = imit.Params()
	b.pol = newPolicy(q, imit, space, cfg.Threshold, cfg.Eps, rand.New(b.src))
	var err error
	if b.opt, err = algo.NewQOptim(cfg.QOptim(b.pol.ps, b.qPs, b.tgtPs, &b.counters.Updates), ErrConfig); err != nil {
		return nil, err
	}
	b.ntp.SetGradEnabled(false)
	return b, nil
}

// Config returns the configuration.
func (b *BCQ) Config() Config { return b.cfg.clone() }

// Policy returns the BCQ policy: the eligible action of largest Q-value,
// ε-greedy when acting with exploration. Its Params are the Q network's
// (prefixed "q") and the imitation network's (prefixed "imitator").
func (b *BCQ) Policy() policy.Policy { return b.pol }

// Network returns the Q network.
func (b *BCQ) Network() policy.Network { return b.q }

// Target returns the target network.
func (b *BCQ) Target() policy.Network { return b.target }

// Imitator returns the imitation network.
func (b *BCQ) Imitator() policy.Network { return b.imit }

// Updates returns the number of gradient steps taken.
func (b *BCQ) Updates() int64 { return b.counters.Updates }

// Preprocess computes the n-step returns of the sampled transitions
// (algo.QReturns) with the target value Q′(s′, a′) of the target network at
// the action a′ the policy chooses in s′ (the eligible action of largest
// online Q-value), and stores them in b under "returns" (float32 [B]).
//
// It returns an error if the networks cannot take the stored observations,
// if b holds no obs_next for the windows' last steps, or wrapping ErrDiverged.
func (b *BCQ) Preprocess(bt *batch.Batch, buf buffer.Buffer, indices []int) error {
	return b.returns.Preprocess(bt, buf, indices, b.cfg.Gamma, b.cfg.NStep, b.targets)
}

// targets stores in tq the target network's values of the actions the
// policy chooses for the len(tq) observations whose network inputs are in
// next.
func (b *BCQ) targets(tq []float32, next *batch.Batch) error {
	n := len(tq)
	tp := &b.ntp
	tp.Reset()
	q, err := b.nextQ.Call(tp, b.q, next)
	if err != nil {
		return fmt.Errorf("bcq: Q network on obs_next: %w", err)
	}
	logits, err := b.nextI.Call(tp, b.imit, next)
	if err != nil {
		return fmt.Errorf("bcq: imitation network on obs_next: %w", err)
	}
	tgt, err := b.tgtCall.Call(tp, b.target, next)
	if err != nil {
		return fmt.Errorf("bcq: target network on obs_next: %w", err)
	}
	if err := checkOut(q, logits, n, b.nAct); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := checkOut(tgt, logits, n, b.nAct); err != nil {
		return fmt.Errorf("%w: target network: %w", ErrConfig, err)
	}
	b.nextAct = slices.Grow(b.nextAct[:0], n)[:n]
	if err := greedyTo(b.nextAct, q.Data(), logits.Data(), b.nAct, b.pol.logTau); err != nil {
		return fmt.Errorf("bcq: targets: %w", err)
	}
	v := tgt.Data()
	for k, a := range b.nextAct {
		tq[k] = v[k*b.nAct+a]
	}
	return nil
}

// Update makes one gradient step on b, which holds obs, act and returns
// (Preprocess), on the sum of three losses (Tianshou's DiscreteBCQ):
//
//	Huber(Q(s, a) − G)             the Q network's TD error, δ = 1, mean
//	−log softmax(logits(s))[a]     the imitation network's cross entropy, mean
//	λ·mean(logits(s)²)             the imitation logits' penalty
//
// with a the logged action and G the n-step return. Then the target network
// is updated (a copy every TargetUpdateFreq steps, or a Polyak step with
// Tau). It returns the total under "loss" and the three terms under
// "loss/q", "loss/imitation" and "loss/reg" (the penalty without λ), a map
// owned by the BCQ. Importance weights of a prioritized buffer are not
// applied.
//
// Update returns an error, changing nothing, if b lacks a key, an action is
// outside the action space, or the networks cannot take the observations.
func (b *BCQ) Update(bt *batch.Batch) (map[string]float64, error) {
	n, err := b.readBatch(bt)
	if err != nil {
		return nil, err
	}
	tp := &b.tp
	tp.Reset()
	q, err := b.qCall.Call(tp, b.q, bt)
	if err != nil {
		return nil, fmt.Errorf("bcq: Q network: %w", err)
	}
	logits, err := b.iCall.Call(tp, b.imit, bt)
	if err != nil {
		return nil, fmt.Errorf("bcq: imitation network: %w", err)
	}
	if err := checkOut(q, logits, n, b.nAct); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	qLoss := tp.Huber(tp.Gather(q, 1, b.actIdx), b.retT, 1)
	iLoss := tp.CrossEntropy(logits, b.actIdx)
	reg := tp.Mean(tp.Mul(logits, logits))
	loss := tp.Add(tp.Add(qLoss, iLoss), tp.MulScalar(reg, float32(b.cfg.ImitationPenalty)))
	b.opt.Step(tp, loss)
	b.stats["loss"] = float64(loss.Item())
	b.stats["loss/q"] = float64(qLoss.Item())
	b.stats["loss/imitation"] = float64(iLoss.Item())
	b.stats["loss/reg"] = float64(reg.Item())
	return b.stats, nil
}

// readBatch checks bt's act and returns and copies them into the update's
// scratch: category indices and the returns as a tensor.
func (b *BCQ) readBatch(bt *batch.Batch) (int, error) {
	idx, err := b.acts.Read(bt, b.space)
	if err != nil {
		return 0, fmt.Errorf("bcq: %w", err)
	}
	n := len(idx)
	if b.retT, err = b.rets.Read(bt, n, 0); err != nil {
		return 0, fmt.Errorf("bcq: %w", err)
	}
	b.actIdx = idx
	return n, nil
}

// Postprocess does nothing: a prioritized buffer keeps its priorities.
func (b *BCQ) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Save writes the BCQ's state: the Q, target and imitation networks, Adam's
// state, the policy's random source and the number of updates, with
// algo.SaveParts.
func (b *BCQ) Save(w io.Writer) error { return algo.SaveParts(w, b.parts()...) }

// Load restores a state written by Save into a BCQ made with the same
// configuration. It returns an error wrapping algo.ErrState for a state that
// does not fit; the BCQ may then be partly restored.
func (b *BCQ) Load(r io.Reader) error { return algo.LoadParts(r, b.parts()...) }

func (b *BCQ) parts() []algo.Part {
	return []algo.Part{
		algo.ParamsPart("q", b.qPs),
		algo.ParamsPart("target", b.tgtPs),
		algo.ParamsPart("imitator", b.imitPs),
		b.opt.Part(),
		algo.BinaryPart("rng", b.src),
		algo.JSONPart("counters", &b.counters),
	}
}

// disjoint returns an error wrapping ErrConfig if a tensor belongs to more
// than one of the networks' parameter sets (the Q, target and imitation
// networks), which Adam would step twice or the target update would move.
func disjoint(sets ...nn.Params) error {
	seen := map[*tensor.Tensor]int{}
	for i, ps := range sets {
		for _, p := range ps {
			if j, ok := seen[p.Tensor]; ok && j != i {
				return fmt.Errorf("%w: the %s and %s networks share the tensor %q", ErrConfig, netNames[j], netNames[i], p.Name)
			}
			seen[p.Tensor] = i
		}
	}
	return nil
}

var netNames = []string{"Q", "target", "imitation"}
