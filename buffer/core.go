package buffer

import (
	"fmt"
	"strings"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// sub is the bookkeeping of one ring (a whole Replay, or one sub-buffer of
// the vector forms) over rows [off, off+size) of the shared storage.
type sub struct {
	off, size int
	n         int // transitions stored, ≤ size
	next      int // local position the next transition goes to
	// last is the global index of the most recent write (Tianshou's
	// last_index); it starts at off. Prev and Next stop there.
	last    int
	stamp   uint64  // Add call that last wrote here (detects repeated ids)
	epRet   float64 // return of the episode in progress
	epLen   int     // its length
	epStart int     // its first local position
}

func (s *sub) reset() {
	s.n, s.next, s.last = 0, 0, s.off
	s.epRet, s.epLen, s.epStart = 0, 0, 0
}

// advance claims the next position of the ring and returns its global
// index.
func (s *sub) advance() int {
	p := s.off + s.next
	s.last = p
	s.next++
	if s.next == s.size {
		s.next = 0
	}
	if s.n < s.size {
		s.n++
	}
	return p
}

// column is one stored array: rows [cap, row…] under a key path.
type column struct {
	id     int
	path   string
	top    string // first key of the path
	arr    *nd.Array
	row    []int // row shape
	rowLen int   // elements per row
	st     store
	obs    bool // under obs or obs_next: frame-stacked, last frame only
	leaf   bool // holds custom leaves, restacked when sampling
	flag   bool // terminated or truncated: stored as value ≠ 0
}

// node is a key of the storage tree: a column, a nested Batch (kids), or a
// reserved key (neither).
type node struct {
	key, path string
	col       *column
	kids      []*node
	b         *batch.Batch // the nested storage Batch when col == nil
}

func (n *node) child(key string) *node {
	for _, k := range n.kids {
		if k.key == key {
			return k
		}
	}
	return nil
}

// Step is what Add reports for each stored transition (Tianshou's
// (current_index, episode_return, episode_length, episode_start_index)).
type Step struct {
	// Index is the global index the transition was stored at. For a
	// Cached buffer, the step that ends an episode reports the index of
	// the episode's last transition in the main buffer.
	Index int
	// EpisodeReturn is the sum of the episode's rewards when this step
	// ends the episode (done), 0 otherwise.
	EpisodeReturn float64
	// EpisodeLen is the number of steps of the episode when this step
	// ends it, 0 otherwise.
	EpisodeLen int
	// EpisodeStart is the global index of the first step of the episode
	// this step belongs to (for a Cached buffer's finished episode, its
	// first index in the main buffer).
	EpisodeStart int
}

// core is the shared implementation of every buffer type: rings over one
// storage tree, with optional priorities and hindsight relabelling.
type core struct {
	kind    bufKind
	cfg     Config
	total   int // capacity: sum of the sub sizes
	subs    []sub
	uniform int  // size of every sub when all are equal, else 0
	cached  bool // subs[0] is a main buffer and subs[1:] its caches
	stamp   uint64

	root  node // storage tree; root.b is the storage Batch (Tianshou's _meta)
	cols  []*column
	outs  []outCol // the sampled batch's arrays, in output order
	outRs []string // the sampled batch's reserved keys
	// special columns and their data
	rewCol, termCol, truncCol, doneCol *column
	rew                                []float64
	term, trunc, done                  []bool

	// schema counts the changes of the storage's keys and columns (see
	// buildOuts); a kept Add plan is valid for one.
	schema uint64

	allIDs []int // 0, 1, …, len(subs)-1 (or 1… for Cached): default buffer ids
	zeroID []int // {0}: the id of a single transition

	// scratch reused across calls (a buffer is not safe for concurrent
	// use)
	adds  addState
	takes takeState

	prio *prioState
	her  *herState
}

func newCore(cfg Config, sizes []int) (*core, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &core{cfg: cfg, subs: make([]sub, len(sizes))}
	c.root.b = &batch.Batch{}
	for i, s := range sizes {
		if s <= 0 || s > maxSize || c.total > maxSize-s {
			return nil, errorf(ErrValue, "", fmt.Sprintf("sub-buffer sizes must be positive and sum to at most 2^40, got %v", sizes))
		}
		c.subs[i] = sub{off: c.total, size: s, last: c.total}
		c.total += s
	}
	c.uniform = sizes[0]
	for _, s := range sizes {
		if s != c.uniform {
			c.uniform = 0
		}
	}
	c.allIDs = make([]int, len(sizes))
	for i := range c.allIDs {
		c.allIDs[i] = i
	}
	c.zeroID = []int{0}
	return c, nil
}

// subOf returns the sub-buffer holding global index g, which must be in
// [0, total).
func (c *core) subOf(g int) *sub {
	if c.uniform > 0 {
		return &c.subs[g/c.uniform]
	}
	lo, hi := 0, len(c.subs)-1
	for lo < hi {
		m := int(uint(lo+hi+1) >> 1)
		if c.subs[m].off <= g {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return &c.subs[lo]
}

func (c *core) checkIndex(g int, op string) {
	if uint(g) >= uint(c.total) {
		panic(errorf(ErrIndex, "", fmt.Sprintf("%s: index %d out of range [0, %d)", op, g, c.total)))
	}
}

// Len returns the number of transitions stored.
func (c *core) Len() int {
	n := 0
	for i := range c.subs {
		n += c.subs[i].n
	}
	return n
}

// Cap returns the number of transitions the buffer holds when full (the sum
// over its sub-buffers).
func (c *core) Cap() int { return c.total }

// Config returns the configuration the buffer was made with; for the
// vector forms Size is the capacity, a multiple of the sub-buffer count,
// and for Cached the size of the main ring.
func (c *core) Config() Config { return c.cfg }

// BufferNum returns the number of sub-buffers that Add's ids name
// (Tianshou's buffer_num): 1 for Replay, Prioritized and HER, the number of
// rings of Vector, PrioritizedVector and HERVector, the number of caches of
// Cached.
func (c *core) BufferNum() int {
	if c.cached {
		return len(c.subs) - 1
	}
	return len(c.subs)
}

// EndEpisode ends the episodes in progress in the sub-buffers ids (ids as
// Add takes them), as when an environment is reset in the middle of an
// episode: the newest transition of each, unless it already ends an
// episode, is marked truncated (so done is true, Prev and Next stop there,
// and returns bootstrap from it, as at a time limit), and the next Add to
// that sub-buffer starts a new episode, with its own return, length and
// start. A Cached buffer moves the cache's partial episode, so ended, into
// the main ring. A sub-buffer without transitions, or whose newest
// transition ends an episode, is left as it is, so ending an episode twice
// changes nothing.
//
// EndEpisode panics with ErrIndex if an id is not a valid buffer id.
func (c *core) EndEpisode(ids []int) {
	nsub := c.BufferNum()
	for _, id := range ids {
		if uint(id) >= uint(nsub) {
			panic(errorf(ErrIndex, "", fmt.Sprintf("EndEpisode: buffer id %d out of range [0, %d)", id, nsub)))
		}
	}
	c.restoreHER()
	for _, id := range ids {
		if c.cached {
			id++
		}
		s := &c.subs[id]
		s.epRet, s.epLen, s.epStart = 0, 0, s.next
		if s.n == 0 {
			continue
		}
		if g := s.off + (s.next-1+s.size)%s.size; !c.done[g] {
			c.trunc[g], c.done[g] = true, true
			if c.cached {
				var step Step
				c.flushCache(&step, id)
			}
		}
	}
}

// Reset empties the buffer: lengths, positions and episode statistics go
// back to zero (priorities too); the storage keeps its schema and memory.
func (c *core) Reset() {
	c.restoreHER()
	for i := range c.subs {
		c.subs[i].reset()
	}
	if c.prio != nil {
		c.prio.reset()
	}
}

// Data returns the storage, Tianshou's buf._meta: a Batch whose arrays
// have Cap() rows (rows not yet written are zero), in index order, not
// time order. It is the live storage (a view): writing through it changes
// the buffer. It is empty before the first Add.
func (c *core) Data() *batch.Batch { return c.root.b }

// Rew returns the stored rewards, indexed by global index (a view of the
// storage, Cap() long; nil before the first Add).
func (c *core) Rew() []float64 { return c.rew }

// Terminated returns the stored terminated flags (a view, as Rew).
func (c *core) Terminated() []bool { return c.term }

// Truncated returns the stored truncated flags (a view, as Rew).
func (c *core) Truncated() []bool { return c.trunc }

// Done returns the stored done flags, terminated || truncated (a view, as
// Rew).
func (c *core) Done() []bool { return c.done }

// String returns the storage as Tianshou prints a buffer: the type name
// followed by the storage Batch's fields.
func (c *core) string(name string) string {
	s := c.root.b.String()
	return name + strings.TrimPrefix(s, "Batch")
}

// prev returns the index before g in its episode, or g at an episode's
// first step (Tianshou's prev, per sub-buffer).
func (c *core) prev(g int) int {
	s := c.subOf(g)
	l := max(1, s.n)
	p := ((g-s.off-1)%l + l) % l
	q := p + s.off
	if c.done[q] || q == s.last {
		p++
	}
	return p%l + s.off
}

// next returns the index after g in its episode, or g at an episode's last
// step and at the newest step of an unfinished episode.
func (c *core) next(g int) int {
	s := c.subOf(g)
	l := max(1, s.n)
	p := g - s.off + 1
	if c.done[g] || g == s.last {
		p--
	}
	return p%l + s.off
}

// PrevTo stores in dst[k] the index of the transition before indices[k] in
// the same episode, or indices[k] itself when it is an episode's first step
// (as far as the buffer can tell: the step after a done flag, or the
// oldest stored step). It does not allocate.
//
// PrevTo panics if len(dst) != len(indices) or an index is outside
// [0, Cap()).
func (c *core) PrevTo(dst, indices []int) {
	c.checkLen(len(dst), len(indices), "PrevTo")
	if c.done == nil {
		copy(dst, indices)
		return
	}
	for k, g := range indices {
		c.checkIndex(g, "PrevTo")
		dst[k] = c.prev(g)
	}
}

// NextTo stores in dst[k] the index of the transition after indices[k] in
// the same episode, or indices[k] itself when it ends an episode or is the
// newest step of an unfinished one. It does not allocate.
//
// NextTo panics if len(dst) != len(indices) or an index is outside
// [0, Cap()).
func (c *core) NextTo(dst, indices []int) {
	c.checkLen(len(dst), len(indices), "NextTo")
	if c.done == nil {
		copy(dst, indices)
		return
	}
	for k, g := range indices {
		c.checkIndex(g, "NextTo")
		dst[k] = c.next(g)
	}
}

// Prev returns PrevTo's result in a new slice.
func (c *core) Prev(indices []int) []int {
	dst := make([]int, len(indices))
	c.PrevTo(dst, indices)
	return dst
}

// Next returns NextTo's result in a new slice.
func (c *core) Next(indices []int) []int {
	dst := make([]int, len(indices))
	c.NextTo(dst, indices)
	return dst
}

func (c *core) checkLen(got, want int, op string) {
	if got != want {
		panic(errorf(ErrShape, "", fmt.Sprintf("%s: destination has length %d, want %d", op, got, want)))
	}
}

// UnfinishedIndex returns, for each sub-buffer whose newest transition
// does not end an episode, the index of that transition (Tianshou's
// unfinished_index), in sub-buffer order.
func (c *core) UnfinishedIndex() []int {
	out := []int{}
	for i := range c.subs {
		s := &c.subs[i]
		if s.n == 0 {
			continue
		}
		last := s.off + (s.next-1+s.size)%s.size
		if !c.done[last] {
			out = append(out, last)
		}
	}
	return out
}

// chronological appends the stored indices of sub s from oldest to newest.
func (s *sub) chronological(dst []int) []int {
	if s.n == s.size {
		for p := s.next; p < s.size; p++ {
			dst = append(dst, s.off+p)
		}
	}
	for p := 0; p < s.next && p < s.n; p++ {
		dst = append(dst, s.off+p)
	}
	return dst
}
