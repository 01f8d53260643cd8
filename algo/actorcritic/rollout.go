package actorcritic

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// Rollout holds an on-policy collection as float32 tensors for the update:
// every array under "obs" (and under "obs_next" when asked) as a tensor [N,
// …], the actions in the form the action distribution takes (category
// indices [N] for a Discrete space, raw actions [N, m] for a Box), and named
// float columns [N] that the algorithm fills or reads from the batch
// (returns, advantages, values, old log-probabilities).
//
// Its minibatches follow Tianshou's Batch.split(size, shuffle=True,
// merge_last=True): Shuffle permutes the rows, Minibatches tells how many
// pieces of size rows there are (the remainder joins the last one), and Rows
// lists the rows of a piece, which ObsRows and the tape's IndexSelect gather.
//
// Loading a collection of the same length and observation structure again
// reuses every tensor, so a steady state of equal collections allocates
// nothing. The zero Rollout is ready to use; it is not safe for concurrent
// use.
type Rollout struct {
	n         int
	hasNext   bool // the last Load read obs_next
	obs, next tree
	act       *tensor.Tensor
	actND     *nd.Array
	box       *env.Box // the Box whose width boxWidth is
	boxWidth  int
	cols      []column
	perm      []int
	mb        tree // the minibatch's observations
}

// column is a named float column [n].
type column struct {
	key string
	t   *tensor.Tensor
	a   *nd.Array // t's memory as an array
}

// tree mirrors the structure of an observation value (an array, or a Batch
// of arrays and Batches) with one tensor per array, under "obs" in root.
type tree struct {
	root  *batch.Batch
	nodes []node
	srcs  []source // scratch of the last walk
}

// node is an array of the observations (its tensor and the tensor's memory
// as an array) or a nested Batch (t nil), and the Batch of the mirror tree
// that holds it under key.
type node struct {
	src    string // its key in the source
	key    string // its key in the mirror: "obs" at the top
	depth  int
	t      *tensor.Tensor
	a      *nd.Array
	parent *batch.Batch
}

// source is an array (a not nil) or a Batch found by walking an observation
// value, in the Batch's key order.
type source struct {
	key   string
	depth int
	a     *nd.Array
}

// Load reads the collection b (as buffer.TakeTo stores it): "obs" (an array
// [N, …] or a Batch of such arrays), "act" in act's form, and, with next,
// "obs_next" of the same structure. Named columns keep their memory if N is
// unchanged and are zeroed otherwise.
//
// Load returns an error, leaving the Rollout unusable until the next
// successful Load, if a key is missing, the observations are not numeric
// arrays of N rows, or an action is outside act (a Discrete space) or of
// another shape (a Box of one axis, actions [N, m]).
func (r *Rollout) Load(b *batch.Batch, act env.Space, next bool) error {
	r.n, r.hasNext = 0, false
	n, rebuilt, err := r.obs.load(b, batch.KeyObs)
	if err != nil {
		return err
	}
	if rebuilt {
		r.mb.root = nil
	}
	if n == 0 {
		return fmt.Errorf("actorcritic: %w", buffer.ErrEmpty)
	}
	if next {
		m, _, err := r.next.load(b, batch.KeyObsNext)
		if err != nil {
			return err
		}
		if m != n {
			return fmt.Errorf("actorcritic: %d rows of obs_next for %d of obs", m, n)
		}
	}
	if err := r.loadAct(b, act, n); err != nil {
		return err
	}
	if n != len(r.perm) {
		r.perm = make([]int, n)
		for i := range r.cols {
			r.cols[i].t, r.cols[i].a = nil, nil
		}
	}
	for i := range r.perm {
		r.perm[i] = i
	}
	r.n, r.hasNext = n, next
	return nil
}

// Len returns the number of transitions loaded.
func (r *Rollout) Len() int { return r.n }

// Obs returns a Batch holding the observations under "obs" as tensors [N,
// …]: the networks' input for the whole collection.
func (r *Rollout) Obs() *batch.Batch { return r.obs.root }

// ObsNext returns the next observations under "obs" likewise, or nil if
// the last Load did not read them.
func (r *Rollout) ObsNext() *batch.Batch {
	if !r.hasNext {
		return nil
	}
	return r.next.root
}

// Act returns the actions: category indices [N] (the action minus the
// space's start, as float32) for a Discrete space, raw actions [N, m] for a
// Box.
func (r *Rollout) Act() *tensor.Tensor { return r.act }

// Column returns the float column named key, a tensor [N] without gradient
// that keeps its values until a Load of another length. The first call for
// a key (and for N) allocates it, zeroed.
func (r *Rollout) Column(key string) *tensor.Tensor {
	return r.column(key).t
}

