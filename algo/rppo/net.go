package rppo

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// The recurrent cells a Config may name.
const (
	// CellGRU is a GRU (nn.GRUCell); its state is h, Hidden values a row.
	CellGRU = "gru"
	// CellLSTM is an LSTM (nn.LSTMCell); its state is h and c side by side,
	// 2·Hidden values a row.
	CellLSTM = "lstm"
)

// Trunk is the recurrent part of a Net: a GRU or an LSTM cell (the other
// nil) over a state of one row per sequence, the cell's h for a GRU and
// [h, c] for an LSTM, so that one array [k, Width] holds every kind of
// state the collector keeps and the buffer stores.
type Trunk struct {
	GRU    *nn.GRUCell
	LSTM   *nn.LSTMCell
	hidden int
}

func newTrunk(cell string, in, hidden int, rng *rand.Rand) *Trunk {
	if cell == CellLSTM {
		return &Trunk{LSTM: nn.NewLSTMCell(in, hidden, rng), hidden: hidden}
	}
	return &Trunk{GRU: nn.NewGRUCell(in, hidden, rng), hidden: hidden}
}

// Width returns the number of state values of a row: Hidden for a GRU,
// 2·Hidden for an LSTM.
func (c *Trunk) Width() int {
	if c.LSTM != nil {
		return 2 * c.hidden
	}
	return c.hidden
}

// Step records on tp one step of the cell from the states s [k, Width] on
// the inputs x [k, in] and returns the next states [k, Width].
func (c *Trunk) Step(tp *tensor.Tape, x, s *tensor.Tensor) *tensor.Tensor {
	if c.GRU != nil {
		return c.GRU.Forward(tp, x, s)
	}
	h, cs := c.LSTM.Forward(tp, x, tp.Slice(s, 1, 0, c.hidden), tp.Slice(s, 1, c.hidden, 2*c.hidden))
	return tp.Concat(1, h, cs)
}

// Features returns the part of the states s [k, Width] the heads read, the
// cell's output h [k, Hidden].
func (c *Trunk) Features(tp *tensor.Tape, s *tensor.Tensor) *tensor.Tensor {
	if c.GRU != nil {
		return s
	}
	return tp.Slice(s, 1, 0, c.hidden)
}

// Params returns the cell's parameters prefixed with its kind, "gru" or
// "lstm", after prefix.
func (c *Trunk) Params(prefix string) nn.Params {
	if c.GRU != nil {
		return c.GRU.Params().Prefixed(prefix + CellGRU)
	}
	return c.LSTM.Params().Prefixed(prefix + CellLSTM)
}

// Net is recurrent PPO's network: a recurrent trunk over the observations,
// shared by the actor (an MLP to the logits of a Categorical, or to the
// mean of a Gaussian over Box actions with Normal's state-independent σ)
// and the critic (an MLP to the value), or one trunk each (CriticTrunk set).
// With state-dependent exploration the actor ends at its last hidden layer
// (Actor is nil without hidden layers: the cell's output is the features)
// and SDE maps its features to the Gaussian. Its state is the ActorTrunk's
// followed by the CriticTrunk's, StateWidth values a row.
type Net struct {
	ActorTrunk, CriticTrunk *Trunk // CriticTrunk is nil when the trunk is shared
	Actor, Critic           *nn.MLP
	Normal                  *actorcritic.NormalHead // nil for Discrete actions and with SDE
	SDE                     *actorcritic.SDEHead    // nil without state-dependent exploration
	in                      int
	ps, actorPs             nn.Params
}

