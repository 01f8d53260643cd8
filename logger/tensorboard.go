package logger

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"iter"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// TensorBoardConfig configures NewTensorBoard.
type TensorBoardConfig struct {
	// Dir is the directory of the event file, created with its parents if
	// missing. Required.
	Dir string `json:"dir"`
	// Now is the clock that stamps events (wall_time) and names the file;
	// nil means time.Now.
	Now func() time.Time `json:"-"`
}

// TensorBoard writes statistics to a TensorBoard event file: a sequence of
// TFRecord records, each holding one Event protocol buffer. The first event
// carries the file version "brain.Event:2"; each Log call then writes one
// event with the step, the wall time and a summary of one simple_value per
// key, tagged "scope/key" (just "key" when scope is empty), keys in sorted
// order. Values are stored as float32, as simple_value is: beyond ±3.4e38
// they become ±Inf.
//
// Each Log call hands its record to the file in a single Write, so the
// record reaches the operating system before Log returns (TensorBoard shows
// it at its next reload; a crash of the process loses nothing that Log
// accepted). There is no fsync.
//
// TensorBoard is safe for concurrent use.
type TensorBoard struct {
	mu     sync.Mutex
	f      *os.File
	w      io.Writer // f; a test replaces it to make writes fail
	now    func() time.Time
	keys   []string // scratch for sorting keys
	buf    []byte   // scratch for rendering
	err    error    // first write error, returned by every later Log
	closed bool
}

