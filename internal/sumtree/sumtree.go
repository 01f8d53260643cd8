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
	// node[n] holds the sum and minimum of node n; node[1] is the root.
	node []node[F]
	max  F // largest value a leaf may hold: largest finite F / (2·leaves)
}

// node is a node of the tree: the sum of its leaves and the minimum of those
// that were set. The two sit side by side because they are read together:
// the update of a leaf just drawn by a search finds both in the cache lines
// the search brought in.
type node[F Float] struct {
	// sum = sum of the children, node[2n].sum + node[2n+1].sum.
	sum F
	// min = min(node[2n].min, node[2n+1].min), +Inf for unset leaves.
	min F
}

// New returns a tree of size leaves, all 0 and unset. Storage is an array of
// 2·p nodes of two F, p the smallest power of two ≥ size.
//
// New panics with ErrSize if size < 1, or if size exceeds 2⁶¹ (2²⁹ where
// int has 32 bits), beyond which 2·p would overflow an int.
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
		node:   make([]node[F], 2*leaves),
		// Half of largest/leaves: the exact sum of all leaves is then at
		// most half the largest F, so the rounding of the sums on the way
		// up cannot carry a node to +Inf.
		max: F(largest / float64(2*leaves)),
	}
	t.Reset()
	return t
}

// maxSize is the largest size whose node count, 2·p for p the power of two
// ≥ size, and the bound 2·p of MaxValue still fit in an int.
const maxSize = 1 << (32<<(^uint(0)>>63) - 3)

// Len returns the number of leaves, the size given to New.
func (t *Tree[F]) Len() int { return t.size }

// MaxValue returns the largest value a leaf may hold: the largest finite F
// divided by twice the power of two the leaf count was rounded up to, so
// that no sum in the tree can overflow.
func (t *Tree[F]) MaxValue() F { return t.max }

// Reset sets every leaf to 0 and marks it unset, as New leaves them.
func (t *Tree[F]) Reset() {
	for n := range t.node {
		t.node[n] = node[F]{min: F(math.Inf(1))}
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
	t.climb(i, v, 1)
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
	// Each leaf's sum climbs to the top nodes, those above the level with
	// as many nodes as there are leaves to set, which every climb would
	// otherwise rewrite, each waiting for the stores of the one before;
	// the top nodes are then recomputed once, bottom up.
	top := 1
	for top < len(idx) && top < t.leaves {
		top <<= 1
	}
	k := 0
	for ; k+4 <= len(idx); k += 4 {
		t.climb4((*[4]int)(idx[k:]), (*[4]F)(v[k:]), top)
	}
	for ; k < len(idx); k++ {
		t.climb(idx[k], v[k], top)
	}
	nd := t.node
	for n := top - 1; n >= 1; n-- {
		nd[n].sum = nd[2*n].sum + nd[2*n+1].sum
	}
	return nil
}

func (t *Tree[F]) valid(v F) bool { return v >= 0 && v <= t.max }

func (t *Tree[F]) valueError(i int, v F) error {
	return &ValueError{Index: i, Value: float64(v), Max: float64(t.max)}
}

// climb writes leaf i and recomputes its minima (see setMin) and the sums
// of its ancestors from the parent up to node top (down to 1: all). Every
// sum is recomputed from the node's two children, so that each node is
// always the same function of the leaves whatever the order of past updates
// (no accumulated drift). The new sum is carried up in a register, adding
// the sibling at each level: a + b is an exact function of the unordered
// pair, so this computes the same bits as the sum of the two children, but
// the sibling loads do not wait for the store of the level below.
func (t *Tree[F]) climb(i int, v F, top int) {
	t.setMin(i, v)
	nd := t.node
	n := i + t.leaves
	s := nd[n].sum
	for ; n > 1 && n>>1 >= top; n >>= 1 {
		s += nd[n^1].sum
		nd[n>>1].sum = s
	}
}

// climb4 runs the climbs of four leaves side by side: each climb is a chain
// of dependent loads and additions, and four chains in one loop keep more
// of them in flight than the processor finds on its own. All leaves are at
// the same depth, so the climbs are in step: a climb reads the sibling of
// its node, which another climb may have written in an earlier step but
// never writes in the same one, and climbs that meet compute the same sums.
// A leaf given twice holds its last value before any climb starts.
func (t *Tree[F]) climb4(idx *[4]int, v *[4]F, top int) {
	for k, i := range idx {
		t.setMin(i, v[k])
	}
	nd := t.node
	n0, n1, n2, n3 := idx[0]+t.leaves, idx[1]+t.leaves, idx[2]+t.leaves, idx[3]+t.leaves
	s0, s1, s2, s3 := nd[n0].sum, nd[n1].sum, nd[n2].sum, nd[n3].sum
	for ; n0 > 1 && n0>>1 >= top; n0, n1, n2, n3 = n0>>1, n1>>1, n2>>1, n3>>1 {
		s0 += nd[n0^1].sum
		s1 += nd[n1^1].sum
		s2 += nd[n2^1].sum
		s3 += nd[n3^1].sum
		nd[n0>>1].sum = s0
		nd[n1>>1].sum = s1
		nd[n2>>1].sum = s2
		nd[n3>>1].sum = s3
	}
}

// setMin stores v, a valid value, in leaf i and updates the minima above
// it; the sums above are left to the caller. Minima are exact, so they need
// no recomputation from the leaves: a node's minimum changes only if a
// child's minimum fell below it, or if the child held it and rose (the
// node then takes the smaller of its children's); otherwise no minimum
// further up changes either, and the climb stops, for random values after
// a level or two.
func (t *Tree[F]) setMin(i int, v F) {
	v = F(math.Abs(float64(v))) // −0 is stored as +0
	n := i + t.leaves
	nd := t.node
	nv, ov := v, nd[n].min // new and old minimum of node n
	nd[n] = node[F]{sum: v, min: v}
	for ; n > 1 && nv != ov; n >>= 1 {
		pm := nd[n>>1].min
		switch {
		case nv < pm:
		case ov == pm:
			if s := nd[n^1].min; s < nv {
				nv = s
			}
		default:
			return
		}
		nd[n>>1].min, ov = nv, pm
	}
}

// Get returns the value of leaf i (0 if it was never set).
//
// Get panics with ErrIndex if i is outside [0, Len()).
func (t *Tree[F]) Get(i int) F {
	if uint(i) >= uint(t.size) {
		panic(ErrIndex)
	}
	return t.node[t.leaves+i].sum
}

// Sum returns the sum of all leaves, as the tree computes it: each node is
// the rounded sum of its two children.
func (t *Tree[F]) Sum() F { return t.node[1].sum }

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
			s += t.node[lo].sum
			lo++
		}
		if hi&1 == 1 {
			hi--
			s += t.node[hi].sum
		}
		lo >>= 1
		hi >>= 1
	}
	return s
}

