package buffer

import (
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

type outMode uint8

const (
	outPlain     outMode = iota // rows = indices
	outStack                    // [n, StackNum, …]: frames ending at indices
	outNext                     // rows = Next(indices): derived obs_next
	outNextStack                // frames ending at Next(indices)
)

// outCol is one array of a sampled batch.
type outCol struct {
	path string
	col  *column
	mode outMode
}

// takeState is the scratch of sampling, reused across calls.
type takeState struct {
	stack, next, nextStack []int
	avail                  []int // indices whose frame stack is whole
	xs                     []float64
	leaves                 []batch.Leaf
	// template is one transition laid out as TakeTo fills a Batch (nil
	// until Take or Sample needs it, and again when the layout changes);
	// zeros are row indices 0 into it.
	template *batch.Batch
	zeros    []int
}

// buildOuts lays out the sampled batch: obs, act, rew, terminated,
// truncated, done, obs_next (stored, or derived from obs), info, policy,
// then the other keys in storage order.
func (c *core) buildOuts() {
	c.outs, c.outRs = c.outs[:0], c.outRs[:0]
	c.takes.template = nil
	c.schema++
	stacked := c.cfg.stack() > 1
	var walk func(n *node, path string, mode outMode)
	walk = func(n *node, path string, mode outMode) {
		switch {
		case n.col != nil:
			m := mode
			if n.col.obs && stacked && !n.col.leaf {
				switch mode {
				case outPlain:
					m = outStack
				case outNext:
					m = outNextStack
				}
			}
			c.outs = append(c.outs, outCol{path: path, col: n.col, mode: m})
		case len(n.kids) == 0:
			c.outRs = append(c.outRs, path)
		default:
			for _, k := range n.kids {
				walk(k, path+batch.Sep+k.key, mode)
			}
		}
	}
	first := []string{batch.KeyObs, batch.KeyAct, batch.KeyRew, batch.KeyTerminated, batch.KeyTruncated, batch.KeyDone, batch.KeyObsNext, batch.KeyInfo, batch.KeyPolicy}
	for _, key := range first {
		if k := c.root.child(key); k != nil {
			walk(k, key, outPlain)
		} else if key == batch.KeyObsNext && c.cfg.IgnoreObsNext {
			if o := c.root.child(batch.KeyObs); o != nil {
				walk(o, batch.KeyObsNext, outNext)
			}
		}
	}
	for _, k := range c.root.kids {
		if !slices.Contains(first, k.key) {
			walk(k, k.key, outPlain)
		}
	}
}

// stackTo fills rows with the frame rows of each base index: rows[i·S+S-1]
// = base[i] and rows[i·S+k-1] = prev(rows[i·S+k]).
func (c *core) stackTo(rows, base []int, s int) []int {
	rows = slices.Grow(rows[:0], len(base)*s)[:len(base)*s]
	for i, g := range base {
		r := rows[i*s : (i+1)*s]
		r[s-1] = g
		for k := s - 2; k >= 0; k-- {
			r[k] = c.prev(r[k+1])
		}
	}
	return rows
}

// TakeTo stores buf[indices] into dst, the sampled-batch form of the
// transitions at those global indices (Tianshou's buf[indices]): obs, act,
// rew, terminated, truncated, done, obs_next (derived from the next step's
// obs when it is not stored), the other stored keys, and for a prioritized
// buffer the importance weights under "weight". With StackNum > 1, obs and
// obs_next have shape [n, StackNum, …]: the frames ending at each index,
// padded with the episode's first frame.
//
// dst is reused: an array of dst with the right dtype and shape is
// overwritten in place; a missing or mismatched one is replaced by a new
// array (so a zero Batch grows to fit on the first call, and later calls
// with the same n do not allocate). Keys of dst that the buffer does not
// write are left as they are. Custom leaves are restacked with their Stack
// method, which allocates.
//
// TakeTo returns an error wrapping ErrEmpty if nothing was ever added, and
// dst's error if a path of dst cannot hold an array. It panics with
// ErrIndex if an index is outside [0, Cap()).
func (c *core) TakeTo(dst *batch.Batch, indices []int) error {
	for _, g := range indices {
		c.checkIndex(g, "TakeTo")
	}
	if c.doneCol == nil {
		return errorf(ErrEmpty, "", "TakeTo: nothing was ever added")
	}
	ts := &c.takes
	s := c.cfg.stack()
	n := len(indices)
	var haveStack, haveNext, haveNextStack bool
	for i := range c.outs {
		o := &c.outs[i]
		rows, fs := indices, 0
		switch o.mode {
		case outStack:
			if !haveStack {
				ts.stack, haveStack = c.stackTo(ts.stack, indices, s), true
			}
			rows, fs = ts.stack, s
		case outNext, outNextStack:
			if !haveNext {
				ts.next = slices.Grow(ts.next[:0], n)[:n]
				for k, g := range indices {
					ts.next[k] = c.next(g)
				}
				haveNext = true
			}
			rows = ts.next
			if o.mode == outNextStack {
				if !haveNextStack {
					ts.nextStack, haveNextStack = c.stackTo(ts.nextStack, ts.next, s), true
				}
				rows, fs = ts.nextStack, s
			}
		}
		if o.col.leaf && o.mode == outPlain && n > 0 {
			ok, err := c.takeLeaves(dst, o, rows)
			if err != nil {
				return err
			}
			if ok {
				continue
			}
		}
		a, err := ensure(dst, o.path, o.col.arr.DType(), n, fs, o.col.row)
		if err != nil {
			return err
		}
		o.col.st.gather(a, rows, o.col.rowLen)
	}
	for _, p := range c.outRs {
		if v, ok := dst.Get(p); ok {
			if b, ok := v.(*batch.Batch); ok && b.NumKeys() == 0 {
				continue
			}
		}
		if err := dst.Set(p, &batch.Batch{}); err != nil {
			return &Error{Kind: ErrType, Path: p, Msg: "TakeTo: cannot store into the destination", Err: err}
		}
	}
	if c.prio != nil {
		w, err := ensure(dst, batch.KeyWeight, nd.Float64, n, 0, nil)
		if err != nil {
			return err
		}
		c.prio.weights(nd.Data[float64](w), indices)
	}
	return nil
}

// takeLeaves stores the custom leaves of rows, restacked into one leaf, at
// o.path; it reports false when the rows do not all hold leaves of one
// kind (the caller then stores an Object array).
func (c *core) takeLeaves(dst *batch.Batch, o *outCol, rows []int) (bool, error) {
	el := o.col.st.(typed[any]).s
	ts := &c.takes
	ts.leaves = ts.leaves[:0]
	for _, r := range rows {
		l, ok := el[r].(batch.Leaf)
		if !ok {
			return false, nil
		}
		ts.leaves = append(ts.leaves, l)
	}
	l, err := ts.leaves[0].Stack(0, ts.leaves[1:]...)
	clear(ts.leaves)
	if err != nil {
		return false, nil
	}
	if err := dst.Set(o.path, l); err != nil {
		return true, &Error{Kind: ErrType, Path: o.path, Msg: "TakeTo: cannot store into the destination", Err: err}
	}
	return true, nil
}

// ensure returns the array of dst at path if it has dtype dt and shape
// [n, s, row…] (without s when s == 0) and is contiguous, and otherwise
// stores a new zero array there.
func ensure(dst *batch.Batch, path string, dt nd.DType, n, s int, row []int) (*nd.Array, error) {
	if v, ok := dst.Get(path); ok {
		if a, ok := v.(*nd.Array); ok && fits(a, dt, n, s, row) {
			return a, nil
		}
	}
	shape := make([]int, 0, 2+len(row))
	shape = append(shape, n)
	if s > 0 {
		shape = append(shape, s)
	}
	a := nd.Zeros(dt, append(shape, row...)...)
	if err := dst.Set(path, a); err != nil {
		return nil, &Error{Kind: ErrType, Path: path, Msg: "TakeTo: cannot store into the destination", Err: err}
	}
	return a, nil
}

func fits(a *nd.Array, dt nd.DType, n, s int, row []int) bool {
	lead := 1
	if s > 0 {
		lead = 2
	}
	if a.DType() != dt || a.Ndim() != lead+len(row) || a.Dim(0) != n || s > 0 && a.Dim(1) != s {
		return false
	}
	for i, r := range row {
		if a.Dim(lead+i) != r {
			return false
		}
	}
	return a.IsContiguous()
}

// Take returns buf[indices] as a new Batch, laid out and filled as TakeTo
// fills one. The arrays of one result share their allocations (batch.Take
// makes them), so that keeping one keeps the others' headers and small
// buffers. Take returns an error wrapping ErrEmpty if nothing was ever
// added, and panics with ErrIndex if an index is outside [0, Cap()).
func (c *core) Take(indices []int) (*batch.Batch, error) {
	for _, g := range indices {
		c.checkIndex(g, "Take")
	}
	if c.doneCol == nil {
		return nil, errorf(ErrEmpty, "", "Take: nothing was ever added")
	}
	dst := c.fresh(len(indices))
	if err := c.TakeTo(dst, indices); err != nil {
		return nil, err
	}
	return dst, nil
}

// fresh returns a new Batch laid out as TakeTo fills it, with n rows: n
// copies of a one-transition template, made by batch.Take, which builds
// the whole tree from a few allocations (TakeTo into an empty Batch makes
// two per array and one per key it sets). Something must have been added.
func (c *core) fresh(n int) *batch.Batch {
	ts := &c.takes
	if ts.template == nil {
		ts.template = &batch.Batch{}
		if err := c.TakeTo(ts.template, c.zeroID); err != nil {
			panic(err) // an empty Batch takes every key
		}
	}
	if len(ts.zeros) < n {
		ts.zeros = make([]int, n)
	}
	return batch.Take(ts.template, ts.zeros[:n])
}

// Get returns the values stored under key (a key or key path) at the given
// indices, frame-stacked as Tianshou's buf.get(indices, key) does: with
// StackNum > 1 every array has shape [n, StackNum, …], the frames ending at
// each index padded with the episode's first frame; otherwise [n, …]. The
// result is an *nd.Array for an array key and a *batch.Batch for a nested
// key, newly allocated. Get returns an error wrapping ErrKey if the buffer
// stores nothing under key, and panics with ErrIndex if an index is outside
// [0, Cap()).
func (c *core) Get(indices []int, key string) (any, error) {
	for _, g := range indices {
		c.checkIndex(g, "Get")
	}
	n := &c.root
	for _, k := range splitPath(key) {
		if n = n.child(k); n == nil {
			return nil, errorf(ErrKey, key, "Get: not stored")
		}
	}
	s := c.cfg.stack()
	var rows []int
	fs := 0
	if s > 1 {
		rows, fs = c.stackTo(nil, indices, s), s
	} else {
		rows = indices
	}
	var get func(n *node) any
	get = func(n *node) any {
		if n.col != nil {
			a, _ := ensure(&batch.Batch{}, "x", n.col.arr.DType(), len(indices), fs, n.col.row)
			n.col.st.gather(a, rows, n.col.rowLen)
			return a
		}
		b := &batch.Batch{}
		for _, k := range n.kids {
			b.Set(k.key, get(k))
		}
		return b
	}
	return get(n), nil
}

func splitPath(p string) []string {
	var out []string
	for {
		i := indexSep(p)
		if i < 0 {
			return append(out, p)
		}
		out = append(out, p[:i])
		p = p[i+1:]
	}
}

func indexSep(p string) int {
	for i := 0; i < len(p); i++ {
		if p[i] == batch.Sep[0] {
			return i
		}
	}
	return -1
}

// SampleIndices returns n global indices drawn with replacement from the
// stored transitions: uniformly (prioritized buffers: with probability
// proportional to priority^α), restricted with SampleAvail and StackNum > 1
// to indices whose whole frame stack lies in one episode. With n == 0 it
// returns every such index in chronological order, sub-buffer after
// sub-buffer (Tianshou's sample_indices(0); buf[:] is
// Take(SampleIndices(0, nil))), and rng may be nil. A negative n, or an
// empty buffer, gives an empty slice. A hindsight buffer relabels the
// episodes of the drawn indices (n > 0; see HER) until its next Add,
// Update, Reset, Save or sampling.
//
// SampleIndices panics if n > 0 and rng is nil.
func (c *core) SampleIndices(n int, rng *rand.Rand) []int {
	c.restoreHER()
	if n < 0 || c.Len() == 0 {
		return []int{}
	}
	if n == 0 {
		return slices.Clone(c.available())
	}
	if rng == nil {
		panic(errorf(ErrValue, "", "SampleIndices: nil random source"))
	}
	out := make([]int, n)
	if !c.draw(out, rng) {
		return []int{}
	}
	c.relabel(out, rng)
	return out
}

// available returns the indices sampling may draw (all stored ones unless
// SampleAvail restricts them), in chronological order, in scratch of the
// buffer.
func (c *core) available() []int {
	ts := &c.takes
	dst := ts.avail[:0]
	for i := range c.subs {
		dst = c.subs[i].chronological(dst)
	}
	if s := c.cfg.stack(); s > 1 && c.cfg.SampleAvail {
		keep := dst[:0]
		for _, g := range dst {
			p := g
			for k := 0; k < s-2; k++ {
				p = c.prev(p)
			}
			if p != c.prev(p) {
				keep = append(keep, g)
			}
		}
		dst = keep
	}
	ts.avail = dst[:0]
	return dst
}

// draw fills idx with indices drawn with replacement. It reports false,
// leaving idx unchanged, when there is nothing to draw from.
func (c *core) draw(idx []int, rng *rand.Rand) bool {
	total := c.Len()
	switch {
	case total == 0:
		return false
	case c.prio != nil:
		c.prio.draw(idx, rng)
	case c.cfg.stack() > 1 && c.cfg.SampleAvail:
		avail := c.available()
		if len(avail) == 0 {
			return false
		}
		for k := range idx {
			idx[k] = avail[rng.IntN(len(avail))]
		}
	case len(c.subs) == 1:
		s := &c.subs[0]
		for k := range idx {
			idx[k] = s.off + rng.IntN(s.n)
		}
	default:
		for k := range idx {
			u := rng.IntN(total)
			for i := range c.subs {
				if u < c.subs[i].n {
					idx[k] = c.subs[i].off + u
					break
				}
				u -= c.subs[i].n
			}
		}
	}
	return true
}

// SampleTo draws len(indices) transitions as SampleIndices does, stores
// their global indices in indices and the transitions in dst as TakeTo
// does. With dst and indices reused from the previous call it does not
// allocate (for buffers without custom leaves and hindsight relabelling).
//
// SampleTo returns an error wrapping ErrEmpty if the buffer holds no
// transition and ErrValue if rng is nil.
func (c *core) SampleTo(dst *batch.Batch, indices []int, rng *rand.Rand) error {
	if rng == nil {
		return errorf(ErrValue, "", "SampleTo: nil random source")
	}
	if !c.draw(indices, rng) {
		return errorf(ErrEmpty, "", "SampleTo: the buffer holds no transition to sample")
	}
	c.relabel(indices, rng)
	return c.TakeTo(dst, indices)
}

// Sample returns n transitions drawn as SampleIndices draws them (n == 0:
// all, in time order), in a new Batch as Take makes it, and their indices.
// It returns an error wrapping ErrEmpty if the buffer holds no transition
// and ErrValue if n > 0 and rng is nil.
func (c *core) Sample(n int, rng *rand.Rand) (*batch.Batch, []int, error) {
	if c.Len() == 0 {
		return nil, nil, errorf(ErrEmpty, "", "Sample: the buffer holds no transition")
	}
	if n > 0 && rng == nil {
		return nil, nil, errorf(ErrValue, "", "Sample: nil random source")
	}
	idx := c.SampleIndices(n, rng)
	b, err := c.Take(idx)
	if err != nil {
		return nil, nil, err
	}
	return b, idx, nil
}
