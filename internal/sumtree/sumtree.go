package sumtree

import (
	"fmt"
	"math"
	"unsafe"
)

// Float is the set of element types a Tree can hold.
type Float interface{ ~float32 | ~float64 }

// Error is the type of the values that New and the methods of Tree panic
// with. Each panic is a programmer error that Go itself would also treat as
// one (an index out of range, slices of different lengths).
type Error struct{ string }

func (e Error) Error() string { return e.string }

// Panic values.
var (
	// ErrSize: New was asked for fewer than one leaf, or for too many.
	ErrSize = Error{"sumtree: size out of range"}
	// ErrIndex: a leaf index or a range is outside [0, Len()].
	ErrIndex = Error{"sumtree: index out of range"}
	// ErrLength: two slices that must pair up have different lengths.
	ErrLength = Error{"sumtree: slice lengths differ"}
	// ErrEmpty: a prefix-sum search in a tree whose Sum is 0.
	ErrEmpty = Error{"sumtree: search in a tree whose sum is zero"}
	// ErrQuery: a prefix-sum search for NaN.
	ErrQuery = Error{"sumtree: search for NaN"}
)

// ValueError reports a value that Set or SetMany refused to store: NaN,
// negative, infinite, or larger than Tree.MaxValue. The tree is left
// unchanged.
type ValueError struct {
	Index int     // leaf the value was meant for
	Value float64 // the refused value
	Max   float64 // the tree's MaxValue
}

func (e *ValueError) Error() string {
	return fmt.Sprintf("sumtree: value %v for leaf %d is not in [0, %v]", e.Value, e.Index, e.Max)
}

// Tree holds Len() non-negative leaf values and keeps, in O(log n) per
// update, their sum and the minimum of the leaves that have been set. See
// the package documentation for the layout and the invariants.
//
// A Tree is not safe for concurrent use when one goroutine writes; concurrent
// readers are safe.
type Tree[F Float] struct {
	size   int // number of usable leaves
	leaves int // power of two ≥ size; leaf i is node leaves+i
	sum    []F // sum[n] = sum[2n] + sum[2n+1]; sum[1] is the total
	min    []F // min[n] = min(min[2n], min[2n+1]); +Inf for unset leaves
	max    F   // largest value a leaf may hold: largest finite F / leaves
}

// New returns a tree of size leaves, all 0 and unset. Storage is two arrays of
// 2·p values, p the smallest power of two ≥ size.
//
// New panics with ErrSize if size < 1, or if size exceeds 2⁶¹ (2²⁹ where
// int has 32 bits), beyond which the node count would overflow an int.
func New[F Float](size int) *Tree[F] {
	if size < 1 || size > maxSize {
		panic(ErrSize)
	}
	leaves := 1
	for leaves < size {
		leaves <<= 1
	}
	largest := math.MaxFloat64
	if unsafe.Sizeof(F(0)) == 4 {
		largest = math.MaxFloat32
	}
	t := &Tree[F]{
		size:   size,
		leaves: leaves,
		sum:    make([]F, 2*leaves),
		min:    make([]F, 2*leaves),
		max:    F(largest / float64(leaves)),
	}
	t.Reset()
	return t
}

// maxSize is the largest size whose node count, 2·p for p the power of two
// ≥ size, still fits in an int.
const maxSize = 1 << (32<<(^uint(0)>>63) - 3)

// Len returns the number of leaves, the size given to New.
func (t *Tree[F]) Len() int { return t.size }

// MaxValue returns the largest value a leaf may hold: the largest finite F
// divided by the power of two the leaf count was rounded up to, so that no
// sum in the tree can overflow.
func (t *Tree[F]) MaxValue() F { return t.max }

// Reset sets every leaf to 0 and marks it unset, as New leaves them.
func (t *Tree[F]) Reset() {
	clear(t.sum)
	inf := F(math.Inf(1))
	for n := range t.min {
		t.min[n] = inf
	}
}

// Set stores v in leaf i and updates the sums and minima above it. It returns
// a *ValueError, and changes nothing, if v is NaN, negative or greater than
// MaxValue (in particular +Inf).
//
// Set panics with ErrIndex if i is outside [0, Len()).
func (t *Tree[F]) Set(i int, v F) error {
	if uint(i) >= uint(t.size) {
		panic(ErrIndex)
	}
	if !t.valid(v) {
		return t.valueError(i, v)
	}
	t.set(i, v)
	return nil
}

