package rppo

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// Net is recurrent PPO's network: a GRU cell over the observations whose
// state, the features of both heads, is shared by the actor (an MLP to the
// logits) and the critic (an MLP to the value).
type Net struct {
	GRU           *nn.GRUCell
	Actor, Critic *nn.MLP
	ps, actorPs   nn.Params
}

// newNet returns a Net for observations of in values and n actions.
func newNet(cfg Config, in, n int, rng *rand.Rand) (*Net, error) {
	gru := nn.NewGRUCell(in, cfg.Hidden, rng)
	mlp := func(out int) (*nn.MLP, error) {
		m, err := nn.NewMLP(nn.MLPConfig{In: cfg.Hidden, Hidden: cfg.HeadHidden, Out: out, Activation: nn.Tanh}, rng)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		return m, nil
	}
	actor, err := mlp(n)
	if err != nil {
		return nil, err
	}
	critic, err := mlp(1)
	if err != nil {
		return nil, err
	}
	net := &Net{GRU: gru, Actor: actor, Critic: critic}
	net.actorPs = append(gru.Params().Prefixed("gru"), actor.Params().Prefixed("actor")...)
	net.ps = append(append(nn.Params{}, net.actorPs...), critic.Params().Prefixed("critic")...)
	return net, nil
}

// Params returns every parameter: "gru", "actor" and "critic" prefixed.
func (n *Net) Params() nn.Params { return n.ps }

// ActorParams returns the parameters the policy acts with: the GRU's and
// the actor's.
func (n *Net) ActorParams() nn.Params { return n.actorPs }

// Unroll records on tp the GRU stepped through the packed sequences: h0
// [m, hidden] the states at the chunks' starts, steps[t] the number of
// chunks running at step t, xs the packed inputs [Σsteps, in] (the rows of
// step t after those of the earlier steps). It returns the states after
// every step in the same packed order, [Σsteps, hidden]. outs is scratch
// of the caller, returned for reuse.
func (n *Net) Unroll(tp *tensor.Tape, h0, xs *tensor.Tensor, steps []int, outs []*tensor.Tensor) (*tensor.Tensor, []*tensor.Tensor) {
	outs = outs[:0]
	h, pos := h0, 0
	for _, k := range steps {
		if h.Dim(0) > k {
			h = tp.Slice(h, 0, 0, k)
		}
		h = n.GRU.Forward(tp, tp.Slice(xs, 0, pos, pos+k), h)
		outs = append(outs, h)
		pos += k
	}
	if len(outs) == 1 {
		return outs[0], outs
	}
	return tp.Concat(0, outs...), outs
}

// UnrollPadded records on tp the GRU stepped through T = len(rows)/m steps
// of m sequences in the padded time-major layout
// (actorcritic.Packed.PaddedRows): h0 [m, hidden] the states at the
// sequences' starts, the input of step t the rows rows[t·m : (t+1)·m] of
// obs [N, in]. It returns the states after every step, [T·m, hidden] in the
// same layout; the steps past a sequence's end are placeholders for the
// loss's mask to drop. outs is scratch of the caller, returned for reuse.
func (n *Net) UnrollPadded(tp *tensor.Tape, h0, obs *tensor.Tensor, rows []int, m int, outs []*tensor.Tensor) (*tensor.Tensor, []*tensor.Tensor) {
	outs = outs[:0]
	h := h0
	for t := 0; t+m <= len(rows); t += m {
		h = n.GRU.Forward(tp, tp.IndexSelect(obs, 0, rows[t:t+m]), h)
		outs = append(outs, h)
	}
	if len(outs) == 1 {
		return outs[0], outs
	}
	return tp.Concat(0, outs...), outs
}
