package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// fuzzHello is a valid hello frame: Box obs, Dict of Discrete and
// MultiBinary actions.
func fuzzHello(t testing.TB) []byte {
	box, err := env.NewBox(-1.0, 2.0, []int{2, 3}, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	disc, _ := env.NewDiscrete(3, 1)
	mb, _ := env.NewMultiBinary(4)
	md, _ := env.NewMultiDiscrete([]int64{2, 5}, nil)
	tup, _ := env.NewTuple(mb, md)
	dict, _ := env.NewDict(env.DictEntry{Key: "d", Space: disc}, env.DictEntry{Key: "t", Space: tup})
	var e enc
	if err := e.hello(Hello{Name: "fuzz", Renders: true, Obs: box, Act: dict}); err != nil {
		t.Fatal(err)
	}
	return bytes.Clone(e.finish())
}

// FuzzDecode feeds arbitrary bytes to every decoder: none may panic, a
// frame is refused unless it is whole (read from a pipe or from a shared
// region's area alike), and what decodes must encode back to the same
// bytes.
func FuzzDecode(f *testing.F) {
	hello := fuzzHello(f)
	f.Add(hello)
	f.Add(hello[:len(hello)-3])
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x80})
	f.Add([]byte{0, 0, 0, 0})
	var e enc
	e.begin(TypeStepOK)
	e.f64(1.5)
	e.u8(1)
	e.raw(make([]byte, 24))
	e.info(env.Info{"a": int64(1), "b": nd.MustNew([]float32{1, 2}), "c": env.Info{"d": "x"}}, 0)
	f.Add(bytes.Clone(e.finish()))
	e.errorFrame("exception", "boom", "Traceback ...")
	f.Add(bytes.Clone(e.finish()))
	h, err := decodeHello(hello[5:])
	if err != nil {
		f.Fatal(err)
	}
	obsL, _ := NewLayout(h.Obs)
	actL, _ := NewLayout(h.Act)
	obs, act := obsL.NewDecoder(), actL.NewDecoder()
	f.Fuzz(func(t *testing.T, data []byte) {
		typ, p, buf, err := ReadFrame(bytes.NewReader(data), nil)
		// The buffer grows by appending chunks, so it may be up to twice
		// what arrived plus a chunk, rounded up to an allocation size.
		if cap(buf) > 2*(len(data)+readChunk) {
			t.Fatalf("frame buffer of %d bytes for %d bytes of input", cap(buf), len(data))
		}
		// The same bytes at the start of a shared region's area.
		rtyp, rp, rerr := regionFrame(data)
		if rerr != nil && !errors.Is(rerr, ErrProtocol) {
			t.Fatalf("regionFrame: %v", rerr)
		}
		if (err == nil) != (rerr == nil) || err == nil && (rtyp != typ || !bytes.Equal(rp, p)) {
			t.Fatalf("pipe and region disagree: %v, %v", err, rerr)
		}
		if err != nil {
			if err != io.EOF && !errors.Is(err, ErrProtocol) {
				t.Fatalf("ReadFrame: %v", err)
			}
			return
		}
		if n := binary.LittleEndian.Uint32(data); int(n) != len(p)+1 {
			t.Fatalf("frame of length %d read as %d bytes", n, len(p)+1)
		}
		_ = typ
		if h, err := decodeHello(p); err == nil {
			var e enc
			if err := e.hello(h); err != nil {
				t.Fatalf("decoded hello does not encode: %v", err)
			}
			if got := e.finish(); !bytes.Equal(got[5:], p) {
				// Box bounds are rounded to the dtype, so only spaces
				// must agree.
				h2, err := decodeHello(got[5:])
				if err != nil || !h2.Obs.Equal(h.Obs) || !h2.Act.Equal(h.Act) {
					t.Fatalf("hello round trip: %v", err)
				}
			}
		}
		_ = decodeError(p)
		_, _, _ = decodeReset(p)
		_, _ = decodeFrame(p)
		_, _ = obs.Decode(p)
		if v, err := act.Decode(p); err == nil {
			var e enc
			if err := e.value(actL, v); err != nil || !bytes.Equal(e.b, p) {
				t.Fatalf("action round trip: %v", err)
			}
		}
		d := dec{b: p}
		d.info(0)
	})
}

// TestBoundedAllocation checks that frames and spaces that claim large
// sizes are refused before anything of that size is allocated.
func TestBoundedAllocation(t *testing.T) {
	claims := map[string][]byte{
		// A header claiming MaxFrame bytes, followed by ten.
		"frame": append([]byte{0, 0, 0, 4, TypeHello}, make([]byte, 10)...),
		// A Box of shape (65535, 65535) in a small frame.
		"box": {tagBox, 10, 2, 0xff, 0xff, 0, 0, 0xff, 0xff, 0, 0},
		// A Dict claiming 2³²−1 keys.
		"dict": {tagDict, 0xff, 0xff, 0xff, 0xff},
		// An info claiming 2³²−1 keys, and a string of 2³²−1 bytes.
		"info":   {0xff, 0xff, 0xff, 0xff},
		"string": {0x01, 0, 0, 0, 'k', itemString, 0xff, 0xff, 0xff, 0xff},
	}
	for name, p := range claims {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var err error
		switch name {
		case "frame":
			_, _, _, err = ReadFrame(bytes.NewReader(p), nil)
		case "box", "dict":
			d := dec{b: p}
			d.space(0)
			err = d.err
		default:
			d := dec{b: p}
			d.info(0)
			err = d.err
		}
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrProtocol) {
			t.Errorf("%s: error %v, want ErrProtocol", name, err)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 4*readChunk { // far below the sizes claimed
			t.Errorf("%s: allocated %d bytes", name, n)
		}
	}
}
