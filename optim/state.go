package optim

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// Errors returned by package optim, wrapped with details.
var (
	// ErrConfig reports an invalid hyperparameter (a negative learning
	// rate, β outside [0, 1), Nesterov momentum without momentum).
	ErrConfig = errors.New("optim: invalid configuration")
	// ErrState reports a saved optimizer state that does not fit the
	// optimizer it is loaded into: another algorithm, other parameters,
	// missing or malformed entries.
	ErrState = errors.New("optim: optimizer state does not match")
)

// slot is one trainable tensor with its optimizer state.
type slot struct {
	name string
	t    *tensor.Tensor
	// step counts the updates this tensor received (tensors without a
	// gradient are skipped, as in PyTorch, and do not count).
	step int64
	// buf holds the per-element state, named by the optimizer's bufNames.
	buf [][]float32
}

// params is the state shared by all optimizers: the tensors, their state
// buffers and the learning rate.
type params struct {
	slots []slot
	lr    float64
	names []string // names of the state buffers, for saving
}

// newParams keeps the trainable tensors of ps, each with len(bufNames)
// zeroed buffers of its size.
func newParams(ps nn.Params, lr float64, bufNames ...string) params {
	p := params{lr: lr, names: bufNames}
	for _, q := range ps.Trainable() {
		s := slot{name: q.Name, t: q.Tensor, buf: make([][]float32, len(bufNames))}
		for i := range s.buf {
			s.buf[i] = make([]float32, q.Tensor.Len())
		}
		p.slots = append(p.slots, s)
	}
	return p
}

// ZeroGrad drops the gradients of the optimized tensors (PyTorch's
// zero_grad(set_to_none=True)). It does not allocate.
func (p *params) ZeroGrad() {
	for i := range p.slots {
		p.slots[i].t.ZeroGrad()
	}
}

// LR returns the learning rate.
func (p *params) LR() float64 { return p.lr }

// SetLR sets the learning rate for the following steps, as a schedule does.
// It panics with an error wrapping ErrConfig if lr is negative or not finite
// (a bug in the schedule, not bad data).
func (p *params) SetLR(lr float64) {
	if err := checkLR(lr); err != nil {
		panic(err)
	}
	p.lr = lr
}

func checkLR(lr float64) error {
	if !(lr >= 0) || math.IsInf(lr, 1) {
		return fmt.Errorf("%w: learning rate %v", ErrConfig, lr)
	}
	return nil
}

// checkUnit returns an error unless 0 ≤ v < 1 (or ≤ 1 when closed).
func checkUnit(name string, v float64, closed bool) error {
	if !(v >= 0 && (v < 1 || closed && v == 1)) {
		return fmt.Errorf("%w: %s = %v", ErrConfig, name, v)
	}
	return nil
}

// checkNonNeg returns an error unless v is finite and ≥ 0.
func checkNonNeg(name string, v float64) error {
	if !(v >= 0) || math.IsInf(v, 1) {
		return fmt.Errorf("%w: %s = %v", ErrConfig, name, v)
	}
	return nil
}

// flushSubnormal returns 0 for a subnormal v and v otherwise, without a
// branch (see the package documentation's Decisions).
func flushSubnormal(v float32) float32 {
	b := math.Float32bits(v)
	e := b & 0x7f800000
	keep := -((e | -e) >> 31) // all ones unless the exponent field is 0
	return math.Float32frombits(b & keep)
}
