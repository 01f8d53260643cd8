package buffer

import (
	"fmt"
	"io"
	"math"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/internal/sumtree"
	"github.com/gorl/gorl/nd"
)

// Save writes the memory to w in the package's file format (see Load):
// its slots, ring position, required attributes and transitions. Custom
// attributes must be nil, bools, numbers, strings, []any or map[string]any
// of these; anything else gives an error wrapping ErrFormat.
func (m *Memory) Save(w io.Writer) error { return m.save(w, nil) }

// Save writes the memory and its priorities; see Memory.Save.
func (p *PrioritizedMemory) Save(w io.Writer) error { return p.Memory.save(w, p) }

func (m *Memory) save(w io.Writer, p *PrioritizedMemory) error {
	fw, err := newFileWriter(w)
	if err != nil {
		return err
	}
	err = fw.section(tagMeta, func(e *encoder) error {
		if p != nil {
			e.u8(uint8(kindPrioritizedMemory))
		} else {
			e.u8(uint8(kindMemory))
		}
		e.u64(uint64(m.size))
		e.u64(uint64(m.next))
		e.u64(uint64(len(m.items)))
		e.u64(uint64(len(m.required)))
		for _, r := range m.required {
			e.str(r)
		}
		if p != nil {
			e.f64(p.eps)
			e.f64(p.alpha)
			e.f64(p.beta)
			e.f64(p.betaInc)
			e.f64(p.maxLeaf)
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = fw.section(tagItems, func(e *encoder) error {
		for _, t := range m.items {
			if err := encodeTransition(e, t); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if p != nil {
		err := fw.section(tagPrio, func(e *encoder) error {
			for i := range m.size {
				e.f64(p.tree.Get(i))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return fw.section(tagEnd, func(*encoder) error { return nil })
}

func encodeTransition(e *encoder, t *Transition) error {
	e.u64(uint64(len(t.attrs)))
	for i := range t.attrs {
		a := &t.attrs[i]
		e.str(a.name)
		e.u8(uint8(a.kind))
		switch a.kind {
		case Major:
			e.u64(uint64(a.major.NumKeys()))
			for k, v := range a.major.Items() {
				e.str(k)
				if err := e.array(v.(*nd.Array), a.name+batch.Sep+k); err != nil {
					return err
				}
			}
		case Sub:
			if err := e.array(a.sub, a.name); err != nil {
				return err
			}
		default:
			if err := e.value(a.value, a.name, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// LoadMemory reads a Memory that Memory.Save wrote from r, which holds
// size bytes, with Load's guarantees. It returns an error wrapping
// ErrFormat for a corrupt file, a file of another buffer type, or a
// PrioritizedMemory (see LoadPrioritizedMemory).
func LoadMemory(r io.Reader, size int64) (*Memory, error) {
	m, p, err := loadMemory(r, size)
	if err == nil && p != nil {
		err = errorf(ErrFormat, "", "the file holds a PrioritizedMemory: use LoadPrioritizedMemory")
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// LoadPrioritizedMemory reads a PrioritizedMemory that
// PrioritizedMemory.Save wrote; see LoadMemory.
func LoadPrioritizedMemory(r io.Reader, size int64) (*PrioritizedMemory, error) {
	_, p, err := loadMemory(r, size)
	if err == nil && p == nil {
		err = errorf(ErrFormat, "", "the file holds a Memory without priorities: use LoadMemory")
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

func loadMemory(r io.Reader, size int64) (*Memory, *PrioritizedMemory, error) {
	fr, err := newFileReader(r, size)
	if err != nil {
		return nil, nil, err
	}
	d, err := fr.section(tagMeta, "meta")
	if err != nil {
		return nil, nil, err
	}
	kind := bufKind(d.u8())
	if d.err == nil && kind != kindMemory && kind != kindPrioritizedMemory {
		return nil, nil, errorf(ErrFormat, "", fmt.Sprintf("the file holds a buffer of kind %d, not a Memory: use Load", kind))
	}
	m := &Memory{size: d.int(maxSize, "size"), next: d.int(maxSize, "position")}
	count := d.int(maxSize, "count")
	nreq := d.int(d.left/4, "required count")
	for range nreq {
		if d.err != nil {
			break
		}
		m.required = append(m.required, d.str())
	}
	var eps, alpha, beta, betaInc, maxLeaf float64
	if kind == kindPrioritizedMemory {
		eps, alpha, beta, betaInc, maxLeaf = d.f64(), d.f64(), d.f64(), d.f64(), d.f64()
		for _, v := range []float64{eps, alpha, beta, betaInc, maxLeaf} {
			if d.err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
				d.fail("invalid priority settings")
			}
		}
		if d.err == nil && (eps < 0 || alpha < 0 || beta < 0 || !(maxLeaf > 0)) {
			d.fail("invalid priority settings")
		}
	}
	if d.err == nil && (m.size == 0 || count > m.size || m.next >= m.size || count < m.size && m.next != count) {
		d.fail("inconsistent ring state")
	}
	if err := d.end(); err != nil {
		return nil, nil, err
	}
	d, err = fr.section(tagItems, "transitions")
	if err != nil {
		return nil, nil, err
	}
	if uint64(count) > d.left/4 {
		return nil, nil, errorf(ErrFormat, "", fmt.Sprintf("%d transitions cannot fit %d bytes", count, d.left))
	}
	m.items = make([]*Transition, 0, count)
	for range count {
		t := decodeTransition(d)
		if d.err != nil {
			return nil, nil, d.err
		}
		if err := m.check(t); err != nil {
			return nil, nil, &Error{Kind: ErrFormat, Msg: "stored transition", Err: err}
		}
		m.items = append(m.items, t)
	}
	if err := d.end(); err != nil {
		return nil, nil, err
	}
	var p *PrioritizedMemory
	if kind == kindPrioritizedMemory {
		d, err = fr.section(tagPrio, "priorities")
		if err != nil {
			return nil, nil, err
		}
		// One priority per slot of the capacity: the file justifies the
		// tree's size.
		if d.left != uint64(m.size)*8 {
			return nil, nil, errorf(ErrFormat, "", fmt.Sprintf("priority section of %d bytes, want %d", d.left, uint64(m.size)*8))
		}
		p = &PrioritizedMemory{Memory: *m, eps: eps, alpha: alpha, beta: beta, betaInc: betaInc, maxLeaf: maxLeaf}
		p.tree = sumtree.New[float64](m.size)
		for i := 0; i < m.size && d.err == nil; i++ {
			v := d.f64()
			if i >= count && v != 0 {
				d.fail(fmt.Sprintf("priority for the empty slot %d", i))
			}
			if v == 0 {
				continue
			}
			if err := p.tree.Set(i, v); err != nil && d.err == nil {
				d.err = &Error{Kind: ErrFormat, Msg: fmt.Sprintf("priority of slot %d", i), Err: err}
			}
		}
		if err := d.end(); err != nil {
			return nil, nil, err
		}
	}
	d, err = fr.section(tagEnd, "end")
	if err != nil {
		return nil, nil, err
	}
	if err := d.end(); err != nil {
		return nil, nil, err
	}
	if fr.remain != 0 {
		return nil, nil, errorf(ErrFormat, "", fmt.Sprintf("%d bytes after the end section", fr.remain))
	}
	if p != nil {
		return nil, p, nil
	}
	return m, nil, nil
}

// decodeTransition reads a transition and checks it as NewTransition does.
func decodeTransition(d *decoder) *Transition {
	t := &Transition{}
	n := d.int(d.left/6, "attribute count")
	seen := map[string]bool{}
	for range n {
		if d.err != nil {
			return t
		}
		a := attr{name: d.str(), kind: AttrKind(d.u8())}
		if a.name == "" || a.name == "*" || seen[a.name] {
			d.fail(fmt.Sprintf("bad or repeated attribute name %q", a.name))
			return t
		}
		seen[a.name] = true
		switch a.kind {
		case Major:
			a.major = &batch.Batch{}
			keys := d.int(d.left/6, "key count")
			for range keys {
				if d.err != nil {
					return t
				}
				k := d.str()
				arr := d.array(a.name + batch.Sep + k)
				if d.err != nil {
					return t
				}
				if arr.Ndim() == 0 || arr.Dim(0) != 1 || a.major.Has(k) {
					d.fail(fmt.Sprintf("attribute %s.%s: bad array", a.name, k))
					return t
				}
				if err := a.major.Set(k, arr); err != nil {
					d.fail(fmt.Sprintf("attribute %s: bad key %q", a.name, k))
					return t
				}
			}
		case Sub:
			a.sub = d.array(a.name)
			if d.err == nil && (a.sub.Ndim() == 0 || a.sub.Dim(0) != 1 || a.sub.DType() == nd.Object) {
				d.fail(fmt.Sprintf("attribute %s: bad sub attribute", a.name))
			}
		case Custom:
			a.value = d.value(a.name, 0)
		default:
			d.fail(fmt.Sprintf("attribute %s: unknown kind %d", a.name, a.kind))
		}
		t.attrs = append(t.attrs, a)
	}
	return t
}
