package buffer

import (
	"encoding/binary"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"sort"

	"github.com/gorl/gorl/nd"
)

// The file format, version 1. Everything is little-endian.
//
//	file    = magic "gorlbuf\x00", version u16, section…, end section
//	section = tag u8, length u64, payload (length bytes), CRC-32C u32
//
// The CRC covers tag, length and payload. A ring buffer's sections are
// meta, schema, one column section per stored array (in schema order,
// Cap() rows each) and, for prioritized buffers, the priorities; a
// Memory's are meta and its transitions (and priorities). Readers check
// every length against the bytes the input has left before allocating.
const (
	fileMagic   = "gorlbuf\x00"
	fileVersion = 1

	tagMeta   = 1
	tagSchema = 2
	tagColumn = 3
	tagPrio   = 4
	tagItems  = 5
	tagEnd    = 0xff

	// maxSmallSection bounds the sections read whole into memory (meta
	// and schema).
	maxSmallSection = 64 << 20
	// maxDepth bounds the nesting of schemas and encoded values.
	maxDepth = 64
	// chunk is the unit of streamed array data.
	chunk = 64 << 10
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Value tags of Object elements and custom attributes.
const (
	valNil = iota
	valFalse
	valTrue
	valInt
	valInt8
	valInt16
	valInt32
	valInt64
	valUint
	valUint8
	valUint16
	valUint32
	valUint64
	valFloat32
	valFloat64
	valString
	valList // []any
	valMap  // map[string]any, keys sorted
)

// encoder writes a section payload, or with w == nil only counts its
// bytes (the first of the two passes that give a section its length).
type encoder struct {
	w   io.Writer
	crc hash.Hash32
	n   uint64
	buf []byte
	err error
}

func (e *encoder) write(p []byte) {
	e.n += uint64(len(p))
	if e.w == nil || e.err != nil {
		return
	}
	if _, err := e.w.Write(p); err != nil {
		e.err = err
		return
	}
	e.crc.Write(p)
}

func (e *encoder) u8(v uint8) { e.write([]byte{v}) }
func (e *encoder) u16(v uint16) {
	e.write(binary.LittleEndian.AppendUint16(e.buf[:0], v))
}
func (e *encoder) u32(v uint32) {
	e.write(binary.LittleEndian.AppendUint32(e.buf[:0], v))
}
func (e *encoder) u64(v uint64) {
	e.write(binary.LittleEndian.AppendUint64(e.buf[:0], v))
}
func (e *encoder) f64(v float64) { e.u64(math.Float64bits(v)) }
func (e *encoder) str(s string) {
	e.u64(uint64(len(s)))
	e.write([]byte(s))
}
func (e *encoder) flag(b bool) {
	if b {
		e.u8(1)
	} else {
		e.u8(0)
	}
}

// elems writes elements [from, to) of a store of dtype dt.
func (e *encoder) elems(st store, dt nd.DType, from, to int, path string) error {
	if dt == nd.Object {
		s := st.elems().([]any)
		for _, v := range s[from:to] {
			if err := e.value(v, path, 0); err != nil {
				return err
			}
		}
		return nil
	}
	if e.w == nil {
		e.n += uint64(to-from) * uint64(dt.Size())
		return nil
	}
	per := max(1, chunk/dt.Size())
	for i := from; i < to && e.err == nil; i += per {
		j := min(to, i+per)
		b, err := st.appendLE(e.buf[:0], i, j)
		if err != nil {
			return &Error{Kind: ErrFormat, Path: path, Msg: "encode", Err: err}
		}
		e.buf = b[:0]
		e.write(b)
	}
	return nil
}

// array writes a standalone array: dtype, shape, elements.
func (e *encoder) array(a *nd.Array, path string) error {
	a = contiguous(a)
	e.u8(uint8(a.DType()))
	e.u8(uint8(a.Ndim()))
	for i := range a.Ndim() {
		e.u64(uint64(a.Dim(i)))
	}
	return e.elems(newStore(a), a.DType(), 0, a.Size(), path)
}

func contiguous(a *nd.Array) *nd.Array {
	if a.IsContiguous() {
		return a
	}
	return a.Copy()
}

// value writes a Go value with a tag; see the val constants.
func (e *encoder) value(v any, path string, depth int) error {
	if depth > maxDepth {
		return errorf(ErrFormat, path, "value nested too deeply to save")
	}
	switch x := v.(type) {
	case nil:
		e.u8(valNil)
	case bool:
		if x {
			e.u8(valTrue)
		} else {
			e.u8(valFalse)
		}
	case int:
		e.u8(valInt)
		e.u64(uint64(x))
	case int8:
		e.u8(valInt8)
		e.u64(uint64(x))
	case int16:
		e.u8(valInt16)
		e.u64(uint64(x))
	case int32:
		e.u8(valInt32)
		e.u64(uint64(x))
	case int64:
		e.u8(valInt64)
		e.u64(uint64(x))
	case uint:
		e.u8(valUint)
		e.u64(uint64(x))
	case uint8:
		e.u8(valUint8)
		e.u64(uint64(x))
	case uint16:
		e.u8(valUint16)
		e.u64(uint64(x))
	case uint32:
		e.u8(valUint32)
		e.u64(uint64(x))
	case uint64:
		e.u8(valUint64)
		e.u64(x)
	case float32:
		e.u8(valFloat32)
		e.u64(uint64(math.Float32bits(x)))
	case float64:
		e.u8(valFloat64)
		e.f64(x)
	case string:
		e.u8(valString)
		e.str(x)
	case []any:
		e.u8(valList)
		e.u64(uint64(len(x)))
		for _, y := range x {
			if err := e.value(y, path, depth+1); err != nil {
				return err
			}
		}
	case map[string]any:
		e.u8(valMap)
		e.u64(uint64(len(x)))
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			e.str(k)
			if err := e.value(x[k], path, depth+1); err != nil {
				return err
			}
		}
	default:
		return errorf(ErrFormat, path, fmt.Sprintf("cannot save a value of type %T (nil, bools, numbers, strings, []any and map[string]any can be saved)", v))
	}
	return nil
}

