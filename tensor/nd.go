package tensor

import (
	"fmt"

	"github.com/gorl/gorl/nd"
)

// FromND returns a leaf tensor holding a's values with a's shape (an nd array
// from a Batch or a replay buffer). A C-contiguous float32 array is referenced
// without copying: writes through either are visible in both. Other arrays
// (another numeric or bool dtype, with false and true as 0 and 1, or a
// non-contiguous view) are converted into new memory, float64 and 64-bit
// integers rounded to the nearest float32.
//
// FromND returns an error wrapping ErrDType for an Object array.
func FromND(a *nd.Array) (*Tensor, error) {
	t := &Tensor{shape: make([]int, a.Ndim())}
	for i := range t.shape {
		t.shape[i] = a.Dim(i)
	}
	if a.DType() == nd.Float32 && a.IsContiguous() {
		t.data = nd.Data[float32](a)
		return t, nil
	}
	t.data = make([]float32, a.Size())
	if err := convertND(t.data, a); err != nil {
		return nil, err
	}
	return t, nil
}

// FromND is the tape form of the package function FromND: the result lives
// in tp's arena until Reset, so converting each step's batch allocates
// nothing in steady state when a is contiguous (a float32 array is still
// referenced, others converted into reused memory). It never requires
// gradients.
func (tp *Tape) FromND(a *nd.Array) (*Tensor, error) {
	n := tp.newNode(nil, nil, nil, nil)
	n.out.shape = n.out.shape[:0]
	for i := 0; i < a.Ndim(); i++ {
		n.out.shape = append(n.out.shape, a.Dim(i))
	}
	if a.DType() == nd.Float32 && a.IsContiguous() {
		n.out.data = nd.Data[float32](a)
		return &n.out, nil
	}
	if err := convertND(n.setShape(n.out.shape...), a); err != nil {
		return nil, err
	}
	return &n.out, nil
}

// convertND writes a's values, in C order, into dst as float32.
func convertND(dst []float32, a *nd.Array) error {
	if !a.IsContiguous() {
		a = a.Copy()
	}
	switch a.DType() {
	case nd.Bool:
		for i, v := range nd.Data[bool](a) {
			dst[i] = 0
			if v {
				dst[i] = 1
			}
		}
	case nd.Int8:
		convertSlice(dst, nd.Data[int8](a))
	case nd.Int16:
		convertSlice(dst, nd.Data[int16](a))
	case nd.Int32:
		convertSlice(dst, nd.Data[int32](a))
	case nd.Int64:
		convertSlice(dst, nd.Data[int64](a))
	case nd.Uint8:
		convertSlice(dst, nd.Data[uint8](a))
	case nd.Uint16:
		convertSlice(dst, nd.Data[uint16](a))
	case nd.Uint32:
		convertSlice(dst, nd.Data[uint32](a))
	case nd.Uint64:
		convertSlice(dst, nd.Data[uint64](a))
	case nd.Float32:
		copy(dst, nd.Data[float32](a))
	case nd.Float64:
		convertSlice(dst, nd.Data[float64](a))
	default:
		return fmt.Errorf("%w: FromND of a %v array", ErrDType, a.DType())
	}
	return nil
}

func convertSlice[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float64](dst []float32, src []T) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}

// ND returns t's values as a float32 nd array of t's shape that shares t's
// memory (no copy): writes through either are visible in both. For a tape's
// result the memory is reused after the tape is Reset.
func (t *Tensor) ND() *nd.Array {
	a, err := nd.FromSlice(t.data, append([]int{}, t.shape...)...)
	if err != nil {
		// A tensor's data always fits its shape.
		panic(err)
	}
	return a
}
