package wire

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// Space tags.
const (
	tagBox           = 1
	tagDiscrete      = 2
	tagMultiDiscrete = 3
	tagMultiBinary   = 4
	tagDict          = 5
	tagTuple         = 6
)

// space appends the encoding of s.
func (e *enc) space(s env.Space, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("wire: spaces nest deeper than %d", MaxDepth)
	}
	switch s := s.(type) {
	case *env.Box:
		c, err := dtypeCode(s.DType())
		if err != nil {
			return err
		}
		e.u8(tagBox)
		e.u8(c)
		e.dims(s.Shape())
		e.raw(rawBytes(s.Low()))
		e.raw(rawBytes(s.High()))
	case *env.Discrete:
		e.u8(tagDiscrete)
		e.u64(uint64(s.N()))
		e.u64(uint64(s.Start()))
	case *env.MultiDiscrete:
		e.u8(tagMultiDiscrete)
		e.dims(s.Shape())
		e.raw(rawBytes(s.NVec()))
		e.raw(rawBytes(s.Start()))
	case *env.MultiBinary:
		e.u8(tagMultiBinary)
		e.dims(s.Shape())
	case *env.Dict:
		e.u8(tagDict)
		keys := s.Keys()
		e.u32(uint32(len(keys)))
		for _, k := range keys {
			sub, _ := s.Space(k)
			e.str(k)
			if err := e.space(sub, depth+1); err != nil {
				return err
			}
		}
	case *env.Tuple:
		e.u8(tagTuple)
		subs := s.Spaces()
		e.u32(uint32(len(subs)))
		for _, sub := range subs {
			if err := e.space(sub, depth+1); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("wire: space %v (%T) has no protocol encoding", s, s)
	}
	return nil
}

// space decodes a space.
func (d *dec) space(depth int) env.Space {
	if depth > MaxDepth {
		d.fail("spaces nest deeper than %d", MaxDepth)
		return nil
	}
	tag := d.u8("space tag")
	if d.err != nil {
		return nil
	}
	var (
		s   env.Space
		err error
	)
	switch tag {
	case tagBox:
		dt := d.dtype("Box dtype")
		sh := d.dims("Box shape", 2*dt.Size())
		low, high := d.array(dt, sh, "Box low"), d.array(dt, sh, "Box high")
		if d.err != nil {
			return nil
		}
		s, err = env.NewBox(low, high, sh, dt)
	case tagDiscrete:
		n, start := int64(d.u64("Discrete n")), int64(d.u64("Discrete start"))
		if d.err != nil {
			return nil
		}
		s, err = env.NewDiscrete(n, start)
	case tagMultiDiscrete:
		sh := d.dims("MultiDiscrete shape", 16)
		nvec, start := d.array(nd.Int64, sh, "MultiDiscrete nvec"), d.array(nd.Int64, sh, "MultiDiscrete start")
		if d.err != nil {
			return nil
		}
		s, err = env.NewMultiDiscrete(nvec, start)
	case tagMultiBinary:
		sh := d.dims("MultiBinary shape", 1)
		if d.err != nil {
			return nil
		}
		s, err = env.NewMultiBinary(sh...)
	case tagDict:
		n := d.count("Dict keys", 5)
		entries := make([]env.DictEntry, 0, n)
		for range n {
			k := d.str("Dict key")
			sub := d.space(depth + 1)
			if d.err != nil {
				return nil
			}
			entries = append(entries, env.DictEntry{Key: k, Space: sub})
		}
		s, err = env.NewDict(entries...)
	case tagTuple:
		n := d.count("Tuple spaces", 1)
		subs := make([]env.Space, 0, n)
		for range n {
			sub := d.space(depth + 1)
			if d.err != nil {
				return nil
			}
			subs = append(subs, sub)
		}
		s, err = env.NewTuple(subs...)
	default:
		d.fail("unknown space tag %d", tag)
		return nil
	}
	if err != nil {
		d.fail("%v", err)
		return nil
	}
	return s
}

// array decodes a raw array of dtype dt and shape sh.
func (d *dec) array(dt nd.DType, sh []int, what string) *nd.Array {
	if d.err != nil {
		return nil
	}
	size := 1
	for _, v := range sh {
		size *= v
	}
	p := d.take(size*dt.Size(), what)
	if d.err != nil {
		return nil
	}
	a := nd.Zeros(dt, sh...)
	copy(rawBytes(a), p)
	if dt == nd.Bool {
		for i, b := range rawBytes(a) {
			if b > 1 {
				d.fail("%s: bool element %d is %d", what, i, b)
				return nil
			}
		}
	}
	return a
}

// leaf is one array of a value's layout: the key path of the array in the
// value (empty for an array space) and its dtype, shape and size in bytes.
type leaf struct {
	path   string
	dt     nd.DType
	shape  []int
	nbytes int
}

// Layout is the wire layout of the values of one space: its arrays, in
// order, each sent raw.
type Layout struct {
	space  env.Space
	leaves []leaf
	nbytes int
}

