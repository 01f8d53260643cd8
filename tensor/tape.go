package tensor

// Tape records the operations of one step (a forward pass, a loss) so that
// Backward can compute gradients, and owns the memory of their results.
//
// Reset rewinds the tape: the next step's operations reuse, position by
// position, the nodes, result tensors and buffers of the previous step, so a
// step that repeats the same operations on the same shapes allocates nothing.
// Every tensor a tape returned becomes invalid at Reset (its memory is handed
// to the next step); using it afterwards panics with ErrStale.
//
// The zero Tape is ready to use and records gradients. SetGradEnabled(false)
// turns recording off, for acting and for targets (PyTorch's no_grad): results
// then never require gradients and no gradient memory is used.
//
// A nil *Tape is valid too: every operation then allocates its result, which
// never requires gradients and stays valid as long as it is referenced. It
// suits one-off computations and tests; hot loops should use a Tape.
//
// A Tape is not safe for concurrent use; give each goroutine its own. Several
// tapes may read the same leaves (parameters) concurrently, but Backward writes
// the gradients of the leaves it reaches.
type Tape struct {
	nodes  []*node
	n      int // nodes used in the current step
	gen    uint32
	noGrad bool
}

// node is one recorded operation: its result, its inputs and what its
// backward function needs. Nodes are reused across steps by position.
type node struct {
	out  Tensor
	back func(n *node) // nil when the result does not require gradients
	// a, b, c are the inputs; list holds them for Concat and Stack.
	a, b, c *Tensor
	list    []*Tensor
	// buf is the result's own memory (out.data is a view elsewhere for view
	// operations); aux keeps values the backward pass needs and scratch.
	buf []float32
	aux [3][]float32
	f64 []float64 // float64 scratch (QuantileHuber's prefix sums)
	idx []int
	// ints and f hold the operation's parameters (axes, strides, constants).
	ints [6]int
	f    [2]float32
}

// Reset starts a new step: all tensors the tape returned become invalid and
// their memory is reused by the next operations.
func (tp *Tape) Reset() {
	tp.n = 0
	tp.gen++
}

// SetGradEnabled turns gradient recording on or off and returns the previous
// setting, so that a no-grad region reads
//
//	prev := tp.SetGradEnabled(false)
//	target := ...
//	tp.SetGradEnabled(prev)
func (tp *Tape) SetGradEnabled(on bool) (was bool) {
	was = !tp.noGrad
	tp.noGrad = !on
	return was
}

// GradEnabled reports whether the tape records gradients.
func (tp *Tape) GradEnabled() bool { return tp != nil && !tp.noGrad }

// check panics if x may not be used as an input of tp's next operation.
func (tp *Tape) check(x *Tensor) {
	if x == nil || x.tape == nil {
		return
	}
	if x.gen != x.tape.gen {
		panicf(ErrStale, "input of shape %v", x.shape)
	}
	if x.tape != tp && x.requiresGrad && tp.GradEnabled() {
		panicf(ErrGrad, "input of shape %v requires gradients recorded on another tape; detach it first", x.shape)
	}
}

// newNode starts an operation with inputs a, b and c (any may be nil). The
// result requires gradients if the tape records and an input requires them;
// back is then kept for Backward.
func (tp *Tape) newNode(back func(*node), a, b, c *Tensor) *node {
	tp.check(a)
	tp.check(b)
	tp.check(c)
	var n *node
	if tp == nil {
		n = new(node)
	} else {
		if tp.n == len(tp.nodes) {
			tp.nodes = append(tp.nodes, new(node))
		}
		n = tp.nodes[tp.n]
		tp.n++
		n.out.tape = tp
		n.out.gen = tp.gen
	}
	n.a, n.b, n.c = a, b, c
	req := tp.GradEnabled() && (a != nil && a.requiresGrad || b != nil && b.requiresGrad || c != nil && c.requiresGrad)
	n.setBack(back, req)
	return n
}

// newListNode starts an operation on a list of inputs (Concat, Stack).
func (tp *Tape) newListNode(back func(*node), xs []*Tensor) *node {
	n := tp.newNode(nil, nil, nil, nil)
	req := false
	for _, x := range xs {
		tp.check(x)
		req = req || x.requiresGrad
	}
	n.list = append(n.list[:0], xs...)
	n.setBack(back, req && tp.GradEnabled())
	return n
}

func (n *node) setBack(back func(*node), req bool) {
	n.out.requiresGrad = req
	n.out.gradSet = false
	n.back = nil
	if req {
		n.back = back
	}
}

// setShape sets the result's shape (copied) and sizes its data from the node's
// own buffer. The data's contents are unspecified: operations overwrite them.
func (n *node) setShape(shape ...int) []float32 {
	n.out.shape = append(n.out.shape[:0], shape...)
	size := numel(shape)
	n.buf = resize(n.buf, size)
	n.out.data = n.buf
	return n.out.data
}

// Backward computes the gradient of loss, a one-element tensor recorded on
// tp, with respect to every tensor it depends on that requires gradients, and
// adds it to those tensors' gradients (see Tensor.Grad). It may be called more
// than once per step, for example for two losses; each call adds to the
// leaves' gradients again.
//
// Backward panics with ErrGrad if loss was not recorded on tp with gradients or
// has more than one element, and with ErrStale if tp was reset since.
func (tp *Tape) Backward(loss *Tensor) {
	if loss.tape != tp || !loss.requiresGrad {
		panicf(ErrGrad, "Backward: loss was not recorded with gradients on this tape")
	}
	tp.check(loss)
	if len(loss.data) != 1 {
		panicf(ErrGrad, "Backward: loss of shape %v is not a scalar", loss.shape)
	}
	for _, n := range tp.nodes[:tp.n] {
		n.out.gradSet = false
	}
	g, _ := gradInto(loss)
	g[0] = 1
	for i := tp.n - 1; i >= 0; i-- {
		if n := tp.nodes[i]; n.back != nil && n.out.gradSet {
			n.back(n)
		}
	}
}

// gradInto returns the memory for x's gradient and whether it already holds a
// gradient to add to (acc) or must be overwritten entirely.
func gradInto(x *Tensor) (g []float32, acc bool) {
	if x.gradSet {
		return x.grad, true
	}
	x.grad = resize(x.grad, len(x.data))
	x.gradSet = true
	return x.grad, false
}

// gradAdd returns x's gradient memory ready to be added to: cleared first if it
// held no gradient. It is for backward passes that write only part of it.
func gradAdd(x *Tensor) []float32 {
	g, acc := gradInto(x)
	if !acc {
		clear(g)
	}
	return g
}

// addTo adds src to dst (acc) or copies it.
func addTo(dst, src []float32, acc bool) {
	if !acc {
		copy(dst, src)
		return
	}
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] += v
	}
}
