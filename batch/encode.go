package batch

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/gorl/gorl/nd"
)

// The binary encoding of a Batch; the byte layout is described in doc.go.
const (
	magic         = "GRLB"
	formatVersion = 1
	// maxDepth bounds the nesting of Batches and of Object elements, so
	// that decoding cannot exhaust the stack.
	maxDepth = 100
	// maxNdim bounds the number of axes of an encoded array.
	maxNdim = 64
)

// Value tags.
const (
	tagNil byte = iota
	tagBatch
	tagArray
	tagString
)

// Object element tags.
const (
	elemNil byte = iota
	elemFalse
	elemTrue
	elemInt
	elemInt8
	elemInt16
	elemInt32
	elemInt64
	elemUint
	elemUint8
	elemUint16
	elemUint32
	elemUint64
	elemFloat32
	elemFloat64
	elemString
	elemList
	elemMap
	elemArray
)

// MarshalBinary encodes b in gorl's versioned binary format (see the
// package documentation for the layout): every dtype, nesting, reserved
// keys, nil, strings, and Object arrays whose elements are nil, bools, Go
// ints, uints and floats of every size, strings, []any and map[string]any
// of those, and *nd.Array. It returns an error wrapping ErrFormat, naming
// the key, for a value it cannot hold: a custom leaf, a scalar other than a
// string, an Object element of another type, or nesting deeper than 100.
func (b *Batch) MarshalBinary() ([]byte, error) {
	return b.AppendBinary(nil)
}

// AppendBinary appends the encoding of b (see MarshalBinary) to dst.
func (b *Batch) AppendBinary(dst []byte) ([]byte, error) {
	dst = append(dst, magic...)
	dst = append(dst, formatVersion)
	return appendBatch(dst, b, 0)
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func appendBatch(dst []byte, b *Batch, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, &Error{Kind: ErrFormat, Msg: fmt.Sprintf("Batches nested deeper than %d", maxDepth)}
	}
	dst = binary.AppendUvarint(dst, uint64(len(b.ents)))
	for _, e := range b.ents {
		dst = appendString(dst, e.key)
		var err error
		switch x := e.val.(type) {
		case nil:
			dst = append(dst, tagNil)
		case *Batch:
			dst = append(dst, tagBatch)
			if dst, err = appendBatch(dst, x, depth+1); err != nil {
				return nil, within(e.key, err)
			}
		case *nd.Array:
			dst = append(dst, tagArray)
			if dst, err = appendArray(dst, x, depth); err != nil {
				return nil, within(e.key, err)
			}
		case string:
			dst = append(dst, tagString)
			dst = appendString(dst, x)
		default:
			return nil, errAt(ErrFormat, e.key, "cannot encode "+describe(x), nil)
		}
	}
	return dst, nil
}

func appendArray(dst []byte, a *nd.Array, depth int) ([]byte, error) {
	dst = append(dst, byte(a.DType()))
	dst = binary.AppendUvarint(dst, uint64(a.Ndim()))
	for k := 0; k < a.Ndim(); k++ {
		dst = binary.AppendUvarint(dst, uint64(a.Dim(k)))
	}
	if !a.IsContiguous() {
		a = a.Copy()
	}
	switch a.DType() {
	case nd.Bool:
		for _, v := range nd.Data[bool](a) {
			if v {
				dst = append(dst, 1)
			} else {
				dst = append(dst, 0)
			}
		}
	case nd.Int8:
		for _, v := range nd.Data[int8](a) {
			dst = append(dst, byte(v))
		}
	case nd.Uint8:
		dst = append(dst, nd.Data[uint8](a)...)
	case nd.Int16:
		dst = appendInts(dst, nd.Data[int16](a), 2)
	case nd.Uint16:
		dst = appendInts(dst, nd.Data[uint16](a), 2)
	case nd.Int32:
		dst = appendInts(dst, nd.Data[int32](a), 4)
	case nd.Uint32:
		dst = appendInts(dst, nd.Data[uint32](a), 4)
	case nd.Int64:
		dst = appendInts(dst, nd.Data[int64](a), 8)
	case nd.Uint64:
		dst = appendInts(dst, nd.Data[uint64](a), 8)
	case nd.Float32:
		for _, v := range nd.Data[float32](a) {
			dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(v))
		}
	case nd.Float64:
		for _, v := range nd.Data[float64](a) {
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v))
		}
	case nd.Object:
		for i, v := range nd.Data[any](a) {
			var err error
			if dst, err = appendElem(dst, v, depth+1); err != nil {
				return nil, &Error{Kind: ErrFormat, Msg: fmt.Sprintf("Object element %d", i), Err: err}
			}
		}
	}
	return dst, nil
}

