package actorcritic

import (
	"fmt"
	"io"

	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/tensor"
)

// Optimizer is Adam over a set of parameters with the Training settings:
// the gradients' global norm clipped before each step, and the learning rate
// decayed linearly with the env steps of training (Tianshou's optimizer
// with max_grad_norm and a linear LR scheduler). It does not allocate.
type Optimizer struct {
	cfg   Training
	ps    nn.Params
	adam  *optim.Adam
	decay optim.LinearDecay
}

// NewOptimizer returns an Optimizer over the trainable tensors of ps. It
// returns an error wrapping ErrConfig for invalid settings.
func NewOptimizer(ps nn.Params, t Training) (*Optimizer, error) {
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	adam, err := optim.NewAdam(ps, t.Optim)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return &Optimizer{cfg: t, ps: ps.Trainable(), adam: adam,
		decay: optim.LinearDecay{Start: t.Optim.LR, End: 0, Steps: int(t.LRDecaySteps)}}, nil
}

// Step makes one step on loss, a scalar recorded on tp: the gradients are
// dropped, tp.Backward(loss) computes them, their global norm is clipped to
// MaxGradNorm (when positive), and Adam updates the parameters.
func (o *Optimizer) Step(tp *tensor.Tape, loss *tensor.Tensor) {
	o.adam.ZeroGrad()
	tp.Backward(loss)
	if o.cfg.MaxGradNorm > 0 {
		optim.ClipGradNorm(o.ps, o.cfg.MaxGradNorm)
	}
	o.adam.Step()
}

// Apply makes one step with the gradients already held by the parameters
// (set by another process, as A3C's shared model does): their global norm
// clipped to MaxGradNorm (when positive), then Adam.
func (o *Optimizer) Apply() {
	if o.cfg.MaxGradNorm > 0 {
		optim.ClipGradNorm(o.ps, o.cfg.MaxGradNorm)
	}
	o.adam.Step()
}

// Schedule sets the learning rate for envSteps env steps of training: Optim.LR
// decayed linearly to 0 over LRDecaySteps, or Optim.LR without decay.
func (o *Optimizer) Schedule(envSteps int64) {
	if o.cfg.LRDecaySteps > 0 {
		o.adam.SetLR(o.decay.At(int(min(envSteps, o.cfg.LRDecaySteps))))
	}
}

// LR returns the current learning rate.
func (o *Optimizer) LR() float64 { return o.adam.LR() }

// Save writes Adam's state (moments, step counts, current learning rate).
func (o *Optimizer) Save(w io.Writer) error { return o.adam.Save(w) }

// Load restores a state written by Save; see optim.Adam.Load.
func (o *Optimizer) Load(r io.Reader) error { return o.adam.Load(r) }
