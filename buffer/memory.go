package buffer

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/internal/sumtree"
	"github.com/gorl/gorl/nd"
)

// Memory is Machin's Buffer: a ring of up to Size transitions, appended
// with Append and sampled with SampleBatch. Transitions are addressed by
// slot, their place in the ring, [0, Size); a slot keeps its transition
// until the ring overwrites it.
//
// A Memory is not safe for concurrent use.
type Memory struct {
	items    []*Transition // by slot
	size     int
	next     int // slot the next transition goes to
	required []string
}

// NewMemory returns an empty Memory of size transitions. Every appended
// transition must have the required attributes (often DefaultRequired). It
// returns an error wrapping ErrValue if size < 1.
func NewMemory(size int, required ...string) (*Memory, error) {
	if size < 1 || size > maxSize {
		return nil, errorf(ErrValue, "", fmt.Sprintf("NewMemory: size must be in [1, 2^40], got %d", size))
	}
	return &Memory{size: size, required: slices.Clone(required)}, nil
}

// Len returns the number of stored transitions.
func (m *Memory) Len() int { return len(m.items) }

// Cap returns the capacity.
func (m *Memory) Cap() int { return m.size }

// Clear removes every transition.
func (m *Memory) Clear() {
	clear(m.items)
	m.items, m.next = m.items[:0], 0
}

// At returns the transition in slot i. It panics with ErrIndex if i is not
// in [0, Len()).
func (m *Memory) At(i int) *Transition {
	if uint(i) >= uint(len(m.items)) {
		panic(errorf(ErrIndex, "", fmt.Sprintf("Memory.At: slot %d out of range [0, %d)", i, len(m.items))))
	}
	return m.items[i]
}

// All returns the occupied slots, oldest transition first.
func (m *Memory) All() []int {
	out := make([]int, 0, len(m.items))
	if len(m.items) == m.size {
		for i := m.next; i < m.size; i++ {
			out = append(out, i)
		}
	}
	for i := 0; i < m.next && i < len(m.items); i++ {
		out = append(out, i)
	}
	return out
}

// Append stores t in the next slot, overwriting the oldest transition when
// the ring is full, and returns the slot. It returns an error wrapping
// ErrKey if t lacks a required attribute or its attributes differ from
// those of the transitions already stored (Machin's "different
// attributes").
func (m *Memory) Append(t *Transition) (int, error) {
	if err := m.check(t); err != nil {
		return 0, err
	}
	slot := m.next
	if len(m.items) < m.size {
		m.items = append(m.items, t)
	} else {
		m.items[slot] = t
	}
	m.next = (m.next + 1) % m.size
	return slot, nil
}

func (m *Memory) check(t *Transition) error {
	for _, r := range m.required {
		if t.find(r) == nil {
			return errorf(ErrKey, r, "Append: transition lacks a required attribute")
		}
	}
	if len(m.items) > 0 && !m.items[0].sameAttrs(t) {
		return errorf(ErrKey, "", fmt.Sprintf("Append: transition has attributes %v, the stored ones %v", t.Keys(), m.items[0].Keys()))
	}
	return nil
}

// SampleMethod chooses the slots SampleBatch returns: up to n occupied
// slots of m (Machin's sample_method). SampleRandom, SampleRandomUnique
// and SampleAll are the built-in ones.
type SampleMethod func(m *Memory, n int, rng *rand.Rand) ([]int, error)

// SampleRandom draws min(n, Len) slots uniformly with replacement.
func SampleRandom(m *Memory, n int, rng *rand.Rand) ([]int, error) {
	n = min(n, m.Len())
	out := make([]int, max(n, 0))
	for k := range out {
		out[k] = rng.IntN(m.Len())
	}
	return out, nil
}

