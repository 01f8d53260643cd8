package tensor

import "math"

// MSE returns the mean squared error mean((pred − target)²) as a scalar.
// Gradients flow to both operands.
//
// MSE and Huber panic with ErrShape if pred and target differ in shape.
func (tp *Tape) MSE(pred, target *Tensor) *Tensor { return tp.regression(pred, target, 0) }

// Huber returns the mean Huber loss of pred − target with threshold delta: ½d²
// where |d| ≤ delta, delta·(|d| − ½delta) elsewhere (PyTorch's HuberLoss).
// With delta = 1 it equals PyTorch's smooth_l1_loss with beta = 1, the loss
// DQN uses; smooth L1 with another beta is Huber with delta = beta divided by
// beta.
//
// Huber also panics with ErrArg unless delta > 0.
func (tp *Tape) Huber(pred, target *Tensor, delta float32) *Tensor {
	if !(delta > 0) {
		panicf(ErrArg, "Huber threshold %v", delta)
	}
	return tp.regression(pred, target, delta)
}

// regression computes MSE (delta = 0) or Huber; it keeps d = pred − target for
// the backward pass.
func (tp *Tape) regression(pred, target *Tensor, delta float32) *Tensor {
	if !sameShape(pred.shape, target.shape) {
		panicf(ErrShape, "loss of prediction %v and target %v", pred.shape, target.shape)
	}
	n := tp.newNode(regressionBack, pred, target, nil)
	n.f[0] = delta
	y := n.setShape()
	n.aux[0] = resize(n.aux[0], len(pred.data))
	t := target.data[:len(pred.data)]
	var s float64
	for i, p := range pred.data {
		d := p - t[i]
		n.aux[0][i] = d
		switch {
		case delta == 0:
			s += float64(d * d)
		case math.Abs(float64(d)) <= float64(delta):
			s += float64(0.5 * d * d)
		default:
			s += float64(delta * (float32(math.Abs(float64(d))) - 0.5*delta))
		}
	}
	y[0] = float32(s / float64(len(pred.data)))
	return &n.out
}

func regressionBack(n *node) {
	delta := n.f[0]
	d := n.aux[0]
	s := n.out.grad[0] / float32(len(d))
	for k, x := range [2]*Tensor{n.a, n.b} {
		if !x.requiresGrad {
			continue
		}
		sk := s
		if k == 1 {
			sk = -s
		}
		dx, acc := gradInto(x)
		dx = dx[:len(d)]
		for i, v := range d {
			if delta == 0 {
				v *= 2
			} else {
				v = min(max(v, -delta), delta)
			}
			v *= sk
			if acc {
				v += dx[i]
			}
			dx[i] = v
		}
	}
}

// CrossEntropy returns the mean over rows of −log softmax(logits)[label], for
// logits [B, C] and one class label per row, as a scalar (PyTorch's
// cross_entropy with class indices).
//
// CrossEntropy panics with ErrShape unless logits is a matrix with len(labels)
// rows, and with ErrIndex if a label is outside [0, C).
func (tp *Tape) CrossEntropy(logits *Tensor, labels []int) *Tensor {
	if len(logits.shape) != 2 || logits.shape[0] != len(labels) {
		panicf(ErrShape, "CrossEntropy of logits %v with %d labels", logits.shape, len(labels))
	}
	rows, c := logits.shape[0], logits.shape[1]
	for _, l := range labels {
		if uint(l) >= uint(c) {
			panicf(ErrIndex, "CrossEntropy: label %d for %d classes", l, c)
		}
	}
	n := tp.newNode(crossEntropyBack, logits, nil, nil)
	n.idx = append(n.idx[:0], labels...)
	y := n.setShape()
	n.aux[0] = resize(n.aux[0], len(logits.data)) // log-softmax
	var s float64
	for r := 0; r < rows; r++ {
		lr := n.aux[0][r*c : (r+1)*c]
		softmaxSlice(lr, logits.data[r*c:(r+1)*c], c, 1, true)
		s -= float64(lr[labels[r]])
	}
	y[0] = float32(s / float64(rows))
	return &n.out
}

func crossEntropyBack(n *node) {
	x := n.a
	rows, c := x.shape[0], x.shape[1]
	s := n.out.grad[0] / float32(rows)
	dx, acc := gradInto(x)
	for r := 0; r < rows; r++ {
		lr, dr := n.aux[0][r*c:(r+1)*c], dx[r*c:(r+1)*c]
		for j, l := range lr {
			v := float32(math.Exp(float64(l)))
			if j == n.idx[r] {
				v--
			}
			v *= s
			if acc {
				v += dr[j]
			}
			dr[j] = v
		}
	}
}
