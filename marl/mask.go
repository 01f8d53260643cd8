package marl

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env/multiagent"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// This file holds all of the package's masked action selection: the greedy
// and ε-random choices of MaskedQ, Random's uniform choice, and the masked
// maximum of the learning targets.

// maskKey is the key path of the action mask in a batch of masked
// observations.
const maskKey = batch.KeyObs + batch.Sep + multiagent.KeyActionMask

// masks returns the int8 masks [k, n] of a batch of k masked observations
// (nil when obs carries none).
func masks(obs *batch.Batch, key string, k, n int) ([]int8, error) {
	v, ok := obs.Get(key)
	if !ok {
		return nil, nil
	}
	a, ok := v.(*nd.Array)
	if !ok || a.DType() != nd.Int8 || !a.IsContiguous() || a.Size() != k*n {
		return nil, fmt.Errorf("marl: %s is %v; want int8 [%d, %d]", key, v, k, n)
	}
	return nd.Data[int8](a), nil
}

// bestValid returns the valid action of largest q (the first on ties),
// or −1 if none is valid. A nil mask makes every action valid.
func bestValid(q []float32, mask []int8) int {
	best := -1
	for j, v := range q {
		if (mask == nil || mask[j] != 0) && (best < 0 || v > q[best]) {
			best = j
		}
	}
	return best
}

// randomValid returns a uniform valid action, or −1 if none is valid.
func randomValid(mask []int8, n int, rng *rand.Rand) int {
	if mask == nil {
		return rng.IntN(n)
	}
	valid := 0
	for _, m := range mask {
		if m != 0 {
			valid++
		}
	}
	if valid == 0 {
		return -1
	}
	k := rng.IntN(valid)
	for j, m := range mask {
		if m != 0 {
			if k == 0 {
				return j
			}
			k--
		}
	}
	return -1
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
	m, err := masks(obs, maskKey, k, p.n)
	if err != nil {
		return err
	}
	act, qv := policy.DiscreteActTo(dst, k), q.Data()
	for i := range k {
		var row []int8
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
	N   int
	Rng *rand.Rand
}

// Act writes the int64 actions [k] under "act" in dst. It returns an error
// for a mask with no valid action, naming its row.
func (r *Random) Act(dst, obs *batch.Batch, _ any, _ bool) error {
	k, err := obs.Len()
	if err != nil {
		return fmt.Errorf("marl: %w", err)
	}
	m, err := masks(obs, maskKey, k, r.N)
	if err != nil {
		return err
	}
	act := policy.DiscreteActTo(dst, k)
	for i := range k {
		var row []int8
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
func maskedMaxTo(dst []float32, values, online []float32, mask []int8, n int) {
	for i := range dst {
		var row []int8
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