// SampleRandomUnique draws min(n, Len) distinct slots uniformly.
func SampleRandomUnique(m *Memory, n int, rng *rand.Rand) ([]int, error) {
	l := m.Len()
	n = max(min(n, l), 0)
	if 4*n >= l {
		return rng.Perm(l)[:n], nil
	}
	seen := make(map[int]bool, n)
	out := make([]int, 0, n)
	for len(out) < n {
		if s := rng.IntN(l); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out, nil
}

// SampleAll returns every occupied slot, oldest first, whatever n is
// (Machin's "all").
func SampleAll(m *Memory, _ int, _ *rand.Rand) ([]int, error) { return m.All(), nil }

// SampleBatch samples transitions with method (SampleRandomUnique when
// nil) and returns how many it took and, for each name of attrs in order
// (every attribute when attrs is empty), the attribute over the sample:
//
//   - a major attribute: with concatenate a *batch.Batch whose arrays are
//     the transitions' arrays stacked along the first axis ([n, …]),
//     without it a map[string][]*nd.Array of the per-transition arrays;
//   - a sub attribute: with concatenate an *nd.Array of shape [n, …]
//     ([n, 1] for scalars), without it a []*nd.Array;
//   - a custom attribute: with concatenate and named in concatCustom an
//     *nd.Array of shape [n, k] made from the values (numbers, bools, or
//     lists of them), otherwise an []any of the values;
//   - "*": a map[string]any holding every attribute attrs does not name,
//     each as above.
//
// With nothing sampled it returns 0 and nil. The arrays are new; custom
// values are the stored ones. SampleBatch returns an error wrapping ErrKey
// for a name no transition has, ErrType if values cannot be concatenated
// (shapes that differ, a custom value that is not numeric), the method's
// error, and ErrValue if rng is nil.
func (m *Memory) SampleBatch(n int, concatenate bool, method SampleMethod, attrs, concatCustom []string, rng *rand.Rand) (int, []any, error) {
	if rng == nil {
		return 0, nil, errorf(ErrValue, "", "SampleBatch: nil random source")
	}
	if method == nil {
		method = SampleRandomUnique
	}
	slots, err := method(m, n, rng)
	if err != nil {
		return 0, nil, err
	}
	for _, s := range slots {
		if uint(s) >= uint(len(m.items)) {
			return 0, nil, errorf(ErrIndex, "", fmt.Sprintf("SampleBatch: the sample method returned slot %d of %d", s, len(m.items)))
		}
	}
	if len(slots) == 0 {
		return 0, nil, nil
	}
	res, err := m.collect(slots, concatenate, attrs, concatCustom)
	return len(slots), res, err
}

// collect builds SampleBatch's result for the transitions in slots.
func (m *Memory) collect(slots []int, concatenate bool, attrs, concatCustom []string) ([]any, error) {
	items := make([]*Transition, len(slots))
	for k, s := range slots {
		items[k] = m.items[s]
	}
	first := items[0]
	if len(attrs) == 0 {
		attrs = first.Keys()
	}
	out := make([]any, 0, len(attrs))
	for _, name := range attrs {
		if name != "*" {
			v, err := gatherAttr(items, name, concatenate, concatCustom)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			continue
		}
		rest := map[string]any{}
		for _, k := range first.Keys() {
			if slices.Contains(attrs, k) {
				continue
			}
			v, err := gatherAttr(items, k, concatenate, concatCustom)
			if err != nil {
				return nil, err
			}
			rest[k] = v
		}
		out = append(out, rest)
	}
	return out, nil
}

func gatherAttr(items []*Transition, name string, concatenate bool, concatCustom []string) (any, error) {
	pos := -1
	for i := range items[0].attrs {
		if items[0].attrs[i].name == name {
			pos = i
		}
	}
	if pos < 0 {
		return nil, errorf(ErrKey, name, "SampleBatch: no such attribute")
	}
	// Transitions of one memory usually list their attributes in the same
	// order: try the first one's position before searching.
	attrOf := func(t *Transition) *attr {
		if pos < len(t.attrs) && t.attrs[pos].name == name {
			return &t.attrs[pos]
		}
		return t.find(name)
	}
	a := &items[0].attrs[pos]
	switch a.kind {
	case Major:
		if concatenate {
			g := &batch.Batch{}
			arrs := make([]*nd.Array, len(items))
			for k := range a.major.Keys() {
				for i, it := range items {
					arrs[i] = arrayIn(attrOf(it).major, k)
					if arrs[i] == nil {
						return nil, errorf(ErrType, name+batch.Sep+k, "SampleBatch: missing from a transition")
					}
				}
				c, err := nd.Concatenate(0, arrs...)
				if err != nil {
					return nil, &Error{Kind: ErrType, Path: name + batch.Sep + k, Msg: "SampleBatch: cannot concatenate", Err: err}
				}
				g.Set(k, c)
			}
			return g, nil
		}
		lists := map[string][]*nd.Array{}
		for k := range a.major.Keys() {
			for _, it := range items {
				lists[k] = append(lists[k], arrayIn(attrOf(it).major, k))
			}
		}
		return lists, nil
	case Sub:
		arrs := make([]*nd.Array, len(items))
		for i, it := range items {
			arrs[i] = attrOf(it).sub
		}
		if !concatenate {
			return arrs, nil
		}
		c, err := nd.Concatenate(0, arrs...)
		if err != nil {
			return nil, &Error{Kind: ErrType, Path: name, Msg: "SampleBatch: cannot concatenate", Err: err}
		}
		return c, nil
	default:
		vals := make([]any, len(items))
		for i, it := range items {
			vals[i] = attrOf(it).value
		}
		if !concatenate || !slices.Contains(concatCustom, name) {
			return vals, nil
		}
		c, err := nd.New(vals)
		if err == nil && c.DType() != nd.Object {
			if c, err = c.Reshape(len(items), -1); err == nil {
				return c, nil
			}
		}
		return nil, &Error{Kind: ErrType, Path: name, Msg: "SampleBatch: custom values cannot be concatenated into a numeric array", Err: err}
	}
}

func arrayIn(b *batch.Batch, key string) *nd.Array {
	v, _ := b.Get(key)
	a, _ := v.(*nd.Array)
	return a
}

// MemoryPriorityConfig configures a PrioritizedMemory, with Machin's
// PrioritizedBuffer defaults for zero fields.
type MemoryPriorityConfig struct {
	// Epsilon is added to every |priority|; 0 means 0.01.
	Epsilon float64 `json:"epsilon"`
	// Alpha is the prioritization exponent; 0 means 0.6.
	Alpha float64 `json:"alpha"`
	// Beta is the initial importance-sampling exponent; 0 means 0.4.
	Beta float64 `json:"beta"`
	// BetaIncrement is added to β after each sampling, up to 1; 0 means
	// 0.001 (a negative value turns annealing off).
	BetaIncrement float64 `json:"beta_increment_per_sampling"`
}

func orDefault(v, d float64) float64 {
	if v == 0 {
		return d
	}
	return v
}

// PrioritizedMemory is Machin's PrioritizedBuffer: a Memory whose
// transitions carry priorities, sampled with stratified proportional
// sampling (one draw per equal segment of the total priority) and
// returned with normalized importance-sampling weights. Store transitions
// with its Append or AppendPriority: the embedded Memory's Append would
// leave the slot's priority as it was.
type PrioritizedMemory struct {
	Memory
	tree             *sumtree.Tree[float64]
	eps, alpha, beta float64
	betaInc, maxLeaf float64
}

// NewPrioritizedMemory returns an empty PrioritizedMemory of size
// transitions; see NewMemory. It returns an error wrapping ErrValue if size
// < 1 or a configuration value is negative or not finite.
func NewPrioritizedMemory(size int, cfg MemoryPriorityConfig, required ...string) (*PrioritizedMemory, error) {
	m, err := NewMemory(size, required...)
	if err != nil {
		return nil, err
	}
	p := &PrioritizedMemory{Memory: *m, eps: orDefault(cfg.Epsilon, 0.01), alpha: orDefault(cfg.Alpha, 0.6),
		beta: orDefault(cfg.Beta, 0.4), betaInc: orDefault(cfg.BetaIncrement, 0.001), maxLeaf: 1}
	for _, v := range []float64{p.eps, p.alpha, p.beta} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, errorf(ErrValue, "", fmt.Sprintf("NewPrioritizedMemory: invalid configuration %+v", cfg))
		}
	}
	p.tree = sumtree.New[float64](size)
	return p, nil
}