// newNet returns a Net for observations of in values and out outputs of the
// actor: n logits for Discrete actions, or the means of out Box dimensions
// when box is set (through an SDEHead with cfg.SDE).
func newNet(cfg Config, in, out int, box bool, rng *rand.Rand) (*Net, error) {
	if cfg.SDE && !box {
		return nil, fmt.Errorf("%w: use_sde needs a Box action space", ErrConfig)
	}
	mlp := func(out int) (*nn.MLP, error) {
		m, err := nn.NewMLP(nn.MLPConfig{In: cfg.Hidden, Hidden: cfg.HeadHidden, Out: out, Activation: nn.Tanh}, rng)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		return m, nil
	}
	net := &Net{ActorTrunk: newTrunk(cfg.Cell, in, cfg.Hidden, rng), in: in}
	if cfg.SeparateTrunks {
		net.CriticTrunk = newTrunk(cfg.Cell, in, cfg.Hidden, rng)
	}
	var err error
	features := cfg.Hidden // the width of the features an SDEHead reads
	switch {
	case !cfg.SDE:
		net.Actor, err = mlp(out)
	case len(cfg.HeadHidden) > 0:
		net.Actor, err = mlp(0)
		features = cfg.HeadHidden[len(cfg.HeadHidden)-1]
	}
	if err != nil {
		return nil, err
	}
	if net.Critic, err = mlp(1); err != nil {
		return nil, err
	}
	switch {
	case cfg.SDE:
		net.SDE = actorcritic.NewSDEHead(features, out, float32(cfg.LogStdInit), cfg.SDESampleFreq, rng)
	case box:
		net.Normal = actorcritic.NewNormalHead(out, float32(cfg.LogStdInit))
	}
	actorPrefix, criticPrefix := "", ""
	if net.CriticTrunk != nil {
		actorPrefix, criticPrefix = "actor_", "critic_"
	}
	net.actorPs = net.ActorTrunk.Params(actorPrefix)
	if net.Actor != nil {
		net.actorPs = append(net.actorPs, net.Actor.Params().Prefixed("actor")...)
	}
	if net.Normal != nil {
		net.actorPs = append(net.actorPs, net.Normal.Params()...)
	}
	if net.SDE != nil {
		net.actorPs = append(net.actorPs, net.SDE.Params().Prefixed("sde")...)
	}
	net.ps = append(nn.Params{}, net.actorPs...)
	if net.CriticTrunk != nil {
		net.ps = append(net.ps, net.CriticTrunk.Params(criticPrefix)...)
	}
	net.ps = append(net.ps, net.Critic.Params().Prefixed("critic")...)
	return net, nil
}

// Params returns every parameter: the trunks' ("gru" or "lstm", prefixed
// "actor_" and "critic_" when separate), "actor", "log_std" for Box
// actions or the SDEHead's prefixed "sde" with state-dependent
// exploration, and "critic".
func (n *Net) Params() nn.Params { return n.ps }

// ActorParams returns the parameters the policy acts with: the actor's
// trunk, the actor and log_std (or the SDEHead's). With separate trunks
// the critic's trunk steps at collection too (its state is stored), but
// it does not change the actions.
func (n *Net) ActorParams() nn.Params { return n.actorPs }

// In returns the number of observation values.
func (n *Net) In() int { return n.in }

// StateWidth returns the number of state values of a row: the actor trunk's
// Width plus the critic trunk's when separate.
func (n *Net) StateWidth() int {
	if n.CriticTrunk == nil {
		return n.ActorTrunk.Width()
	}
	return n.ActorTrunk.Width() + n.CriticTrunk.Width()
}

// Step records on tp one step of the trunks from the states s
// [k, StateWidth] on the observations x [k, in] and returns the next
// states.
func (n *Net) Step(tp *tensor.Tape, x, s *tensor.Tensor) *tensor.Tensor {
	if n.CriticTrunk == nil {
		return n.ActorTrunk.Step(tp, x, s)
	}
	wa := n.ActorTrunk.Width()
	a := n.ActorTrunk.Step(tp, x, tp.Slice(s, 1, 0, wa))
	c := n.CriticTrunk.Step(tp, x, tp.Slice(s, 1, wa, n.StateWidth()))
	return tp.Concat(1, a, c)
}