// NewTensorBoard creates the event file
// Dir/events.out.tfevents.<unix seconds>.<hostname> and writes its first
// record. If a file of that name exists (two loggers started within one
// second), ".1", ".2", … is appended to the name: an existing file is never
// overwritten. It returns an error if Dir is empty, or if the directory or
// file cannot be created or written.
func NewTensorBoard(cfg TensorBoardConfig) (*TensorBoard, error) {
	if cfg.Dir == "" {
		return nil, errors.New("logger: TensorBoardConfig.Dir is empty")
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	host, err := os.Hostname()
	if err != nil {
		return nil, fmt.Errorf("logger: naming the event file: %w", err)
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("logger: %w", err)
	}
	t := now()
	base := filepath.Join(cfg.Dir, "events.out.tfevents."+strconv.FormatInt(t.Unix(), 10)+"."+host)
	name := base
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	for n := 1; errors.Is(err, os.ErrExist) && n <= maxNameSuffix; n++ {
		name = base + "." + strconv.Itoa(n)
		f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	}
	if err != nil {
		return nil, fmt.Errorf("logger: %w", err)
	}
	tb := &TensorBoard{f: f, w: f, now: now}
	buf, start := beginRecord(nil)
	buf = endRecord(appendVersionEvent(buf, wallTime(t)), start)
	tb.buf = buf
	if _, err := f.Write(tb.buf); err != nil {
		f.Close()
		return nil, fmt.Errorf("logger: writing %s: %w", name, err)
	}
	return tb, nil
}

// maxNameSuffix bounds the search for a free event file name.
const maxNameSuffix = 1000

// Path returns the path of the event file.
func (tb *TensorBoard) Path() string { return tb.f.Name() }

// Log writes one event holding all values. A call with no values writes
// nothing. After a write error, Log writes nothing more and returns that
// error again: records after a partly written one would be unreadable.
//
// Log panics with ErrClosed after Close.
func (tb *TensorBoard) Log(scope string, step int64, values map[string]float64) error {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if tb.closed {
		panic(ErrClosed)
	}
	if tb.err != nil {
		return tb.err
	}
	if len(values) == 0 {
		return nil
	}
	tb.keys = sortedKeys(tb.keys, values)
	buf, start := beginRecord(tb.buf[:0])
	buf = appendScalarEvent(buf, wallTime(tb.now()), step, scope, tb.keys, values)
	tb.buf = endRecord(buf, start)
	if _, err := tb.w.Write(tb.buf); err != nil {
		tb.err = fmt.Errorf("logger: writing %s: %w", tb.f.Name(), err)
		return tb.err
	}
	return nil
}

// Close closes the event file. Calling it again does nothing and returns
// nil.
func (tb *TensorBoard) Close() error {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if tb.closed {
		return nil
	}
	tb.closed = true
	if err := tb.f.Close(); err != nil {
		return fmt.Errorf("logger: %w", err)
	}
	return nil
}

// wallTime returns t in seconds since the Unix epoch. Converting the whole
// seconds and the fraction apart rounds once, to the spacing of float64 near
// 1.7e9 (2⁻²² seconds); float64(t.UnixNano())/1e9 would round twice and make
// even a quarter second inexact.
func wallTime(t time.Time) float64 { return float64(t.Unix()) + float64(t.Nanosecond())/1e9 }

// TFRecord framing: uint64 length (little endian), masked CRC-32C of those 8
// bytes, the data, masked CRC-32C of the data.

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// maskedCRC returns the CRC-32C of b, rotated right by 15 bits plus
// 0xa282ead8, as TFRecord stores it.
func maskedCRC(b []byte) uint32 {
	c := crc32.Checksum(b, castagnoli)
	return (c>>15 | c<<17) + 0xa282ead8
}

// beginRecord appends room for a record header and returns where the
// record starts; the caller appends the data, then calls endRecord.
func beginRecord(buf []byte) ([]byte, int) {
	return append(buf, make([]byte, 12)...), len(buf)
}

// endRecord fills in the header of the record that starts at start and
// appends the CRC of its data.
func endRecord(buf []byte, start int) []byte {
	binary.LittleEndian.PutUint64(buf[start:], uint64(len(buf)-start-12))
	binary.LittleEndian.PutUint32(buf[start+8:], maskedCRC(buf[start:start+8]))
	return binary.LittleEndian.AppendUint32(buf, maskedCRC(buf[start+12:]))
}

// Protocol buffer encoding of the messages, from TensorFlow's event.proto
// and summary.proto:
//
//	Event   { double wall_time = 1; int64 step = 2;
//	          oneof what { string file_version = 3; Summary summary = 5; … } }
//	Summary { repeated Value value = 1; }
//	Value   { string tag = 1; oneof value { float simple_value = 2; … } }
//
// wall_time and step are omitted when 0, as proto3 does; members of a oneof
// are always written.

const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5

	tagWallTime    = 1<<3 | wireFixed64
	tagStep        = 2<<3 | wireVarint
	tagFileVersion = 3<<3 | wireBytes
	tagSummary     = 5<<3 | wireBytes
	tagValue       = 1<<3 | wireBytes
	tagTag         = 1<<3 | wireBytes
	tagSimpleValue = 2<<3 | wireFixed32
)

// fileVersion is the version string of the first event of every file.
const fileVersion = "brain.Event:2"

func appendVersionEvent(b []byte, wall float64) []byte {
	b = appendWallStep(b, wall, 0)
	b = append(b, tagFileVersion)
	b = binary.AppendUvarint(b, uint64(len(fileVersion)))
	return append(b, fileVersion...)
}

func appendWallStep(b []byte, wall float64, step int64) []byte {
	if wall != 0 {
		b = append(b, tagWallTime)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(wall))
	}
	if step != 0 {
		b = append(b, tagStep)
		b = binary.AppendUvarint(b, uint64(step)) // int64 as two's complement, 10 bytes if negative
	}
	return b
}

