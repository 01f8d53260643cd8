package buffer

import (
	"fmt"
	"io"
	"math"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// bufKind identifies a buffer type in files.
type bufKind uint8

const (
	kindReplay bufKind = iota + 1
	kindVector
	kindCached
	kindPrioritized
	kindPrioritizedVector
	kindHER
	kindHERVector
	kindMemory
	kindPrioritizedMemory
)

// Save writes the buffer to w in the package's file format: its
// configuration, ring positions and episode statistics, storage (every
// row, so the file has Cap() rows of each array), and priorities or
// hindsight settings; Load reads it back. A hindsight buffer's reward
// function is not saved. Save streams the storage without copying it.
// It returns an error wrapping ErrFormat if a value cannot be saved (a
// custom leaf, an Object element of another type than nil, bools,
// numbers, strings, []any and map[string]any) or w fails.
func (c *core) Save(w io.Writer) error {
	c.restoreHER()
	if c.kind == 0 {
		return errorf(ErrFormat, "", "Save: buffer was not made by a constructor of this package")
	}
	fw, err := newFileWriter(w)
	if err != nil {
		return err
	}
	if err := fw.section(tagMeta, c.encodeMeta); err != nil {
		return err
	}
	if err := fw.section(tagSchema, func(e *encoder) error { c.encodeNode(e, &c.root); return nil }); err != nil {
		return err
	}
	var cols []*column
	c.walkColumns(&c.root, func(col *column) { cols = append(cols, col) })
	for _, col := range cols {
		if col.leaf {
			el := col.st.elems().([]any)
			for _, v := range el {
				if v != nil {
					return errorf(ErrFormat, col.path, "Save: custom leaves cannot be saved")
				}
			}
		}
		err := fw.section(tagColumn, func(e *encoder) error {
			return e.elems(col.st, col.arr.DType(), 0, c.total*col.rowLen, col.path)
		})
		if err != nil {
			return err
		}
	}
	if c.prio != nil {
		err := fw.section(tagPrio, func(e *encoder) error {
			for i := range c.total {
				e.f64(c.prio.tree.Get(i))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return fw.section(tagEnd, func(*encoder) error { return nil })
}

func (c *core) walkColumns(n *node, f func(*column)) {
	if n.col != nil {
		f(n.col)
		return
	}
	for _, k := range n.kids {
		c.walkColumns(k, f)
	}
}

func (c *core) encodeMeta(e *encoder) error {
	e.u8(uint8(c.kind))
	e.u64(uint64(c.cfg.Size))
	e.u64(uint64(c.cfg.StackNum))
	e.flag(c.cfg.IgnoreObsNext)
	e.flag(c.cfg.SaveOnlyLastObs)
	e.flag(c.cfg.SampleAvail)
	e.u64(uint64(len(c.subs)))
	for i := range c.subs {
		s := &c.subs[i]
		e.u64(uint64(s.size))
		e.u64(uint64(s.n))
		e.u64(uint64(s.next))
		e.u64(uint64(s.last))
		e.f64(s.epRet)
		e.u64(uint64(s.epLen))
		e.u64(uint64(s.epStart))
	}
	if p := c.prio; p != nil {
		e.f64(p.alpha)
		e.f64(p.beta)
		e.flag(p.norm)
		e.f64(p.maxPrio)
	}
	if h := c.her; h != nil {
		e.u64(uint64(h.horizon))
		e.f64(h.futureK)
	}
	return nil
}

// Node kinds in the schema section.
const (
	nodeReserved = 0
	nodeBatch    = 1
	nodeColumn   = 2
)

func (c *core) encodeNode(e *encoder, n *node) {
	e.u64(uint64(len(n.kids)))
	for _, k := range n.kids {
		e.str(k.key)
		switch {
		case k.col != nil:
			e.u8(nodeColumn)
			e.u8(uint8(k.col.arr.DType()))
			e.flag(k.col.leaf)
			e.u8(uint8(len(k.col.row)))
			for _, d := range k.col.row {
				e.u64(uint64(d))
			}
		case len(k.kids) == 0:
			e.u8(nodeReserved)
		default:
			e.u8(nodeBatch)
			c.encodeNode(e, k)
		}
	}
}

// Load reads a buffer that Save wrote from r, which holds size bytes (the
// file's size), and returns it as the type that was saved (*Replay,
// *Vector, *Cached, *Prioritized, *PrioritizedVector, *HER or *HERVector;
// a hindsight buffer needs SetRewardFunc before sampling). It never
// executes anything from the file and never allocates more than the bytes
// of the file justify: every length is checked against the input left
// before anything is allocated for it.
//
// Load returns an error wrapping ErrFormat, naming what is wrong, for a
// truncated or corrupt file (a checksum mismatch, a length beyond the
// input, inconsistent ring positions, a missing section), an unknown
// version, or a Memory file (see LoadMemory).
func Load(r io.Reader, size int64) (Buffer, error) {
	fr, err := newFileReader(r, size)
	if err != nil {
		return nil, err
	}
	d, err := fr.section(tagMeta, "meta")
	if err != nil {
		return nil, err
	}
	m := decodeMeta(d)
	if err := d.end(); err != nil {
		return nil, err
	}
	if m.kind == kindMemory || m.kind == kindPrioritizedMemory {
		return nil, errorf(ErrFormat, "", "the file holds a Memory: use LoadMemory")
	}
	d, err = fr.section(tagSchema, "schema")
	if err != nil {
		return nil, err
	}
	root := decodeNodes(d, "", 0)
	if err := d.end(); err != nil {
		return nil, err
	}
	// The storage and priorities are allocated only if the input holds
	// their bytes.
	need := uint64(0)
	total := uint64(0)
	for _, s := range m.sizes {
		total += uint64(s)
	}
	var specs []*schemaNode
	root.columns(&specs)
	for _, s := range specs {
		per := uint64(1)
		if s.dt != nd.Object {
			per = uint64(s.dt.Size())
		}
		rowLen, ok := s.rowLen()
		if !ok || rowLen != 0 && total > math.MaxInt64/per/rowLen {
			return nil, errorf(ErrFormat, s.path, "row too large")
		}
		need += total * rowLen * per
		if need > uint64(fr.remain) {
			return nil, errorf(ErrFormat, s.path, fmt.Sprintf("the file has %d bytes left, its arrays need at least %d", fr.remain, need))
		}
	}
	if m.prio != nil {
		if need += total * 8; need > uint64(fr.remain) {
			return nil, errorf(ErrFormat, "", fmt.Sprintf("the file has %d bytes left, its arrays and priorities need at least %d", fr.remain, need))
		}
	}
	c, err := m.build()
	if err != nil {
		return nil, err
	}
	if err := c.buildSchema(root); err != nil {
		return nil, err
	}
	var cols []*column
	c.walkColumns(&c.root, func(col *column) { cols = append(cols, col) })
	for _, col := range cols {
		d, err := fr.section(tagColumn, "column "+col.path)
		if err != nil {
			return nil, err
		}
		n := c.total * col.rowLen
		if col.arr.DType() != nd.Object && d.left != uint64(n*col.arr.DType().Size()) {
			return nil, errorf(ErrFormat, col.path, fmt.Sprintf("column section of %d bytes, want %d", d.left, n*col.arr.DType().Size()))
		}
		d.elems(col.st, col.arr.DType(), 0, n, col.path)
		if err := d.end(); err != nil {
			return nil, err
		}
	}
	if c.prio != nil {
		d, err := fr.section(tagPrio, "priorities")
		if err != nil {
			return nil, err
		}
		if d.left != uint64(c.total)*8 {
			return nil, errorf(ErrFormat, "", fmt.Sprintf("priority section of %d bytes, want %d", d.left, c.total*8))
		}
		for i := 0; i < c.total && d.err == nil; i++ {
			v := d.f64()
			if v == 0 {
				continue
			}
			if err := c.prio.tree.Set(i, v); err != nil && d.err == nil {
				d.err = &Error{Kind: ErrFormat, Msg: fmt.Sprintf("priority of index %d", i), Err: err}
			}
		}
		if err := d.end(); err != nil {
			return nil, err
		}
	}
	d, err = fr.section(tagEnd, "end")
	if err != nil {
		return nil, err
	}
	if err := d.end(); err != nil {
		return nil, err
	}
	if fr.remain != 0 {
		return nil, errorf(ErrFormat, "", fmt.Sprintf("%d bytes after the end section", fr.remain))
	}
	return c.wrap(), nil
}

// fileMeta is the decoded meta section of a ring buffer.
type fileMeta struct {
	kind  bufKind
	cfg   Config
	sizes []int
	subs  []sub
	prio  *PriorityConfig
	max   float64
	her   *HERConfig
	err   error
}

func decodeMeta(d *decoder) *fileMeta {
	m := &fileMeta{kind: bufKind(d.u8())}
	if m.kind < kindReplay || m.kind > kindPrioritizedMemory {
		d.fail(fmt.Sprintf("unknown buffer kind %d", m.kind))
		return m
	}
	if m.kind >= kindMemory {
		return m
	}
	m.cfg.Size = d.int(maxSize, "size")
	m.cfg.StackNum = d.int(maxStack, "stack_num")
	m.cfg.IgnoreObsNext, m.cfg.SaveOnlyLastObs, m.cfg.SampleAvail = d.flag(), d.flag(), d.flag()
	nsub := d.int(d.left/56, "sub-buffer count")
	if nsub == 0 {
		d.fail("no sub-buffer")
	}
	for range nsub {
		if d.err != nil {
			return m
		}
		s := sub{size: d.int(maxSize, "sub-buffer size")}
		s.n, s.next, s.last = d.int(maxSize, "length"), d.int(maxSize, "position"), d.int(2*maxSize, "last index")
		s.epRet, s.epLen, s.epStart = d.f64(), d.int(math.MaxInt64, "episode length"), d.int(maxSize, "episode start")
		m.subs = append(m.subs, s)
	}
	switch m.kind {
	case kindPrioritized, kindPrioritizedVector:
		m.prio = &PriorityConfig{Alpha: d.f64(), Beta: d.f64(), WeightNorm: d.flag()}
		m.max = d.f64()
	case kindHER, kindHERVector:
		m.her = &HERConfig{Horizon: d.int(maxSize, "horizon"), FutureK: d.f64()}
	}
	if d.err == nil {
		if err := m.check(); err != nil {
			d.fail(err.Error())
		}
	}
	return m
}

// check validates the decoded settings and ring states, so that no
// operation on the loaded buffer can index out of range, and sets the
// sub-buffer offsets and sizes.
func (m *fileMeta) check() error {
	if len(m.subs) == 0 {
		return fmt.Errorf("no sub-buffer")
	}
	off := 0
	m.sizes = m.sizes[:0]
	for i := range m.subs {
		s := &m.subs[i]
		s.off = off
		if s.size <= 0 || s.size > maxSize || s.n < 0 || s.n > s.size || s.next < 0 || s.next >= s.size ||
			s.n < s.size && s.next != s.n || s.last < s.off || s.last >= s.off+s.size ||
			s.epStart < 0 || s.epStart >= s.size || s.epLen < 0 || math.IsNaN(s.epRet) {
			return fmt.Errorf("inconsistent ring state of sub-buffer %d", i)
		}
		if off += s.size; off > maxSize {
			return fmt.Errorf("capacity too large")
		}
		m.sizes = append(m.sizes, s.size)
	}
	if m.prio != nil && (m.prio.Validate() != nil || m.prio.Alpha == 0 || !(m.max >= 1) || math.IsInf(m.max, 0)) {
		return fmt.Errorf("invalid priority settings")
	}
	if m.her != nil && m.her.Validate() != nil {
		return fmt.Errorf("invalid hindsight settings")
	}
	single := m.kind == kindReplay || m.kind == kindPrioritized || m.kind == kindHER
	if single && (len(m.subs) != 1 || m.sizes[0] != m.cfg.Size) || m.kind == kindCached && len(m.subs) < 2 || m.cfg.Validate() != nil {
		return fmt.Errorf("configuration does not match the sub-buffers")
	}
	return nil
}

// build makes the empty buffer the meta section describes.
func (m *fileMeta) build() (*core, error) {
	c, err := newCore(m.cfg, m.sizes)
	if err != nil {
		return nil, &Error{Kind: ErrFormat, Msg: "invalid configuration", Err: err}
	}
	c.kind = m.kind
	copy(c.subs, m.subs)
	switch m.kind {
	case kindCached:
		c.cached = true
		c.allIDs = c.allIDs[:len(c.subs)-1]
	}
	if m.prio != nil {
		if c.prio, err = newPrio(c.total, *m.prio); err != nil {
			return nil, &Error{Kind: ErrFormat, Msg: "invalid priority settings", Err: err}
		}
		c.prio.setMax(m.max)
	}
	if m.her != nil {
		if c.her, err = newHER(*m.her); err != nil {
			return nil, &Error{Kind: ErrFormat, Msg: "invalid hindsight settings", Err: err}
		}
	}
	return c, nil
}

// schemaNode is a decoded schema entry.
type schemaNode struct {
	key, path string
	kind      uint8
	dt        nd.DType
	leaf      bool
	row       []int
	kids      []*schemaNode
}

func decodeNodes(d *decoder, path string, depth int) *schemaNode {
	n := &schemaNode{kind: nodeBatch, path: path}
	if depth > maxDepth {
		d.fail("schema nested too deeply")
		return n
	}
	count := d.int(d.left/6, "key count")
	seen := map[string]bool{}
	for range count {
		if d.err != nil {
			return n
		}
		k := &schemaNode{key: d.str()}
		k.path = k.key
		if path != "" {
			k.path = path + batch.Sep + k.key
		}
		if k.key == "" || seen[k.key] || indexSep(k.key) >= 0 {
			d.fail(fmt.Sprintf("bad or repeated key %q", k.key))
			return n
		}
		seen[k.key] = true
		switch k.kind = d.u8(); k.kind {
		case nodeReserved:
		case nodeBatch:
			sub := decodeNodes(d, k.path, depth+1)
			k.kids = sub.kids
		case nodeColumn:
			k.dt, k.leaf = d.dtype(), d.flag()
			nd0 := int(d.u8())
			if nd0 > 32 {
				d.fail(fmt.Sprintf("key %s: %d dimensions", k.path, nd0))
				return n
			}
			for range nd0 {
				k.row = append(k.row, d.int(maxSize, "dimension"))
			}
			if k.leaf && (k.dt != nd.Object || nd0 != 0) {
				d.fail(fmt.Sprintf("key %s: a custom leaf column must be an Object column of scalars", k.path))
			}
		default:
			d.fail(fmt.Sprintf("key %s: unknown node kind %d", k.path, k.kind))
			return n
		}
		n.kids = append(n.kids, k)
	}
	return n
}

func (n *schemaNode) columns(out *[]*schemaNode) {
	for _, k := range n.kids {
		switch k.kind {
		case nodeColumn:
			*out = append(*out, k)
		case nodeBatch:
			k.columns(out)
		}
	}
}

// rowLen returns the elements per row, and false if it overflows.
func (n *schemaNode) rowLen() (uint64, bool) {
	l := uint64(1)
	for _, d := range n.row {
		if d != 0 && l > maxSize/uint64(d) {
			return 0, false
		}
		l *= uint64(d)
	}
	return l, true
}

// buildSchema creates the storage the schema describes.
func (c *core) buildSchema(root *schemaNode) error {
	var build func(sn *schemaNode, n *node, top string)
	build = func(sn *schemaNode, n *node, top string) {
		for _, sk := range sn.kids {
			t := top
			if n == &c.root {
				t = sk.key
			}
			k := &node{key: sk.key, path: sk.path}
			n.kids = append(n.kids, k)
			switch sk.kind {
			case nodeColumn:
				k.col = c.newColumn(k.path, t, colSpec{dt: sk.dt, row: sk.row, leaf: sk.leaf})
				n.b.Set(k.key, k.col.arr)
			default:
				k.b = &batch.Batch{}
				n.b.Set(k.key, k.b)
				build(sk, k, t)
			}
		}
	}
	build(root, &c.root, "")
	if len(c.root.kids) == 0 {
		if c.Len() != 0 {
			return errorf(ErrFormat, "", "transitions stored without a schema")
		}
		return nil
	}
	for _, s := range []struct {
		key string
		dt  nd.DType
	}{{batch.KeyRew, nd.Float64}, {batch.KeyTerminated, nd.Bool}, {batch.KeyTruncated, nd.Bool}, {batch.KeyDone, nd.Bool}} {
		k := c.root.child(s.key)
		if k == nil || k.col == nil || k.col.arr.DType() != s.dt || len(k.col.row) != 0 {
			return errorf(ErrFormat, s.key, fmt.Sprintf("schema lacks a %v column of one value per transition", s.dt))
		}
	}
	c.bindSpecial()
	c.buildOuts()
	return nil
}

// wrap returns c as the buffer type of its kind.
func (c *core) wrap() Buffer {
	switch c.kind {
	case kindVector:
		return &Vector{c}
	case kindCached:
		return &Cached{c}
	case kindPrioritized:
		return &Prioritized{c}
	case kindPrioritizedVector:
		return &PrioritizedVector{c}
	case kindHER:
		return &HER{c}
	case kindHERVector:
		return &HERVector{c}
	}
	return &Replay{c}
}