// ActorOut returns the actor's output for the states s [k, StateWidth]:
// the logits, the Gaussian's means, or with SDE the features its head
// reads.
func (n *Net) ActorOut(tp *tensor.Tape, s *tensor.Tensor) *tensor.Tensor {
	if n.CriticTrunk != nil {
		s = tp.Slice(s, 1, 0, n.ActorTrunk.Width())
	}
	f := n.ActorTrunk.Features(tp, s)
	if n.Actor == nil {
		return f
	}
	return n.Actor.Forward(tp, f)
}

// Value returns the critic's values [k, 1] for the states s
// [k, StateWidth].
func (n *Net) Value(tp *tensor.Tape, s *tensor.Tensor) *tensor.Tensor {
	if n.CriticTrunk == nil {
		return n.Critic.Forward(tp, n.ActorTrunk.Features(tp, s))
	}
	wa := n.ActorTrunk.Width()
	return n.Critic.Forward(tp, n.CriticTrunk.Features(tp, tp.Slice(s, 1, wa, n.StateWidth())))
}

// newDist returns the distribution the actor's outputs set: a Categorical,
// or an Independent Normal for Box actions (the SDEHead's with SDE).
func (n *Net) newDist() distribution.Distribution {
	if n.SDE != nil {
		return n.SDE.New()
	}
	if n.Normal != nil {
		return n.Normal.New()
	}
	return new(distribution.Categorical)
}

// SetDist sets d, made for this Net, to the policy for the actor's output
// out on tp. It returns the distribution's error for outputs that are not
// finite.
func (n *Net) SetDist(d distribution.Distribution, tp *tensor.Tape, out *tensor.Tensor) error {
	if n.SDE != nil {
		return n.SDE.Set(d, tp, out)
	}
	if n.Normal != nil {
		return n.Normal.Set(d, tp, out)
	}
	return d.(*distribution.Categorical).SetLogits(tp, out)
}

// Unroll records on tp the trunks stepped through the packed sequences: h0
// [m, StateWidth] the states at the chunks' starts, steps[t] the number of
// chunks running at step t, xs the packed inputs [Σsteps, in] (the rows of
// step t after those of the earlier steps). It returns the states after
// every step in the same packed order, [Σsteps, StateWidth]. outs is
// scratch of the caller, returned for reuse.
func (n *Net) Unroll(tp *tensor.Tape, h0, xs *tensor.Tensor, steps []int, outs []*tensor.Tensor) (*tensor.Tensor, []*tensor.Tensor) {
	outs = outs[:0]
	h, pos := h0, 0
	for _, k := range steps {
		if h.Dim(0) > k {
			h = tp.Slice(h, 0, 0, k)
		}
		h = n.Step(tp, tp.Slice(xs, 0, pos, pos+k), h)
		outs = append(outs, h)
		pos += k
	}
	if len(outs) == 1 {
		return outs[0], outs
	}
	return tp.Concat(0, outs...), outs
}

// UnrollPadded records on tp the trunks stepped through T = len(rows)/m
// steps of m sequences in the padded time-major layout
// (actorcritic.Packed.PaddedRows): h0 [m, StateWidth] the states at the
// sequences' starts, the input of step t the rows rows[t·m : (t+1)·m] of
// obs [N, in]. It returns the states after every step, [T·m, StateWidth]
// in the same layout; the steps past a sequence's end are placeholders for
// the loss's mask to drop. outs is scratch of the caller, returned for
// reuse.
func (n *Net) UnrollPadded(tp *tensor.Tape, h0, obs *tensor.Tensor, rows []int, m int, outs []*tensor.Tensor) (*tensor.Tensor, []*tensor.Tensor) {
	outs = outs[:0]
	h := h0
	for t := 0; t+m <= len(rows); t += m {
		h = n.Step(tp, tp.IndexSelect(obs, 0, rows[t:t+m]), h)
		outs = append(outs, h)
	}
	if len(outs) == 1 {
		return outs[0], outs
	}
	return tp.Concat(0, outs...), outs
}
