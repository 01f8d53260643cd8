package marl

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// This file holds all of the package's masked action selection: the greedy
// and ε-random choices of MaskedQ, Random's uniform choice, and the masked
// maximum of the learning targets, on the masks env.ActionMask reads and the
// shared choices policy.ArgMaxValid and env.SampleValid.

// bestValid returns the valid action of largest q (the first on ties),
// or −1 if none is valid; a nil mask makes every action valid.
func bestValid(q, mask []float32) int {
	if mask != nil {
		return policy.ArgMaxValid(q, mask)
	}
	best := -1
	for j, v := range q {
		if best < 0 || v > q[best] {
			best = j
		}
	}
	return best
}

// randomValid returns a uniform valid action of n, or −1 if none is valid;
// a nil mask makes every action valid.
func randomValid(mask []float32, n int, rng *rand.Rand) int {
	if mask == nil {
		return rng.IntN(n)
	}
	return env.SampleValid(mask, rng)
}

// maskRows returns the masks [k, n] of obs read by m as float32 rows, nil
// when obs carries none.
func maskRows(m *env.ActionMask, obs *batch.Batch, k, n int) ([]float32, error) {
	a, err := m.Read(obs, k, n)
	if err != nil {
		return nil, fmt.Errorf("marl: %w", err)
	}
	if a == nil {
		return nil, nil
	}
	return nd.Data[float32](a), nil
}

// MaskedQ is an ε-greedy Q-learning policy over Discrete(n) actions 0…n−1
// that chooses only valid actions of masked observations: the greedy
// action is the valid one of largest Q-value, and with probability ε
// (when exploring) a uniformly random valid action replaces it.
// Observations without a mask have every action valid.
type MaskedQ struct {
	net    policy.Network
	n      int
	rng    *rand.Rand
	eps    float64
	tp     tensor.Tape
	caller nn.Caller
	mask   env.ActionMask
}

// NewMaskedQ returns a MaskedQ acting with net, whose output for k
// observations is [k, n]; rng draws the exploration. ε starts at 0.
func NewMaskedQ(net policy.Network, n int, rng *rand.Rand) *MaskedQ {
	p := &MaskedQ{net: net, n: n, rng: rng}
	p.tp.SetGradEnabled(false)
	return p
}

// SetEps sets ε, the probability of a random valid action when exploring;
// it returns an error wrapping ErrConfig outside [0, 1].
func (p *MaskedQ) SetEps(eps float64) error {
	if !(eps >= 0 && eps <= 1) {
		return fmt.Errorf("%w: ε %v outside [0, 1]", ErrConfig, eps)
	}
	p.eps = eps
	return nil
}

// Params returns the network's parameters.
func (p *MaskedQ) Params() nn.Params { return p.net.Params() }

// Act writes the int64 actions [k] for the k observations of obs under
// "act" in dst. It returns an error for observations the network cannot
// take and for a mask with no valid action, naming its row.
func (p *MaskedQ) Act(dst, obs *batch.Batch, _ any, explore bool) error {
	p.tp.Reset()
	q, err := p.caller.Call(&p.tp, p.net, obs)
	if err != nil {
		return fmt.Errorf("marl: Q network: %w", err)
	}
	if q.NDim() != 2 || q.Dim(1) != p.n {
		return fmt.Errorf("marl: Q-values of shape %v for %d actions", q.Shape(), p.n)
	}
	k := q.Dim(0)
	m, err := maskRows(&p.mask, obs, k, p.n)
	if err != nil {
		return err
	}
	act, qv := policy.DiscreteActTo(dst, k), q.Data()
	for i := range k {
		var row []float32
		if m != nil {
			row = m[i*p.n : (i+1)*p.n]
		}
		a := bestValid(qv[i*p.n:(i+1)*p.n], row)
		if explore && p.eps > 0 && p.rng.Float64() < p.eps {
			a = randomValid(row, p.n, p.rng)
		}
		if a < 0 {
			return fmt.Errorf("marl: observation %d has no valid action", i)
		}
		act[i] = int64(a)
	}
	return nil
}

// Random acts uniformly at random among the valid actions 0…N−1 of each
// observation (all of them without a mask): the random player.
type Random struct {
	N    int
	Rng  *rand.Rand
	mask env.ActionMask
}

// Act writes the int64 actions [k] under "act" in dst. It returns an error
// for a mask with no valid action, naming its row.
func (r *Random) Act(dst, obs *batch.Batch, _ any, _ bool) error {
	k, err := obs.Len()
	if err != nil {
		return fmt.Errorf("marl: %w", err)
	}
	m, err := maskRows(&r.mask, obs, k, r.N)
	if err != nil {
		return err
	}
	act := policy.DiscreteActTo(dst, k)
	for i := range k {
		var row []float32
		if m != nil {
			row = m[i*r.N : (i+1)*r.N]
		}
		a := randomValid(row, r.N, r.Rng)
		if a < 0 {
			return fmt.Errorf("marl: observation %d has no valid action", i)
		}
		act[i] = int64(a)
	}
	return nil
}

// maskedMaxTo stores in dst[i] the bootstrap value of next observation i:
// the largest of values[i] over its valid actions, or with double (online
// non-nil) the value of the valid action the online Q-values prefer. A row
// with no valid action (a finished game) gets 0; its transition is terminal
// and does not bootstrap.
func maskedMaxTo(dst []float32, values, online []float32, mask []float32, n int) {
	for i := range dst {
		var row []float32
		if mask != nil {
			row = mask[i*n : (i+1)*n]
		}
		pick := values[i*n : (i+1)*n]
		if online != nil {
			pick = online[i*n : (i+1)*n]
		}
		a := bestValid(pick, row)
		if a < 0 {
			dst[i] = 0
			continue
		}
		dst[i] = values[i*n+a]
	}
}

// QNet is a Q network for masked observations: an MLP over the flattened
// "obs" part (input key path "obs.obs"), one output per action.
type QNet struct {
	mlp *nn.MLP
	in  []string
}

// NewQNet returns a QNet for observations of in values, with the hidden
// sizes and n outputs, its weights drawn from rng.
func NewQNet(in int, hidden []int, n int, rng *rand.Rand) (*QNet, error) {
	m, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: hidden, Out: n}, rng)
	if err != nil {
		return nil, err
	}
	return &QNet{mlp: m, in: []string{batch.KeyObs + batch.Sep + multiagent.KeyObs}}, nil
}

// Inputs returns ["obs.obs"].
func (q *QNet) Inputs() []string { return q.in }

// Call returns the Q-values [k, n] of the k observations in[0].
func (q *QNet) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	return q.mlp.Forward(tp, tp.Flatten(in[0], 1, -1))
}

// Params returns the MLP's parameters.
func (q *QNet) Params() nn.Params { return q.mlp.Params() }
