package quantile

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// ImplicitConfig describes an ImplicitNet.
type ImplicitConfig struct {
	// In is the observation size and Actions the number of actions.
	In, Actions int
	// Hidden lists the feature MLP's layer sizes; the last is the feature
	// size d, a linear output (Tianshou's preprocess Net with hidden_sizes
	// Hidden[:-1] and output Hidden[-1]). At least one.
	Hidden []int
	// Cosines is the number of cosine features of a fraction, at least 1
	// (64 in the IQN paper).
	Cosines int
	// HeadHidden lists the hidden sizes of the head from the d features of
	// a (state, fraction) pair to the A values; empty: one linear layer.
	HeadHidden []int
}

// ImplicitNet is IQN's network (Dabney et al., 2018), also FQF's quantile
// function: Z(s, τ)ₐ = head(ψ(s) ⊙ φ(τ))ₐ with ψ the feature MLP and
// φ(τ) = ReLU(W·cos(π·i·τ) + b), i = 1 … Cosines (tensor.Tape.Cosines).
// Its parameters are named "features.…", "embed.…" and "head.…".
type ImplicitNet struct {
	Features *nn.MLP
	Embed    *nn.Linear
	Head     *nn.MLP
	cosines  int
	ps       nn.Params
}

// NewImplicitNet returns an ImplicitNet with PyTorch's default
// initialization drawn from rng (features, embedding, head in that order).
// It returns an error wrapping nn.ErrConfig for sizes below 1.
func NewImplicitNet(c ImplicitConfig, rng *rand.Rand) (*ImplicitNet, error) {
	if len(c.Hidden) == 0 || c.Cosines < 1 || c.Actions < 1 || c.In < 1 {
		return nil, fmt.Errorf("%w: implicit quantile network in %d, hidden %v, cosines %d, actions %d", nn.ErrConfig, c.In, c.Hidden, c.Cosines, c.Actions)
	}
	d := c.Hidden[len(c.Hidden)-1]
	feat, err := nn.NewMLP(nn.MLPConfig{In: c.In, Hidden: c.Hidden[:len(c.Hidden)-1], Out: d}, rng)
	if err != nil {
		return nil, err
	}
	if d < 1 {
		return nil, fmt.Errorf("%w: feature size %d", nn.ErrConfig, d)
	}
	embed := nn.NewLinear(c.Cosines, d, rng)
	head, err := nn.NewMLP(nn.MLPConfig{In: d, Hidden: c.HeadHidden, Out: c.Actions}, rng)
	if err != nil {
		return nil, err
	}
	m := &ImplicitNet{Features: feat, Embed: embed, Head: head, cosines: c.Cosines}
	m.ps = append(append(feat.Params().Prefixed("features"), embed.Params().Prefixed("embed")...), head.Params().Prefixed("head")...)
	return m, nil
}

// Params returns the features', embedding's and head's parameters.
func (m *ImplicitNet) Params() nn.Params { return m.ps }

// Feature records the features ψ(s) [k, d] of observations obs [k, In].
func (m *ImplicitNet) Feature(tp *tensor.Tape, obs *tensor.Tensor) *tensor.Tensor {
	return m.Features.Forward(tp, obs)
}

// Quantiles records the quantile values [k, S, A] at the fractions tau
// [k, S] of the observations whose features are feat [k, d].
func (m *ImplicitNet) Quantiles(tp *tensor.Tape, feat, tau *tensor.Tensor) *tensor.Tensor {
	phi := tp.ReLU(m.Embed.Forward(tp, tp.Cosines(tau, m.cosines))) // [k, S, d]
	return m.Head.Forward(tp, tp.Mul(tp.Unsqueeze(feat, 1), phi))
}

// Input returns the network that reads the observations of space as they
// are, for a quantile network to take: "obs.obs" of a masked observation
// space (env.NewMasked), "obs" otherwise (policy.NewObsNet).
func Input(space env.Space) policy.Network { return policy.NewObsNet(nn.Identity, space) }

// Const is a constant tensor on a tape in memory it keeps between calls:
// asking for the same shape again allocates nothing. The zero value is ready
// to use; use one Const per role (the update's fractions, the next
// observations', acting's) so that their tensors do not share memory within
// a step.
type Const struct {
	a *nd.Array
}

// Get returns a tensor [k, m] recorded on tp and its data to fill; both are
// c's memory, valid until the next Get.
func (c *Const) Get(tp *tensor.Tape, k, m int) (*tensor.Tensor, []float32) {
	if c.a == nil || c.a.Dim(0) != k || c.a.Dim(1) != m {
		c.a = nd.Zeros(nd.Float32, k, m)
	}
	t, err := tp.FromND(c.a)
	if err != nil {
		panic(err) // a contiguous float32 array always converts
	}
	return t, t.Data()
}

// Uniform returns fractions τ ~ U(0, 1) [k, m] drawn from rng as a constant
// on tp, in c's memory.
func (c *Const) Uniform(tp *tensor.Tape, rng *rand.Rand, k, m int) *tensor.Tensor {
	t, d := c.Get(tp, k, m)
	for i := range d {
		d[i] = rng.Float32()
	}
	return t
}
