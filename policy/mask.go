package policy

import (
	"fmt"
	"math"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// MaskedObsNet adapts a Layer whose input is the real observation of a
// masked observation space (env.NewMasked) to nn.Model: its single input is
// "obs.obs", so the network never sees the action mask beside it.
type MaskedObsNet struct {
	nn.Layer
}

var maskedInputs = []string{batch.KeyObs + batch.Sep + batch.KeyObs}

// Inputs returns ["obs.obs"] (the same slice every call).
func (MaskedObsNet) Inputs() []string { return maskedInputs }

// Call returns the layer's output for in[0].
func (n MaskedObsNet) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	return n.Layer.Forward(tp, in[0])
}

// NetSpace returns the space of what a network reads from observations of
// obs: the real observations of a masked observation space
// (env.Unmasked), obs itself otherwise.
func NetSpace(obs env.Space) env.Space {
	if inner, _, ok := env.Unmasked(obs); ok {
		return inner
	}
	return obs
}

// NewObsNet returns the Network that feeds l the observations of obs: a
// MaskedObsNet for a masked observation space, an ObsNet otherwise. l takes
// values of NetSpace(obs).
func NewObsNet(l nn.Layer, obs env.Space) Network {
	if _, _, ok := env.Unmasked(obs); ok {
		return MaskedObsNet{Layer: l}
	}
	return ObsNet{Layer: l}
}

// Mask applies the action masks of a batch of observations (see
// env.ActionMask: a masked observation's "action_mask", or the infos') to
// what a policy of a Discrete action space computes: the logits of a
// categorical actor (Logits), the greedy action of Q-values (ArgMaxValid)
// and uniformly random actions (env.SampleValid), as SB3-contrib's
// MaskablePPO and Tianshou do. Q, Actor and the algorithms' updates share
// it.
//
// The zero Mask is ready to use. It keeps the masks it read and their
// tensor, so masks of the same size again allocate nothing. A Mask is not
// safe for concurrent use.
type Mask struct {
	read env.ActionMask
	arr  *nd.Array      // the masks of the last Read
	t    *tensor.Tensor // arr's memory as a tensor
	neg  *tensor.Tensor // −Inf, [1]
}

// Read returns the masks of the k observations in obs for n actions,
// row-major [k, n] with 1 for an allowed action and 0 for a forbidden one,
// or nil when obs holds no mask. The slice is memory of m, valid until the
// next Read.
//
// Read returns an error wrapping ErrObs and env.ErrActionMask for a mask
// that is not [k, n] and for an observation whose mask allows no action
// (naming its row).
func (m *Mask) Read(obs *batch.Batch, k, n int) ([]float32, error) {
	a, err := m.read.Read(obs, k, n)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrObs, err)
	}
	if a == nil {
		return nil, nil
	}
	m.arr = a
	d := nd.Data[float32](a)
	if r := env.EmptyMaskRow(d, n); r >= 0 {
		return nil, fmt.Errorf("%w: %w: observation %d allows no action", ErrObs, env.ErrActionMask, r)
	}
	return d, nil
}

// Logits returns the logits [k, n] of the k observations in obs with −Inf at
// the actions their masks forbid, recorded on tp by tp.Where, so that no
// gradient reaches a forbidden logit: a Categorical of the result gives
// forbidden actions probability 0, and its entropy sums over the allowed
// actions only. Without a mask in obs, Logits returns logits.
//
// Logits returns Read's errors, and an error wrapping ErrConfig if logits
// is not [k, n] for masks of n actions.
func (m *Mask) Logits(tp *tensor.Tape, logits *tensor.Tensor, obs *batch.Batch) (*tensor.Tensor, error) {
	if logits.NDim() != 2 {
		if _, ok := maskValue(obs); ok {
			return nil, fmt.Errorf("%w: logits of shape %v for masked actions", ErrConfig, logits.Shape())
		}
		return logits, nil
	}
	d, err := m.Read(obs, logits.Dim(0), logits.Dim(1))
	if err != nil || d == nil {
		return logits, err
	}
	if m.t == nil || m.t.Dim(0) != m.arr.Dim(0) || m.t.Dim(1) != m.arr.Dim(1) || !sameMemory(m.t.Data(), d) {
		if m.t, err = tensor.FromND(m.arr); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrObs, err) // not reached: arr is contiguous float32
		}
	}
	if m.neg == nil {
		m.neg = tensor.New(1)
		m.neg.Data()[0] = float32(math.Inf(-1))
	}
	return tp.Where(m.t, logits, m.neg), nil
}

// maskValue reports whether obs holds an action mask where Read looks.
func maskValue(obs *batch.Batch) (any, bool) {
	if v, ok := obs.Get(batch.KeyObs + batch.Sep + env.KeyActionMask); ok {
		return v, true
	}
	return obs.Get(batch.KeyInfo + batch.Sep + env.KeyActionMask)
}

// sameMemory reports whether a and b start at the same element.
func sameMemory(a, b []float32) bool {
	return len(a) > 0 && len(b) > 0 && &a[0] == &b[0]
}

// ArgMaxValid returns the index of the largest value of q among the
// indices that mask allows (mask[i] ≠ 0; ties: the first), or −1 if mask
// allows none. q and mask have the same length.
func ArgMaxValid(q, mask []float32) int {
	best := -1
	for i, x := range q {
		if mask[i] != 0 && (best < 0 || x > q[best]) {
			best = i
		}
	}
	return best
}
