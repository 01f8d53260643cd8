package distribution

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/tensor"
)

// probEps is PyTorch's clamp for probabilities turned into logits
// (torch.finfo(float32).eps): log(clamp(p, eps, 1 − eps)).
const probEps = 0x1p-23

// Categorical is a distribution over the categories 0, …, K−1 for every
// position of a batch: PyTorch's torch.distributions.Categorical. Its
// parameter is a tensor whose last axis holds the K categories, either
// probabilities (SetProbs) or logits (SetLogits); the other axes are the batch
// shape, and the event shape is [].
//
// Values (samples, modes, the argument of LogProb) are category indices stored
// as float32, which represents every integer up to 2²⁴ exactly.
//
// The zero Categorical has no parameters: call SetProbs or SetLogits first.
// A Categorical may be reused: Set again for the next step, and the scratch
// memory of the previous one is reused. Like a Tape, it is not safe for
// concurrent use.
type Categorical struct {
	tp        *tensor.Tape
	fromProbs bool
	// logits are the normalized log-probabilities and probs the
	// probabilities, both [batch..., K]; the one not given is computed on
	// first use (nil until then).
	logits, probs *tensor.Tensor
	idx, rows     []int // scratch category indices and row offsets
	shape         []int // scratch shape
}

// SetLogits sets d to the categorical distribution with unnormalized
// log-probabilities logits [batch..., K]: probabilities softmax(logits) along
// the last axis. Operations are recorded on tp (nil allocates every result),
// so gradients flow back to logits; logits must be a leaf or a result of tp.
// A logit of −Inf gives its category probability 0 (action masking).
//
// SetLogits returns an error wrapping ErrParam, and leaves d unchanged, if a
// logit is NaN or +Inf or a row has no finite logit. It panics with ErrShape
// if logits is a scalar or its last axis is empty.
func (d *Categorical) SetLogits(tp *tensor.Tape, logits *tensor.Tensor) error {
	k := categories("SetLogits", logits)
	x := logits.Data()
	for r := 0; r < len(x); r += k {
		finite := false
		for _, v := range x[r : r+k] {
			if v != v || math.IsInf(float64(v), 1) {
				return errorf(ErrParam, "Categorical logit %g in row %d", v, r/k)
			}
			finite = finite || !math.IsInf(float64(v), -1)
		}
		if !finite {
			return errorf(ErrParam, "Categorical logits of row %d are all −Inf", r/k)
		}
	}
	d.tp, d.fromProbs = tp, false
	d.logits, d.probs = tp.LogSoftmax(logits, -1), nil
	return nil
}

// SetProbs sets d to the categorical distribution with probabilities
// proportional to probs [batch..., K]: each row is divided by its sum, as in
// PyTorch. Operations are recorded on tp (nil allocates every result), so
// gradients flow back to probs; probs must be a leaf or a result of tp.
//
// SetProbs returns an error wrapping ErrParam, and leaves d unchanged, if a
// probability is negative, NaN or infinite, or a row sums to 0. It panics
// with ErrShape if probs is a scalar or its last axis is empty.
func (d *Categorical) SetProbs(tp *tensor.Tape, probs *tensor.Tensor) error {
	k := categories("SetProbs", probs)
	x := probs.Data()
	for r := 0; r < len(x); r += k {
		var s float64
		for _, v := range x[r : r+k] {
			if !(v >= 0) || math.IsInf(float64(v), 1) {
				return errorf(ErrParam, "Categorical probability %g in row %d", v, r/k)
			}
			s += float64(v)
		}
		if s == 0 {
			return errorf(ErrParam, "Categorical probabilities of row %d sum to 0", r/k)
		}
	}
	d.tp, d.fromProbs = tp, true
	d.probs, d.logits = tp.Div(probs, tp.SumAxis(probs, -1, true)), nil
	return nil
}

// categories returns the number of categories of a parameter tensor.
func categories(op string, x *tensor.Tensor) int {
	if x.NDim() == 0 || x.Dim(-1) == 0 {
		panicf(ErrShape, "Categorical.%s: parameter of shape %v has no categories along its last axis", op, x.Shape())
	}
	return x.Dim(-1)
}

// param returns the parameter d was set with.
func (d *Categorical) param() *tensor.Tensor {
	if d.fromProbs {
		return d.probs
	}
	return d.logits
}

// K returns the number of categories.
func (d *Categorical) K() int { return d.param().Dim(-1) }

// BatchShape returns the parameter's shape without its last axis.
func (d *Categorical) BatchShape() []int {
	s := d.param().Shape()
	return s[:len(s)-1]
}

// EventShape returns [] (nil): each draw is one category.
func (d *Categorical) EventShape() []int { return nil }

// Probs returns the probabilities [batch..., K], each row summing to 1.
// For a distribution set from logits they are softmax(logits), recorded on
// first use.
func (d *Categorical) Probs() *tensor.Tensor {
	if d.probs == nil {
		d.probs = d.tp.Softmax(d.logits, -1)
	}
	return d.probs
}

