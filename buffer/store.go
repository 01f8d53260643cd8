package buffer

import (
	"github.com/gorl/gorl/nd"
)

// store gives typed access to the elements of one storage column, so that
// rows move with copy instead of per-element dispatch: the kernels of Add,
// sampling, Update and the file format. Rows are rowLen consecutive
// elements; row r starts at element r·rowLen.
type store interface {
	// put copies rows of src, an array of the store's dtype and
	// C-contiguous: row dst[j] receives elements [base+j·stride,
	// base+j·stride+rowLen) of src.
	put(dst []int, rowLen int, src *nd.Array, base, stride int)
	// zero resets the rows rows to the zero value.
	zero(rows []int, rowLen int)
	// gather copies the rows rows into dst, a C-contiguous array of the
	// store's dtype with len(rows)·rowLen elements.
	gather(dst *nd.Array, rows []int, rowLen int)
	// copyFrom copies row src[j] of from (a store of the same dtype) into
	// row dst[j], in order of j.
	copyFrom(from store, dst, src []int, rowLen int)
	// elems returns the typed slice of the elements.
	elems() any
	// appendLE appends elements [from, to) little-endian (not for Object).
	appendLE(buf []byte, from, to int) ([]byte, error)
	// decodeLE sets elements [from, to) from little-endian bytes (not for
	// Object).
	decodeLE(buf []byte, from, to int) error
}

type typed[T any] struct{ s []T }

func newStore(a *nd.Array) store {
	switch a.DType() {
	case nd.Bool:
		return typed[bool]{nd.Data[bool](a)}
	case nd.Int8:
		return typed[int8]{nd.Data[int8](a)}
	case nd.Int16:
		return typed[int16]{nd.Data[int16](a)}
	case nd.Int32:
		return typed[int32]{nd.Data[int32](a)}
	case nd.Int64:
		return typed[int64]{nd.Data[int64](a)}
	case nd.Uint8:
		return typed[uint8]{nd.Data[uint8](a)}
	case nd.Uint16:
		return typed[uint16]{nd.Data[uint16](a)}
	case nd.Uint32:
		return typed[uint32]{nd.Data[uint32](a)}
	case nd.Uint64:
		return typed[uint64]{nd.Data[uint64](a)}
	case nd.Float32:
		return typed[float32]{nd.Data[float32](a)}
	case nd.Float64:
		return typed[float64]{nd.Data[float64](a)}
	default:
		return typed[any]{nd.Data[any](a)}
	}
}

func (t typed[T]) put(dst []int, rowLen int, src *nd.Array, base, stride int) {
	s := nd.Data[T](src)
	switch rowLen {
	case 1:
		for j, p := range dst {
			t.s[p] = s[base+j*stride]
		}
		return
	case 4:
		for j, p := range dst {
			*(*[4]T)(t.s[p*4:]) = *(*[4]T)(s[base+j*stride:])
		}
		return
	}
	for j, p := range dst {
		o := base + j*stride
		copy(t.s[p*rowLen:(p+1)*rowLen], s[o:o+rowLen])
	}
}

func (t typed[T]) zero(rows []int, rowLen int) {
	for _, r := range rows {
		clear(t.s[r*rowLen : (r+1)*rowLen])
	}
}

func (t typed[T]) gather(dst *nd.Array, rows []int, rowLen int) {
	d := nd.Data[T](dst)
	// Short rows move as fixed-size arrays: a memmove call per row costs
	// more than the copy itself.
	switch rowLen {
	case 1:
		d = d[:len(rows)]
		for i, r := range rows {
			d[i] = t.s[r]
		}
	case 2:
		for i, r := range rows {
			*(*[2]T)(d[i*2:]) = *(*[2]T)(t.s[r*2:])
		}
	case 3:
		for i, r := range rows {
			*(*[3]T)(d[i*3:]) = *(*[3]T)(t.s[r*3:])
		}
	case 4:
		for i, r := range rows {
			*(*[4]T)(d[i*4:]) = *(*[4]T)(t.s[r*4:])
		}
	default:
		for i, r := range rows {
			copy(d[i*rowLen:(i+1)*rowLen], t.s[r*rowLen:(r+1)*rowLen])
		}
	}
}

func (t typed[T]) copyFrom(from store, dst, src []int, rowLen int) {
	f := from.(typed[T]).s
	for j, p := range dst {
		copy(t.s[p*rowLen:(p+1)*rowLen], f[src[j]*rowLen:(src[j]+1)*rowLen])
	}
}

func (t typed[T]) elems() any { return t.s }