// SetMany stores v[k] in leaf idx[k] for every k, in order, so that the last
// of repeated indices wins. It checks every value first: if one is refused it
// returns a *ValueError for the first such value and changes nothing.
//
// SetMany panics with ErrLength if len(idx) != len(v) and with ErrIndex if an
// index is outside [0, Len()); it then changes nothing either.
func (t *Tree[F]) SetMany(idx []int, v []F) error {
	if len(idx) != len(v) {
		panic(ErrLength)
	}
	for _, i := range idx {
		if uint(i) >= uint(t.size) {
			panic(ErrIndex)
		}
	}
	for k, x := range v {
		if !t.valid(x) {
			return t.valueError(idx[k], x)
		}
	}
	for k, i := range idx {
		t.set(i, v[k])
	}
	return nil
}

func (t *Tree[F]) valid(v F) bool { return v >= 0 && v <= t.max }

func (t *Tree[F]) valueError(i int, v F) error {
	return &ValueError{Index: i, Value: float64(v), Max: float64(t.max)}
}

// set writes leaf i and recomputes every ancestor from its two children, so
// that each node is always the same function of the leaves whatever the
// order of past updates (no accumulated drift). The new sum and minimum are
// carried up in registers, adding the sibling at each level: a + b and
// min(a, b) are exact functions of the unordered pair, so this computes
// the same bits as sum[2n] + sum[2n+1], but the sibling loads do not wait
// for the store of the level below (46 ns instead of 70 ns per Set on
// 100,000 float32 leaves, CPU time).
func (t *Tree[F]) set(i int, v F) {
	n := i + t.leaves
	sum, mins := t.sum, t.min
	s, m := v, v
	sum[n], mins[n] = s, m
	for n > 1 {
		sib := n ^ 1
		s += sum[sib]
		m = min(m, mins[sib])
		n >>= 1
		sum[n], mins[n] = s, m
	}
}

// Get returns the value of leaf i (0 if it was never set).
//
// Get panics with ErrIndex if i is outside [0, Len()).
func (t *Tree[F]) Get(i int) F {
	if uint(i) >= uint(t.size) {
		panic(ErrIndex)
	}
	return t.sum[t.leaves+i]
}

// Sum returns the sum of all leaves, as the tree computes it: each node is
// the rounded sum of its two children.
func (t *Tree[F]) Sum() F { return t.sum[1] }

// SumRange returns the sum of leaves start, start+1, …, end-1 (0 when
// start == end), added from O(log n) nodes of the tree. Rounding can make
// SumRange(0, Len()) differ from Sum() in the last bits.
//
// SumRange panics with ErrIndex unless 0 ≤ start ≤ end ≤ Len().
func (t *Tree[F]) SumRange(start, end int) F {
	if start < 0 || end > t.size || start > end {
		panic(ErrIndex)
	}
	var s F
	lo, hi := start+t.leaves, end+t.leaves
	for lo < hi {
		if lo&1 == 1 {
			s += t.sum[lo]
			lo++
		}
		if hi&1 == 1 {
			hi--
			s += t.sum[hi]
		}
		lo >>= 1
		hi >>= 1
	}
	return s
}

// Min returns the smallest value among the leaves that have been set since
// New or Reset, and +Inf if none has. Leaves never set (which hold 0) do
// not count; a leaf set to 0 does.
func (t *Tree[F]) Min() F { return t.min[1] }

// FindPrefixSum returns the smallest leaf index i with a positive value such
// that v[0] + … + v[i] > x. Drawing x uniformly from [0, Sum()) thus picks
// leaf i with probability v[i] / Sum(), the sampling step of prioritized
// experience replay.
//
// The result is always a leaf with a positive value, in [0, Len()). An x < 0
// is treated as 0, and an x ≥ Sum() (which rounding in u·Sum() can produce)
// returns the last positive leaf. The prefix sums compared with x are the
// tree's rounded ones, so an x within rounding error of a boundary can land
// on either side of it; where rounding would lead the search onto a leaf
// with value 0, the result is the last positive leaf before that one.
//
// FindPrefixSum panics with ErrQuery if x is NaN and with ErrEmpty if Sum()
// is 0.
func (t *Tree[F]) FindPrefixSum(x F) int {
	if x != x {
		panic(ErrQuery)
	}
	if t.sum[1] == 0 {
		panic(ErrEmpty)
	}
	return t.find(x)
}