// Logits returns the normalized log-probabilities [batch..., K]: logits −
// logsumexp(logits) for a distribution set from logits, and, as PyTorch
// computes them, log(clamp(p, ε, 1 − ε)) with ε = 2⁻²³ (float32's machine
// epsilon) for one set from probabilities, recorded on first use.
func (d *Categorical) Logits() *tensor.Tensor {
	if d.logits == nil {
		d.logits = d.tp.Log(d.tp.Clamp(d.probs, probEps, 1-probEps))
	}
	return d.logits
}

// output returns the categories in d.idx (one per batch position) as float32
// in a tensor of the batch shape recorded on d's tape, without gradient. The
// tensor comes from a Gather of the detached probabilities at those
// categories, whose values are then overwritten: the tape owns and reuses
// its memory.
func (d *Categorical) output(p *tensor.Tensor) *tensor.Tensor {
	out := d.tp.Gather(d.tp.Detach(p), -1, d.idx)
	y := out.Data()
	for i, c := range d.idx {
		y[i] = float32(c)
	}
	return out
}

// batchLen returns the number of batch positions and sizes d.idx for them.
func (d *Categorical) batchLen() int {
	n := numel(d.BatchShape())
	d.idx = slices.Grow(d.idx[:0], n)[:n]
	return n
}

// Sample draws one category for every batch position, by inverting the
// cumulative probabilities of its row with one rng.Float64 each, and returns
// them (as float32) in a tensor of the batch shape without gradient.
// Categories of probability 0 are never drawn.
func (d *Categorical) Sample(rng *rand.Rand) *tensor.Tensor {
	probs := d.Probs()
	p, k := probs.Data(), d.K()
	for r := range d.batchLen() {
		row := p[r*k : (r+1)*k]
		var total float64
		last := 0
		for j, v := range row {
			total += float64(v)
			if v > 0 {
				last = j
			}
		}
		u := rng.Float64() * total
		c, cum := last, 0.0
		for j, v := range row {
			cum += float64(v)
			if cum > u {
				c = j
				break
			}
		}
		d.idx[r] = c
	}
	return d.output(probs)
}

// LogProb returns log P(value): for every position of value, broadcast with
// the batch shape by numpy's rules, the normalized logit of the category
// value holds. The result has the broadcast shape (the batch shape for a
// value of that shape) and is differentiable with respect to the parameter.
//
// LogProb panics with ErrShape if value does not broadcast with the batch
// shape and with ErrValue if an element of value is not an integer in
// [0, K).
func (d *Categorical) LogProb(value *tensor.Tensor) *tensor.Tensor {
	lg := d.Logits()
	k, bs, vs := d.K(), d.BatchShape(), value.Shape()
	rs, ok := broadcast(d.shape, vs, bs)
	d.shape = rs
	if !ok {
		panicf(ErrShape, "Categorical.LogProb of a value of shape %v with batch shape %v", vs, bs)
	}
	n := numel(rs)
	d.idx = slices.Grow(d.idx[:0], n)[:n]
	v := value.Data()
	if slices.Equal(vs, rs) {
		for i, x := range v {
			d.idx[i] = category(x, k)
		}
	} else {
		d.rows = broadcastOffsets(d.rows, rs, vs)
		for i, o := range d.rows {
			d.idx[i] = category(v[o], k)
		}
	}
	if slices.Equal(bs, rs) {
		return d.tp.Gather(lg, -1, d.idx)
	}
	// The value has axes or lengths the batch lacks: repeat the rows of
	// logits to the broadcast shape first.
	d.rows = broadcastOffsets(d.rows, rs, bs)
	rows := d.tp.IndexSelect(d.tp.Reshape(lg, -1, k), 0, d.rows)
	return d.tp.Reshape(d.tp.Gather(rows, 1, d.idx), rs...)
}

// category converts a float32 category index, panicking with ErrValue if it
// is not an integer in [0, k).
func category(x float32, k int) int {
	c := int(x)
	if float32(c) != x || c < 0 || c >= k {
		panicf(ErrValue, "Categorical.LogProb of %g with %d categories", x, k)
	}
	return c
}

// Entropy returns −Σ p·log p over the categories, for every batch position:
// PyTorch's formula with the logits clamped below at −MaxFloat32, so that a
// category of probability 0 adds 0. It is differentiable with respect to the
// parameter.
func (d *Categorical) Entropy() *tensor.Tensor {
	lg := d.tp.Clamp(d.Logits(), -math.MaxFloat32, float32(math.Inf(1)))
	return d.tp.Neg(d.tp.SumAxis(d.tp.Mul(lg, d.Probs()), -1, false))
}

// Mode returns the most probable category for every batch position (the
// first one on ties), as float32 in a tensor of the batch shape without
// gradient.
func (d *Categorical) Mode() *tensor.Tensor {
	p := d.Probs()
	d.batchLen()
	tensor.ArgMaxTo(d.idx, p, -1)
	return d.output(p)
}
