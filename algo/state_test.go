package algo_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/nn"
)

type counters struct {
	Updates int64   `json:"updates"`
	Eps     float64 `json:"eps"`
}

// parts returns the parts of a small state: a network, a random source,
// counters, and a part of size big bytes (to cross chunk boundaries).
func parts(seed uint64, big int) ([]algo.Part, nn.Params, *rand.PCG, *counters, *[]byte) {
	rng := rand.New(rand.NewPCG(seed, seed))
	mlp, err := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{4}, Out: 2}, rng)
	if err != nil {
		panic(err)
	}
	src := rand.NewPCG(seed, 7)
	c := &counters{Updates: int64(seed), Eps: 0.1 * float64(seed)}
	blob := make([]byte, big)
	for i := range blob {
		blob[i] = byte(rng.Uint32())
	}
	ps := mlp.Params()
	return []algo.Part{
		algo.ParamsPart("net", ps),
		algo.BinaryPart("rng", src),
		algo.JSONPart("counters", c),
		{
			Name: "blob",
			Save: func(w io.Writer) error { _, err := w.Write(blob); return err },
			Load: func(r io.Reader) error {
				b, err := io.ReadAll(r)
				blob = b
				return err
			},
		},
	}, ps, src, c, &blob
}

func TestPartsRoundTrip(t *testing.T) {
	const big = 3<<20 + 5 // four chunks
	src, srcPs, srcRNG, srcC, srcBlob := parts(1, big)
	var buf bytes.Buffer
	if err := algo.SaveParts(&buf, src...); err != nil {
		t.Fatal(err)
	}
	dst, ps, rng, c, blob := parts(2, 0)
	if err := algo.LoadParts(bytes.NewReader(buf.Bytes()), dst...); err != nil {
		t.Fatal(err)
	}
	for i := range ps {
		if !ps[i].Tensor.Equal(srcPs[i].Tensor) {
			t.Errorf("tensor %s differs after loading", ps[i].Name)
		}
	}
	if rng.Uint64() != srcRNG.Uint64() {
		t.Error("random source not restored")
	}
	if *c != *srcC {
		t.Errorf("counters %+v, want %+v", *c, *srcC)
	}
	if !bytes.Equal(*blob, *srcBlob) {
		t.Errorf("blob of %d bytes, want %d", len(*blob), len(*srcBlob))
	}
}

func TestPartsErrors(t *testing.T) {
	src, _, _, _, _ := parts(1, 100)
	var buf bytes.Buffer
	if err := algo.SaveParts(&buf, src...); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	load := func(data []byte, ps []algo.Part) error { return algo.LoadParts(bytes.NewReader(data), ps...) }
	for _, tc := range []struct {
		name string
		data []byte
		ps   func() []algo.Part
		msg  string
	}{
		{"empty", nil, nil, "header"},
		{"magic", append([]byte("XXXX"), good[4:]...), nil, "not a saved state"},
		{"version", append(append([]byte("GRLS"), 9), good[5:]...), nil, "version 9"},
		{"truncated", good[:len(good)/2], nil, "unexpected EOF"},
		{"flipped byte", flip(good, len(good)-30), nil, "checksum mismatch"},
		{"trailing part", good, func() []algo.Part { p, _, _, _, _ := parts(2, 0); return p[:3] }, "more parts"},
		{"missing part", good, func() []algo.Part {
			p, _, _, _, _ := parts(2, 0)
			return append(p, algo.JSONPart("extra", new(counters)))
		}, "extra: missing"},
		{"renamed part", good, func() []algo.Part {
			p, _, _, _, _ := parts(2, 0)
			p[1].Name = "random"
			return p
		}, `found part "rng"`},
		{"other network", good, func() []algo.Part {
			p, _, _, _, _ := parts(2, 0)
			mlp, _ := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{5}, Out: 2}, rand.New(rand.NewPCG(1, 1)))
			p[0] = algo.ParamsPart("net", mlp.Params())
			return p
		}, "net: load"},
		{"unread bytes", good, func() []algo.Part {
			p, _, _, _, _ := parts(2, 0)
			p[3].Load = func(r io.Reader) error { return nil }
			return p
		}, "100 bytes left unread"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := src
			if tc.ps != nil {
				ps = tc.ps()
			} else {
				ps, _, _, _, _ = parts(2, 0)
			}
			err := load(tc.data, ps)
			if !errors.Is(err, algo.ErrState) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("LoadParts = %v, want ErrState mentioning %q", err, tc.msg)
			}
		})
	}
	if err := algo.SaveParts(io.Discard, algo.Part{Name: ""}); err == nil {
		t.Error("SaveParts accepted an empty part name")
	}
}

func flip(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 0x40
	return c
}

// FuzzLoadParts feeds arbitrary bytes to LoadParts: it must never panic,
// and anything it accepts must load the parts of a fresh state.
func FuzzLoadParts(f *testing.F) {
	src, _, _, _, _ := parts(1, 10)
	var buf bytes.Buffer
	if err := algo.SaveParts(&buf, src...); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("GRLS\x01\x00"))
	f.Add([]byte("GRLS\x01\x01\x03net\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, _, _, _, _ := parts(2, 0)
		_ = algo.LoadParts(bytes.NewReader(data), ps...)
	})
}
