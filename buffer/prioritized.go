package buffer

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/internal/sumtree"
)

// prioEps is added to every |priority| (float32's machine epsilon, as in
// Tianshou), so that a transition with zero TD error keeps a chance.
const prioEps = 1.1920928955078125e-07

// prioState holds the priorities of a prioritized buffer: leaf i of the
// sum tree is pᵢ^α for the transition at global index i, 0 for a slot
// never written.
type prioState struct {
	tree    *sumtree.Tree[float64]
	alpha   float64
	beta    float64
	norm    bool
	maxPrio float64 // largest priority given so far (before ^α); new transitions get it
	maxLeaf float64 // maxPrio^α
	xs      []float64
	vals    []float64
}

func newPrio(size int, pc PriorityConfig) (*prioState, error) {
	if err := pc.Validate(); err != nil {
		return nil, err
	}
	p := &prioState{tree: sumtree.New[float64](size), alpha: pc.alpha(), beta: pc.Beta, norm: pc.WeightNorm}
	p.reset()
	return p, nil
}

func (p *prioState) reset() {
	p.tree.Reset()
	p.maxPrio, p.maxLeaf = 1, 1
}

// setMax makes mx the priority new transitions get.
func (p *prioState) setMax(mx float64) {
	p.maxPrio, p.maxLeaf = mx, powLn(mx, log(mx), p.alpha)
}

// init gives new transitions the largest priority seen so far.
func (p *prioState) init(idx []int) {
	for _, i := range idx {
		if err := p.tree.Set(i, p.maxLeaf); err != nil {
			panic(err) // maxLeaf is finite and within MaxValue: checked by update
		}
	}
}

func (p *prioState) draw(idx []int, rng *rand.Rand) {
	if cap(p.xs) < len(idx) {
		p.xs = make([]float64, len(idx))
	}
	xs := p.xs[:len(idx)]
	sum := p.tree.Sum()
	for k := range xs {
		xs[k] = rng.Float64() * sum
	}
	p.tree.FindPrefixSumTo(idx, xs)
}

// weights stores the importance-sampling weight of each index in w:
// (P(i) / minₖ P(k))^(−β) = (leafᵢ / min leaf)^(−β), the paper's
// (N·P(i))^(−β) / maxₖ (N·P(k))^(−β), computed as exp(−β·(ln leafᵢ −
// ln min leaf)); with WeightNorm, divided by the largest weight of the
// batch. A slot never written has weight +Inf.
func (p *prioState) weights(w []float64, idx []int) {
	if p.beta == 0 {
		for k := range w {
			w[k] = 1
		}
		return
	}
	lo := log(p.tree.Min())
	for k, i := range idx {
		w[k] = exp(-p.beta * (log(p.tree.Get(i)) - lo))
	}
	if p.norm {
		mx := 0.0
		for _, x := range w {
			mx = max(mx, x)
		}
		if mx > 0 {
			for k := range w {
				w[k] /= mx
			}
		}
	}
}

// update sets the priorities of idx to |prios| + ε.
func (p *prioState) update(idx []int, prios []float64) error {
	if len(idx) != len(prios) {
		panic(errorf(ErrShape, "", fmt.Sprintf("UpdateWeight: %d indices and %d priorities", len(idx), len(prios))))
	}
	if cap(p.vals) < len(idx) {
		p.vals = make([]float64, len(idx))
	}
	vals := p.vals[:len(idx)]
	mx := p.maxPrio
	for k, x := range prios {
		a := math.Abs(x) + prioEps
		v := powLn(a, log(a), p.alpha)
		if math.IsNaN(x) || math.IsInf(a, 0) || v > p.tree.MaxValue() {
			return errorf(ErrValue, "", fmt.Sprintf("UpdateWeight: priority %g for index %d is not a finite number in range", x, idx[k]))
		}
		vals[k] = v
		mx = max(mx, a)
	}
	if err := p.tree.SetMany(idx, vals); err != nil {
		return &Error{Kind: ErrValue, Msg: "UpdateWeight", Err: err}
	}
	if mx > p.maxPrio {
		p.setMax(mx)
	}
	return nil
}

// Prioritized is a Replay buffer with prioritized sampling (Tianshou's
// PrioritizedReplayBuffer): transitions are drawn with probability
// proportional to priority^α from a sum tree (O(log n) per draw), sampled
// batches carry importance-sampling weights under "weight", new
// transitions enter with the largest priority given so far (1 at first),
// and the learner reports new priorities (|TD error|) with UpdateWeight.
// As in Tianshou, SampleAvail does not restrict prioritized draws.
type Prioritized struct{ *core }

// NewPrioritized returns an empty prioritized buffer. It returns an error
// wrapping ErrValue if a configuration is invalid.
func NewPrioritized(cfg Config, pc PriorityConfig) (*Prioritized, error) {
	c, err := newCore(cfg, []int{cfg.Size})
	if err != nil {
		return nil, err
	}
	if c.prio, err = newPrio(c.total, pc); err != nil {
		return nil, err
	}
	c.kind = kindPrioritized
	return &Prioritized{c}, nil
}

