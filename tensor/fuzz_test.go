package tensor_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/gorl/gorl/tensor"
)

// byteReader hands out small numbers from fuzz input, 0 when it runs out.
type byteReader []byte

func (r *byteReader) next(n int) int {
	if len(*r) == 0 || n <= 0 {
		return 0
	}
	v := int((*r)[0]) % n
	*r = (*r)[1:]
	return v
}

// shapeFrom reads a shape of rank 0–4 with dimensions lo…lo+3.
func shapeFrom(r *byteReader, lo int) []int {
	s := make([]int, r.next(5))
	for i := range s {
		s[i] = lo + r.next(4)
	}
	return s
}

// iota32 returns a tensor whose element i holds i+1, so every position is
// recognisable in a result.
func iota32(shape []int) *tensor.Tensor {
	t := tensor.New(shape...)
	for i := range t.Data() {
		t.Data()[i] = float32(i + 1)
	}
	return t
}

func strides(shape []int) []int {
	st := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = s
		s *= shape[i]
	}
	return st
}

// unravel returns the multi-index of flat position p in shape.
func unravel(p int, shape []int) []int {
	idx := make([]int, len(shape))
	for i := len(shape) - 1; i >= 0; i-- {
		if shape[i] > 0 {
			idx[i] = p % shape[i]
			p /= shape[i]
		}
	}
	return idx
}

func ravel(idx, shape []int) int {
	p := 0
	for i, st := range strides(shape) {
		p += idx[i] * st
	}
	return p
}

// FuzzIndexing checks Slice, IndexSelect, Gather and Concat, and the
// gradients they send back, against element-by-element definitions.
func FuzzIndexing(f *testing.F) {
	f.Add([]byte{2, 3, 1, 0, 1, 2, 0, 2, 1})
	f.Add([]byte{4, 0, 1, 2, 3, 3, 1, 0, 4, 2, 2, 2})
	f.Add([]byte{1, 2, 0, 0, 1})
	f.Fuzz(func(t *testing.T, in []byte) {
		r := byteReader(in)
		shape := shapeFrom(&r, 1)
		if len(shape) == 0 {
			shape = []int{1 + r.next(4)}
		}
		x := iota32(shape).SetRequiresGrad(true)
		axis := r.next(len(shape))
		m := shape[axis]
		var tp tensor.Tape

		// Slice [start, end) of axis.
		start := r.next(m + 1)
		end := start + r.next(m-start+1)
		got := tp.Slice(x, axis, start, end)
		for p, v := range got.Data() {
			idx := unravel(p, got.Shape())
			idx[axis] += start
			if want := x.Data()[ravel(idx, shape)]; v != want {
				t.Fatalf("Slice(%v, axis %d, %d, %d)[%v] = %v, want %v", shape, axis, start, end, unravel(p, got.Shape()), v, want)
			}
		}

		// IndexSelect with repetitions.
		index := make([]int, r.next(5))
		for i := range index {
			index[i] = r.next(m)
		}
		sel := tp.IndexSelect(x, axis, index)
		for p, v := range sel.Data() {
			idx := unravel(p, sel.Shape())
			idx[axis] = index[idx[axis]]
			if want := x.Data()[ravel(idx, shape)]; v != want {
				t.Fatalf("IndexSelect(%v, axis %d, %v) = %v, want %v at %d", shape, axis, index, v, want, p)
			}
		}

		// Gather one entry per position of the other axes.
		outShape := append(append([]int{}, shape[:axis]...), shape[axis+1:]...)
		gi := make([]int, len(x.Data())/m)
		for i := range gi {
			gi[i] = r.next(m)
		}
		g := tp.Gather(x, axis, gi)
		for p, v := range g.Data() {
			oi := unravel(p, outShape)
			idx := append(append(append([]int{}, oi[:axis]...), gi[p]), oi[axis:]...)
			if want := x.Data()[ravel(idx, shape)]; v != want {
				t.Fatalf("Gather(%v, axis %d, %v) = %v, want %v at %d", shape, axis, gi, v, want, p)
			}
		}

		// Concat x with its slice along axis.
		cat := tp.Concat(axis, x, got)
		for p, v := range cat.Data() {
			idx := unravel(p, cat.Shape())
			var want float32
			if idx[axis] < m {
				want = x.Data()[ravel(idx, shape)]
			} else {
				idx[axis] += start - m
				want = x.Data()[ravel(idx, shape)]
			}
			if v != want {
				t.Fatalf("Concat along %d of %v and its slice: %v, want %v at %d", axis, shape, v, want, p)
			}
		}

		// The gradient of the sum of all four results counts, for each
		// element of x, how often it was selected (twice for the slice,
		// which appears in the concatenation too).
		loss := tp.Add(tp.Add(tp.Sum(got), tp.Sum(sel)), tp.Add(tp.Sum(g), tp.Sum(cat)))
		tp.Backward(loss)
		count := make([]float32, len(x.Data()))
		for p := range count {
			idx := unravel(p, shape)
			a := idx[axis]
			count[p] = 1 // in cat
			if a >= start && a < end {
				count[p] += 2 // in the slice and its copy in cat
			}
			for _, i := range index {
				if i == a {
					count[p]++
				}
			}
			oi := append(append([]int{}, idx[:axis]...), idx[axis+1:]...)
			if gi[ravel(oi, outShape)] == a {
				count[p]++
			}
		}
		for p, c := range count {
			if x.Grad()[p] != c {
				t.Fatalf("gradient of %v at %d = %v, want %v (axis %d, slice [%d,%d), index %v, gather %v)", shape, p, x.Grad()[p], c, axis, start, end, index, gi)
			}
		}
	})
}