// fileWriter writes sections.
type fileWriter struct {
	w   io.Writer
	crc hash.Hash32
	buf []byte
}

func newFileWriter(w io.Writer) (*fileWriter, error) {
	fw := &fileWriter{w: w, crc: crc32.New(castagnoli), buf: make([]byte, 0, chunk)}
	hdr := append([]byte(fileMagic), 0, 0)
	binary.LittleEndian.PutUint16(hdr[len(fileMagic):], fileVersion)
	if _, err := w.Write(hdr); err != nil {
		return nil, &Error{Kind: ErrFormat, Msg: "Save", Err: err}
	}
	return fw, nil
}

// section writes one section whose payload body writes: a counting pass,
// then the writing pass.
func (fw *fileWriter) section(tag byte, body func(e *encoder) error) error {
	count := &encoder{buf: fw.buf}
	if err := body(count); err != nil {
		return err
	}
	fw.crc.Reset()
	e := &encoder{w: fw.w, crc: fw.crc, buf: fw.buf}
	e.u8(tag)
	e.u64(count.n)
	e.n = 0
	if err := body(e); err != nil {
		return err
	}
	if e.err == nil && e.n != count.n {
		e.err = fmt.Errorf("section %d: wrote %d bytes, counted %d", tag, e.n, count.n)
	}
	if e.err == nil {
		_, e.err = fw.w.Write(binary.LittleEndian.AppendUint32(nil, fw.crc.Sum32()))
	}
	if e.err != nil {
		return &Error{Kind: ErrFormat, Msg: "Save", Err: e.err}
	}
	return nil
}

// fileReader reads sections from an input of known size.
type fileReader struct {
	r      io.Reader
	remain int64 // bytes the input has left
	crc    hash.Hash32
	buf    []byte
}

func newFileReader(r io.Reader, size int64) (*fileReader, error) {
	fr := &fileReader{r: r, remain: size, crc: crc32.New(castagnoli), buf: make([]byte, chunk)}
	hdr := make([]byte, len(fileMagic)+2)
	if err := fr.read(hdr, "file header"); err != nil {
		return nil, err
	}
	if string(hdr[:len(fileMagic)]) != fileMagic {
		return nil, errorf(ErrFormat, "", "not a gorl buffer file (bad magic)")
	}
	if v := binary.LittleEndian.Uint16(hdr[len(fileMagic):]); v != fileVersion {
		return nil, errorf(ErrFormat, "", fmt.Sprintf("file format version %d, this package reads version %d", v, fileVersion))
	}
	return fr, nil
}

func (fr *fileReader) read(p []byte, what string) error {
	if int64(len(p)) > fr.remain {
		return errorf(ErrFormat, "", fmt.Sprintf("truncated in %s: %d bytes needed, %d left", what, len(p), fr.remain))
	}
	if _, err := io.ReadFull(fr.r, p); err != nil {
		return &Error{Kind: ErrFormat, Msg: "truncated in " + what, Err: err}
	}
	fr.remain -= int64(len(p))
	fr.crc.Write(p)
	return nil
}

