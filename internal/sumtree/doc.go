// Package sumtree provides Tree, a sum tree with a min tree over a fixed
// number of non-negative leaves: the data structure behind prioritized
// experience replay (Schaul et al., "Prioritized Experience Replay", ICLR
// 2016), in the form of Tianshou's SegmentTree.
//
// # Overview
//
// New[F](size) makes a tree of size leaves of type float32 or float64, all 0.
// Set and SetMany store leaf values; Sum, SumRange and Min read aggregates;
// FindPrefixSum and FindPrefixSumTo turn uniform draws x ~ U[0, Sum()) into
// leaf indices drawn with probability v[i] / Sum(). Every operation is
// O(log n) per leaf or query and none allocates.
//
// # Invariants
//
//   - The leaves are padded to p, the smallest power of two ≥ size, and
//     stored as an implicit binary heap: node 1 is the root, node n has
//     children 2n and 2n+1, leaf i is node p+i. Padding leaves are 0.
//   - Every internal node holds the rounded sum of its two children and the
//     minimum of its two children's minima, side by side. Updates recompute
//     the sums on the path to the root from the children, never by adding a
//     delta, so every node is the same function of the current leaves
//     whatever the history of updates: Sum cannot drift. Minima involve no
//     rounding, so an update stops climbing where a minimum does not change.
//   - Every leaf value v satisfies 0 ≤ v ≤ MaxValue() = (largest finite F) /
//     (2p): the exact sum of all leaves is at most half the largest F, so no
//     rounded sum can overflow to +Inf. NaN is never stored, and −0 is
//     stored as +0.
//   - The min tree holds +Inf for leaves never set since New or Reset
//     (padding included); Min is the minimum over the leaves that were set.
//   - FindPrefixSum returns an index in [0, Len()) whose value is positive,
//     for every non-NaN x, as long as Sum() > 0.
//
// # Decisions
//
// Refused values are an error, not a panic. Priorities come from TD errors
// that the learning algorithm computes, and a NaN or an Inf there is a data
// problem (a diverging network), not a bug in the caller; Set and SetMany
// return a *ValueError and leave the tree unchanged, so the replay buffer can
// report the bad update instead of sampling from a corrupted tree forever.
// Out-of-range indices, in contrast, are programmer errors and panic with
// ErrIndex, as slice indexing does.
//
// Min covers the leaves that have been set, not all size leaves. A replay
// buffer fills its leaves in order, and the importance-sampling weight
// (N·P(i))^-β is normalised by the smallest stored probability; counting the
// not yet written leaves (0) there would make that weight infinite until the
// buffer is full. A leaf set to 0 does count.
//
// The upper bound MaxValue keeps every sum finite without a check on the
// path to the root, and keeps SetMany all-or-nothing with a check per value.
// It is far above any priority: 1.3e33 for float32 with 131,072 leaves.
//
// FindPrefixSum treats x < 0 like 0 and returns the last positive leaf for
// x ≥ Sum() instead of panicking, because x = u·Sum() with u < 1 can round
// up to Sum() (in float32 in particular), and a sampler must not fail on
// that. Its descent has no data-dependent branch (the direction at each level
// is a coin flip for random x, which costs a mispredicted branch half the
// time, and the branch-free descent is markedly faster). When
// rounding inside the tree lets that descent overshoot onto a zero leaf, a
// climb of O(log n) steps returns the last positive leaf before it; the
// tests pin two such cases found by search.
//
// FindPrefixSumTo runs up to 64 descents level by level, so that their
// independent memory loads overlap: on 100,000 leaves a batch of 64 takes
// a fraction of the time of 64 separate searches.
//
// The comparisons below were measured on 100,000 float64 leaves with the
// benchmarks of this package and the replay buffer's
// BenchmarkPrioritizedSampleUpdate64 (64 draws, then an update of their 64
// priorities); the figures are in docs/design.md.
//
// Set carries the new sum up the path in a register instead of reloading
// both children of every ancestor: the result is bit for bit the same
// (addition of two values does not depend on their order), and the sibling
// loads of all levels can be in flight at once. Minima are exact, so their
// climb stops at the first ancestor whose minimum does not change, usually
// the leaf's parent or grandparent; together these make Set about a third
// faster.
//
// SetMany climbs from each leaf only to the level with as many nodes as it
// has leaves to set, then recomputes the nodes above once, bottom up: every
// climb would rewrite those top nodes, each waiting for the stores of the
// one before. The climbs of four leaves run side by side in one loop, so
// that more of their chains of dependent loads are in flight; this halves
// the time of 64 updates. Recomputing every level in turn for all the
// leaves (each parent from its two children) was slower: it stores and
// reloads every level instead of carrying the sum in a register.
//
// A node's sum and minimum sit side by side rather than in two arrays. A
// search reads only sums, and the pairs halve their density: single searches
// of a cold tree take longer (float32 ones most), batches of 64 do not (they
// stayed faster than before all of these changes). But an update of leaves
// just drawn, the replay buffer's pattern, finds the minima in the cache
// lines the search brought in: with two arrays the minima's climb took a
// fifth of the buffer's sample-and-update benchmark, missing the cache at
// every level. The package's users search in batches.
//
// Wider trees were tried and dropped. An 8-ary tree with the children's
// running sums stored per group (one cache line) and a three-step
// branch-free search within the group searched faster, but its updates,
// which recompute a group of eight per level, were slower, and in the
// replay buffer's benchmark the whole was slower; counting the eight
// children's sums at every level without stored running sums was slower to
// search. Neither a flat array of the cumulative sums of the top 64 or 256
// nodes (binary-searched, then descending from there) nor descents that
// keep a search's state in registers for three levels at a time beat the
// plain level-by-level batch: its cost is in the deep levels, whose loads
// miss the cache.
//
// A Tree is not safe for concurrent use while one goroutine writes; the
// replay buffer that owns it serializes access.
package sumtree