// FuzzBroadcast checks binary operations on shapes that may or may not
// broadcast against numpy's rule applied element by element, and the
// reduction of the gradient over broadcast axes.
func FuzzBroadcast(f *testing.F) {
	f.Add([]byte{2, 1, 3, 2, 2, 3})
	f.Add([]byte{3, 2, 1, 2, 1, 4, 0})
	f.Add([]byte{0, 2, 3, 1})
	f.Fuzz(func(t *testing.T, in []byte) {
		r := byteReader(in)
		sa, sb := shapeFrom(&r, 0), shapeFrom(&r, 0)
		// Dimensions 0…3, where 0 stands for a broadcast 1.
		for _, s := range [][]int{sa, sb} {
			for i := range s {
				if s[i] == 0 {
					s[i] = 1
				}
			}
		}
		a, b := iota32(sa).SetRequiresGrad(true), iota32(sb).SetRequiresGrad(true)
		nd := max(len(sa), len(sb))
		out := make([]int, nd)
		ok := true
		dim := func(s []int, i int) int {
			if j := i - (nd - len(s)); j >= 0 {
				return s[j]
			}
			return 1
		}
		for i := range out {
			da, db := dim(sa, i), dim(sb, i)
			switch {
			case da == db || db == 1:
				out[i] = da
			case da == 1:
				out[i] = db
			default:
				ok = false
			}
		}
		var tp tensor.Tape
		if !ok {
			defer func() {
				if err, _ := recover().(error); !errors.Is(err, tensor.ErrShape) {
					t.Fatalf("%v and %v: no ErrShape panic", sa, sb)
				}
			}()
			tp.Mul(a, b)
			return
		}
		// pick maps an output multi-index to an operand's flat position.
		pick := func(s []int, oi []int) int {
			idx := make([]int, len(s))
			for j := range s {
				if s[j] != 1 {
					idx[j] = oi[j+nd-len(s)]
				}
			}
			return ravel(idx, s)
		}
		y := tp.Mul(a, b)
		if !slices.Equal(y.Shape(), out) {
			t.Fatalf("%v · %v: shape %v, want %v", sa, sb, y.Shape(), out)
		}
		da := make([]float32, len(a.Data()))
		for p, v := range y.Data() {
			oi := unravel(p, out)
			av, bv := a.Data()[pick(sa, oi)], b.Data()[pick(sb, oi)]
			if v != av*bv {
				t.Fatalf("%v · %v at %v = %v, want %v", sa, sb, oi, v, av*bv)
			}
			da[pick(sa, oi)] += bv
		}
		tp.Backward(tp.Sum(y))
		for i, want := range da {
			if a.Grad()[i] != want {
				t.Fatalf("d(Σ a·b)/da for %v · %v at %d = %v, want %v", sa, sb, i, a.Grad()[i], want)
			}
		}
	})
}
