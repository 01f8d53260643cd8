package nd

import (
	"reflect"
	"testing"
)

// naivePositions lists the positions a slice selects on an axis of length
// n, by Python's definition of slice.indices followed by range.
func naivePositions(x Index, n int) []int {
	step := 1
	if x.flags&hasStep != 0 {
		step = x.step
	}
	norm := func(v, lo, hi int) int {
		if v < 0 {
			v += n
			if v < 0 {
				return lo
			}
		}
		if v > hi {
			return hi
		}
		return v
	}
	var start, stop int
	if step > 0 {
		start, stop = 0, n
		if x.flags&hasStart != 0 {
			start = norm(x.start, 0, n)
		}
		if x.flags&hasStop != 0 {
			stop = norm(x.stop, 0, n)
		}
	} else {
		start, stop = n-1, -1
		if x.flags&hasStart != 0 {
			start = norm(x.start, -1, n-1)
		}
		if x.flags&hasStop != 0 {
			stop = norm(x.stop, -1, n-1)
		}
	}
	var out []int
	for i := start; step > 0 && i < stop || step < 0 && i > stop; i += step {
		out = append(out, i)
	}
	return out
}

// naiveEntry is one axis of the result or one fancy index in the naive
// model of numpy indexing.
type naiveEntry struct {
	kind  byte  // 'b' basic axis, 'n' new axis, 'a' advanced, 'i' integer (basic)
	axis  int   // source axis ('b', 'a', 'i')
	pos   []int // positions ('b': the selection; 'a': the index list; 'i': one)
	zeroD bool  // an advanced integer (broadcasts)
}

// naiveIndex models numpy's indexing of a (whose elements are distinct)
// with 1-d fancy indices: it returns the result shape and, for each result
// element in C order, the source coordinates; ok is false when numpy would
// raise IndexError.
func naiveIndex(shape []int, idx []Index) (rshape []int, coords [][]int, ok bool) {
	used, ellipses, fancy := 0, 0, false
	for _, x := range idx {
		switch x.kind {
		case idxEllipsis:
			ellipses++
		case idxNewAxis:
		default:
			used++
		}
		fancy = fancy || x.kind == idxInts || x.kind == idxMask
	}
	if ellipses > 1 || used > len(shape) {
		return nil, nil, false
	}
	var es []naiveEntry
	ax := 0
	for _, x := range idx {
		switch x.kind {
		case idxEllipsis:
			for k := 0; k < len(shape)-used; k++ {
				es = append(es, naiveEntry{kind: 'b', axis: ax, pos: naivePositions(Index{}, shape[ax])})
				ax++
			}
		case idxNewAxis:
			es = append(es, naiveEntry{kind: 'n'})
		case idxSlice:
			if x.flags&hasStep != 0 && x.step == 0 {
				return nil, nil, false
			}
			es = append(es, naiveEntry{kind: 'b', axis: ax, pos: naivePositions(x, shape[ax])})
			ax++
		case idxInt:
			i := x.start
			if i < 0 {
				i += shape[ax]
			}
			if i < 0 || i >= shape[ax] {
				return nil, nil, false
			}
			k := byte('i')
			if fancy {
				k = 'a'
			}
			es = append(es, naiveEntry{kind: k, axis: ax, pos: []int{i}, zeroD: true})
			ax++
		case idxInts:
			var p []int
			for _, i := range x.ints {
				if i < 0 {
					i += shape[ax]
				}
				if i < 0 || i >= shape[ax] {
					return nil, nil, false
				}
				p = append(p, i)
			}
			es = append(es, naiveEntry{kind: 'a', axis: ax, pos: p})
			ax++
		case idxMask:
			if len(x.mask) != shape[ax] {
				return nil, nil, false
			}
			var p []int
			for i, m := range x.mask {
				if m {
					p = append(p, i)
				}
			}
			es = append(es, naiveEntry{kind: 'a', axis: ax, pos: p})
			ax++
		}
	}
	for ; ax < len(shape); ax++ {
		es = append(es, naiveEntry{kind: 'b', axis: ax, pos: naivePositions(Index{}, shape[ax])})
	}
	// Broadcast the advanced indices: 1-d lists of one length (or 1), 0-d ints.
	blen, nadv, first, last := -1, 0, -1, -1
	for k, e := range es {
		if e.kind != 'a' {
			continue
		}
		nadv++
		if first < 0 {
			first = k
		}
		last = k
		if e.zeroD {
			continue
		}
		switch {
		case blen < 0 || blen == 1:
			blen = len(e.pos)
		case len(e.pos) != blen && len(e.pos) != 1:
			return nil, nil, false
		}
	}
	// Result axes: each is a basic entry index, a new axis, or -1 for the
	// advanced block (present when some advanced index is 1-d).
	var axes []int
	block := blen >= 0
	adjacent := last-first+1 == nadv
	if nadv > 0 && !adjacent && block {
		axes = append(axes, -1)
	}
	for k, e := range es {
		switch {
		case e.kind == 'a' && k == first && adjacent && block:
			axes = append(axes, -1)
		case e.kind == 'b' || e.kind == 'n':
			axes = append(axes, k)
		}
	}
	for _, k := range axes {
		switch {
		case k < 0:
			rshape = append(rshape, blen)
		case es[k].kind == 'n':
			rshape = append(rshape, 1)
		default:
			rshape = append(rshape, len(es[k].pos))
		}
	}
	var rec func(r int, src []int, b int)
	rec = func(r int, src []int, b int) {
		if r == len(axes) {
			c := append([]int(nil), src...)
			for _, e := range es {
				switch {
				case e.kind == 'i' || e.kind == 'a' && e.zeroD:
					c[e.axis] = e.pos[0]
				case e.kind == 'a' && len(e.pos) == 1:
					c[e.axis] = e.pos[0]
				case e.kind == 'a':
					c[e.axis] = e.pos[b]
				}
			}
			coords = append(coords, c)
			return
		}
		k := axes[r]
		n := rshape[r]
		for i := 0; i < n; i++ {
			switch {
			case k < 0:
				rec(r+1, src, i)
			case es[k].kind == 'n':
				rec(r+1, src, b)
			default:
				src[es[k].axis] = es[k].pos[i]
				rec(r+1, src, b)
			}
		}
	}
	rec(0, make([]int, len(shape)), 0)
	return rshape, coords, true
}

