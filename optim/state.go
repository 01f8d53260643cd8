package optim

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// flushSubnormal returns 0 for a subnormal v and v otherwise (see the
// package documentation), without a branch: it keeps v's bits unless the
// exponent field is zero, which made Adam's step more than twice as fast as
// the branch -2⁻¹²⁶ < v < 2⁻¹²⁶.
func flushSubnormal(v float32) float32 {
	b := math.Float32bits(v)
	e := b & 0x7f800000
	keep := -((e | -e) >> 31) // all ones unless e is 0
	return math.Float32frombits(b & keep)
}

// save writes the state buffers as tensors named "<parameter>.<buffer>",
// with the algorithm, its configuration (JSON) and the per-tensor step counts
// (a JSON array in parameter order) as metadata.
func (p *params) save(w io.Writer, kind string, cfg any) error {
	c, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	steps := make([]int64, len(p.slots))
	for i := range p.slots {
		steps[i] = p.slots[i].step
	}
	st, err := json.Marshal(steps)
	if err != nil {
		return err
	}
	ps, _ := p.stateParams(false)
	return nn.Save(w, ps, map[string]string{"optimizer": kind, "config": string(c), "steps": string(st)})
}

// stateParams returns the state buffers as named tensors: views of the
// buffers, or fresh zeroed tensors of the same shapes (fresh), with the
// buffers they stand for.
func (p *params) stateParams(fresh bool) (nn.Params, [][]float32) {
	var ps nn.Params
	var bufs [][]float32
	for i := range p.slots {
		s := &p.slots[i]
		for j, name := range p.names {
			t := tensor.New(s.t.Shape()...)
			if !fresh {
				t = tensor.MustFromSlice(s.buf[j], s.t.Shape()...)
			}
			ps = append(ps, nn.Param{Name: s.name + "." + name, Tensor: t})
			bufs = append(bufs, s.buf[j])
		}
	}
	return ps, bufs
}

// load reads a state written by save into staging memory, decodes the
// configuration into cfg (the address of the optimizer's config type) and
// calls apply, which validates it, adopts it and returns its learning rate;
// only if that succeeds are the buffers, step counts and learning rate
// replaced.
func (p *params) load(r io.Reader, kind string, cfg any, apply func() (lr float64, err error)) error {
	staged, bufs := p.stateParams(true)
	meta, err := nn.Load(r, staged)
	if errors.Is(err, nn.ErrMismatch) {
		return fmt.Errorf("%w: %v", ErrState, err)
	}
	if err != nil {
		return err
	}
	if meta["optimizer"] != kind {
		return fmt.Errorf("%w: the file holds the state of %q, not %q", ErrState, meta["optimizer"], kind)
	}
	var steps []int64
	if err := json.Unmarshal([]byte(meta["steps"]), &steps); err != nil || len(steps) != len(p.slots) {
		return fmt.Errorf("%w: step counts %q for %d tensors", ErrState, meta["steps"], len(p.slots))
	}
	for _, s := range steps {
		if s < 0 {
			return fmt.Errorf("%w: negative step count in %q", ErrState, meta["steps"])
		}
	}
	if err := json.Unmarshal([]byte(meta["config"]), cfg); err != nil {
		return fmt.Errorf("%w: configuration %q: %v", ErrState, meta["config"], err)
	}
	lr, err := apply()
	if err != nil {
		return err
	}
	for i, t := range staged {
		copy(bufs[i], t.Tensor.Data())
	}
	for i := range p.slots {
		p.slots[i].step = steps[i]
	}
	p.lr = lr
	return nil
}