// appendInts appends integers as little-endian values of size bytes.
func appendInts[T int16 | uint16 | int32 | uint32 | int64 | uint64](dst []byte, vs []T, size int) []byte {
	for _, v := range vs {
		switch size {
		case 2:
			dst = binary.LittleEndian.AppendUint16(dst, uint16(v))
		case 4:
			dst = binary.LittleEndian.AppendUint32(dst, uint32(v))
		default:
			dst = binary.LittleEndian.AppendUint64(dst, uint64(v))
		}
	}
	return dst
}

func appendElem(dst []byte, v any, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("values nested deeper than %d", maxDepth)
	}
	switch x := v.(type) {
	case nil:
		return append(dst, elemNil), nil
	case bool:
		if x {
			return append(dst, elemTrue), nil
		}
		return append(dst, elemFalse), nil
	case int:
		return binary.AppendVarint(append(dst, elemInt), int64(x)), nil
	case int8:
		return append(dst, elemInt8, byte(x)), nil
	case int16:
		return binary.LittleEndian.AppendUint16(append(dst, elemInt16), uint16(x)), nil
	case int32:
		return binary.LittleEndian.AppendUint32(append(dst, elemInt32), uint32(x)), nil
	case int64:
		return binary.LittleEndian.AppendUint64(append(dst, elemInt64), uint64(x)), nil
	case uint:
		return binary.AppendUvarint(append(dst, elemUint), uint64(x)), nil
	case uint8:
		return append(dst, elemUint8, x), nil
	case uint16:
		return binary.LittleEndian.AppendUint16(append(dst, elemUint16), x), nil
	case uint32:
		return binary.LittleEndian.AppendUint32(append(dst, elemUint32), x), nil
	case uint64:
		return binary.LittleEndian.AppendUint64(append(dst, elemUint64), x), nil
	case float32:
		return binary.LittleEndian.AppendUint32(append(dst, elemFloat32), math.Float32bits(x)), nil
	case float64:
		return binary.LittleEndian.AppendUint64(append(dst, elemFloat64), math.Float64bits(x)), nil
	case string:
		return appendString(append(dst, elemString), x), nil
	case []any:
		dst = binary.AppendUvarint(append(dst, elemList), uint64(len(x)))
		for _, e := range x {
			var err error
			if dst, err = appendElem(dst, e, depth+1); err != nil {
				return nil, err
			}
		}
		return dst, nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = binary.AppendUvarint(append(dst, elemMap), uint64(len(x)))
		for _, k := range keys {
			dst = appendString(dst, k)
			var err error
			if dst, err = appendElem(dst, x[k], depth+1); err != nil {
				return nil, err
			}
		}
		return dst, nil
	case *nd.Array:
		if x == nil {
			return append(dst, elemNil), nil
		}
		return appendArray(append(dst, elemArray), x, depth)
	}
	return nil, fmt.Errorf("cannot encode a value of type %T", v)
}

// UnmarshalBinary replaces the contents of b by the Batch encoded in data
// (see MarshalBinary). It returns an error wrapping ErrFormat, saying what
// is wrong and where, for data that is truncated, corrupt, of another
// version or followed by trailing bytes; b is unchanged then. It never
// panics and allocates memory in proportion to len(data): every count and
// length is checked against the bytes that remain before anything is
// allocated for it.
func (b *Batch) UnmarshalBinary(data []byte) error {
	if len(data) < len(magic)+1 || string(data[:len(magic)]) != magic {
		return &Error{Kind: ErrFormat, Msg: "not a gorl Batch encoding (bad magic)"}
	}
	if v := data[len(magic)]; v != formatVersion {
		return &Error{Kind: ErrFormat, Msg: fmt.Sprintf("unknown format version %d (this package reads version %d)", v, formatVersion)}
	}
	d := decoder{buf: data, off: len(magic) + 1}
	r, err := d.batch(0)
	if err != nil {
		return err
	}
	if d.off != len(d.buf) {
		return d.errorf("%d trailing bytes after the Batch", len(d.buf)-d.off)
	}
	b.ents = r.ents
	return nil
}

// decoder reads an encoding; off is the position of the next byte.
type decoder struct {
	buf []byte
	off int
}

func (d *decoder) errorf(format string, args ...any) *Error {
	return &Error{Kind: ErrFormat, Msg: fmt.Sprintf("at byte %d: ", d.off) + fmt.Sprintf(format, args...)}
}