// PrioritizedVector is a Vector buffer with one priority tree over all its
// sub-buffers (Tianshou's PrioritizedVectorReplayBuffer).
type PrioritizedVector struct{ *core }

// NewPrioritizedVector returns an empty prioritized vector buffer of
// bufferNum sub-buffers sharing cfg.Size (each of ⌈Size/bufferNum⌉
// transitions). It returns an error wrapping ErrValue if a configuration is
// invalid.
func NewPrioritizedVector(cfg Config, bufferNum int, pc PriorityConfig) (*PrioritizedVector, error) {
	c, err := newVectorCore(cfg, bufferNum)
	if err != nil {
		return nil, err
	}
	if c.prio, err = newPrio(c.total, pc); err != nil {
		return nil, err
	}
	c.kind = kindPrioritizedVector
	return &PrioritizedVector{c}, nil
}

// Prioritizer is a buffer with priorities: Prioritized and
// PrioritizedVector. Algorithms report new priorities through it.
type Prioritizer interface {
	Buffer
	UpdateWeight(indices []int, priorities []float64) error
	SetBeta(beta float64) error
}

func (c *core) updateWeight(indices []int, priorities []float64) error {
	for _, g := range indices {
		c.checkIndex(g, "UpdateWeight")
	}
	return c.prio.update(indices, priorities)
}

func (c *core) setBeta(beta float64) error {
	if err := checkBeta(beta); err != nil {
		return err
	}
	c.prio.beta = beta
	return nil
}

// UpdateWeight sets the priority of the transition at indices[k] to
// |priorities[k]| + ε (ε = 2⁻²³), stored as priority^α, and raises the
// priority new transitions get to the largest priority seen. It does not
// allocate once its scratch has grown to len(indices). It returns an error
// wrapping ErrValue, changing nothing, if a priority is NaN or infinite (a
// diverging learner), and panics if the slices' lengths differ or an index
// is outside [0, Cap()).
func (b *Prioritized) UpdateWeight(indices []int, priorities []float64) error {
	return b.updateWeight(indices, priorities)
}

// Beta returns the current importance-sampling exponent β.
func (b *Prioritized) Beta() float64 { return b.prio.beta }

// SetBeta sets β, for annealing it towards 1 over training. It returns an
// error wrapping ErrValue if beta is negative or not finite.
func (b *Prioritized) SetBeta(beta float64) error { return b.setBeta(beta) }

// UpdateWeight sets the priority of the transition at indices[k] to
// |priorities[k]| + ε (ε = 2⁻²³), stored as priority^α, and raises the
// priority new transitions get to the largest priority seen. It does not
// allocate once its scratch has grown to len(indices). It returns an error
// wrapping ErrValue, changing nothing, if a priority is NaN or infinite (a
// diverging learner), and panics if the slices' lengths differ or an index
// is outside [0, Cap()).
func (b *PrioritizedVector) UpdateWeight(indices []int, priorities []float64) error {
	return b.updateWeight(indices, priorities)
}

// Beta returns the current importance-sampling exponent β.
func (b *PrioritizedVector) Beta() float64 { return b.prio.beta }

// SetBeta sets β, for annealing it towards 1 over training. It returns an
// error wrapping ErrValue if beta is negative or not finite.
func (b *PrioritizedVector) SetBeta(beta float64) error { return b.setBeta(beta) }

// Add stores transitions as Replay.Add does; each gets the largest
// priority given so far.
func (b *Prioritized) Add(data *batch.Batch, ids []int, steps []Step) ([]Step, error) {
	return b.add(data, ids, steps, false)
}

// Add stores transitions as Vector.Add does; each gets the largest
// priority given so far.
func (b *PrioritizedVector) Add(data *batch.Batch, ids []int, steps []Step) ([]Step, error) {
	return b.add(data, ids, steps, true)
}

// Update copies other's transitions in as Replay.Update does; they get the
// largest priority given so far.
func (b *Prioritized) Update(other Buffer) ([]int, error) { return b.update(other) }

func (b *Prioritized) String() string       { return b.string("PrioritizedReplayBuffer") }
func (b *PrioritizedVector) String() string { return b.string("PrioritizedVectorReplayBuffer") }

// PriorityStats returns the sum and the smallest of the stored
// priorities^α (the sum tree's total and its minimum over written slots):
// what a sampler drawing across several buffers splits by and normalizes
// importance weights with.
func (b *Prioritized) PriorityStats() (sum, min float64) {
	return b.prio.tree.Sum(), b.prio.tree.Min()
}

// PriorityTo stores priority^α of the transition at each index in dst. It
// panics if the lengths differ or an index is outside [0, Cap()).
func (b *Prioritized) PriorityTo(dst []float64, indices []int) {
	if len(dst) != len(indices) {
		panic(errorf(ErrShape, "", fmt.Sprintf("PriorityTo: %d slots for %d indices", len(dst), len(indices))))
	}
	for k, g := range indices {
		b.checkIndex(g, "PriorityTo")
		dst[k] = b.prio.tree.Get(g)
	}
}