func appendScalarEvent(b []byte, wall float64, step int64, scope string, keys []string, values map[string]float64) []byte {
	b = appendWallStep(b, wall, step)
	var sumLen int
	for _, k := range keys {
		n := valueLen(scope, k)
		sumLen += 1 + uvarintLen(uint64(n)) + n
	}
	b = append(b, tagSummary)
	b = binary.AppendUvarint(b, uint64(sumLen))
	for _, k := range keys {
		b = append(b, tagValue)
		b = binary.AppendUvarint(b, uint64(valueLen(scope, k)))
		b = append(b, tagTag)
		b = binary.AppendUvarint(b, uint64(tagLen(scope, k)))
		if scope != "" {
			b = append(b, scope...)
			b = append(b, '/')
		}
		b = append(b, k...)
		b = append(b, tagSimpleValue)
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(values[k])))
	}
	return b
}

func tagLen(scope, key string) int {
	if scope == "" {
		return len(key)
	}
	return len(scope) + 1 + len(key)
}

// valueLen is the encoded size of a Value with a tag and a simple_value.
func valueLen(scope, key string) int {
	n := tagLen(scope, key)
	return 1 + uvarintLen(uint64(n)) + n + 1 + 4
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// Reading.

// Errors of ReadEvents, wrapped with the offset of the record.
var (
	// ErrChecksum: a record's length or data does not match its CRC.
	ErrChecksum = errors.New("logger: TFRecord checksum mismatch")
	// ErrFormat: a record's data is not a well-formed Event.
	ErrFormat = errors.New("logger: malformed Event")
)

// Event is one record of a TensorBoard event file, as far as this package
// decodes it.
type Event struct {
	WallTime    float64  // seconds since the Unix epoch
	Step        int64    // the step the event was logged at
	FileVersion string   // "brain.Event:2" in the first event of a file, else ""
	Scalars     []Scalar // the summary's values that carry a simple_value, in file order
}

// Scalar is a summary value that carries a simple_value.
type Scalar struct {
	Tag   string
	Value float32
}

// ReadEvents returns an iterator over the events in r, a TensorBoard event
// file. It checks both CRCs of every record and decodes each Event's
// wall_time, step, file_version and the tag and simple_value of its summary
// values; other fields (graphs, histograms, images, tensors) are skipped.
//
// A corrupted byte yields an error wrapping ErrChecksum, data that is not an
// Event one wrapping ErrFormat, a file that ends inside a record one
// wrapping io.ErrUnexpectedEOF, and an error of r itself is passed on
// wrapped; the iteration stops after the first error. A length field is
// trusted only after its CRC matched, and the data it announces is read in
// chunks of at most 64 KiB, so memory use never runs ahead of the bytes r
// actually supplies.
//
// The iterator reads r as it goes and can be used only once.
func ReadEvents(r io.Reader) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		var header [12]byte
		var data []byte
		var offset int64
		for {
			n, err := io.ReadFull(r, header[:])
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(Event{}, recordError(offset, err))
				return
			}
			if binary.LittleEndian.Uint32(header[8:]) != maskedCRC(header[:8]) {
				yield(Event{}, recordError(offset, fmt.Errorf("%w in the length", ErrChecksum)))
				return
			}
			length := binary.LittleEndian.Uint64(header[:8])
			if length > math.MaxInt32 {
				yield(Event{}, recordError(offset, fmt.Errorf("%w: record of %d bytes", ErrFormat, length)))
				return
			}
			data, err = readData(r, data[:0], length+4)
			if err != nil {
				yield(Event{}, recordError(offset, err))
				return
			}
			body := data[:length]
			if binary.LittleEndian.Uint32(data[length:]) != maskedCRC(body) {
				yield(Event{}, recordError(offset, fmt.Errorf("%w in the data", ErrChecksum)))
				return
			}
			ev, err := decodeEvent(body)
			if err != nil {
				yield(Event{}, recordError(offset, err))
				return
			}
			if !yield(ev, nil) {
				return
			}
			offset += int64(n) + int64(length) + 4
		}
	}
}

func recordError(offset int64, err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("logger: event record at byte %d: %w", offset, err)
}

// readChunk is the most ReadEvents allocates ahead of the bytes read.
const readChunk = 64 << 10