// NewLayout returns the layout of the values of s. It returns an error for
// a space the protocol cannot carry.
func NewLayout(s env.Space) (*Layout, error) {
	l := &Layout{space: s}
	if err := l.add("", s, 0); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *Layout) add(path string, s env.Space, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("wire: spaces nest deeper than %d", MaxDepth)
	}
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + batch.Sep + k
	}
	switch s := s.(type) {
	case *env.Dict:
		for _, k := range s.Keys() {
			sub, _ := s.Space(k)
			if err := l.add(join(k), sub, depth+1); err != nil {
				return err
			}
		}
	case *env.Tuple:
		for i, sub := range s.Spaces() {
			if err := l.add(join(strconv.Itoa(i)), sub, depth+1); err != nil {
				return err
			}
		}
	case *env.Box, *env.Discrete, *env.MultiDiscrete, *env.MultiBinary:
		dt := s.DType()
		if _, err := dtypeCode(dt); err != nil {
			return err
		}
		sh := s.Shape()
		size := 1
		for _, v := range sh {
			size *= v
		}
		l.leaves = append(l.leaves, leaf{path: path, dt: dt, shape: sh, nbytes: size * dt.Size()})
		l.nbytes += size * dt.Size()
	default:
		return fmt.Errorf("wire: space %v (%T) has no protocol encoding", s, s)
	}
	return nil
}

// Size returns the number of bytes of a value.
func (l *Layout) Size() int { return l.nbytes }

// New returns a new zero value of the space: an *nd.Array, or a
// *batch.Batch for Dict and Tuple spaces, to decode into.
func (l *Layout) New() any {
	v := l.space.Sample(rand.New(rand.NewPCG(0, 0)))
	for _, a := range l.arrays(v) {
		clear(rawBytes(a))
	}
	return v
}

// arrays returns the leaf arrays of v, a value made by New, in layout order.
func (l *Layout) arrays(v any) []*nd.Array {
	out := make([]*nd.Array, len(l.leaves))
	for i, lf := range l.leaves {
		if lf.path == "" {
			out[i] = v.(*nd.Array)
			continue
		}
		x, _ := v.(*batch.Batch).Get(lf.path)
		out[i] = x.(*nd.Array)
	}
	return out
}

// Decoder decodes values of one space into arrays it owns.
type Decoder struct {
	l     *Layout
	value any
	dst   []*nd.Array
}

// NewDecoder returns a decoder of the layout's values.
func (l *Layout) NewDecoder() *Decoder {
	v := l.New()
	return &Decoder{l: l, value: v, dst: l.arrays(v)}
}

// Decode decodes a value from p, which must hold exactly one, into the
// decoder's value and returns it (the same value on every call). It does
// not allocate. It returns an error wrapping ErrProtocol if p has the
// wrong size or a bool element is not 0 or 1.
func (dc *Decoder) Decode(p []byte) (any, error) {
	if len(p) != dc.l.nbytes {
		return nil, protoErr("a value of %v takes %d bytes, got %d", dc.l.space, dc.l.nbytes, len(p))
	}
	for i, lf := range dc.l.leaves {
		dst := rawBytes(dc.dst[i])
		copy(dst, p[:lf.nbytes])
		p = p[lf.nbytes:]
		if lf.dt == nd.Bool {
			for _, b := range dst {
				if b > 1 {
					return nil, protoErr("a bool element of %v is %d", dc.l.space, b)
				}
			}
		}
	}
	return dc.value, nil
}

// value appends the raw arrays of v, a value of the layout's space.
// An array of another dtype is cast (safely, under numpy's same_kind rule);
// a value of the wrong shape or structure is an error wrapping
// env.ErrAction.
func (e *enc) value(l *Layout, v any) error {
	for _, lf := range l.leaves {
		x := v
		if lf.path != "" {
			b, ok := v.(*batch.Batch)
			if !ok {
				return fmt.Errorf("%w: %T is not a value of %v", env.ErrAction, v, l.space)
			}
			if x, ok = b.Get(lf.path); !ok {
				return fmt.Errorf("%w: the value of %v has no key %q", env.ErrAction, l.space, lf.path)
			}
		}
		a, ok := x.(*nd.Array)
		if !ok {
			return fmt.Errorf("%w: %T is not an array of %v", env.ErrAction, x, l.space)
		}
		if !sameShape(a, lf.shape) {
			return fmt.Errorf("%w: a %v array is not of shape %v (%v)", env.ErrAction, a.Shape(), lf.shape, l.space)
		}
		if a.DType() != lf.dt || !a.IsContiguous() {
			c, err := a.AsType(lf.dt)
			if err != nil {
				return fmt.Errorf("%w: %v", env.ErrAction, err)
			}
			a = c
		}
		e.raw(rawBytes(a))
	}
	return nil
}

// sameShape reports whether a has shape sh, without allocating.
func sameShape(a *nd.Array, sh []int) bool {
	if a.Ndim() != len(sh) {
		return false
	}
	for i, d := range sh {
		if a.Dim(i) != d {
			return false
		}
	}
	return true
}
