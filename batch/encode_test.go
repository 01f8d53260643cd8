package batch_test

import (
	"bytes"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// everyDType returns a Batch holding an array of every dtype, nesting,
// reserved keys, nil, strings and Object arrays of basic Go values.
func everyDType(t testing.TB) *batch.Batch {
	return batch.MustNew(
		"b", []bool{true, false, true},
		"i8", []int8{-128, 0, 127},
		"i16", []int16{-32768, 1, 32767},
		"i32", [][]int32{{math.MinInt32, 2}, {3, math.MaxInt32}},
		"i64", []int64{math.MinInt64, math.MaxInt64},
		"u8", nd.Zeros(nd.Uint8, 2, 3, 4),
		"u16", []uint16{0, 65535},
		"u32", []uint32{0, math.MaxUint32},
		"u64", []uint64{0, math.MaxUint64},
		"f32", []float32{1.5, float32(math.Inf(-1)), float32(math.NaN())},
		"f64", 3.25,
		"empty", nd.Zeros(nd.Float64, 0, 5),
		"obj", objects(t, nil, true, false, 1, int8(-2), int16(3), int32(-4), int64(5), uint(6), uint8(7), uint16(8), uint32(9), uint64(10),
			float32(1.5), math.Pi, "text", []any{1, "x", []any{nil}}, map[string]any{"k": 2.5, "": "empty key", "m": map[string]any{}},
			arr(t, [][]int{{1, 2}})),
		"obs", batch.MustNew("camera", nd.Zeros(nd.Uint8, 2, 4, 4, 3), "deep", batch.MustNew("x", batch.MustNew("y", "z"))),
		"reserved", batch.MustNew(),
		"none", nil,
		"s", "hello ' \" \n ünïcode",
		"view", arr(t, [][]float64{{1, 2, 3}, {4, 5, 6}}).Index(nd.All(), nd.Step(2)),
	)
}

func TestMarshalRoundTrip(t *testing.T) {
	b := everyDType(t)
	data, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got batch.Batch
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if !batch.Equal(b, &got) {
		t.Fatalf("round trip:\n%v\nwant\n%v", &got, b)
	}
	// Keys keep their order; Go types of Object elements are kept.
	if strings.Join(keysOf(&got), ",") != strings.Join(keysOf(b), ",") {
		t.Errorf("keys %v, want %v", keysOf(&got), keysOf(b))
	}
	obj := mustArray(t, &got, "obj")
	if _, ok := obj.At(8).(uint); !ok {
		t.Errorf("uint element decoded as %T", obj.At(8))
	}
	// Deterministic: the same batch encodes to the same bytes.
	again, _ := b.MarshalBinary()
	if !bytes.Equal(data, again) {
		t.Error("encoding is not deterministic")
	}
	app, err := b.AppendBinary([]byte("prefix"))
	if err != nil || !bytes.Equal(app[6:], data) {
		t.Error("AppendBinary differs from MarshalBinary")
	}
	var empty batch.Batch
	e, _ := empty.MarshalBinary()
	var back batch.Batch
	back.Set("x", 1)
	if err := back.UnmarshalBinary(e); err != nil || back.NumKeys() != 0 {
		t.Errorf("empty round trip: %v, %v", &back, err)
	}
}

// TestMarshalSeed reproduces the pickle round trip of seed 001's appendix
// (the torch tensor becomes an array: tensors are custom leaves, which the
// encoding refuses).
func TestMarshalSeed(t *testing.T) {
	original := batch.MustNew("obs", batch.MustNew("a", 0.0, "c", []float32{1, 2}), "np", nd.Zeros(nd.Float64, 3, 4))
	data, err := original.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var restored batch.Batch
	if err := restored.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	wantArray(t, &restored, "obs.a", arr(t, 0.0))
	if !batch.Equal(original, &restored) {
		t.Error("Equal: false")
	}
}

func TestMarshalErrors(t *testing.T) {
	type point struct{ X int }
	tests := []struct {
		name string
		b    *batch.Batch
		key  string
	}{
		{"custom leaf", batch.MustNew("a", 1, "o", batch.MustNew("d", mustCategorical(t, []float64{1}))), "o.d"},
		{"struct scalar", batch.MustNew("p", point{1}), "p"},
		{"object struct", batch.MustNew("o", objects(t, point{1})), "o"},
		{"object slice", batch.MustNew("o", objects(t, []int{1})), "o"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.b.MarshalBinary()
			wantErr(t, err, batch.ErrFormat, tt.key)
		})
	}
	deep := batch.MustNew()
	for range 120 {
		deep = batch.MustNew("d", deep)
	}
	_, err := deep.MarshalBinary()
	wantErr(t, err, batch.ErrFormat, "")
	var list any = "x"
	for range 120 {
		list = []any{list}
	}
	_, err = batch.MustNew("o", objects(t, list)).MarshalBinary()
	wantErr(t, err, batch.ErrFormat, "o")
}