// find returns FindPrefixSum(x) for a non-NaN x and a positive Sum.
func (t *Tree[F]) find(x F) int {
	if x >= t.sum[1] {
		return t.lastPositive(1)
	}
	i := t.descend(max(x, 0))
	if t.sum[t.leaves+i] > 0 {
		return i
	}
	return t.positiveBefore(i)
}

// descend goes from the root to a leaf, right whenever x is not below the
// left sum (subtracting it from x), left otherwise. The step is written
// without a data-dependent branch: the direction of a random x is a coin
// flip at every level, which a branch predictor cannot learn (measured
// 84 ns instead of 130 ns on 100,000 float32 leaves).
//
// For 0 ≤ x < Sum in exact arithmetic this ends on the smallest positive
// leaf i with v[0] + … + v[i] > x. With rounded sums, x can exceed the sum
// of the subtree it has entered; the descent then runs to the right edge of
// that subtree and can end on a leaf with value 0 (padding included).
func (t *Tree[F]) descend(x F) int {
	sum := t.sum
	n := 1
	for n < t.leaves {
		l := 2 * n
		left := sum[l]
		b := 0
		if x >= left {
			b = 1
		}
		x -= left * F(b)
		n = l + b
	}
	return n - t.leaves
}

// positiveBefore returns the last positive leaf before leaf i, which has
// value 0. The descent that ended on i entered a subtree with sum 0 as a
// right child whose left sibling is positive (it only goes left into a
// positive subtree, and the root is positive); climbing from i, that is the
// first right child with a positive left sibling, and every leaf between the
// sibling and i is 0.
func (t *Tree[F]) positiveBefore(i int) int {
	n := i + t.leaves
	for n&1 == 0 || t.sum[n-1] == 0 {
		n >>= 1
	}
	return t.lastPositive(n - 1)
}

// lastPositive returns the last positive leaf under node n, which must have
// a positive sum.
func (t *Tree[F]) lastPositive(n int) int {
	for n < t.leaves {
		n = 2*n + 1
		if t.sum[n] == 0 {
			n--
		}
	}
	return n - t.leaves
}

// FindPrefixSumTo stores FindPrefixSum(xs[k]) in dst[k] for every k.
//
// FindPrefixSumTo panics with ErrLength if len(dst) != len(xs), with
// ErrQuery if an x is NaN and with ErrEmpty if Sum() is 0; dst is then
// unchanged.
func (t *Tree[F]) FindPrefixSumTo(dst []int, xs []F) {
	if len(dst) != len(xs) {
		panic(ErrLength)
	}
	for _, x := range xs {
		if x != x {
			panic(ErrQuery)
		}
	}
	if len(xs) > 0 && t.sum[1] == 0 {
		panic(ErrEmpty)
	}
	for len(xs) > 0 {
		k := min(len(xs), batchLen)
		t.findBatch(dst[:k], xs[:k])
		dst, xs = dst[k:], xs[k:]
	}
}

// batchLen is the number of searches findBatch runs side by side.
const batchLen = 64

// findBatch runs the descents of up to batchLen searches level by level, so
// that the memory loads of different searches, which do not depend on one
// another, overlap: 64 searches in 100,000 leaves take 2.1 µs instead of
// 7.4 µs one after the other. The edge cases are settled as in find.
func (t *Tree[F]) findBatch(dst []int, xs []F) {
	var buf [batchLen]F
	rem := buf[:len(xs)] // what is left of each x; dst holds the nodes
	for k, x := range xs {
		rem[k] = max(x, 0)
		dst[k] = 1
	}
	sum := t.sum
	for w := t.leaves; w > 1; w >>= 1 {
		for k, x := range rem {
			l := 2 * dst[k]
			left := sum[l]
			b := 0
			if x >= left {
				b = 1
			}
			rem[k] = x - left*F(b)
			dst[k] = l + b
		}
	}
	total := sum[1]
	for k, n := range dst {
		switch i := n - t.leaves; {
		case xs[k] >= total:
			dst[k] = t.lastPositive(1)
		case sum[n] > 0:
			dst[k] = i
		default:
			dst[k] = t.positiveBefore(i)
		}
	}
}