// leaf returns the tree value of a priority, (|p| + ε)^α.
func (p *PrioritizedMemory) leaf(prio float64) (float64, error) {
	v := math.Pow(math.Abs(prio)+p.eps, p.alpha)
	if math.IsNaN(v) || v > p.tree.MaxValue() {
		return 0, errorf(ErrValue, "", fmt.Sprintf("priority %g is not a finite number in range", prio))
	}
	return v, nil
}

// Append stores t with the largest priority given so far (1 at first);
// see Memory.Append.
func (p *PrioritizedMemory) Append(t *Transition) (int, error) {
	return p.append(t, p.maxLeaf)
}

// AppendPriority stores t with priority prio. It returns Append's errors
// and an error wrapping ErrValue if prio is NaN or infinite.
func (p *PrioritizedMemory) AppendPriority(t *Transition, prio float64) (int, error) {
	v, err := p.leaf(prio)
	if err != nil {
		return 0, err
	}
	return p.append(t, v)
}

func (p *PrioritizedMemory) append(t *Transition, v float64) (int, error) {
	slot, err := p.Memory.Append(t)
	if err != nil {
		return 0, err
	}
	if err := p.tree.Set(slot, v); err != nil {
		panic(err) // v is checked
	}
	p.maxLeaf = max(p.maxLeaf, v)
	return slot, nil
}

