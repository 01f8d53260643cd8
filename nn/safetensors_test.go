package nn

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gorl/gorl/tensor"
)

// smallNet returns the parameters of a 3→4→2 MLP drawn from seed.
func smallNet(t testing.TB, seed uint64) Params {
	t.Helper()
	m, err := NewMLP(MLPConfig{In: 3, Hidden: []int{4}, Out: 2}, rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		t.Fatal(err)
	}
	return m.Params()
}

func TestSaveLoadRoundTrip(t *testing.T) {
	src := smallNet(t, 1)
	var buf bytes.Buffer
	meta := map[string]string{"format": "pt", "step": "12"}
	if err := Save(&buf, src, meta); err != nil {
		t.Fatal(err)
	}
	dst := smallNet(t, 2)
	got, err := Load(bytes.NewReader(buf.Bytes()), dst)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["format"] != "pt" || got["step"] != "12" {
		t.Errorf("metadata %v, want %v", got, meta)
	}
	for i := range src {
		if !slices.Equal(src[i].Tensor.Data(), dst[i].Tensor.Data()) {
			t.Errorf("%s differs after the round trip", src[i].Name)
		}
	}
	// No metadata: no __metadata__ entry, nil map back.
	buf.Reset()
	if err := Save(&buf, src, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "__metadata__") {
		t.Error("empty metadata written")
	}
	if got, err := Load(&buf, dst); err != nil || got != nil {
		t.Errorf("Load without metadata: %v, %v", got, err)
	}
}

// TestSaveFormat parses a saved file by the safetensors specification alone:
// u64 little-endian header size N, N bytes of UTF-8 JSON (an object whose
// tensor entries have dtype, shape and data_offsets relative to the byte
// buffer that follows), then the buffer; values little-endian, row-major.
func TestSaveFormat(t *testing.T) {
	ps := Params{
		{Name: "fc1.weight", Tensor: tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)},
		{Name: "fc1.bias", Tensor: tensor.MustFromSlice([]float32{-1.5, 0.25}, 2)},
		{Name: "scalar", Tensor: tensor.New()},
	}
	ps[2].Tensor.Data()[0] = 7
	var buf bytes.Buffer
	if err := Save(&buf, ps, map[string]string{"by": "gorl"}); err != nil {
		t.Fatal(err)
	}
	file := buf.Bytes()
	n := binary.LittleEndian.Uint64(file[:8])
	if n%8 != 0 {
		t.Errorf("header size %d is not a multiple of 8", n)
	}
	var header map[string]json.RawMessage
	if err := json.Unmarshal(file[8:8+n], &header); err != nil {
		t.Fatalf("header is not JSON: %v", err)
	}
	var meta map[string]string
	if err := json.Unmarshal(header["__metadata__"], &meta); err != nil || meta["by"] != "gorl" {
		t.Errorf("__metadata__ %s: %v", header["__metadata__"], err)
	}
	data := file[8+n:]
	end := 0
	for _, p := range ps {
		var e struct {
			Dtype       string `json:"dtype"`
			Shape       []int  `json:"shape"`
			DataOffsets [2]int `json:"data_offsets"`
		}
		if err := json.Unmarshal(header[p.Name], &e); err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if e.Dtype != "F32" || !slices.Equal(e.Shape, p.Tensor.Shape()) {
			t.Errorf("%s: dtype %s shape %v", p.Name, e.Dtype, e.Shape)
		}
		end = max(end, e.DataOffsets[1])
		raw := data[e.DataOffsets[0]:e.DataOffsets[1]]
		var vals []float32
		for i := 0; i < len(raw); i += 4 {
			vals = append(vals, math.Float32frombits(binary.LittleEndian.Uint32(raw[i:])))
		}
		if !slices.Equal(vals, p.Tensor.Data()) {
			t.Errorf("%s: data %v, want %v", p.Name, vals, p.Tensor.Data())
		}
	}
	if len(header) != len(ps)+1 || end != len(data) {
		t.Errorf("%d header entries, data %d bytes with tensors ending at %d", len(header), len(data), end)
	}
}

// file builds a safetensors file from a header written as JSON text and raw
// data, with the given header length (or the real one when n < 0).
func file(header string, n int64, data []byte) []byte {
	if n < 0 {
		n = int64(len(header))
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(n))
	return append(append(out, header...), data...)
}

// oneTensor is the parameter set of the hand-made files below: "w" of shape
// [2] (8 bytes).
func oneTensor() Params {
	return Params{{Name: "w", Tensor: tensor.MustFromSlice([]float32{9, 9})}}
}

