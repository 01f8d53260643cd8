package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"unsafe"

	"github.com/gorl/gorl/nd"
)

// Version is the protocol version this package speaks.
const Version = 1

// Limits of the decoder.
const (
	// MaxFrame is the largest frame length accepted, in bytes.
	MaxFrame = 64 << 20
	// MaxDepth is how deep spaces and infos may nest.
	MaxDepth = 16
	// maxDims is the largest number of dimensions of an array.
	maxDims = 32
)

// magic opens the hello frame.
const magic = "GORLWIRE"

// Frame types.
const (
	TypeReset  byte = 0x01
	TypeStep   byte = 0x02
	TypeRender byte = 0x03
	TypeClose  byte = 0x04

	TypeHello   byte = 0x80
	TypeResetOK byte = 0x81
	TypeStepOK  byte = 0x82
	TypeFrame   byte = 0x83
	TypeClosed  byte = 0x84
	TypeError   byte = 0xFF
)

// ErrProtocol is wrapped by the errors of malformed frames and values.
var ErrProtocol = errors.New("wire: protocol error")

func protoErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrProtocol}, args...)...)
}

// readChunk is how much of a frame is read before its buffer grows again,
// so that a header claiming a large frame allocates only as the bytes
// arrive.
const readChunk = 64 << 10

// ReadFrame reads one frame from r into buf (grown as needed and returned)
// and returns its type and payload, a slice of buf. It returns io.EOF if r
// ends before a frame starts, and an error wrapping ErrProtocol for a
// length of 0 or over MaxFrame, or a frame cut short.
func ReadFrame(r io.Reader, buf []byte) (typ byte, payload, newBuf []byte, err error) {
	if cap(buf) < 4 {
		buf = make([]byte, 4, 64)
	}
	hdr := buf[:4] // in buf, so that reading does not allocate
	if _, err := io.ReadFull(r, hdr); err != nil {
		if err == io.ErrUnexpectedEOF {
			return 0, nil, buf, protoErr("frame header cut short")
		}
		return 0, nil, buf, err
	}
	n := binary.LittleEndian.Uint32(hdr)
	if n == 0 || n > MaxFrame {
		return 0, nil, buf, protoErr("frame length %d outside [1, %d]", n, MaxFrame)
	}
	buf = buf[:0]
	for left := int(n); left > 0; {
		k := min(left, readChunk)
		if cap(buf)-len(buf) < k {
			buf = append(buf[:cap(buf)], make([]byte, k)...)[:len(buf)]
		}
		m, err := io.ReadFull(r, buf[len(buf):len(buf)+k])
		buf = buf[:len(buf)+m]
		if err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return 0, nil, buf, protoErr("frame of %d bytes cut short after %d", n, len(buf))
			}
			return 0, nil, buf, err
		}
		left -= k
	}
	return buf[0], buf[1:], buf, nil
}

// enc appends little-endian values to a byte slice.
type enc struct{ b []byte }

// begin starts a frame of type typ, leaving room for the length.
func (e *enc) begin(typ byte) { e.b = append(e.b[:0], 0, 0, 0, 0, typ) }

// finish writes the length of the frame begun.
func (e *enc) finish() []byte {
	binary.LittleEndian.PutUint32(e.b, uint32(len(e.b)-4))
	return e.b
}

func (e *enc) u8(v byte)     { e.b = append(e.b, v) }
func (e *enc) u16(v uint16)  { e.b = binary.LittleEndian.AppendUint16(e.b, v) }
func (e *enc) u32(v uint32)  { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *enc) u64(v uint64)  { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *enc) f64(v float64) { e.u64(math.Float64bits(v)) }
func (e *enc) str(s string)  { e.u32(uint32(len(s))); e.b = append(e.b, s...) }
func (e *enc) raw(p []byte)  { e.b = append(e.b, p...) }
func (e *enc) dims(sh []int) {
	e.u8(byte(len(sh)))
	for _, d := range sh {
		e.u32(uint32(d))
	}
}

// dec reads little-endian values from a payload; the first error sticks
// and later reads return zeros.
type dec struct {
	b   []byte
	err error
}

func (d *dec) fail(format string, args ...any) {
	if d.err == nil {
		d.err = protoErr(format, args...)
	}
}

func (d *dec) take(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.b) {
		d.fail("%s needs %d bytes, %d left", what, n, len(d.b))
		return nil
	}
	p := d.b[:n:n]
	d.b = d.b[n:]
	return p
}

