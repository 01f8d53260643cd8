package tensor

// SetGrad replaces t's gradient with a copy of g, as if Backward had
// written it: a gradient computed elsewhere (another worker's backward
// pass) that an optimizer is to apply. It reuses t's gradient memory.
//
// SetGrad panics with ErrShape if len(g) differs from t's number of
// elements.
func (t *Tensor) SetGrad(g []float32) {
	if len(g) != len(t.data) {
		panicf(ErrShape, "SetGrad: %d values for a tensor of shape %v", len(g), t.shape)
	}
	t.grad = resize(t.grad, len(t.data))
	copy(t.grad, g)
	t.gradSet = true
}