func TestLoadErrors(t *testing.T) {
	data8 := []byte{0, 0, 128, 63, 0, 0, 0, 64} // 1, 2
	w := func(dtype, shape, offsets string) string {
		return fmt.Sprintf(`{"w":{"dtype":%s,"shape":%s,"data_offsets":%s}}`, dtype, shape, offsets)
	}
	good := w(`"F32"`, `[2]`, `[0,8]`)
	for _, tc := range []struct {
		name string
		file []byte
		want error
	}{
		{"empty", nil, ErrFormat},
		{"short length", []byte{1, 2, 3}, ErrFormat},
		{"huge header", file("{}", MaxHeaderSize+1, nil), ErrFormat},
		{"header beyond file", file("{}", 1000, nil), ErrFormat},
		{"not an object", file(`[1,2]`, -1, nil), ErrFormat},
		{"leading space", file(" "+good, -1, data8), ErrFormat},
		{"bad JSON", file(`{"w":{`, -1, nil), ErrFormat},
		{"trailing JSON", file(good+`{}`, -1, data8), ErrFormat},
		{"duplicate", file(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, -1, data8), ErrFormat},
		{"no dtype", file(`{"w":{"shape":[2],"data_offsets":[0,8]}}`, -1, data8), ErrFormat},
		{"unknown dtype", file(w(`"F33"`, `[2]`, `[0,8]`), -1, data8), ErrFormat},
		{"negative dim", file(w(`"F32"`, `[-2]`, `[0,8]`), -1, data8), ErrFormat},
		{"offsets reversed", file(w(`"F32"`, `[2]`, `[8,0]`), -1, data8), ErrFormat},
		{"offsets three", file(w(`"F32"`, `[2]`, `[0,4,8]`), -1, data8), ErrFormat},
		{"size mismatch", file(w(`"F32"`, `[3]`, `[0,8]`), -1, data8), ErrFormat},
		{"gap", file(w(`"F32"`, `[2]`, `[4,12]`), -1, append(data8, 0, 0, 0, 0)), ErrFormat},
		{"huge dim", file(w(`"F32"`, `[4294967296]`, `[0,8]`), -1, data8), ErrFormat},
		{"wrapping shape", file(w(`"F32"`, `[2147483647,2147483647,2147483647,2147483647,2147483647]`, `[0,8]`), -1, data8), ErrFormat},
		{"overlap", file(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"v":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, -1, data8), ErrFormat},
		{"truncated data", file(good, -1, data8[:5]), ErrFormat},
		{"trailing data", file(good, -1, append(data8, 1)), ErrFormat},
		{"bad metadata", file(`{"__metadata__":{"a":1},"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, -1, data8), ErrFormat},
		{"F64", file(w(`"F64"`, `[1]`, `[0,8]`), -1, data8), ErrMismatch},
		{"shape", file(w(`"F32"`, `[1,2]`, `[0,8]`), -1, data8), ErrMismatch},
		{"unexpected", file(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"v":{"dtype":"F32","shape":[0],"data_offsets":[8,8]}}`, -1, data8), ErrMismatch},
		{"missing", file(`{"v":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, -1, data8), ErrMismatch},
	} {
		ps := oneTensor()
		_, err := Load(bytes.NewReader(tc.file), ps)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
		if d := ps[0].Tensor.Data(); d[0] != 9 || d[1] != 9 {
			t.Errorf("%s: the tensor changed to %v on error", tc.name, d)
		}
	}
	// The hand-made files are right apart from the defect: the good one
	// loads, also with JSON whitespace padding the header.
	for _, h := range []string{good, good + "  \n\t "} {
		ps := oneTensor()
		if _, err := Load(bytes.NewReader(file(h, -1, data8)), ps); err != nil || ps[0].Tensor.Data()[1] != 2 {
			t.Errorf("good file %q: %v, %v", h, err, ps[0].Tensor.Data())
		}
	}
}

func TestSaveErrors(t *testing.T) {
	x := tensor.New(1)
	for _, ps := range []Params{
		{{Name: "", Tensor: x}},
		{{Name: "__metadata__", Tensor: x}},
		{{Name: "a", Tensor: x}, {Name: "a", Tensor: x}},
	} {
		var buf bytes.Buffer
		if err := Save(&buf, ps, nil); !errors.Is(err, ErrConfig) || buf.Len() != 0 {
			t.Errorf("Save(%v): %v, %d bytes written", ps, err, buf.Len())
		}
	}
}

// TestLoadAllocBound feeds Load a 16-byte file that claims a header of
// almost MaxHeaderSize bytes: Load must fail without allocating anything
// near that size.
func TestLoadAllocBound(t *testing.T) {
	f := file("{}", MaxHeaderSize-1, nil)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Load(bytes.NewReader(f), oneTensor())
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrFormat) {
		t.Errorf("error %v, want ErrFormat", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("Load allocated %d bytes for a 16-byte file", got)
	}
}

// FuzzLoad checks that Load never panics, fails or succeeds atomically, and
// that what it accepts it reads back to the same values when saved again.
func FuzzLoad(f *testing.F) {
	var buf bytes.Buffer
	ps := smallNet(f, 1)
	if err := Save(&buf, ps, map[string]string{"k": "v"}); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add(file(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, -1, make([]byte, 8)))
	f.Add(file(`{}`, -1, nil))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		ps := smallNet(t, 2)
		before := ps.Clone()
		if _, err := Load(bytes.NewReader(data), ps); err != nil {
			if Match(ps, before) != nil {
				t.Fatal("structure changed")
			}
			for i := range ps {
				if !slices.Equal(ps[i].Tensor.Data(), before[i].Tensor.Data()) {
					t.Fatalf("%s changed on error %v", ps[i].Name, err)
				}
			}
			return
		}
		var out bytes.Buffer
		if err := Save(&out, ps, nil); err != nil {
			t.Fatal(err)
		}
		again := smallNet(t, 3)
		if _, err := Load(&out, again); err != nil {
			t.Fatalf("a loaded set does not load again: %v", err)
		}
		for i := range ps {
			a, b := ps[i].Tensor.Data(), again[i].Tensor.Data()
			for j := range a {
				if math.Float32bits(a[j]) != math.Float32bits(b[j]) {
					t.Fatalf("%s[%d]: %v then %v", ps[i].Name, j, a[j], b[j])
				}
			}
		}
	})
}