func (d *dec) u8(what string) byte {
	if p := d.take(1, what); p != nil {
		return p[0]
	}
	return 0
}

func (d *dec) u16(what string) uint16 {
	if p := d.take(2, what); p != nil {
		return binary.LittleEndian.Uint16(p)
	}
	return 0
}

func (d *dec) u32(what string) uint32 {
	if p := d.take(4, what); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (d *dec) u64(what string) uint64 {
	if p := d.take(8, what); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

func (d *dec) f64(what string) float64 { return math.Float64frombits(d.u64(what)) }

func (d *dec) str(what string) string {
	n := d.u32(what)
	return string(d.take(int(min(n, math.MaxInt32)), what))
}

// count reads a u32 count of items of at least minSize bytes each and
// checks that the bytes left can hold them.
func (d *dec) count(what string, minSize int) int {
	n := d.u32(what)
	if d.err == nil && uint64(n)*uint64(minSize) > uint64(len(d.b)) {
		d.fail("%s count %d exceeds the %d bytes left", what, n, len(d.b))
		return 0
	}
	return int(n)
}

// dims reads a shape whose element count times elemSize must fit in the
// bytes left (so that no array larger than the frame is allocated).
func (d *dec) dims(what string, elemSize int) []int {
	n := int(d.u8(what))
	if n > maxDims {
		d.fail("%s has %d dimensions (at most %d)", what, n, maxDims)
		return nil
	}
	if d.err == nil && n*4 > len(d.b) {
		d.fail("%s: %d dimensions need %d bytes, %d left", what, n, n*4, len(d.b))
		return nil
	}
	sh := make([]int, n)
	size := uint64(1)
	for i := range sh {
		v := d.u32(what)
		sh[i] = int(v)
		size *= uint64(v)
		if size*uint64(max(elemSize, 1)) > uint64(len(d.b)) && d.err == nil {
			d.fail("%s of shape %v exceeds the %d bytes left", what, sh[:i+1], len(d.b))
			return nil
		}
	}
	return sh
}

// end checks that the payload was read exactly.
func (d *dec) end(what string) error {
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes after the %s", len(d.b), what)
	}
	return d.err
}

// Dtype codes of the protocol.
var dtypeCodes = [...]nd.DType{
	1: nd.Bool, 2: nd.Int8, 3: nd.Int16, 4: nd.Int32, 5: nd.Int64, 6: nd.Uint8,
	7: nd.Uint16, 8: nd.Uint32, 9: nd.Uint64, 10: nd.Float32, 11: nd.Float64,
}

func dtypeCode(dt nd.DType) (byte, error) {
	for c, t := range dtypeCodes {
		if t == dt && c > 0 {
			return byte(c), nil
		}
	}
	return 0, fmt.Errorf("wire: dtype %v has no protocol code", dt)
}

func (d *dec) dtype(what string) nd.DType {
	c := d.u8(what)
	if d.err == nil && (int(c) >= len(dtypeCodes) || dtypeCodes[c] == 0) {
		d.fail("%s: unknown dtype code %d", what, c)
		return 0
	}
	return dtypeCodes[c]
}

// rawBytes returns the bytes of a contiguous array's elements, which must
// not be of dtype Object. The host is little-endian (checked by Start and
// Serve).
func rawBytes(a *nd.Array) []byte {
	switch a.DType() {
	case nd.Bool:
		return bytesOf(nd.Data[bool](a))
	case nd.Int8:
		return bytesOf(nd.Data[int8](a))
	case nd.Int16:
		return bytesOf(nd.Data[int16](a))
	case nd.Int32:
		return bytesOf(nd.Data[int32](a))
	case nd.Int64:
		return bytesOf(nd.Data[int64](a))
	case nd.Uint8:
		return nd.Data[uint8](a)
	case nd.Uint16:
		return bytesOf(nd.Data[uint16](a))
	case nd.Uint32:
		return bytesOf(nd.Data[uint32](a))
	case nd.Uint64:
		return bytesOf(nd.Data[uint64](a))
	case nd.Float32:
		return bytesOf(nd.Data[float32](a))
	case nd.Float64:
		return bytesOf(nd.Data[float64](a))
	}
	panic(fmt.Sprintf("wire: rawBytes of a %v array", a.DType()))
}

func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(z)))
}

// littleEndian reports whether the host stores numbers little-endian, as
// the raw arrays of the protocol are.
func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// errBigEndian is returned by Start and Serve on a big-endian host.
var errBigEndian = errors.New("wire: the protocol's raw arrays need a little-endian host")