func (d *decoder) remaining() int { return len(d.buf) - d.off }

func (d *decoder) byte() (byte, error) {
	if d.off >= len(d.buf) {
		return 0, d.errorf("unexpected end of data")
	}
	c := d.buf[d.off]
	d.off++
	return c, nil
}

func (d *decoder) bytes(n int) ([]byte, error) {
	if n < 0 || n > d.remaining() {
		return nil, d.errorf("unexpected end of data: %d bytes needed, %d left", n, d.remaining())
	}
	s := d.buf[d.off : d.off+n]
	d.off += n
	return s, nil
}

func (d *decoder) uvarint() (uint64, error) {
	v, n := binary.Uvarint(d.buf[d.off:])
	if n <= 0 {
		return 0, d.errorf("bad or truncated varint")
	}
	d.off += n
	return v, nil
}

func (d *decoder) varint() (int64, error) {
	v, n := binary.Varint(d.buf[d.off:])
	if n <= 0 {
		return 0, d.errorf("bad or truncated varint")
	}
	d.off += n
	return v, nil
}

// count reads a count of items that take at least min bytes each and
// checks it against the remaining input.
func (d *decoder) count(what string, min int) (int, error) {
	v, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if v > uint64(d.remaining()/min) {
		return 0, d.errorf("%s count %d exceeds what the remaining %d bytes can hold", what, v, d.remaining())
	}
	return int(v), nil
}

func (d *decoder) string() (string, error) {
	n, err := d.count("string length", 1)
	if err != nil {
		return "", err
	}
	s, err := d.bytes(n)
	return string(s), err
}

func (d *decoder) batch(depth int) (*Batch, error) {
	if depth > maxDepth {
		return nil, d.errorf("Batches nested deeper than %d", maxDepth)
	}
	// An entry takes at least three bytes: key length, key, tag.
	n, err := d.count("key", 3)
	if err != nil {
		return nil, err
	}
	b := newBatch(n)
	for range n {
		key, err := d.string()
		if err != nil {
			return nil, err
		}
		if err := checkKey(key); err != nil {
			return nil, d.errorf("invalid key %q: %v", key, err)
		}
		if b.find(key) >= 0 {
			return nil, d.errorf("repeated key %q", key)
		}
		tag, err := d.byte()
		if err != nil {
			return nil, within(key, err)
		}
		var v any
		switch tag {
		case tagNil:
		case tagBatch:
			v, err = d.batch(depth + 1)
		case tagArray:
			v, err = d.array(depth)
		case tagString:
			v, err = d.string()
		default:
			err = d.errorf("unknown value tag %d", tag)
		}
		if err != nil {
			return nil, within(key, err)
		}
		b.ents = append(b.ents, entry{key, v})
	}
	return b, nil
}

func (d *decoder) array(depth int) (*nd.Array, error) {
	c, err := d.byte()
	if err != nil {
		return nil, err
	}
	dt := nd.DType(c)
	if dt < nd.Bool || dt > nd.Object {
		return nil, d.errorf("unknown dtype %d", c)
	}
	ndim, err := d.count("axis", 1)
	if err != nil {
		return nil, err
	}
	if ndim > maxNdim {
		return nil, d.errorf("%d axes (at most %d)", ndim, maxNdim)
	}
	shape := make([]int, ndim)
	empty := false
	for k := range shape {
		v, err := d.uvarint()
		if err != nil {
			return nil, err
		}
		if v > math.MaxInt32 {
			return nil, d.errorf("axis %d has length %d", k, v)
		}
		shape[k] = int(v)
		empty = empty || v == 0
	}
	// Every element takes at least one byte (numeric ones exactly their
	// size), so the element count is bounded by the remaining input.
	// An empty array holds no element, but its other axes must still have
	// a product that fits an int.
	size, limit := 1, d.remaining()
	if empty {
		limit = math.MaxInt
	}
	for _, n := range shape {
		if n == 0 {
			continue
		}
		if size > limit/n {
			return nil, d.errorf("array of shape %v needs more than the remaining %d bytes", shape, d.remaining())
		}
		size *= n
	}
	if empty {
		size = 0
	}
	width := dt.Size()
	if dt == nd.Object || dt == nd.Bool {
		width = 1
	}
	if size > d.remaining()/width {
		return nil, d.errorf("array of shape %v needs more than the remaining %d bytes", shape, d.remaining())
	}
	a := nd.Zeros(dt, shape...)
	if dt == nd.Object {
		out := nd.Data[any](a)
		for i := range out {
			if out[i], err = d.elem(depth + 1); err != nil {
				return nil, err
			}
		}
		return a, nil
	}
	raw, err := d.bytes(size * width)
	if err != nil {
		return nil, err
	}
	switch dt {
	case nd.Bool:
		out := nd.Data[bool](a)
		for i, c := range raw {
			if c > 1 {
				return nil, d.errorf("bool element %d is %d, not 0 or 1", i, c)
			}
			out[i] = c == 1
		}
	case nd.Int8:
		out := nd.Data[int8](a)
		for i, c := range raw {
			out[i] = int8(c)
		}
	case nd.Uint8:
		copy(nd.Data[uint8](a), raw)
	case nd.Int16:
		readInts(nd.Data[int16](a), raw, 2)
	case nd.Uint16:
		readInts(nd.Data[uint16](a), raw, 2)
	case nd.Int32:
		readInts(nd.Data[int32](a), raw, 4)
	case nd.Uint32:
		readInts(nd.Data[uint32](a), raw, 4)
	case nd.Int64:
		readInts(nd.Data[int64](a), raw, 8)
	case nd.Uint64:
		readInts(nd.Data[uint64](a), raw, 8)
	case nd.Float32:
		out := nd.Data[float32](a)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
	case nd.Float64:
		out := nd.Data[float64](a)
		for i := range out {
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
		}
	}
	return a, nil
}

