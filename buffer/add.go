package buffer

import (
	"fmt"
	"slices"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// requiredKeys are the keys every transition given to Add must hold.
var requiredKeys = [...]string{batch.KeyObs, batch.KeyAct, batch.KeyRew, batch.KeyTerminated, batch.KeyTruncated}

type srcKind uint8

const (
	srcMissing srcKind = iota // the column gets zeros
	srcArray                  // an *nd.Array
	srcLeaf                   // a custom batch.Leaf
	srcScalar                 // a string, nil or other Go value, broadcast
)

// source is the value of one column in the transitions being added.
type source struct {
	kind srcKind
	arr  *nd.Array
	val  any
	// An array of the column's dtype, contiguous, whose rows have the
	// stored shape is copied row by row from its elements: input row j's
	// stored part starts at element base + j·stride.
	direct       bool
	base, stride int
}

// pending is a key of the input that the storage does not have yet: a new
// key under parent, or a reserved node that receives data.
type pending struct {
	parent *node // parent of a new key (nil when reserved is set)
	node   *node // the reserved node that receives val
	key    string
	top    string
	val    any
}

// addState is the scratch of Add, reused across calls.
type addState struct {
	srcs     []source // by column id
	pending  []pending
	ptrs     []int // global index of each row
	rowSub   []int // sub-buffer of each row
	stacked  bool  // the input has a leading row axis
	rows     int   // number of rows
	row0     int   // input row of ptrs[0]
	from, to []int // episode moved from a cache (Cached)
	last     addPlan
}

// add stores the transitions of data; ids gives the sub-buffer of each
// row (nil: one unstacked transition into sub-buffer 0, or for the vector
// forms one row per sub-buffer).
func (c *core) add(data *batch.Batch, ids []int, steps []Step, multi bool) ([]Step, error) {
	c.restoreHER()
	st := &c.adds
	st.stacked = ids != nil || multi
	if ids == nil {
		ids = c.zeroID
		if multi {
			ids = c.allIDs
		}
	}
	nsub := len(c.subs)
	if c.cached {
		nsub-- // ids name caches
	}
	for _, id := range ids {
		if uint(id) >= uint(nsub) {
			panic(errorf(ErrIndex, "", fmt.Sprintf("Add: buffer id %d out of range [0, %d)", id, nsub)))
		}
	}
	st.rows = len(ids)
	if st.rows == 0 {
		return steps, nil
	}
	if !st.last.reuse(data, st, c.schema) {
		if err := c.plan(data, st); err != nil {
			return steps, err
		}
	}
	st.rowSub = slices.Grow(st.rowSub[:0], st.rows)[:st.rows]
	c.stamp++
	repeated := false
	for j, id := range ids {
		if c.cached {
			id++
		}
		st.rowSub[j] = id
		repeated = repeated || c.subs[id].stamp == c.stamp
		c.subs[id].stamp = c.stamp
	}
	if repeated {
		// A sub-buffer gets several rows: store them one by one, so that
		// each row's episode bookkeeping (and a Cached buffer's move of a
		// finished episode) happens before the next row may overwrite it.
		all := slices.Clone(st.rowSub)
		for j := range all {
			st.rowSub, st.row0 = all[j:j+1], j
			steps = c.store(steps)
		}
		st.row0 = 0
		return steps, nil
	}
	st.row0 = 0
	return c.store(steps), nil
}

// store claims a position for each row of st.rowSub, writes the rows
// (input rows st.row0, st.row0+1, …) and does the episode bookkeeping.
// It cannot fail: the rows were checked.
func (c *core) store(steps []Step) []Step {
	st := &c.adds
	st.ptrs = slices.Grow(st.ptrs[:0], len(st.rowSub))[:len(st.rowSub)]
	for j, id := range st.rowSub {
		st.ptrs[j] = c.subs[id].advance()
	}
	for _, col := range c.cols {
		if col != c.doneCol {
			c.write(col, st.srcs[col.id], st)
		}
	}
	for _, p := range st.ptrs {
		c.done[p] = c.term[p] || c.trunc[p]
	}
	if c.prio != nil {
		c.prio.init(st.ptrs)
	}
	// Episode bookkeeping, in row order.
	for j, p := range st.ptrs {
		s := &c.subs[st.rowSub[j]]
		s.epRet += c.rew[p]
		s.epLen++
		step := Step{Index: p, EpisodeStart: s.off + s.epStart}
		if c.done[p] {
			step.EpisodeReturn, step.EpisodeLen = s.epRet, s.epLen
			s.epRet, s.epLen, s.epStart = 0, 0, s.next
			if c.cached {
				c.flushCache(&step, st.rowSub[j])
			}
		}
		steps = append(steps, step)
	}
	return steps
}

// plan checks data before anything is changed, records the source of each
// column in st.srcs and creates the keys the storage lacks; when data brings
// no new key, it keeps the plan for the next Add (see addPlan).
func (c *core) plan(data *batch.Batch, st *addState) error {
	for _, k := range requiredKeys {
		if !data.Has(k) {
			return errorf(ErrKey, k, "Add: missing required key")
		}
	}
	for i := range st.srcs {
		st.srcs[i] = source{}
	}
	st.pending = st.pending[:0]
	if err := c.match(data, &c.root, "", st); err != nil {
		return err
	}
	for i := range st.pending {
		if err := c.checkPending(&st.pending[i], st); err != nil {
			return err
		}
	}
	if len(st.pending) > 0 || c.doneCol == nil {
		c.commit(st)
		return nil
	}
	st.last.keep(data, st, c.schema)
	return nil
}

// match matches the keys of in (at storage node n) with the storage
// columns, records the source of each column in st.srcs, checks that each
// source can be stored, and collects keys the storage lacks.
func (c *core) match(in *batch.Batch, n *node, top string, st *addState) error {
	for key, v := range in.Items() {
		t := top
		if n == &c.root {
			if key == batch.KeyDone || key == batch.KeyObsNext && c.cfg.IgnoreObsNext {
				continue
			}
			if _, ok := v.(*batch.Batch); ok && (key == batch.KeyRew || key == batch.KeyTerminated || key == batch.KeyTruncated) {
				return errorf(ErrType, key, "Add: must be one value per transition, got "+describe(v))
			}
			t = key
		}
		k := n.child(key)
		if b, ok := v.(*batch.Batch); ok {
			switch {
			case k == nil:
				st.pending = append(st.pending, pending{parent: n, key: key, top: t, val: v})
			case k.col != nil:
				return errorf(ErrType, k.path, "Add: stored as an array, got a Batch")
			case b.NumKeys() == 0:
				// A reserved key in the input: the columns under k get zeros.
			case len(k.kids) == 0:
				st.pending = append(st.pending, pending{node: k, key: key, top: t, val: v})
			default:
				if err := c.match(b, k, t, st); err != nil {
					return err
				}
			}
			continue
		}
		switch {
		case k == nil:
			st.pending = append(st.pending, pending{parent: n, key: key, top: t, val: v})
		case k.col == nil && len(k.kids) == 0:
			st.pending = append(st.pending, pending{node: k, key: key, top: t, val: v})
		case k.col == nil:
			return errorf(ErrType, k.path, "Add: stored as a Batch, got "+describe(v))
		default:
			src, err := c.checkSource(k.col, v, st)
			if err != nil {
				return err
			}
			st.srcs[k.col.id] = src
		}
	}
	return nil
}

// frameAxes returns the number of leading axes of an input array that are
// not part of the stored row: the row axis of stacked input, and the frame
// axis when only the last frame of an observation is stored.
func (c *core) frameAxes(obs bool, st *addState) int {
	k := 0
	if st.stacked {
		k++
	}
	if obs && c.cfg.SaveOnlyLastObs {
		k++
	}
	return k
}

// checkLeading checks the leading axes of an input array (see frameAxes).
func (c *core) checkLeading(path string, a *nd.Array, obs bool, st *addState) error {
	k := c.frameAxes(obs, st)
	if a.Ndim() < k {
		return errorf(ErrType, path, fmt.Sprintf("Add: got %s, want at least %d axes (rows, frames)", describe(a), k))
	}
	if st.stacked && a.Dim(0) != st.rows {
		return errorf(ErrType, path, fmt.Sprintf("Add: got %s, want %d rows (one per buffer id)", describe(a), st.rows))
	}
	if obs && c.cfg.SaveOnlyLastObs && a.Dim(k-1) == 0 {
		return errorf(ErrType, path, fmt.Sprintf("Add: got %s with no frame to keep", describe(a)))
	}
	return nil
}

// checkSource checks that v can be stored into col and returns it as a
// source.
func (c *core) checkSource(col *column, v any, st *addState) (source, error) {
	switch x := v.(type) {
	case *nd.Array:
		if err := c.checkLeading(col.path, x, col.obs, st); err != nil {
			return source{}, err
		}
		dt := col.arr.DType()
		switch {
		case col.flag:
			if x.DType() == nd.Object {
				return source{}, errorf(ErrType, col.path, "Add: flags must be bools or numbers, got "+describe(x))
			}
		case !nd.CanCast(x.DType(), dt):
			return source{}, errorf(ErrType, col.path, fmt.Sprintf("Add: cannot store %s into a %v column", describe(x), dt))
		}
		skip := c.frameAxes(col.obs, st)
		if !broadcasts(x, skip, col.row) {
			return source{}, errorf(ErrType, col.path, fmt.Sprintf("Add: got %s, rows of shape %v are stored", describe(x), col.row))
		}
		src := source{kind: srcArray, arr: x}
		if x.DType() == dt && x.IsContiguous() && sameRow(x, skip, col.row) {
			src.direct, src.stride = true, col.rowLen
			if col.obs && c.cfg.SaveOnlyLastObs {
				frames := x.Dim(skip - 1)
				src.base, src.stride = (frames-1)*col.rowLen, frames*col.rowLen
			}
		}
		return src, nil
	case batch.Leaf:
		if col.arr.DType() != nd.Object || len(col.row) != 0 {
			return source{}, errorf(ErrType, col.path, fmt.Sprintf("Add: cannot store %s into a %v column", describe(x), col.arr.DType()))
		}
		if err := checkLeaf(col.path, x, st); err != nil {
			return source{}, err
		}
		return source{kind: srcLeaf, val: x}, nil
	default:
		if col.arr.DType() != nd.Object {
			return source{}, errorf(ErrType, col.path, fmt.Sprintf("Add: cannot store %s into a %v column", describe(x), col.arr.DType()))
		}
		return source{kind: srcScalar, val: x}, nil
	}
}

func checkLeaf(path string, l batch.Leaf, st *addState) error {
	bs := l.BatchShape()
	if st.stacked && (len(bs) != 1 || bs[0] != st.rows) {
		return errorf(ErrType, path, fmt.Sprintf("Add: custom leaf of batch shape %v, want [%d]", bs, st.rows))
	}
	if !st.stacked && len(bs) != 0 {
		return errorf(ErrType, path, fmt.Sprintf("Add: custom leaf of batch shape %v, want [] (one transition)", bs))
	}
	return nil
}

// broadcasts reports whether a's axes from skip on broadcast to row
// (numpy's rules, extra leading axes of length 1 allowed).
func broadcasts(a *nd.Array, skip int, row []int) bool {
	n := a.Ndim() - skip
	for i := 0; i < n; i++ {
		d := a.Dim(a.Ndim() - 1 - i)
		if i >= len(row) {
			if d != 1 {
				return false
			}
			continue
		}
		if r := row[len(row)-1-i]; d != r && d != 1 {
			return false
		}
	}
	return true
}

// sameRow reports whether a's axes from skip are exactly row.
func sameRow(a *nd.Array, skip int, row []int) bool {
	if a.Ndim()-skip != len(row) {
		return false
	}
	for i, r := range row {
		if a.Dim(skip+i) != r {
			return false
		}
	}
	return true
}

// colSpec describes a column to create.
type colSpec struct {
	dt   nd.DType
	row  []int
	leaf bool
}

// specFor returns the column a new key's value needs.
func (c *core) specFor(path, top string, v any, st *addState) (colSpec, error) {
	obs := top == batch.KeyObs || top == batch.KeyObsNext
	switch x := v.(type) {
	case *nd.Array:
		if err := c.checkLeading(path, x, obs, st); err != nil {
			return colSpec{}, err
		}
		row := x.Shape()[c.frameAxes(obs, st):]
		dt := x.DType()
		switch top {
		case batch.KeyRew:
			if dt == nd.Object || len(row) != 0 {
				return colSpec{}, errorf(ErrType, path, "Add: rew must be one number per transition, got "+describe(x))
			}
			dt = nd.Float64
		case batch.KeyTerminated, batch.KeyTruncated:
			if dt == nd.Object || len(row) != 0 {
				return colSpec{}, errorf(ErrType, path, "Add: flags must be one bool or number per transition, got "+describe(x))
			}
			dt = nd.Bool
		}
		return colSpec{dt: dt, row: row}, nil
	case batch.Leaf:
		if err := checkLeaf(path, x, st); err != nil {
			return colSpec{}, err
		}
		return colSpec{dt: nd.Object, leaf: true}, nil
	default:
		switch top {
		case batch.KeyRew, batch.KeyTerminated, batch.KeyTruncated:
			return colSpec{}, errorf(ErrType, path, "Add: must be a number per transition, got "+describe(x))
		}
		return colSpec{dt: nd.Object}, nil
	}
}

func join(parent *node, key string) string {
	if parent.path == "" {
		return key
	}
	return parent.path + batch.Sep + key
}

// checkPending checks the values of a key the storage lacks.
func (c *core) checkPending(p *pending, st *addState) error {
	path := p.key
	if p.node != nil {
		path = p.node.path
	} else {
		path = join(p.parent, p.key)
	}
	return c.checkValue(path, p.top, p.val, st)
}

func (c *core) checkValue(path, top string, v any, st *addState) error {
	if b, ok := v.(*batch.Batch); ok {
		for key, x := range b.Items() {
			if err := c.checkValue(path+batch.Sep+key, top, x, st); err != nil {
				return err
			}
		}
		return nil
	}
	_, err := c.specFor(path, top, v, st)
	return err
}

// commit creates the pending keys and the done column, then rebuilds the
// sampling plan. It cannot fail: checkPending has run.
func (c *core) commit(st *addState) {
	for i := range st.pending {
		p := &st.pending[i]
		if p.node != nil {
			c.fill(p.node, p.top, p.val, st)
			continue
		}
		k := &node{key: p.key, path: join(p.parent, p.key)}
		p.parent.kids = append(p.parent.kids, k)
		c.fill(k, p.top, p.val, st)
		p.parent.b.Set(p.key, k.value())
	}
	if c.doneCol == nil {
		k := &node{key: batch.KeyDone, path: batch.KeyDone}
		c.root.kids = append(c.root.kids, k)
		k.col = c.newColumn(k.path, batch.KeyDone, colSpec{dt: nd.Bool})
		c.root.b.Set(batch.KeyDone, k.col.arr)
	}
	c.bindSpecial()
	c.buildOuts()
}

// value returns what the storage Batch holds for n.
func (n *node) value() any {
	if n.col != nil {
		return n.col.arr
	}
	return n.b
}

// fill gives node n (new, or reserved) the storage for value v and records
// the sources of the columns it creates.
func (c *core) fill(n *node, top string, v any, st *addState) {
	b, ok := v.(*batch.Batch)
	if !ok {
		spec, err := c.specFor(n.path, top, v, st)
		if err != nil {
			panic(err) // checked by checkPending
		}
		n.col = c.newColumn(n.path, top, spec)
		src, err := c.checkSource(n.col, v, st)
		if err != nil {
			panic(err)
		}
		st.srcs[n.col.id] = src
		if n.b != nil {
			// A reserved key becomes a column.
			parent := c.parentOf(n)
			parent.b.Set(n.key, n.col.arr)
			n.b = nil
		}
		return
	}
	if n.b == nil {
		n.b = &batch.Batch{}
	}
	for key, x := range b.Items() {
		k := &node{key: key, path: n.path + batch.Sep + key}
		n.kids = append(n.kids, k)
		c.fill(k, top, x, st)
		n.b.Set(key, k.value())
	}
}

// parentOf returns the parent of node n.
func (c *core) parentOf(n *node) *node {
	var find func(p *node) *node
	find = func(p *node) *node {
		for _, k := range p.kids {
			if k == n {
				return p
			}
			if r := find(k); r != nil {
				return r
			}
		}
		return nil
	}
	return find(&c.root)
}

func (c *core) newColumn(path, top string, spec colSpec) *column {
	shape := append([]int{c.total}, spec.row...)
	arr := nd.Zeros(spec.dt, shape...)
	col := &column{
		id: len(c.cols), path: path, top: top, arr: arr, row: spec.row,
		rowLen: 1, st: newStore(arr), leaf: spec.leaf,
		obs:  top == batch.KeyObs || top == batch.KeyObsNext,
		flag: path == batch.KeyTerminated || path == batch.KeyTruncated,
	}
	for _, d := range spec.row {
		col.rowLen *= d
	}
	c.cols = append(c.cols, col)
	c.adds.srcs = append(c.adds.srcs, source{})
	return col
}

// bindSpecial finds the columns Add and the samplers read directly.
func (c *core) bindSpecial() {
	get := func(key string) *column {
		if k := c.root.child(key); k != nil {
			return k.col
		}
		return nil
	}
	c.rewCol, c.termCol, c.truncCol, c.doneCol = get(batch.KeyRew), get(batch.KeyTerminated), get(batch.KeyTruncated), get(batch.KeyDone)
	c.rew = c.rewCol.st.(typed[float64]).s
	c.term = c.termCol.st.(typed[bool]).s
	c.trunc = c.truncCol.st.(typed[bool]).s
	c.done = c.doneCol.st.(typed[bool]).s
}

// write stores the rows of one column from its source: input row
// st.row0+j goes to st.ptrs[j]. The source was checked, so nd cannot
// refuse the values.
func (c *core) write(col *column, src source, st *addState) {
	switch src.kind {
	case srcMissing:
		col.st.zero(st.ptrs, col.rowLen)
	case srcLeaf:
		el := col.st.(typed[any]).s
		l := src.val.(batch.Leaf)
		for j, p := range st.ptrs {
			if st.stacked {
				el[p] = l.Index(nd.I(st.row0 + j))
			} else {
				el[p] = l
			}
		}
	case srcScalar:
		el := col.st.(typed[any]).s
		for _, p := range st.ptrs {
			for e := p * col.rowLen; e < (p+1)*col.rowLen; e++ {
				el[e] = src.val
			}
		}
	case srcArray:
		if src.direct {
			col.st.put(st.ptrs, col.rowLen, src.arr, src.base+st.row0*src.stride, src.stride)
			return
		}
		a := src.arr
		for j, p := range st.ptrs {
			v := a
			if st.stacked {
				v = v.Index(nd.I(st.row0 + j))
			}
			if col.obs && c.cfg.SaveOnlyLastObs {
				v = v.Index(nd.I(-1))
			}
			if col.flag && v.DType() != nd.Bool {
				var err error
				if v, err = nd.Ne(v, 0); err != nil {
					panic(&Error{Kind: ErrType, Path: col.path, Msg: "Add: cannot read flags", Err: err})
				}
			}
			if err := col.arr.SetRow(p, v); err != nil {
				panic(&Error{Kind: ErrType, Path: col.path, Msg: "Add: cannot store " + describe(a), Err: err})
			}
		}
	}
}

// describe names a value in error messages.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case *nd.Array:
		return fmt.Sprintf("a %v array of shape %v", x.DType(), x.Shape())
	case *batch.Batch:
		if x.NumKeys() == 0 {
			return "a reserved key (an empty Batch)"
		}
		return "a Batch"
	case string:
		return fmt.Sprintf("the string %q", x)
	case batch.Leaf:
		return fmt.Sprintf("a custom leaf of type %T", x)
	}
	return fmt.Sprintf("%v (%T)", v, v)
}
