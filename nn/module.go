package nn

import (
	"fmt"
	"iter"

	"github.com/gorl/gorl/tensor"
)

// Module is anything that owns parameters: a layer, a network, a user's own
// model. Params returns its state as named tensors in a stable order; the
// tensors are the module's own (not copies), so an optimizer or a load writes
// into the module through them.
//
// Params may allocate the list and its names: call it once and keep the result
// for hot loops (optimizers, SoftUpdate).
type Module interface {
	Params() Params
}

// Layer is a module with one input and one output, the element of Sequential.
type Layer interface {
	Module
	// Forward records the layer's computation of x on tp and returns the
	// result, which belongs to tp (valid until tp.Reset).
	Forward(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor
}

// ModeSetter is implemented by modules whose forward pass differs between
// training and evaluation (Dropout, NoisyLinear) and by the containers that
// hold such modules. Modules start in training mode, as in PyTorch.
type ModeSetter interface {
	SetTraining(on bool)
}

// SetTraining switches m, and every module it contains, to training (on) or
// evaluation mode if m implements ModeSetter; other modules have no mode and
// are left alone.
func SetTraining(m Module, on bool) {
	if s, ok := m.(ModeSetter); ok {
		s.SetTraining(on)
	}
}

// Param is one named tensor of a module's state.
type Param struct {
	// Name is the tensor's name as PyTorch's state_dict would spell it:
	// "weight", "0.bias", "advantage.2.weight".
	Name string
	// Tensor is the module's own tensor.
	Tensor *tensor.Tensor
	// Buffer marks state that is saved, loaded and copied with the module but
	// not trained (PyTorch's buffers, such as NoisyLinear's noise): optimizers
	// and SoftUpdate skip it, Count leaves it out.
	Buffer bool
}

// Params is a module's state: named tensors in a stable order (the order
// PyTorch's state_dict lists them in for the same network).
type Params []Param

// Prefixed returns a new list with prefix and a dot before every name, the
// names a container gives its children's parameters ("fc1" + "weight" →
// "fc1.weight").
func (ps Params) Prefixed(prefix string) Params {
	out := make(Params, len(ps))
	for i, p := range ps {
		p.Name = prefix + "." + p.Name
		out[i] = p
	}
	return out
}

// All returns the names and tensors in order, buffers included.
func (ps Params) All() iter.Seq2[string, *tensor.Tensor] {
	return func(yield func(string, *tensor.Tensor) bool) {
		for _, p := range ps {
			if !yield(p.Name, p.Tensor) {
				return
			}
		}
	}
}

// Trainable returns a new list without the buffers: the tensors an optimizer
// updates.
func (ps Params) Trainable() Params {
	out := make(Params, 0, len(ps))
	for _, p := range ps {
		if !p.Buffer {
			out = append(out, p)
		}
	}
	return out
}

// Count returns the number of trainable scalars (the sum of the sizes of all
// tensors that are not buffers), PyTorch's sum(p.numel() for p in
// model.parameters()).
func (ps Params) Count() int {
	n := 0
	for _, p := range ps {
		if !p.Buffer {
			n += p.Tensor.Len()
		}
	}
	return n
}

// Lookup returns the tensor with the given name, or nil.
func (ps Params) Lookup(name string) *tensor.Tensor {
	for _, p := range ps {
		if p.Name == name {
			return p.Tensor
		}
	}
	return nil
}

// ZeroGrad drops the gradients of all tensors (see tensor.Tensor.ZeroGrad).
// It does not allocate.
func (ps Params) ZeroGrad() {
	for _, p := range ps {
		p.Tensor.ZeroGrad()
	}
}

// Clone returns a deep copy: new leaf tensors with the same names, shapes,
// values, buffer flags and gradient requirements, sharing no memory with ps.
// Gradients are not copied.
func (ps Params) Clone() Params {
	out := make(Params, len(ps))
	for i, p := range ps {
		t := tensor.New(p.Tensor.Shape()...)
		copy(t.Data(), p.Tensor.Data())
		t.SetRequiresGrad(p.Tensor.RequiresGrad())
		out[i] = Param{Name: p.Name, Tensor: t, Buffer: p.Buffer}
	}
	return out
}

// Match returns nil if dst and src have the same structure: the same number
// of tensors with the same names, buffer flags and shapes, in the same order.
// Otherwise it returns an error wrapping ErrMismatch that names the first
// difference.
func Match(dst, src Params) error {
	if len(dst) != len(src) {
		return fmt.Errorf("%w: %d tensors and %d tensors", ErrMismatch, len(dst), len(src))
	}
	for i := range dst {
		d, s := &dst[i], &src[i]
		if d.Name != s.Name || d.Buffer != s.Buffer {
			return fmt.Errorf("%w: tensor %d is %q (buffer %t) and %q (buffer %t)", ErrMismatch, i, d.Name, d.Buffer, s.Name, s.Buffer)
		}
		if !sameShape(d.Tensor.Shape(), s.Tensor.Shape()) {
			return fmt.Errorf("%w: %q has shape %v and %v", ErrMismatch, d.Name, d.Tensor.Shape(), s.Tensor.Shape())
		}
	}
	return nil
}

// Copy sets every tensor of dst, buffers included, to the values of the
// tensor at the same position of src (a hard target-network update, PyTorch's
// load_state_dict between two networks). It returns Match's error, leaving dst
// unchanged, if the structures differ. Copy does not allocate.
func Copy(dst, src Params) error {
	if err := Match(dst, src); err != nil {
		return err
	}
	for i := range dst {
		copy(dst[i].Tensor.Data(), src[i].Tensor.Data())
	}
	return nil
}

// SoftUpdate moves every trainable tensor of dst towards the one at the same
// position of src by Polyak averaging, θ' ← τ·θ + (1 − τ)·θ' (θ' in dst, θ in
// src), Machin's soft_update; buffers are left alone. τ = 1 is a hard copy of
// the parameters, τ = 0 changes nothing.
//
// It returns an error wrapping ErrConfig, leaving dst unchanged, unless
// 0 ≤ τ ≤ 1, and Match's error if the structures differ. SoftUpdate does not
// allocate.
func SoftUpdate(dst, src Params, tau float32) error {
	if !(tau >= 0 && tau <= 1) {
		return fmt.Errorf("%w: soft update τ = %v outside [0, 1]", ErrConfig, tau)
	}
	if err := Match(dst, src); err != nil {
		return err
	}
	keep := 1 - tau
	for i := range dst {
		if dst[i].Buffer {
			continue
		}
		d, s := dst[i].Tensor.Data(), src[i].Tensor.Data()
		s = s[:len(d)]
		for j, v := range s {
			d[j] = tau*v + keep*d[j]
		}
	}
	return nil
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
