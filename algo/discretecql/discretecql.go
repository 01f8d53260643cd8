package discretecql

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/qrdqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// CQL is discrete conservative Q-learning: QR-DQN's quantile loss plus the
// conservative penalty on the means of its quantiles. It is an
// algo.OffPolicy algorithm, trained offline from a fixed buffer; its policy
// is QR-DQN's *policy.Q.
//
// A CQL is driven by one goroutine at a time.
type CQL struct {
	cfg   Config
	qr    *qrdqn.QRDQN
	pen   float64 // the last penalty, before its weight
	stats map[string]float64
	acts  []int
	gq    *tensor.Tensor // scratch of Loss
}

// New returns a discrete CQL for an env with the given spaces: QR-DQN's
// networks (see qrdqn.New) built from cfg. The initial weights and the
// seed of the policy's random source are drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, and one naming
// the space for an action space that is not Discrete or an observation space
// the network cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*CQL, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if _, ok := act.(*env.Discrete); !ok {
		return nil, fmt.Errorf("%w: discrete CQL needs a Discrete action space, not %v (use cql for Box actions)", ErrConfig, act)
	}
	qr, err := qrdqn.New(cfg.qrdqn(), obs, act, rng)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	cfg.Hidden = slices.Clone(cfg.Hidden)
	return &CQL{cfg: cfg, qr: qr}, nil
}

// Config returns the configuration.
func (c *CQL) Config() Config {
	cfg := c.cfg
	cfg.Hidden = slices.Clone(cfg.Hidden)
	return cfg
}

// QRDQN returns the QR-DQN under the penalty: its networks and counters.
func (c *CQL) QRDQN() *qrdqn.QRDQN { return c.qr }

// Policy returns QR-DQN's ε-greedy policy (a *policy.Q), acting on the
// means of the quantiles.
func (c *CQL) Policy() policy.Policy { return c.qr.Policy() }

// Updates returns the number of gradient steps taken.
func (c *CQL) Updates() int64 { return c.qr.Updates() }

// Preprocess stores QR-DQN's n-step distributional targets [B, N] in b
// under "returns" (qrdqn.QRDQN.Preprocess).
func (c *CQL) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return c.qr.Preprocess(b, buf, indices)
}

// Update makes one gradient step on b, which holds obs, act and returns
// (Preprocess), on
//
//	ℓ_QR + w·(mean log Σₐ′ exp Q(s, a′) − mean Q(s, a))
//
// with ℓ_QR QR-DQN's quantile Huber loss, Q the means of the quantiles and
// w = MinQWeight (algo.ConservativePenalty), then updates the target
// network. It returns the total under "loss" and the penalty (without w)
// under "loss/cql", in a map owned by the CQL.
//
// Update returns an error, changing nothing, if b lacks a key, an action is
// outside the action space, or the network cannot take the observations.
func (c *CQL) Update(b *batch.Batch) (map[string]float64, error) {
	st, err := c.qr.UpdateWith(b, c)
	if err != nil {
		return nil, fmt.Errorf("discretecql: %w", err)
	}
	st["loss/cql"] = c.pen
	return st, nil
}

// Loss records the weighted conservative penalty of q [B, A] and the
// logged actions acts (qrdqn.Regularizer).
func (c *CQL) Loss(tp *tensor.Tape, q *tensor.Tensor, acts []int) *tensor.Tensor {
	pen := algo.ConservativePenalty(tp, q, tp.Gather(q, 1, acts))
	c.pen = float64(pen.Item())
	return tp.MulScalar(pen, float32(c.cfg.MinQWeight))
}

// Postprocess gives a prioritized buffer QR-DQN's priorities; other
// buffers are left alone.
func (c *CQL) Postprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return c.qr.Postprocess(b, buf, indices)
}

// Save writes QR-DQN's state: both networks, Adam's moments, the policy's
// random source and the counters.
func (c *CQL) Save(w io.Writer) error { return c.qr.Save(w) }

// Load restores a state written by Save into a CQL made with the same
// configuration. It returns an error wrapping algo.ErrState for a state
// that does not fit; the CQL may then be partly restored.
func (c *CQL) Load(r io.Reader) error { return c.qr.Load(r) }
