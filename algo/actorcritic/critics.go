package actorcritic

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// Critics is an ensemble of N QCritics with their target copies and one
// optimizer over all of them: the critics of DDPG (N = 1), TD3 and SAC
// (N = 2, twin critics) and REDQ (N ≥ 2). The critics' losses are separate
// sums, so one Adam over all of them steps each critic exactly as an Adam
// of its own would (Tianshou keeps one optimizer per critic).
//
// The critics are evaluated one after the other (see the package's
// Decisions for why not in one batched pass).
type Critics struct {
	Online, Target []*QCritic
	opt            *Optimizer
	ps, tps        nn.Params
	qs             []*tensor.Tensor
}

// NewCritics returns n critics of cfg for observations of obsDim and
// actions of actDim, with target critics starting as copies, and an
// Optimizer with t over the online ones. Weights are drawn from rng, critic
// after critic. It returns an error wrapping ErrConfig for n < 1 and the
// errors of NewQCritic and NewOptimizer.
func NewCritics(n int, cfg CriticConfig, obsDim, actDim int, t Training, rng *rand.Rand) (*Critics, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: %d critics", ErrConfig, n)
	}
	c := &Critics{qs: make([]*tensor.Tensor, n)}
	for i := range n {
		q, err := NewQCritic(cfg, obsDim, actDim, rng)
		if err != nil {
			return nil, err
		}
		tq, err := NewQCritic(cfg, obsDim, actDim, rng)
		if err != nil {
			return nil, err
		}
		name := fmt.Sprint(i)
		c.Online, c.Target = append(c.Online, q), append(c.Target, tq)
		c.ps = append(c.ps, q.Params().Prefixed(name)...)
		c.tps = append(c.tps, tq.Params().Prefixed(name)...)
	}
	if err := nn.Copy(c.tps, c.ps); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	var err error
	if c.opt, err = NewOptimizer(c.ps, t); err != nil {
		return nil, err
	}
	return c, nil
}

// Len returns N.
func (c *Critics) Len() int { return len(c.Online) }

// Params returns the online critics' parameters (critic i prefixed "i")
// and TargetParams the targets'.
func (c *Critics) Params() nn.Params { return c.ps }

// TargetParams returns the target critics' parameters.
func (c *Critics) TargetParams() nn.Params { return c.tps }

// Values records on tp the online critics' values [k] of act in obs, one
// tensor per critic, in a slice owned by c, valid until the next call.
func (c *Critics) Values(tp *tensor.Tape, obs, act *tensor.Tensor) []*tensor.Tensor {
	for i, q := range c.Online {
		c.qs[i] = q.Q(tp, obs, act)
	}
	return c.qs
}

// TargetMinTo stores in dst the minimum over the target critics listed in
// subset (nil: all) of their values of act in obs, k rows, computed on tp
// (a tape without gradients, for targets). It panics if len(dst) is not
// the number of rows.
func (c *Critics) TargetMinTo(dst []float32, tp *tensor.Tape, obs, act *tensor.Tensor, subset []int) {
	first := true
	visit := func(i int) {
		v := c.Target[i].Q(tp, obs, act).Data()
		if len(v) != len(dst) {
			panic(fmt.Sprintf("actorcritic: TargetMinTo of %d rows into %d", len(v), len(dst)))
		}
		if first {
			copy(dst, v)
			first = false
			return
		}
		for j, x := range v {
			dst[j] = min(dst[j], x)
		}
	}
	if subset == nil {
		for i := range c.Target {
			visit(i)
		}
		return
	}
	for _, i := range subset {
		visit(i)
	}
}

// Step makes one optimizer step on the critics' loss, the sum over the
// critics of the mean squared error to the targets y [k]:
// Σᵢ mean((Qᵢ(s, a) − y)²), recorded on tp. It returns the loss.
func (c *Critics) Step(tp *tensor.Tape, obs, act, y *tensor.Tensor) float64 {
	loss := c.TDLoss(tp, obs, act, y)
	c.StepLoss(tp, loss)
	return float64(loss.Item())
}

// TDLoss records on tp the critics' loss of Step, Σᵢ mean((Qᵢ(s, a) −
// y)²), without stepping, for an algorithm that adds terms of its own
// (CQL's penalty) before StepLoss.
func (c *Critics) TDLoss(tp *tensor.Tape, obs, act, y *tensor.Tensor) *tensor.Tensor {
	var loss *tensor.Tensor
	for _, q := range c.Values(tp, obs, act) {
		l := tp.MSE(q, y)
		if loss == nil {
			loss = l
		} else {
			loss = tp.Add(loss, l)
		}
	}
	return loss
}

// StepLoss makes one optimizer step of the critics on loss, a scalar
// recorded on tp.
func (c *Critics) StepLoss(tp *tensor.Tape, loss *tensor.Tensor) { c.opt.Step(tp, loss) }

// SoftUpdate moves the targets towards the online critics by Polyak
// averaging, θ′ ← τθ + (1 − τ)θ′ (algo.UpdateTarget; τ in [0, 1]).
func (c *Critics) SoftUpdate(tau float64) { algo.UpdateTarget(c.tps, c.ps, 0, 0, tau) }

// Parts returns the parts of a saved state: the critics ("critics"), the
// targets ("critics_target") and the optimizer ("critics_optim").
func (c *Critics) Parts() []algo.Part {
	return []algo.Part{
		algo.ParamsPart("critics", c.ps),
		algo.ParamsPart("critics_target", c.tps),
		{Name: "critics_optim", Save: c.opt.Save, Load: c.opt.Load},
	}
}
