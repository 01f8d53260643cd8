package env

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gorl/gorl/nd"
)

// The saved state of a wrapper is
//
//	tag    uvarint length + bytes: the wrapper's kind and format version
//	fields the wrapper's own fields (uvarints, little-endian float64s,
//	       length-prefixed byte strings, raw little-endian array elements)
//	inner  uvarint length + bytes: the wrapped env's MarshalState
//
// A reader checks every length against the remaining input before using it,
// so corrupt input gives an error wrapping ErrState, never a panic or an
// allocation larger than the input.

// stateWriter appends the fields of a saved state.
type stateWriter struct{ b []byte }

func (w *stateWriter) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *stateWriter) float(v float64) {
	w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(v))
}

func (w *stateWriter) bool(v bool) {
	if v {
		w.uint(1)
	} else {
		w.uint(0)
	}
}

func (w *stateWriter) bytes(p []byte) {
	w.uint(uint64(len(p)))
	w.b = append(w.b, p...)
}

func (w *stateWriter) floats(v []float64) {
	for _, x := range v {
		w.float(x)
	}
}

// array appends a's elements in C order, little-endian; the reader knows
// its dtype and shape.
func (w *stateWriter) array(a *nd.Array) {
	w.b, _ = binary.Append(w.b, binary.LittleEndian, rawData(contiguous(a)))
}

// stateReader reads the fields a stateWriter wrote. The first problem is
// kept in err; later reads return zero values.
type stateReader struct {
	b   []byte
	err error
}

func (r *stateReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrState}, args...)...)
	}
}

func (r *stateReader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("truncated or overlong integer")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *stateReader) bool() bool {
	switch v := r.uint(); v {
	case 0:
		return false
	case 1:
		return true
	default:
		r.fail("flag %d is not 0 or 1", v)
		return false
	}
}

func (r *stateReader) float() float64 {
	if r.err != nil {
		return 0
	}
	if len(r.b) < 8 {
		r.fail("truncated float")
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return v
}

func (r *stateReader) bytes() []byte {
	n := r.uint()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.fail("length %d exceeds the %d bytes left", n, len(r.b))
		return nil
	}
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}

// floats reads len(dst) float64s into dst.
func (r *stateReader) floats(dst []float64) {
	for i := range dst {
		dst[i] = r.float()
	}
}

// array reads elements into a, a contiguous array of the dtype and shape
// that was written.
func (r *stateReader) array(a *nd.Array) {
	if r.err != nil {
		return
	}
	n, err := binary.Decode(r.b, binary.LittleEndian, rawData(a))
	if err != nil {
		r.fail("truncated %v array of %d elements", a.DType(), a.Size())
		return
	}
	r.b = r.b[n:]
}

// end records an error if input is left over.
func (r *stateReader) end() {
	if r.err == nil && len(r.b) != 0 {
		r.fail("%d bytes left over", len(r.b))
	}
}

// rawData returns the elements of a contiguous numeric or Bool array as a
// typed slice, for encoding/binary.
func rawData(a *nd.Array) any {
	switch a.DType() {
	case nd.Bool:
		return nd.Data[bool](a)
	case nd.Int8:
		return nd.Data[int8](a)
	case nd.Int16:
		return nd.Data[int16](a)
	case nd.Int32:
		return nd.Data[int32](a)
	case nd.Int64:
		return nd.Data[int64](a)
	case nd.Uint8:
		return nd.Data[uint8](a)
	case nd.Uint16:
		return nd.Data[uint16](a)
	case nd.Uint32:
		return nd.Data[uint32](a)
	case nd.Uint64:
		return nd.Data[uint64](a)
	case nd.Float32:
		return nd.Data[float32](a)
	case nd.Float64:
		return nd.Data[float64](a)
	}
	panic(&nd.Error{Kind: nd.ErrDType, Msg: "env: cannot save an array of dtype " + a.DType().String()})
}

// marshalWrapper returns the saved state of a wrapper: tag, the fields own
// writes, and inner's state.
func marshalWrapper(tag string, own func(w *stateWriter), inner Env) ([]byte, error) {
	in, err := MarshalState(inner)
	if err != nil {
		return nil, err
	}
	w := &stateWriter{}
	w.bytes([]byte(tag))
	own(w)
	w.bytes(in)
	return w.b, nil
}

// unmarshalWrapper restores a wrapper's state: it checks the tag, lets read
// parse the wrapper's fields (into temporaries), restores inner, and only
// then calls commit, so that a failure anywhere leaves the wrapper and inner
// unchanged.
func unmarshalWrapper(data []byte, tag string, read func(r *stateReader), inner Env, commit func()) error {
	r := &stateReader{b: data}
	if got := r.bytes(); r.err == nil && string(got) != tag {
		return fmt.Errorf("%w: state of %q, not %q", ErrState, got, tag)
	}
	read(r)
	in := r.bytes()
	r.end()
	if r.err != nil {
		return fmt.Errorf("%s state: %w", tag, r.err)
	}
	if err := UnmarshalState(inner, in); err != nil {
		return err
	}
	commit()
	return nil
}
