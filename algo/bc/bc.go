package bc

import (
	"fmt"
	"io"
	"math/rand/v2"

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

// BC is behaviour cloning: supervised learning of the logged actions from
// their observations, Tianshou's ImitationPolicy. For a Discrete action
// space the network outputs one logit per action and the loss is the cross
// entropy −log softmax(logits)[a] of the logged action a; for a Box it
// outputs the action and the loss is the mean squared error to the logged
// action. It is an algo.OffPolicy algorithm, trained offline from a fixed
// buffer (trainer's offline loop) or from any replay buffer.
//
// A BC is driven by one goroutine at a time.
type BC struct {
	cfg   Config
	net   policy.Network
	ps    nn.Params
	opt   *optim.Adam
	pol   *actor
	disc  *env.Discrete
	nOut  int
	stats map[string]float64

	counters counters

	// Scratch reused by every update.
	tp      tensor.Tape
	caller  nn.Caller
	acts    algo.DiscreteActions
	actIdx  []int          // Discrete actions as category indices
	target  *tensor.Tensor // Box actions
	targetN *nd.Array      // target's memory as an array
}

type counters struct {
	Updates int64 `json:"updates"` // gradient steps taken
}

// New returns a BC for an env with the given spaces, with its network built
// from cfg: an MLP (Hidden, ReLU) from observations of a Box space of one
// axis to one logit per action (Discrete action space) or to the action (Box
// action space of one axis). The initial weights are drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg and spaces it
// cannot build a network for.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*BC, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	box, ok := obs.(*env.Box)
	if !ok || len(box.Shape()) != 1 {
		return nil, fmt.Errorf("%w: the MLP needs a Box observation space of one axis, not %v", ErrConfig, obs)
	}
	var out int
	switch s := act.(type) {
	case *env.Discrete:
		out = int(s.N())
	case *env.Box:
		if len(s.Shape()) != 1 {
			return nil, fmt.Errorf("%w: a Box action space of one axis, not %v", ErrConfig, act)
		}
		out = s.Shape()[0]
	default:
		return nil, fmt.Errorf("%w: behaviour cloning needs a Discrete or Box action space, not %v", ErrConfig, act)
	}
	mlp, err := nn.NewMLP(nn.MLPConfig{In: box.Shape()[0], Hidden: cfg.Hidden, Out: out}, rng)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return NewWithNetwork(cfg, policy.ObsNet{Layer: mlp}, act)
}

// NewWithNetwork returns a BC learning with net, whose output for k
// observations is [k, n], the logits of the n actions of a Discrete act, or
// [k, m], the actions of a Box act of shape [m] in the form the buffer
// stores them (before cfg.Map). cfg.Hidden is ignored.
//
// It returns an error wrapping ErrConfig for an invalid cfg or an
// unsupported action space.
func NewWithNetwork(cfg Config, net policy.Network, act env.Space) (*BC, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	pol, err := newActor(net, act, cfg.Map)
	if err != nil {
		return nil, err
	}
	b := &BC{cfg: cfg.clone(), net: net, ps: net.Params(), pol: pol, disc: pol.disc, nOut: pol.out,
		stats: map[string]float64{"loss": 0}}
	if b.opt, err = optim.NewAdam(b.ps, cfg.Optim); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return b, nil
}

// Config returns the configuration.
func (b *BC) Config() Config { return b.cfg.clone() }

// Policy returns the cloned policy: the action of largest logit (Discrete)
// or the network's action mapped with Config.Map (Box; the policy is a
// policy.ActionMapper), deterministic in every mode.
func (b *BC) Policy() policy.Policy { return b.pol }

// Network returns the network.
func (b *BC) Network() policy.Network { return b.net }

// Updates returns the number of gradient steps taken.
func (b *BC) Updates() int64 { return b.counters.Updates }

// Preprocess does nothing: behaviour cloning needs no returns.
func (b *BC) Preprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Postprocess does nothing: a prioritized buffer keeps its priorities.
func (b *BC) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Update makes one gradient step on b, which holds obs and act: for a
// Discrete action space on the cross entropy of the logged actions (int
// actions of the space), mean over the batch of −log softmax(logits)[a], for
// a Box on the mean squared error between the network's output and the
// logged actions (float [B, m]). It returns {"loss": the loss before the
// step}, a map owned by the BC.
//
// Update returns an error, changing nothing, if b lacks obs or act, an
// action is outside the space or of another shape or dtype, or the network
// cannot take the observations.
func (b *BC) Update(bt *batch.Batch) (map[string]float64, error) {
	n, err := b.readActions(bt)
	if err != nil {
		return nil, err
	}
	tp := &b.tp
	tp.Reset()
	out, err := b.caller.Call(tp, b.net, bt)
	if err != nil {
		return nil, fmt.Errorf("bc: network: %w", err)
	}
	if out.NDim() != 2 || out.Dim(0) != n || out.Dim(1) != b.nOut {
		return nil, fmt.Errorf("%w: network output of shape %v for %d observations and %d outputs", ErrConfig, out.Shape(), n, b.nOut)
	}
	var loss *tensor.Tensor
	if b.disc != nil {
		loss = tp.CrossEntropy(out, b.actIdx)
	} else {
		loss = tp.MSE(out, b.target)
	}
	b.opt.ZeroGrad()
	tp.Backward(loss)
	if b.cfg.MaxGradNorm > 0 {
		optim.ClipGradNorm(b.ps, b.cfg.MaxGradNorm)
	}
	b.opt.Step()
	b.counters.Updates++
	b.stats["loss"] = float64(loss.Item())
	return b.stats, nil
}

// readActions checks the logged actions of bt and copies them into the
// update's scratch (category indices, or the target tensor), returning the
// batch size.
func (b *BC) readActions(bt *batch.Batch) (int, error) {
	if b.disc != nil {
		idx, err := b.acts.Read(bt, b.disc)
		if err != nil {
			return 0, fmt.Errorf("bc: %w", err)
		}
		b.actIdx = idx
		return len(idx), nil
	}
	act, err := bt.Array(batch.KeyAct)
	if err != nil {
		return 0, fmt.Errorf("bc: %w", err)
	}
	if act.Ndim() != 2 || act.Dim(1) != b.nOut {
		return 0, fmt.Errorf("bc: act of shape %v; want [B, %d]", act.Shape(), b.nOut)
	}
	n := act.Dim(0)
	if b.target == nil || b.target.Dim(0) != n {
		b.target = tensor.New(n, b.nOut)
		b.targetN = b.target.ND()
	}
	if !act.DType().IsFloat() {
		return 0, fmt.Errorf("bc: act of dtype %v; want float32 or float64", act.DType())
	}
	if err := nd.CopyTo(b.targetN, act); err != nil {
		return 0, fmt.Errorf("bc: act: %w", err)
	}
	return n, nil
}

// Save writes the BC's state: the network, Adam's state and the number of
// updates, with algo.SaveParts.
func (b *BC) Save(w io.Writer) error { return algo.SaveParts(w, b.parts()...) }

// Load restores a state written by Save into a BC made with the same
// configuration. It returns an error wrapping algo.ErrState for a state that
// does not fit; the BC may then be partly restored.
func (b *BC) Load(r io.Reader) error { return algo.LoadParts(r, b.parts()...) }

func (b *BC) parts() []algo.Part {
	return []algo.Part{
		algo.ParamsPart("actor", b.ps),
		{Name: "optim", Save: b.opt.Save, Load: b.opt.Load},
		algo.JSONPart("counters", &b.counters),
	}
}