func TestUnmarshalErrors(t *testing.T) {
	good, err := everyDType(t).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	original := everyDType(t)
	// Every truncation is an error, never a panic, and leaves b unchanged.
	for n := 0; n < len(good); n++ {
		b := original.Clone()
		if err := b.UnmarshalBinary(good[:n]); err == nil {
			t.Fatalf("truncated to %d bytes: no error", n)
		} else if !strings.Contains(err.Error(), "batch:") {
			t.Fatalf("error %v", err)
		}
		if !batch.Equal(b, original) {
			t.Fatalf("failed UnmarshalBinary changed the batch")
		}
	}
	tests := []struct {
		name string
		data []byte
		msg  string
	}{
		{"magic", []byte("GRLX\x01\x00"), "bad magic"},
		{"version", []byte("GRLB\x02\x00"), "version 2"},
		{"trailing", []byte("GRLB\x01\x00\x00"), "trailing"},
		{"huge count", []byte("GRLB\x01\xff\xff\xff\xff\x0f"), "exceeds"},
		{"bad tag", []byte("GRLB\x01\x01\x01a\x09"), "value tag 9"},
		{"bad key", []byte("GRLB\x01\x01\x03a.b\x00"), "invalid key"},
		{"empty key", []byte("GRLB\x01\x01\x00\x00\x00"), "invalid key"},
		{"repeated key", []byte("GRLB\x01\x02\x01a\x00\x01a\x00"), "repeated key"},
		{"bad dtype", []byte("GRLB\x01\x01\x01a\x02\x0d\x00"), "unknown dtype 13"},
		{"huge shape", []byte("GRLB\x01\x01\x01a\x02\x0b\x02\xff\xff\xff\x07\xff\xff\xff\x07"), "needs more"},
		{"bad bool", []byte("GRLB\x01\x01\x01a\x02\x01\x01\x01\x02"), "not 0 or 1"},
		{"bad elem", []byte("GRLB\x01\x01\x01a\x02\x0c\x00\x63"), "element tag 99"},
		{"huge list", []byte("GRLB\x01\x01\x01a\x02\x0c\x00\x10\xff\xff\x03"), "exceeds"},
		{"axis too long", []byte("GRLB\x01\x01\x01a\x02\x01\x01\xff\xff\xff\xff\x0f"), "has length"},
		{"bad varint", []byte("GRLB\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"), "varint"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b batch.Batch
			err := b.UnmarshalBinary(tt.data)
			wantErr(t, err, batch.ErrFormat, "")
			if err != nil && !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not say %q", err, tt.msg)
			}
		})
	}
	// Errors inside a nested value name its key path.
	var b batch.Batch
	err = b.UnmarshalBinary([]byte("GRLB\x01\x01\x01o\x01\x01\x01x\x02\x0d"))
	wantErr(t, err, batch.ErrFormat, "o.x")
}

// FuzzUnmarshal checks that decoding never panics, never allocates more
// than a fixed multiple of its input, and that what decodes re-encodes to
// the same bytes.
func FuzzUnmarshal(f *testing.F) {
	good, err := everyDType(f).MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte("GRLB\x01\x00"))
	f.Add([]byte("GRLB\x01\x01\x01a\x02\x0b\x02\x02\x02"))
	f.Add([]byte("GRLB\x01\x01\x01o\x02\x0c\x01\x03\x10\x02\x00\x11\x01\x01k\x02"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var b batch.Batch
		err := b.UnmarshalBinary(data)
		runtime.ReadMemStats(&after)
		// An element of one input byte can cost a header of a few hundred
		// bytes (a nested array); 1 KiB per byte plus slack bounds it.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1024*uint64(len(data))+64<<10 {
			t.Fatalf("decoding %d bytes allocated %d bytes", len(data), alloc)
		}
		if err != nil {
			return
		}
		re, err := b.MarshalBinary()
		if err != nil {
			t.Fatalf("decoded batch does not encode: %v", err)
		}
		var again batch.Batch
		if err := again.UnmarshalBinary(re); err != nil {
			t.Fatalf("re-encoded data does not decode: %v", err)
		}
		if !batch.Equal(&b, &again) {
			t.Fatalf("round trip changed the batch")
		}
	})
}