// byteReader hands out small numbers from fuzz input.
type byteReader struct {
	b []byte
	i int
}

func (r *byteReader) next(n int) int {
	if r.i >= len(r.b) || n <= 0 {
		return 0
	}
	v := int(r.b[r.i]) % n
	r.i++
	return v
}

func (r *byteReader) signed(span int) int { return r.next(2*span+1) - span }

func (r *byteReader) index(shape []int, axis int) Index {
	dim := 3
	if axis < len(shape) {
		dim = shape[axis]
	}
	switch r.next(8) {
	case 0:
		return I(r.signed(5))
	case 1:
		x := Index{}
		if r.next(2) == 1 {
			x.flags |= hasStart
			x.start = r.signed(6)
		}
		if r.next(2) == 1 {
			x.flags |= hasStop
			x.stop = r.signed(6)
		}
		if r.next(2) == 1 {
			x.flags |= hasStep
			x.step = r.signed(3)
		}
		return x
	case 2:
		ints := make([]int, r.next(4))
		for k := range ints {
			ints[k] = r.signed(4)
		}
		return Ints(ints...)
	case 3:
		n := dim
		if r.next(8) == 0 {
			n++ // a wrong length now and then
		}
		m := make([]bool, n)
		for k := range m {
			m[k] = r.next(2) == 1
		}
		return Mask(m...)
	case 4:
		return NewAxis()
	case 5:
		return Ellipsis()
	}
	return All()
}

func fuzzCase(data []byte) ([]int, []Index) {
	r := &byteReader{b: data}
	shape := make([]int, r.next(4))
	for k := range shape {
		shape[k] = r.next(5)
	}
	idx := make([]Index, r.next(5))
	axis := 0
	for k := range idx {
		idx[k] = r.index(shape, axis)
		if idx[k].kind != idxNewAxis && idx[k].kind != idxEllipsis {
			axis++
		}
	}
	return shape, idx
}

func indexPanics(f func()) (panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*Error); !ok {
				panic(r)
			}
			panicked = true
		}
	}()
	f()
	return false
}

// FuzzIndex checks Index and SetIndex against the naive model on small
// arrays whose elements are their flat positions.
func FuzzIndex(f *testing.F) {
	f.Add([]byte{2, 3, 4, 2, 0, 1, 1, 2, 1, 1})
	f.Add([]byte{3, 2, 3, 4, 3, 0, 1, 7, 2, 3, 0, 1, 2})
	f.Add([]byte{3, 3, 3, 3, 3, 0, 2, 7, 2, 2, 1, 2, 1})
	f.Add([]byte{2, 4, 4, 4, 2, 2, 3, 1, 3, 3, 5, 0, 1})
	f.Add([]byte{3, 2, 2, 2, 4, 4, 2, 2, 1, 0, 1, 2, 0, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		shape, idx := fuzzCase(data)
		a := Zeros(Int64, shape...)
		for i := range elems[int64](a) {
			elems[int64](a)[i] = int64(i)
		}
		flat := func(c []int) int {
			off := 0
			for k, i := range c {
				off += i * a.strides[k]
			}
			return off
		}
		rshape, coords, ok := naiveIndex(shape, idx)
		var got *Array
		panicked := indexPanics(func() { got = a.Index(idx...) })
		if panicked != !ok {
			t.Fatalf("shape %v index %v: panicked %v, naive ok %v", shape, idx, panicked, ok)
		}
		if !ok && !indexPanics(func() { var k Block; k.Reserve(a, idx...); k.Index(a, idx...) }) {
			t.Fatalf("shape %v index %v: Block.Index does not panic where Index does", shape, idx)
		}
		if !ok {
			return
		}
		if !reflect.DeepEqual(got.Shape(), rshape) && !(len(rshape) == 0 && got.Shape() == nil) {
			t.Fatalf("shape %v index %v: result shape %v, naive %v", shape, idx, got.Shape(), rshape)
		}
		// A Block gives the same array (Reserve never panics).
		var k Block
		k.Reserve(a, idx...)
		if viaBlock := k.Index(a, idx...); !Equal(viaBlock, got) {
			t.Fatalf("shape %v index %v: Block gives %v, Index %v", shape, idx, viaBlock, got)
		}
		vals := ToSlice[int64](got)
		for k, c := range coords {
			if vals[k] != int64(flat(c)) {
				t.Fatalf("shape %v index %v: element %d is %d, naive %d", shape, idx, k, vals[k], flat(c))
			}
		}
		// SetIndex writes distinct negative values; the last write wins.
		b := a.Copy()
		v := Zeros(Int64, rshape...)
		for k := range elems[int64](v) {
			elems[int64](v)[k] = int64(-1 - k)
		}
		if err := b.SetIndex(v, idx...); err != nil {
			t.Fatalf("shape %v index %v: SetIndex: %v", shape, idx, err)
		}
		want := a.Copy()
		for k, c := range coords {
			elems[int64](want)[flat(c)] = int64(-1 - k)
		}
		if !Equal(b, want) {
			t.Fatalf("shape %v index %v: SetIndex gave %v, want %v", shape, idx, b, want)
		}
	})
}