func (r *Rollout) column(key string) *column {
	for i := range r.cols {
		if c := &r.cols[i]; c.key == key {
			if c.t == nil {
				c.t = tensor.New(r.n)
				c.a = c.t.ND()
			}
			return c
		}
	}
	t := tensor.New(r.n)
	r.cols = append(r.cols, column{key: key, t: t, a: t.ND()})
	return &r.cols[len(r.cols)-1]
}

// Store stores column key in b under key, as a float32 array [N] that
// shares the column's memory (the batch then shows the column's values
// until they change). It returns b.Set's error.
func (r *Rollout) Store(b *batch.Batch, key string) error {
	return b.Set(key, r.column(key).a)
}

// Read copies b's array under key, N numbers of a numeric dtype, into
// column key (nothing to copy when it is the array Store stored). It returns
// an error if b lacks the key or holds something else there.
func (r *Rollout) Read(b *batch.Batch, key string) error {
	c := r.column(key)
	a, err := b.Array(key)
	if err != nil {
		return fmt.Errorf("actorcritic: %w", err)
	}
	if a == c.a {
		return nil
	}
	if a.Ndim() != 1 || a.Dim(0) != r.n {
		return fmt.Errorf("actorcritic: %s of shape %v; want [%d]", key, a.Shape(), r.n)
	}
	if err := nd.CopyTo(c.a, a); err != nil {
		return fmt.Errorf("actorcritic: %s: %w", key, err)
	}
	return nil
}

// Shuffle permutes the rows of the minibatches with rng (Fisher–Yates, one
// rng.IntN per row).
func (r *Rollout) Shuffle(rng *rand.Rand) {
	for i := len(r.perm) - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		r.perm[i], r.perm[j] = r.perm[j], r.perm[i]
	}
}

// Minibatches returns the number of minibatches of size rows: N/size
// rounded down, at least 1; size ≤ 0 or ≥ N gives one minibatch of all rows.
func (r *Rollout) Minibatches(size int) int {
	if size <= 0 || size >= r.n {
		return 1
	}
	return r.n / size
}

// Rows returns the rows of minibatch i of size rows: size rows of the
// permutation from i·size, and for the last minibatch everything left (up
// to 2·size − 1 rows). The slice is memory of the Rollout, valid until the
// next Shuffle or Load.
//
// Rows panics if i is not in [0, Minibatches(size)).
func (r *Rollout) Rows(i, size int) []int {
	k := r.Minibatches(size)
	if uint(i) >= uint(k) {
		panic(fmt.Sprintf("actorcritic: Rollout.Rows: minibatch %d of %d", i, k))
	}
	if k == 1 {
		return r.perm
	}
	if i == k-1 {
		return r.perm[i*size:]
	}
	return r.perm[i*size : (i+1)*size]
}

// ObsRows records on tp the gather of the given rows of the observations
// (tp.IndexSelect) and returns them under "obs" in a Batch of the Rollout,
// overwritten by the next call: the networks' input for a minibatch.
func (r *Rollout) ObsRows(tp *tensor.Tape, rows []int) *batch.Batch {
	if r.mb.root == nil {
		r.mb.mirror(r.obs.srcs, false)
	}
	for i, l := range r.obs.nodes {
		if l.t != nil {
			m := r.mb.nodes[i]
			m.parent.Set(m.key, tp.IndexSelect(l.t, 0, rows)) // an existing key and a Leaf: no error
		}
	}
	return r.mb.root
}

// loadAct converts b's actions into r.act.
func (r *Rollout) loadAct(b *batch.Batch, act env.Space, n int) error {
	a, err := b.Array(batch.KeyAct)
	if err != nil {
		return fmt.Errorf("actorcritic: %w", err)
	}
	switch s := act.(type) {
	case *env.Discrete:
		if a.Ndim() != 1 || a.Dim(0) != n {
			return fmt.Errorf("actorcritic: act of shape %v; want [%d]", a.Shape(), n)
		}
		r.sizeAct(n, 0)
		dst := r.act.Data()
		start, k := s.Start(), s.N()
		if a.DType() == nd.Int64 && a.IsContiguous() {
			for i, v := range nd.Data[int64](a) {
				if v-start < 0 || v-start >= k {
					return fmt.Errorf("actorcritic: action %d outside %v", v, s)
				}
				dst[i] = float32(v - start)
			}
			return nil
		}
		for i := range n {
			v, err := s.Int(a.At(i))
			if err != nil || v-start < 0 || v-start >= k {
				return fmt.Errorf("actorcritic: action %v outside %v", a.At(i), s)
			}
			dst[i] = float32(v - start)
		}
		return nil
	case *env.Box:
		if s != r.box {
			// Shape allocates a copy: read it once per space.
			if sh := s.Shape(); len(sh) == 1 {
				r.box, r.boxWidth = s, sh[0]
			} else {
				return fmt.Errorf("%w: actions of %v", ErrConfig, act)
			}
		}
		m := r.boxWidth
		if a.Ndim() != 2 || a.Dim(0) != n || a.Dim(1) != m {
			return fmt.Errorf("actorcritic: act of shape %v for %v; want [%d %d]", a.Shape(), s, n, m)
		}
		r.sizeAct(n, m)
		if err := nd.CopyTo(r.actND, a); err != nil {
			return fmt.Errorf("actorcritic: act: %w", err)
		}
		return nil
	}
	return fmt.Errorf("%w: actions of %v", ErrConfig, act)
}

