package buffer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// ringer is implemented by every buffer of the package: Update reads the
// other buffer's storage through it.
type ringer interface{ ring() *core }

func (c *core) ring() *core { return c }

// copyPlan pairs a column of the source buffer with its destination.
type copyPlan struct {
	src, dst *column
	path     string
	spec     colSpec
	next     bool // rows come from the source's Next (derived obs_next)
}

// update copies every transition of other, oldest first, into sub-buffer 0
// (Tianshou's update): it returns their new indices.
func (c *core) update(other Buffer) ([]int, error) {
	r, ok := other.(ringer)
	if !ok {
		return nil, errorf(ErrType, "", fmt.Sprintf("Update: %T is not a buffer of this package", other))
	}
	o := r.ring()
	o.restoreHER()
	c.restoreHER()
	// An empty source is a no-op before any other check, as in Tianshou:
	// an empty buffer may be updated from itself.
	if o.Len() == 0 {
		return []int{}, nil
	}
	if o == c {
		return nil, errorf(ErrValue, "", "Update: a buffer cannot be updated from itself")
	}
	// Plan and check the columns before changing anything.
	var plans []copyPlan
	for _, sc := range o.cols {
		if sc.top == batch.KeyObsNext && c.cfg.IgnoreObsNext {
			continue
		}
		plans = append(plans, copyPlan{src: sc, path: sc.path, spec: colSpec{dt: sc.arr.DType(), row: sc.row, leaf: sc.leaf}})
		if sc.top == batch.KeyObs && o.cfg.IgnoreObsNext && !c.cfg.IgnoreObsNext {
			p := plans[len(plans)-1]
			p.path, p.next = batch.KeyObsNext+strings.TrimPrefix(sc.path, batch.KeyObs), true
			plans = append(plans, p)
		}
	}
	for i := range plans {
		p := &plans[i]
		col, err := c.columnAt(p.path)
		if err != nil {
			return nil, err
		}
		if col != nil {
			if !nd.CanCast(p.spec.dt, col.arr.DType()) || !slices.Equal(col.row, p.spec.row) {
				return nil, errorf(ErrType, p.path, fmt.Sprintf("Update: cannot store %v rows of shape %v into %v rows of shape %v",
					p.spec.dt, p.spec.row, col.arr.DType(), col.row))
			}
			p.dst = col
		}
	}
	// Create what is missing.
	for i := range plans {
		if p := &plans[i]; p.dst == nil {
			p.dst = c.makeColumn(p.path, p.spec)
		}
	}
	c.copyReserved(&o.root, &c.root)
	c.bindSpecial()
	c.buildOuts()
	// Copy, oldest first.
	var from []int
	for i := range o.subs {
		from = o.subs[i].chronological(from)
	}
	var nextFrom []int
	to := make([]int, len(from))
	s := &c.subs[0]
	for k := range from {
		to[k] = s.advance()
	}
	written := make([]bool, len(c.cols))
	for _, p := range plans {
		rows := from
		if p.next {
			if nextFrom == nil {
				nextFrom = make([]int, len(from))
				for k, g := range from {
					nextFrom[k] = o.next(g)
				}
			}
			rows = nextFrom
		}
		written[p.dst.id] = true
		if p.src.arr.DType() == p.dst.arr.DType() {
			p.dst.st.copyFrom(p.src.st, to, rows, p.dst.rowLen)
			continue
		}
		for k, g := range rows {
			if err := p.dst.arr.SetRow(to[k], p.src.arr.Index(nd.I(g))); err != nil {
				panic(err) // the cast was checked above
			}
		}
	}
	for _, col := range c.cols {
		if !written[col.id] {
			col.st.zero(to, col.rowLen)
		}
	}
	if c.prio != nil {
		c.prio.init(to)
	}
	return to, nil
}

// columnAt returns the column stored at path, nil if path is free for a
// new column (missing, or a reserved key), or an error if a Batch or an
// array stands in the way.
func (c *core) columnAt(path string) (*column, error) {
	n := &c.root
	keys := splitPath(path)
	for i, k := range keys {
		ch := n.child(k)
		switch {
		case ch == nil:
			return nil, nil
		case i == len(keys)-1:
			if ch.col != nil {
				return ch.col, nil
			}
			if len(ch.kids) > 0 {
				return nil, errorf(ErrType, path, "stored as a Batch, not an array")
			}
			return nil, nil
		case ch.col != nil:
			return nil, errorf(ErrType, ch.path, "stored as an array, not a Batch")
		}
		n = ch
	}
	return nil, nil
}

// makeColumn creates the column at path, which columnAt found free,
// creating the nested Batches on the way.
func (c *core) makeColumn(path string, spec colSpec) *column {
	n := &c.root
	keys := splitPath(path)
	for _, k := range keys[:len(keys)-1] {
		ch := n.child(k)
		if ch == nil {
			ch = &node{key: k, path: join(n, k), b: &batch.Batch{}}
			n.kids = append(n.kids, ch)
			n.b.Set(k, ch.b)
		}
		n = ch
	}
	k := keys[len(keys)-1]
	ch := n.child(k)
	if ch == nil {
		ch = &node{key: k, path: join(n, k)}
		n.kids = append(n.kids, ch)
	}
	ch.col, ch.b = c.newColumn(ch.path, keys[0], spec), nil
	n.b.Set(k, ch.col.arr)
	return ch.col
}

// copyReserved gives the storage of c the reserved keys of o that c lacks.
func (c *core) copyReserved(o, n *node) {
	for _, ok := range o.kids {
		if ok.col != nil {
			continue
		}
		ch := n.child(ok.key)
		if ch == nil {
			if len(ok.kids) > 0 {
				continue // columns below were created by makeColumn
			}
			ch = &node{key: ok.key, path: join(n, ok.key), b: &batch.Batch{}}
			n.kids = append(n.kids, ch)
			n.b.Set(ok.key, ch.b)
			continue
		}
		if ch.col == nil {
			c.copyReserved(ok, ch)
		}
	}
}

// flushCache moves the episode held by cache sub-buffer cs into the main
// sub-buffer (Tianshou's main_buffer.update(cache)), empties the cache and
// points step at the episode's new place.
func (c *core) flushCache(step *Step, cs int) {
	s, m := &c.subs[cs], &c.subs[0]
	st := &c.adds
	st.from = s.chronological(st.from[:0])
	st.to = st.to[:0]
	for range st.from {
		st.to = append(st.to, m.advance())
	}
	for _, col := range c.cols {
		col.st.copyFrom(col.st, st.to, st.from, col.rowLen)
	}
	step.Index, step.EpisodeStart = st.to[len(st.to)-1], st.to[0]
	s.reset()
}