// section reads a section header, checking its tag and that the input
// holds its payload and checksum.
func (fr *fileReader) section(tag byte, what string) (*decoder, error) {
	fr.crc.Reset()
	h := fr.buf[:9]
	if err := fr.read(h, what+" header"); err != nil {
		return nil, err
	}
	if h[0] != tag {
		return nil, errorf(ErrFormat, "", fmt.Sprintf("expected the %s section (tag %d), found tag %d", what, tag, h[0]))
	}
	n := binary.LittleEndian.Uint64(h[1:])
	if fr.remain < 4 || n > uint64(fr.remain-4) {
		return nil, errorf(ErrFormat, "", fmt.Sprintf("%s section claims %d bytes, the input has %d left", what, n, max(fr.remain-4, 0)))
	}
	return &decoder{fr: fr, left: n, what: what}, nil
}

// decoder reads a section payload. Errors are sticky: after the first,
// reads return zeros.
type decoder struct {
	fr   *fileReader
	left uint64
	what string
	err  error
}

func (d *decoder) fail(msg string) {
	if d.err == nil {
		d.err = errorf(ErrFormat, "", d.what+" section: "+msg)
	}
}

// bytes reads n ≤ chunk bytes into scratch.
func (d *decoder) bytes(n int) []byte {
	if d.err != nil {
		return d.fr.buf[:n]
	}
	if uint64(n) > d.left {
		d.fail(fmt.Sprintf("%d bytes needed, %d left", n, d.left))
		return d.fr.buf[:n]
	}
	b := d.fr.buf[:n]
	if err := d.fr.read(b, d.what+" section"); err != nil {
		d.err = err
		clear(b)
		return b
	}
	d.left -= uint64(n)
	return b
}

func (d *decoder) u8() uint8   { return d.bytes(1)[0] }
func (d *decoder) u16() uint16 { return binary.LittleEndian.Uint16(d.bytes(2)) }
func (d *decoder) u32() uint32 { return binary.LittleEndian.Uint32(d.bytes(4)) }
func (d *decoder) u64() uint64 { return binary.LittleEndian.Uint64(d.bytes(8)) }
func (d *decoder) f64() float64 {
	return math.Float64frombits(d.u64())
}
func (d *decoder) flag() bool {
	switch d.u8() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail("bad flag byte")
	return false
}

// int reads a u64 that must be at most limit.
func (d *decoder) int(limit uint64, name string) int {
	v := d.u64()
	if v > limit {
		d.fail(fmt.Sprintf("%s %d out of range (at most %d)", name, v, limit))
		return 0
	}
	return int(v)
}

// signed reads a sign-extended integer in [lo, hi].
func (d *decoder) signed(lo, hi int64) int64 {
	v := int64(d.u64())
	if v < lo || v > hi {
		d.fail(fmt.Sprintf("integer %d out of range [%d, %d]", v, lo, hi))
		return 0
	}
	return v
}

func (d *decoder) str() string {
	n := d.u64()
	if n > d.left {
		d.fail(fmt.Sprintf("string of %d bytes, %d left", n, d.left))
		return ""
	}
	out := make([]byte, 0, min(n, chunk))
	for n > 0 && d.err == nil {
		k := min(n, chunk)
		out = append(out, d.bytes(int(k))...)
		n -= k
	}
	return string(out)
}

// end checks that the payload was read whole and the checksum matches.
func (d *decoder) end() error {
	if d.err != nil {
		return d.err
	}
	if d.left != 0 {
		return errorf(ErrFormat, "", fmt.Sprintf("%s section has %d unread bytes", d.what, d.left))
	}
	want := d.fr.crc.Sum32()
	b := d.fr.buf[:4]
	if err := d.fr.read(b, d.what+" checksum"); err != nil {
		return err
	}
	if got := binary.LittleEndian.Uint32(b); got != want {
		return errorf(ErrFormat, "", fmt.Sprintf("%s section checksum mismatch (stored %08x, computed %08x): the file is corrupt", d.what, got, want))
	}
	return nil
}

// elems reads elements [from, to) into a store of dtype dt.
func (d *decoder) elems(st store, dt nd.DType, from, to int, path string) {
	if dt == nd.Object {
		s := st.elems().([]any)
		for i := from; i < to && d.err == nil; i++ {
			s[i] = d.value(path, 0)
		}
		return
	}
	size := dt.Size()
	per := chunk / size
	for i := from; i < to && d.err == nil; i += per {
		j := min(to, i+per)
		b := d.bytes((j - i) * size)
		if d.err != nil {
			return
		}
		if dt == nd.Bool {
			for _, x := range b {
				if x > 1 {
					d.fail(fmt.Sprintf("key %s: bool byte %d", path, x))
					return
				}
			}
		}
		if err := st.decodeLE(b, i, j); err != nil {
			d.err = &Error{Kind: ErrFormat, Path: path, Msg: "decode", Err: err}
		}
	}
}