// sizeAct makes r.act a tensor [n] (m = 0) or [n, m], reusing it if it has
// that shape.
func (r *Rollout) sizeAct(n, m int) {
	a := r.act
	if a != nil && a.Dim(0) == n && ((m == 0 && a.NDim() == 1) || (a.NDim() == 2 && a.Dim(1) == m)) {
		return
	}
	if m == 0 {
		r.act = tensor.New(n)
	} else {
		r.act = tensor.New(n, m)
	}
	r.actND = r.act.ND()
}

// load reads the value under key of b into the tree's tensors, rebuilding
// them when its structure or shapes changed (rebuilt then reports true), and
// returns the number of rows.
func (t *tree) load(b *batch.Batch, key string) (n int, rebuilt bool, err error) {
	v, ok := b.Get(key)
	if !ok {
		return 0, false, fmt.Errorf("actorcritic: the batch has no %s", key)
	}
	t.srcs = t.srcs[:0]
	if err := t.walk(key, v, 0); err != nil {
		return 0, false, err
	}
	n = -1
	for _, s := range t.srcs {
		switch {
		case s.a == nil:
		case n < 0:
			n = s.a.Dim(0)
		case s.a.Dim(0) != n:
			return 0, false, fmt.Errorf("actorcritic: %s: arrays of %d and %d rows", key, n, s.a.Dim(0))
		}
	}
	if n < 0 {
		return 0, false, fmt.Errorf("actorcritic: %s holds no array", key)
	}
	if !t.matches() {
		t.mirror(t.srcs, true)
		rebuilt = true
	}
	for i, s := range t.srcs {
		if s.a == nil {
			continue
		}
		if err := nd.CopyTo(t.nodes[i].a, s.a); err != nil {
			return 0, false, fmt.Errorf("actorcritic: %s (%s): %w", key, s.key, err)
		}
	}
	return n, rebuilt, nil
}

// walk appends v and what it holds to t.srcs.
func (t *tree) walk(key string, v any, depth int) error {
	switch x := v.(type) {
	case *nd.Array:
		if x.Ndim() < 1 || x.DType() == nd.Object {
			return fmt.Errorf("actorcritic: %s: an array of shape %v and dtype %v; want numbers with a batch axis", key, x.Shape(), x.DType())
		}
		t.srcs = append(t.srcs, source{key: key, depth: depth, a: x})
		return nil
	case *batch.Batch:
		t.srcs = append(t.srcs, source{key: key, depth: depth})
		for k, sub := range x.Items() {
			if err := t.walk(k, sub, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("actorcritic: %s holds %T; want an array or a Batch of arrays", key, v)
}

// matches reports whether the nodes have the structure and shapes of srcs.
func (t *tree) matches() bool {
	if t.root == nil || len(t.nodes) != len(t.srcs) {
		return false
	}
	for i, s := range t.srcs {
		l := t.nodes[i]
		if l.src != s.key || l.depth != s.depth || (l.t == nil) != (s.a == nil) {
			return false
		}
		if s.a == nil {
			continue
		}
		if l.t.NDim() != s.a.Ndim() {
			return false
		}
		for d := range s.a.Ndim() {
			if l.t.Dim(d) != s.a.Dim(d) {
				return false
			}
		}
	}
	return true
}

// mirror rebuilds root and nodes with the structure of srcs (a walk's
// result), the top key renamed "obs". With alloc every array gets a tensor
// of its shape; otherwise the arrays' tensors are left to be set later.
func (t *tree) mirror(srcs []source, alloc bool) {
	t.root = &batch.Batch{}
	t.nodes = t.nodes[:0]
	parents := []*batch.Batch{t.root}
	for _, s := range srcs {
		parents = parents[:s.depth+1]
		l := node{src: s.key, key: s.key, depth: s.depth, parent: parents[s.depth]}
		if s.depth == 0 {
			l.key = batch.KeyObs
		}
		switch {
		case s.a == nil:
			sub := &batch.Batch{}
			l.parent.Set(l.key, sub) // a valid key and a Batch: no error
			parents = append(parents, sub)
		case alloc:
			l.t = tensor.New(s.a.Shape()...)
			l.a = l.t.ND()
			l.parent.Set(l.key, l.t)
		}
		t.nodes = append(t.nodes, l)
	}
}
