package bdqn

import (
	"math/rand/v2"
	"strconv"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// Branching is the branching dueling Q-network (Tavakoli et al., "Action
// Branching Architectures for Deep Reinforcement Learning", 2018;
// Tianshou's BranchingNet): a trunk over the observations, a state-value
// head V(s) and one advantage head Aᵈ(s, ·) per action dimension d, with
//
//	Qᵈ(s, a) = V(s) + Aᵈ(s, a) − mean_a′ Aᵈ(s, a′).
//
// Called with observations [k, n] it returns the Q-values [k, D, A] of the
// A actions of each of the D branches. It is a policy.Network reading
// "obs".
type Branching struct {
	common   *nn.MLP
	value    *nn.MLP
	branches []*nn.MLP
	ps       nn.Params
	adv      []*tensor.Tensor // scratch of Call
}

var obsInputs = []string{batch.KeyObs}

// newBranching returns the network of cfg for observations of n numbers and
// d branches of a actions, drawing its weights from rng.
func newBranching(cfg Config, n, d, a int, rng *rand.Rand) (*Branching, error) {
	common, err := nn.NewMLP(nn.MLPConfig{In: n, Hidden: cfg.CommonHidden}, rng)
	if err != nil {
		return nil, err
	}
	f := cfg.CommonHidden[len(cfg.CommonHidden)-1]
	value, err := nn.NewMLP(nn.MLPConfig{In: f, Hidden: cfg.ValueHidden, Out: 1}, rng)
	if err != nil {
		return nil, err
	}
	b := &Branching{common: common, value: value, adv: make([]*tensor.Tensor, d)}
	b.ps = append(common.Params().Prefixed("common"), value.Params().Prefixed("value")...)
	for i := range d {
		m, err := nn.NewMLP(nn.MLPConfig{In: f, Hidden: cfg.ActionHidden, Out: a}, rng)
		if err != nil {
			return nil, err
		}
		b.branches = append(b.branches, m)
		b.ps = append(b.ps, m.Params().Prefixed("branch"+strconv.Itoa(i))...)
	}
	return b, nil
}

// Inputs returns ["obs"].
func (b *Branching) Inputs() []string { return obsInputs }

// Params returns the trunk's parameters (prefixed "common"), the value
// head's ("value") and the branches' in order.
func (b *Branching) Params() nn.Params { return b.ps }

// Call records on tp the Q-values [k, D, A] of the observations in[0].
func (b *Branching) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	f := b.common.Forward(tp, in[0])
	for i, m := range b.branches {
		b.adv[i] = m.Forward(tp, f)
	}
	adv := tp.Stack(1, b.adv...)
	v := tp.Unsqueeze(b.value.Forward(tp, f), 2)
	return tp.Add(tp.Sub(adv, tp.MeanAxis(adv, 2, true)), v)
}
