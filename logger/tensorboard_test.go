package logger

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// fixedClock returns a clock that always reads t.
func fixedClock(t time.Time) func() time.Time { return func() time.Time { return t } }

// readAll collects the events of r and the first error.
func readAll(r io.Reader) ([]Event, error) {
	var evs []Event
	for ev, err := range ReadEvents(r) {
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

func newTestTensorBoard(t *testing.T, now func() time.Time) *TensorBoard {
	t.Helper()
	tb, err := NewTensorBoard(TensorBoardConfig{Dir: t.TempDir(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestMaskedCRC(t *testing.T) {
	for _, c := range []struct {
		data string
		crc  uint32 // plain CRC-32C
		want uint32 // masked
	}{
		// CRC-32C check value of "123456789" (RFC 3720, appendix B.4
		// test vectors list 0xE3069283); masked by hand:
		// (0xE3069283 >> 15 | 0xE3069283 << 17) = 0x2507c60d,
		// + 0xa282ead8 = 0xc78ab0e5.
		{"123456789", 0xe3069283, 0xc78ab0e5},
		// The length field of a 24-byte record; every TensorBoard event
		// file starts with 18 00 00 00 00 00 00 00 a3 7f 4b 22.
		{"\x18\x00\x00\x00\x00\x00\x00\x00", 0, 0x224b7fa3},
	} {
		if c.crc != 0 {
			if got := crc32cOf(c.data); got != c.crc {
				t.Errorf("CRC-32C(%q) = %#x, want %#x", c.data, got, c.crc)
			}
		}
		if got := maskedCRC([]byte(c.data)); got != c.want {
			t.Errorf("maskedCRC(%q) = %#x, want %#x", c.data, got, c.want)
		}
	}
}

func crc32cOf(s string) uint32 {
	m := maskedCRC([]byte(s)) - 0xa282ead8
	return m<<15 | m>>17
}

// referenceFile is an event file written by the Python package
// tensorboard_logger in its test_serialization (wall time 256.5, scalar
// "v/1" = 1.5 at step 1, "v/22" = 16 at step 2), one record per line.
var referenceFile = "" +
	// length 24, its masked CRC; wall_time 256.5; file_version; data CRC
	"\x18\x00\x00\x00\x00\x00\x00\x00\xa3\x7f\x4b\x22" +
	"\x09\x00\x00\x00\x00\x00\x08\x70\x40\x1a\x0d" + "brain.Event:2" + "\xbc\x98\x21\x2b" +
	// length 25; wall_time; step 1; summary { value { tag "v/1" simple_value 1.5 } }
	"\x19\x00\x00\x00\x00\x00\x00\x00\x8b\xf1\x08\x28" +
	"\x09\x00\x00\x00\x00\x00\x08\x70\x40\x10\x01\x2a\x0c\x0a\x0a\x0a\x03v/1\x15\x00\x00\xc0\x3f" + "\x2c\xec\xc0\x87" +
	// length 26; wall_time; step 2; summary { value { tag "v/22" simple_value 16 } }
	"\x1a\x00\x00\x00\x00\x00\x00\x00\x12\x9b\xd8\x2d" +
	"\x09\x00\x00\x00\x00\x00\x08\x70\x40\x10\x02\x2a\x0d\x0a\x0b\x0a\x04v/22\x15\x00\x00\x80\x41" + "\x8f\xa3\xb6\x88"

func TestTensorBoardMatchesReference(t *testing.T) {
	tb := newTestTensorBoard(t, fixedClock(time.Unix(256, 5e8)))
	if err := tb.Log("v", 1, map[string]float64{"1": 1.5}); err != nil {
		t.Fatal(err)
	}
	if err := tb.Log("v", 2, map[string]float64{"22": 16}); err != nil {
		t.Fatal(err)
	}
	if err := tb.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(tb.Path())
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != referenceFile {
		t.Fatalf("event file\n got %q\nwant %q", got, referenceFile)
	}
	evs, err := readAll(strings.NewReader(referenceFile))
	if err != nil {
		t.Fatal(err)
	}
	want := []Event{
		{WallTime: 256.5, FileVersion: "brain.Event:2"},
		{WallTime: 256.5, Step: 1, Scalars: []Scalar{{"v/1", 1.5}}},
		{WallTime: 256.5, Step: 2, Scalars: []Scalar{{"v/22", 16}}},
	}
	checkEvents(t, evs, want)
}

// TestTensorBoardMultiValueEvent pins the encoding of an event with
// several values and a negative step (a 10-byte varint). The bytes were
// decoded independently: protoc --decode=tensorflow.Event with the Event,
// Summary and Value messages of event.proto and summary.proto printed
//
//	wall_time: 1700000000.25  step: -3
//	summary { value { tag: "train/n" simple_value: inf }
//	          value { tag: "train/rew" simple_value: 195.5 } }
//
// and both masked CRCs were recomputed with the crc32c Python module.
func TestTensorBoardMultiValueEvent(t *testing.T) {
	tb := newTestTensorBoard(t, fixedClock(time.Unix(1700000000, 250e6)))
	if err := tb.Log("train", -3, map[string]float64{"rew": 195.5, "n": 1e39}); err != nil {
		t.Fatal(err)
	}
	if err := tb.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(tb.Path())
	if err != nil {
		t.Fatal(err)
	}
	const want = "\x38\x00\x00\x00\x00\x00\x00\x00\xa3\x79\x7d\x57" + // length 56, masked CRC
		"\x09\x00\x00\x10\x40\xfc\x54\xd9\x41" + // wall_time
		"\x10\xfd\xff\xff\xff\xff\xff\xff\xff\xff\x01" + // step -3
		"\x2a\x22" + // summary, 34 bytes
		"\x0a\x0e\x0a\x07train/n\x15\x00\x00\x80\x7f" + // value: tag, simple_value +Inf
		"\x0a\x10\x0a\x09train/rew\x15\x00\x80\x43\x43" + // value: tag, simple_value 195.5
		"\x5d\x10\xaa\x2b" // masked CRC of the data
	if len(got) < 40 || string(got[40:]) != want {
		t.Fatalf("second record\n got %q\nwant %q", got[min(40, len(got)):], want)
	}
}

func checkEvents(t *testing.T, got, want []Event) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.WallTime != w.WallTime || g.Step != w.Step || g.FileVersion != w.FileVersion || len(g.Scalars) != len(w.Scalars) {
			t.Fatalf("event %d = %+v, want %+v", i, g, w)
		}
		for k := range w.Scalars {
			gs, ws := g.Scalars[k], w.Scalars[k]
			if gs.Tag != ws.Tag || !(gs.Value == ws.Value || gs.Value != gs.Value && ws.Value != ws.Value) {
				t.Fatalf("event %d scalar %d = %+v, want %+v", i, k, gs, ws)
			}
		}
	}
}

func TestTensorBoardRoundTrip(t *testing.T) {
	clock := time.Unix(1700000000, 250e6)
	tb := newTestTensorBoard(t, func() time.Time { clock = clock.Add(time.Second); return clock })
	name := filepath.Base(tb.Path())
	host, _ := os.Hostname()
	if want := "events.out.tfevents.1700000001." + host; name != want {
		t.Errorf("file name %q, want %q", name, want)
	}
	logs := []struct {
		scope  string
		step   int64
		values map[string]float64
	}{
		{"train", 1000, map[string]float64{"rew": 195.5, "len": 200, "n/ep": 4}},
		{"test", 1000, map[string]float64{"rew": -3.25}},
		{"update", 0, map[string]float64{"loss": 0}}, // step 0 and value 0 are omitted/kept as proto3 requires
		{"update", 1 << 40, map[string]float64{"nan": math.NaN(), "inf": math.Inf(1), "big": 1e39, "tiny": 1e-50}},
		{"", -5, map[string]float64{"x": 1}}, // no scope: the tag is the key; negative step
		{"train", 2000, nil},                 // nothing written
		{"wide", 7, map[string]float64{strings.Repeat("k", 200): 2, "é/ü": 3}},
	}
	for _, l := range logs {
		if err := tb.Log(l.scope, l.step, l.values); err != nil {
			t.Fatal(err)
		}
	}
	if err := tb.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tb.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	f, err := os.Open(tb.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	evs, err := readAll(f)
	if err != nil {
		t.Fatal(err)
	}
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	// Wall times: the clock advances 1 s per reading, from 1700000001.25
	// (the file name's reading) on.
	want := []Event{
		{WallTime: 1700000001.25, FileVersion: "brain.Event:2"},
		{WallTime: 1700000002.25, Step: 1000, Scalars: []Scalar{{"train/len", 200}, {"train/n/ep", 4}, {"train/rew", 195.5}}},
		{WallTime: 1700000003.25, Step: 1000, Scalars: []Scalar{{"test/rew", -3.25}}},
		{WallTime: 1700000004.25, Step: 0, Scalars: []Scalar{{"update/loss", 0}}},
		{WallTime: 1700000005.25, Step: 1 << 40, Scalars: []Scalar{{"update/big", inf}, {"update/inf", inf}, {"update/nan", nan}, {"update/tiny", 0}}},
		{WallTime: 1700000006.25, Step: -5, Scalars: []Scalar{{"x", 1}}},
		{WallTime: 1700000007.25, Step: 7, Scalars: []Scalar{{"wide/" + strings.Repeat("k", 200), 2}, {"wide/é/ü", 3}}},
	}
	checkEvents(t, evs, want)
}

// TestReadEventsEveryCorruptByte flips each byte of a file in turn: the
// reader must report a checksum error, never a panic or wrong values.
func TestReadEventsEveryCorruptByte(t *testing.T) {
	for pos := 0; pos < len(referenceFile); pos++ {
		for _, flip := range []byte{0x01, 0x80, 0xff} {
			b := []byte(referenceFile)
			b[pos] ^= flip
			_, err := readAll(bytes.NewReader(b))
			if !errors.Is(err, ErrChecksum) {
				t.Fatalf("byte %d ^ %#x: error %v, want ErrChecksum", pos, flip, err)
			}
		}
	}
}

// TestReadEventsTruncated cuts the file at every length: at a record
// boundary the reader ends cleanly with the whole records, anywhere else it
// reports io.ErrUnexpectedEOF after them.
func TestReadEventsTruncated(t *testing.T) {
	bounds := map[int]int{0: 0, 40: 1, 81: 2, 123: 3} // offset → records before it (lengths 24, 25, 26 + 16)
	if len(referenceFile) != 123 {
		t.Fatalf("reference file has %d bytes", len(referenceFile))
	}
	for n := 0; n <= len(referenceFile); n++ {
		evs, err := readAll(strings.NewReader(referenceFile[:n]))
		whole, atBound := bounds[n]
		switch {
		case atBound && err != nil:
			t.Errorf("cut at %d (a record boundary): %v", n, err)
		case !atBound && !errors.Is(err, io.ErrUnexpectedEOF):
			t.Errorf("cut at %d: error %v, want io.ErrUnexpectedEOF", n, err)
		}
		if !atBound {
			for b := range bounds {
				if b < n && bounds[b] > whole {
					whole = bounds[b]
				}
			}
		}
		if len(evs) != whole {
			t.Errorf("cut at %d: %d events, want %d", n, len(evs), whole)
		}
	}
}

// record frames data as a TFRecord.
func record(data []byte) []byte {
	b, start := beginRecord(nil)
	return endRecord(append(b, data...), start)
}

func TestReadEventsSkipsUnknownFields(t *testing.T) {
	// An Event with graph_def (field 4, bytes), source_metadata (field 10)
	// and a summary whose values carry, besides a simple_value, a tensor
	// (field 8) and metadata (field 9); one value has only a tensor and is
	// no scalar. Encoded by hand from event.proto and summary.proto.
	ev := []byte{
		0x10, 0x07, // step 7
		0x22, 0x03, 'g', 'd', 'f', // graph_def
		0x52, 0x02, 0x0a, 0x00, // source_metadata {writer: ""}
		0x2a, 0x1b, // summary, 27 bytes
		0x0a, 0x0c, // value, 12 bytes
		0x0a, 0x01, 'a', // tag "a"
		0x4a, 0x02, 0x0a, 0x00, // metadata
		0x15, 0x00, 0x00, 0x80, 0x3f, // simple_value 1
		0x0a, 0x0b, // value, 11 bytes: tag "b", tensor, no simple_value
		0x0a, 0x01, 'b',
		0x42, 0x06, 0x08, 0x01, 0x52, 0x02, 0x00, 0x00, // tensor {dtype, float_val}
	}
	evs, err := readAll(bytes.NewReader(record(ev)))
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, evs, []Event{{Step: 7, Scalars: []Scalar{{"a", 1}}}})
}

func TestReadEventsMalformed(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"step as bytes", []byte{0x12, 0x01, 0x00}},
		{"wall_time as varint", []byte{0x08, 0x01}},
		{"cut fixed64", []byte{0x09, 0x00, 0x00}},
		{"cut fixed32 in value", []byte{0x2a, 0x05, 0x0a, 0x03, 0x15, 0x00, 0x00}},
		{"length beyond message", []byte{0x1a, 0x05, 'a'}},
		{"unterminated varint", []byte{0x10, 0x80}},
		{"varint too long", []byte{0x10, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
		{"group wire type", []byte{0x0b}},
		{"field 0", []byte{0x00, 0x00}},
		{"simple_value as varint", []byte{0x2a, 0x04, 0x0a, 0x02, 0x10, 0x01}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := readAll(bytes.NewReader(record(c.data)))
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v, want ErrFormat", err)
			}
		})
	}
}

// TestReadEventsHugeLength checks that a length field with a valid CRC but
// far more bytes than the input holds is an error before it costs memory.
func TestReadEventsHugeLength(t *testing.T) {
	for _, length := range []uint64{1 << 20, 1 << 30, math.MaxInt32, math.MaxInt32 + 1, 1 << 62, math.MaxUint64 - 3} {
		hdr := binary.LittleEndian.AppendUint64(nil, length)
		hdr = binary.LittleEndian.AppendUint32(hdr, maskedCRC(hdr))
		in := append(hdr, make([]byte, 100)...)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := readAll(bytes.NewReader(in))
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Fatalf("length %d: no error", length)
		}
		if length > math.MaxInt32 && !errors.Is(err, ErrFormat) {
			t.Errorf("length %d: error %v, want ErrFormat", length, err)
		}
		if length <= math.MaxInt32 && !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("length %d: error %v, want io.ErrUnexpectedEOF", length, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<10 {
			t.Errorf("length %d with 100 bytes of data: %d bytes allocated", length, alloc)
		}
	}
}

// FuzzReadEvents: any input yields events and at most one error, without a
// panic and without allocating far beyond the input's size.
func FuzzReadEvents(f *testing.F) {
	f.Add([]byte(referenceFile))
	f.Add([]byte(referenceFile[:50]))
	f.Add(record([]byte{0x2a, 0x04, 0x0a, 0x02, 0x0a, 0x00}))
	f.Add(record([]byte{0x10, 0x80}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		errs := 0
		for _, err := range ReadEvents(bytes.NewReader(data)) {
			if err != nil {
				errs++
			}
		}
		runtime.ReadMemStats(&after)
		if errs > 1 {
			t.Fatalf("%d errors, want at most 1", errs)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(16*len(data))+256<<10 {
			t.Fatalf("%d bytes of input: %d bytes allocated", len(data), alloc)
		}
	})
}

func TestTensorBoardNameCollision(t *testing.T) {
	dir := t.TempDir()
	now := fixedClock(time.Unix(1234, 0))
	var paths []string
	for i := 0; i < 3; i++ {
		tb, err := NewTensorBoard(TensorBoardConfig{Dir: dir, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Log("s", int64(i), map[string]float64{"i": float64(i)}); err != nil {
			t.Fatal(err)
		}
		if err := tb.Close(); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, tb.Path())
	}
	host, _ := os.Hostname()
	base := filepath.Join(dir, "events.out.tfevents.1234."+host)
	for i, want := range []string{base, base + ".1", base + ".2"} {
		if paths[i] != want {
			t.Errorf("file %d: %s, want %s", i, paths[i], want)
		}
		f, err := os.Open(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		evs, err := readAll(f)
		f.Close()
		if err != nil || len(evs) != 2 || evs[1].Step != int64(i) {
			t.Errorf("file %d: events %+v, error %v; want its own step %d", i, evs, err, i)
		}
	}
}

func TestTensorBoardConfigErrors(t *testing.T) {
	if _, err := NewTensorBoard(TensorBoardConfig{}); err == nil {
		t.Error("empty Dir: no error")
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewTensorBoard(TensorBoardConfig{Dir: filepath.Join(file, "sub")}); err == nil {
		t.Error("Dir under a regular file: no error")
	}
}

func TestTensorBoardConcurrent(t *testing.T) {
	tb := newTestTensorBoard(t, nil)
	const writers, each = 4, 50
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if err := tb.Log("s", int64(i), map[string]float64{"a": 1, "b": 2}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := tb.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(tb.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	evs, err := readAll(f)
	if err != nil || len(evs) != 1+writers*each {
		t.Fatalf("%d events, error %v; want %d whole records", len(evs), err, 1+writers*each)
	}
}

func TestTensorBoardLogAfterClose(t *testing.T) {
	tb := newTestTensorBoard(t, nil)
	if err := tb.Close(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r != ErrClosed {
			t.Fatalf("panic value %v, want ErrClosed", r)
		}
	}()
	_ = tb.Log("s", 1, map[string]float64{"a": 1})
}

func TestTensorBoardLogNoAllocations(t *testing.T) {
	tb := newTestTensorBoard(t, nil)
	defer tb.Close()
	values := map[string]float64{"loss": 0.5, "rew": 100, "len": 200, "n/ep": 8}
	if n := testing.AllocsPerRun(100, func() { _ = tb.Log("train", 1000, values) }); n != 0 {
		t.Errorf("Log allocates %v times per call", n)
	}
}

func TestTensorBoardWriteErrorsStick(t *testing.T) {
	tb := newTestTensorBoard(t, nil)
	defer tb.Close()
	w := &failingWriter{ok: 1}
	tb.w = w
	v := map[string]float64{"a": 1}
	var errs []error
	for i := 0; i < 3; i++ {
		errs = append(errs, tb.Log("s", int64(i), v))
	}
	if errs[0] != nil || !errors.Is(errs[1], errDiskFull) || !errors.Is(errs[2], errDiskFull) {
		t.Fatalf("errors %v: want the write error from the failing call on", errs)
	}
	if w.writes != 2 {
		t.Fatalf("%d writes, want 2: nothing after the failed one", w.writes)
	}
}