func readInts[T int16 | uint16 | int32 | uint32 | int64 | uint64](out []T, raw []byte, size int) {
	for i := range out {
		switch size {
		case 2:
			out[i] = T(binary.LittleEndian.Uint16(raw[2*i:]))
		case 4:
			out[i] = T(binary.LittleEndian.Uint32(raw[4*i:]))
		default:
			out[i] = T(binary.LittleEndian.Uint64(raw[8*i:]))
		}
	}
}

func (d *decoder) elem(depth int) (any, error) {
	if depth > maxDepth {
		return nil, d.errorf("values nested deeper than %d", maxDepth)
	}
	tag, err := d.byte()
	if err != nil {
		return nil, err
	}
	switch tag {
	case elemNil:
		return nil, nil
	case elemFalse:
		return false, nil
	case elemTrue:
		return true, nil
	case elemInt:
		v, err := d.varint()
		if err != nil {
			return nil, err
		}
		if v < math.MinInt || v > math.MaxInt {
			return nil, d.errorf("int %d out of range", v)
		}
		return int(v), nil
	case elemUint:
		v, err := d.uvarint()
		if err != nil {
			return nil, err
		}
		if v > math.MaxUint {
			return nil, d.errorf("uint %d out of range", v)
		}
		return uint(v), nil
	case elemInt8, elemUint8:
		c, err := d.byte()
		if err != nil {
			return nil, err
		}
		if tag == elemInt8 {
			return int8(c), nil
		}
		return c, nil
	case elemInt16, elemUint16:
		r, err := d.bytes(2)
		if err != nil {
			return nil, err
		}
		v := binary.LittleEndian.Uint16(r)
		if tag == elemInt16 {
			return int16(v), nil
		}
		return v, nil
	case elemInt32, elemUint32, elemFloat32:
		r, err := d.bytes(4)
		if err != nil {
			return nil, err
		}
		v := binary.LittleEndian.Uint32(r)
		switch tag {
		case elemInt32:
			return int32(v), nil
		case elemUint32:
			return v, nil
		}
		return math.Float32frombits(v), nil
	case elemInt64, elemUint64, elemFloat64:
		r, err := d.bytes(8)
		if err != nil {
			return nil, err
		}
		v := binary.LittleEndian.Uint64(r)
		switch tag {
		case elemInt64:
			return int64(v), nil
		case elemUint64:
			return v, nil
		}
		return math.Float64frombits(v), nil
	case elemString:
		return d.string()
	case elemList:
		n, err := d.count("list element", 1)
		if err != nil {
			return nil, err
		}
		out := make([]any, n)
		for i := range out {
			if out[i], err = d.elem(depth + 1); err != nil {
				return nil, err
			}
		}
		return out, nil
	case elemMap:
		// A map entry takes at least two bytes: key length and value tag.
		n, err := d.count("map entry", 2)
		if err != nil {
			return nil, err
		}
		out := make(map[string]any, n)
		for range n {
			k, err := d.string()
			if err != nil {
				return nil, err
			}
			if out[k], err = d.elem(depth + 1); err != nil {
				return nil, err
			}
		}
		return out, nil
	case elemArray:
		return d.array(depth)
	}
	return nil, d.errorf("unknown element tag %d", tag)
}
