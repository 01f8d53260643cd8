package distribution

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// Independent reinterprets the last k batch axes of a distribution as event
// axes: PyTorch's Independent(base, reinterpreted_batch_ndims=k). A Normal
// over actions [B, A] has batch shape [B, A]; Independent(normal, 1) is the
// diagonal Gaussian over A-dimensional actions, batch shape [B] and event
// shape [A], whose LogProb and Entropy sum the base's over the A axis.
//
// The zero Independent wraps nothing: call Set first. Like a Tape, it is not
// safe for concurrent use.
type Independent struct {
	tp    *tensor.Tape
	base  Distribution
	k     int
	event []int // scratch for EventShape
}

// Set sets d to base with its last k batch axes reinterpreted as event axes.
// The sums over those axes are recorded on tp, which should be the base's
// tape (nil allocates). base is kept by reference: setting it again changes
// d too.
//
// Set panics with ErrShape unless 0 ≤ k ≤ the number of base's batch axes.
func (d *Independent) Set(tp *tensor.Tape, base Distribution, k int) {
	if nb := len(base.BatchShape()); k < 0 || k > nb {
		panicf(ErrShape, "Independent of %d batch axes of a distribution with batch shape %v", k, base.BatchShape())
	}
	d.tp, d.base, d.k = tp, base, k
}

// Base returns the wrapped distribution.
func (d *Independent) Base() Distribution { return d.base }

// Reinterpreted returns k, the number of base batch axes that are event
// axes of d.
func (d *Independent) Reinterpreted() int { return d.k }

// BatchShape returns the base's batch shape without its last k axes.
func (d *Independent) BatchShape() []int {
	s := d.base.BatchShape()
	return s[:len(s)-d.k]
}

// EventShape returns the base's last k batch axes followed by its event
// shape.
func (d *Independent) EventShape() []int {
	s := d.base.BatchShape()
	d.event = append(append(d.event[:0], s[len(s)-d.k:]...), d.base.EventShape()...)
	return d.event
}

// Sample returns the base's sample.
func (d *Independent) Sample(rng *rand.Rand) *tensor.Tensor { return d.base.Sample(rng) }

// RSample returns the base's reparameterized sample.
//
// RSample panics with ErrKind if the base has no RSample method (a
// Categorical).
func (d *Independent) RSample(rng *rand.Rand) *tensor.Tensor {
	r, ok := d.base.(interface {
		RSample(*rand.Rand) *tensor.Tensor
	})
	if !ok {
		panicf(ErrKind, "Independent.RSample of a %T, which has no reparameterized sample", d.base)
	}
	return r.RSample(rng)
}

// LogProb returns the base's log-probability summed over the last k axes.
// It panics as the base's LogProb does.
func (d *Independent) LogProb(value *tensor.Tensor) *tensor.Tensor {
	return d.sumEvent(d.base.LogProb(value))
}

// Entropy returns the base's entropy summed over the last k axes.
//
// Entropy panics with ErrKind if the base has no Entropy method (a
// TanhNormal).
func (d *Independent) Entropy() *tensor.Tensor {
	e, ok := d.base.(interface{ Entropy() *tensor.Tensor })
	if !ok {
		panicf(ErrKind, "Independent.Entropy of a %T, which has no entropy", d.base)
	}
	return d.sumEvent(e.Entropy())
}

// Mode returns the base's mode.
func (d *Independent) Mode() *tensor.Tensor { return d.base.Mode() }

func (d *Independent) sumEvent(x *tensor.Tensor) *tensor.Tensor {
	for i := 0; i < d.k; i++ {
		x = d.tp.SumAxis(x, -1, false)
	}
	return x
}

// Index returns the distributions at idx of d's batch axes: the base indexed
// with idx followed by a whole slice of each reinterpreted axis, wrapped
// again. It is the batch.Leaf method; it panics as the base's Index does.
func (d *Independent) Index(idx ...nd.Index) batch.Leaf {
	b, ok := d.base.Index(withEventAxes(idx, d.k)...).(Distribution)
	if !ok {
		panicf(ErrKind, "Independent.Index: the base's Index did not return a Distribution")
	}
	return &Independent{tp: d.tp, base: b, k: d.k}
}

// Stack joins d and rest, Independents with d's k and bases of one kind and
// shape, along a new batch axis (between −(nb+1) and nb for nb batch axes of
// d): their bases stacked at that axis. It is the batch.Leaf method, with
// the errors of the bases' Stack and ErrKind for a different k.
func (d *Independent) Stack(axis int, rest ...batch.Leaf) (batch.Leaf, error) {
	ax, err := stackAxis(axis, len(d.BatchShape()))
	if err != nil {
		return nil, err
	}
	bases, err := d.bases("Stack", rest)
	if err != nil {
		return nil, err
	}
	return d.wrap(d.base.Stack(ax, bases...))
}

// Cat concatenates d and rest along batch axis 0: their bases concatenated.
// It is the batch.Leaf method, with Stack's errors, and ErrShape when d has
// no batch axis (axis 0 of the base is then an event axis).
func (d *Independent) Cat(rest ...batch.Leaf) (batch.Leaf, error) {
	if len(d.BatchShape()) == 0 {
		return nil, errorf(ErrShape, "Cat of distributions without batch axis (event shape %v)", d.EventShape())
	}
	bases, err := d.bases("Cat", rest)
	if err != nil {
		return nil, err
	}
	return d.wrap(d.base.Cat(bases...))
}

// bases returns the bases of rest, which must be Independents with d's k.
func (d *Independent) bases(op string, rest []batch.Leaf) ([]batch.Leaf, error) {
	ds, err := sameKind(op, d, rest)
	if err != nil {
		return nil, err
	}
	bases := make([]batch.Leaf, 0, len(rest))
	for _, x := range ds[1:] {
		if x.k != d.k {
			return nil, errorf(ErrKind, "%s of Independents with %d and %d reinterpreted axes", op, d.k, x.k)
		}
		bases = append(bases, x.base)
	}
	return bases, nil
}

// wrap wraps a joined base.
func (d *Independent) wrap(l batch.Leaf, err error) (batch.Leaf, error) {
	if err != nil {
		return nil, err
	}
	b, ok := l.(Distribution)
	if !ok {
		return nil, errorf(ErrKind, "the base's join did not return a Distribution")
	}
	return &Independent{tp: d.tp, base: b, k: d.k}, nil
}

// Equal reports whether other is an Independent with the same k and an equal
// base (compared with the base's Equal method). batch.Equal uses it.
func (d *Independent) Equal(other batch.Leaf) bool {
	o, ok := other.(*Independent)
	if !ok || o.k != d.k {
		return false
	}
	e, ok := d.base.(interface{ Equal(batch.Leaf) bool })
	return ok && e.Equal(o.base)
}

// String describes d: Independent(Normal(loc: [64 2], scale: [64 2]), 1).
func (d *Independent) String() string {
	return fmt.Sprintf("Independent(%v, %d)", d.base, d.k)
}