// readData appends n bytes from r to buf, growing buf by at most readChunk
// beyond what has been read.
func readData(r io.Reader, buf []byte, n uint64) ([]byte, error) {
	for uint64(len(buf)) < n {
		k := int(min(n-uint64(len(buf)), readChunk))
		if cap(buf)-len(buf) < k {
			grown := make([]byte, len(buf), max(2*cap(buf), len(buf)+k))
			copy(grown, buf)
			buf = grown
		}
		m, err := io.ReadFull(r, buf[len(buf):len(buf)+k])
		buf = buf[:len(buf)+m]
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// decodeEvent decodes the fields of Event that this package knows.
func decodeEvent(b []byte) (Event, error) {
	var ev Event
	err := forFields(b, func(field uint64, wire int, v uint64, payload []byte) error {
		switch {
		case field == 1 && wire == wireFixed64:
			ev.WallTime = math.Float64frombits(v)
		case field == 2 && wire == wireVarint:
			ev.Step = int64(v)
		case field == 3 && wire == wireBytes:
			ev.FileVersion = string(payload)
		case field == 5 && wire == wireBytes:
			return forFields(payload, func(field uint64, wire int, _ uint64, payload []byte) error {
				if field != 1 || wire != wireBytes {
					return nil
				}
				s, ok, err := decodeValue(payload)
				if ok {
					ev.Scalars = append(ev.Scalars, s)
				}
				return err
			})
		case field <= 3 || field == 5:
			return fmt.Errorf("%w: field %d with wire type %d", ErrFormat, field, wire)
		}
		return nil
	})
	return ev, err
}

// decodeValue decodes a summary Value; ok reports whether it carries a
// simple_value.
func decodeValue(b []byte) (s Scalar, ok bool, err error) {
	err = forFields(b, func(field uint64, wire int, v uint64, payload []byte) error {
		switch {
		case field == 1 && wire == wireBytes:
			s.Tag = string(payload)
		case field == 2 && wire == wireFixed32:
			s.Value, ok = math.Float32frombits(uint32(v)), true
		case field <= 2:
			return fmt.Errorf("%w: field %d with wire type %d in a summary value", ErrFormat, field, wire)
		}
		return nil
	})
	return s, ok, err
}

// forFields calls f for each field of the protocol buffer message b, with
// the value of varint and fixed-size fields in v and the bytes of
// length-delimited ones in payload. Groups (wire types 3 and 4, unused by
// these messages) are an error.
func forFields(b []byte, f func(field uint64, wire int, v uint64, payload []byte) error) error {
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return fmt.Errorf("%w: bad field key", ErrFormat)
		}
		b = b[n:]
		field, wire := key>>3, int(key&7)
		if field == 0 {
			return fmt.Errorf("%w: field number 0", ErrFormat)
		}
		var v uint64
		var payload []byte
		switch wire {
		case wireVarint:
			v, n = binary.Uvarint(b)
			if n <= 0 {
				return fmt.Errorf("%w: bad varint in field %d", ErrFormat, field)
			}
			b = b[n:]
		case wireFixed64:
			if len(b) < 8 {
				return fmt.Errorf("%w: field %d cut short", ErrFormat, field)
			}
			v, b = binary.LittleEndian.Uint64(b), b[8:]
		case wireFixed32:
			if len(b) < 4 {
				return fmt.Errorf("%w: field %d cut short", ErrFormat, field)
			}
			v, b = uint64(binary.LittleEndian.Uint32(b)), b[4:]
		case wireBytes:
			l, n := binary.Uvarint(b)
			if n <= 0 || l > uint64(len(b)-n) {
				return fmt.Errorf("%w: bad length of field %d", ErrFormat, field)
			}
			payload, b = b[n:n+int(l)], b[n+int(l):]
		default:
			return fmt.Errorf("%w: wire type %d in field %d", ErrFormat, wire, field)
		}
		if err := f(field, wire, v, payload); err != nil {
			return err
		}
	}
	return nil
}