// checkElems checks that n elements of dtype dt can come from the bytes
// left (at least one byte each for Object elements), before allocating.
func (d *decoder) checkElems(dt nd.DType, n uint64, path string) bool {
	per := uint64(1)
	if dt != nd.Object {
		per = uint64(dt.Size())
	}
	if n > d.left/per {
		d.fail(fmt.Sprintf("key %s: %d elements of %v do not fit the %d bytes left", path, n, dt, d.left))
		return false
	}
	return true
}

// dtype reads a dtype byte.
func (d *decoder) dtype() nd.DType {
	dt := nd.DType(d.u8())
	if dt < nd.Bool || dt > nd.Object {
		d.fail(fmt.Sprintf("unknown dtype %d", dt))
		return nd.Float64
	}
	return dt
}

// array reads a standalone array written by encoder.array.
func (d *decoder) array(path string) *nd.Array {
	dt := d.dtype()
	nd0 := int(d.u8())
	if nd0 > 32 {
		d.fail(fmt.Sprintf("key %s: %d dimensions", path, nd0))
	}
	shape := make([]int, 0, 4)
	n := uint64(1)
	for range nd0 {
		if d.err != nil {
			return nil
		}
		v := d.u64()
		if v > d.left || n != 0 && v > math.MaxInt64/n {
			d.fail(fmt.Sprintf("key %s: dimension %d too large", path, v))
			return nil
		}
		n *= v
		shape = append(shape, int(v))
	}
	if d.err != nil || !d.checkElems(dt, n, path) {
		return nil
	}
	a := nd.Zeros(dt, shape...)
	d.elems(newStore(a), dt, 0, int(n), path)
	return a
}

// value reads a value written by encoder.value.
func (d *decoder) value(path string, depth int) any {
	if depth > maxDepth {
		d.fail("value nested too deeply")
		return nil
	}
	switch tag := d.u8(); tag {
	case valNil:
		return nil
	case valFalse:
		return false
	case valTrue:
		return true
	case valInt, valInt64:
		v := int64(d.u64())
		if tag == valInt && int64(int(v)) != v {
			d.fail("int out of range")
		}
		if tag == valInt {
			return int(v)
		}
		return v
	case valInt8:
		return int8(d.signed(math.MinInt8, math.MaxInt8))
	case valInt16:
		return int16(d.signed(math.MinInt16, math.MaxInt16))
	case valInt32:
		return int32(d.signed(math.MinInt32, math.MaxInt32))
	case valUint:
		return uint(d.int(uint64(^uint(0)), "uint"))
	case valUint8:
		return uint8(d.int(math.MaxUint8, "uint8"))
	case valUint16:
		return uint16(d.int(math.MaxUint16, "uint16"))
	case valUint32:
		return uint32(d.int(math.MaxUint32, "uint32"))
	case valUint64:
		return d.u64()
	case valFloat32:
		return math.Float32frombits(uint32(d.int(math.MaxUint32, "float32 bits")))
	case valFloat64:
		return d.f64()
	case valString:
		return d.str()
	case valList:
		n := d.int(d.left, "list length")
		out := make([]any, 0, min(n, chunk))
		for range n {
			if d.err != nil {
				return nil
			}
			out = append(out, d.value(path, depth+1))
		}
		return out
	case valMap:
		n := d.int(d.left/5, "map size")
		out := make(map[string]any, min(n, chunk))
		prev := ""
		for i := range n {
			if d.err != nil {
				return nil
			}
			k := d.str()
			if i > 0 && k <= prev {
				d.fail("map keys not in increasing order")
				return nil
			}
			prev = k
			out[k] = d.value(path, depth+1)
		}
		return out
	default:
		d.fail(fmt.Sprintf("key %s: unknown value tag %d", path, tag))
		return nil
	}
}

func (t typed[T]) appendLE(buf []byte, from, to int) ([]byte, error) {
	return binary.Append(buf, binary.LittleEndian, t.s[from:to])
}

func (t typed[T]) decodeLE(buf []byte, from, to int) error {
	_, err := binary.Decode(buf, binary.LittleEndian, t.s[from:to])
	return err
}