// Clear removes every transition and priority.
func (p *PrioritizedMemory) Clear() {
	p.Memory.Clear()
	p.tree.Reset()
	p.maxLeaf = 1
}

// Beta returns the current importance-sampling exponent.
func (p *PrioritizedMemory) Beta() float64 { return p.beta }

// SampleBatch draws n transitions in proportion to their priorities and
// returns how many it took, the attributes as Memory.SampleBatch returns
// them, the slots drawn (for UpdatePriority) and their importance-sampling
// weights (len·P(i))^(−β), divided by their maximum. Then β grows by the
// configured increment, up to 1. With n ≤ 0 or nothing stored it returns
// 0 and nils. It returns Memory.SampleBatch's errors.
func (p *PrioritizedMemory) SampleBatch(n int, concatenate bool, attrs, concatCustom []string, rng *rand.Rand) (int, []any, []int, []float64, error) {
	if rng == nil {
		return 0, nil, nil, nil, errorf(ErrValue, "", "SampleBatch: nil random source")
	}
	if n <= 0 || p.Len() == 0 {
		return 0, nil, nil, nil, nil
	}
	sum := p.tree.Sum()
	seg := sum / float64(n)
	xs := make([]float64, n)
	for k := range xs {
		xs[k] = min((float64(k)+rng.Float64())*seg, max(sum-1e-6, 0))
	}
	slots := make([]int, n)
	p.tree.FindPrefixSumTo(slots, xs)
	w := make([]float64, n)
	mx := 0.0
	for k, s := range slots {
		w[k] = math.Pow(float64(p.Len())*p.tree.Get(s)/sum, -p.beta)
		mx = max(mx, w[k])
	}
	for k := range w {
		w[k] /= mx
	}
	if p.betaInc > 0 {
		p.beta = min(1, p.beta+p.betaInc)
	}
	res, err := p.collect(slots, concatenate, attrs, concatCustom)
	if err != nil {
		return 0, nil, nil, nil, err
	}
	return n, res, slots, w, nil
}

// UpdatePriority sets the priority of the transitions in slots to
// (|prios[k]| + ε)^α. It returns an error wrapping ErrValue, changing
// nothing, if a priority is NaN or infinite, and panics if the lengths
// differ or a slot is not occupied.
func (p *PrioritizedMemory) UpdatePriority(slots []int, prios []float64) error {
	if len(slots) != len(prios) {
		panic(errorf(ErrShape, "", fmt.Sprintf("UpdatePriority: %d slots and %d priorities", len(slots), len(prios))))
	}
	vals := make([]float64, len(prios))
	for k, x := range prios {
		if uint(slots[k]) >= uint(p.Len()) {
			panic(errorf(ErrIndex, "", fmt.Sprintf("UpdatePriority: slot %d out of range [0, %d)", slots[k], p.Len())))
		}
		v, err := p.leaf(x)
		if err != nil {
			return err
		}
		vals[k] = v
	}
	if err := p.tree.SetMany(slots, vals); err != nil {
		return &Error{Kind: ErrValue, Msg: "UpdatePriority", Err: err}
	}
	for _, v := range vals {
		p.maxLeaf = max(p.maxLeaf, v)
	}
	return nil
}