// Min returns the smallest value among the leaves that have been set since
// New or Reset, and +Inf if none has. Leaves never set (which hold 0) do
// not count; a leaf set to 0 does.
func (t *Tree[F]) Min() F { return t.node[1].min }

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
	if t.node[1].sum == 0 {
		panic(ErrEmpty)
	}
	return t.find(x)
}

// find returns FindPrefixSum(x) for a non-NaN x and a positive Sum.
func (t *Tree[F]) find(x F) int {
	if x >= t.node[1].sum {
		return t.lastPositive(1)
	}
	i := t.descend(max(x, 0))
	if t.node[t.leaves+i].sum > 0 {
		return i
	}
	return t.positiveBefore(i)
}

// descend goes from the root to a leaf, right whenever x is not below the
// left sum (subtracting it from x), left otherwise. The step is written
// without a data-dependent branch: the direction of a random x is a coin
// flip at every level, which a branch predictor cannot learn.
//
// For 0 ≤ x < Sum in exact arithmetic this ends on the smallest positive
// leaf i with v[0] + … + v[i] > x. With rounded sums, x can exceed the sum
// of the subtree it has entered; the descent then runs to the right edge of
// that subtree and can end on a leaf with value 0 (padding included).
func (t *Tree[F]) descend(x F) int {
	nd := t.node
	n := 1
	for n < t.leaves {
		l := 2 * n
		left := nd[l].sum
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
	for n&1 == 0 || t.node[n-1].sum == 0 {
		n >>= 1
	}
	return t.lastPositive(n - 1)
}

// lastPositive returns the last positive leaf under node n, which must have
// a positive sum.
func (t *Tree[F]) lastPositive(n int) int {
	for n < t.leaves {
		n = 2*n + 1
		if t.node[n].sum == 0 {
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
	if len(xs) > 0 && t.node[1].sum == 0 {
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
// another, overlap (see the package's Decisions). The edge cases are
// settled as in find.
func (t *Tree[F]) findBatch(dst []int, xs []F) {
	var buf [batchLen]F
	rem := buf[:len(xs)] // what is left of each x; dst holds the nodes
	dst = dst[:len(rem)]
	for k, x := range xs {
		rem[k] = max(x, 0)
		dst[k] = 1
	}
	nd := t.node
	for w := t.leaves; w > 1; w >>= 1 {
		for k, x := range rem {
			l := 2 * dst[k]
			left := nd[l].sum
			b := 0
			if x >= left {
				b = 1
			}
			rem[k] = x - left*F(b)
			dst[k] = l + b
		}
	}
	total := nd[1].sum
	for k, n := range dst {
		switch i := n - t.leaves; {
		case xs[k] >= total:
			dst[k] = t.lastPositive(1)
		case nd[n].sum > 0:
			dst[k] = i
		default:
			dst[k] = t.positiveBefore(i)
		}
	}
}
