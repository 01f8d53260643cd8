package buffer_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
)

func saveBuffer(t testing.TB, b buffer.Buffer) []byte {
	t.Helper()
	var w bytes.Buffer
	if err := b.Save(&w); err != nil {
		t.Fatal(err)
	}
	return w.Bytes()
}

func load(t testing.TB, data []byte) buffer.Buffer {
	t.Helper()
	b, err := buffer.Load(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dataOf returns a buffer's storage.
func dataOf(b buffer.Buffer) *batch.Batch {
	return b.(interface{ Data() *batch.Batch }).Data()
}

// sameBuffer checks that two buffers hold the same data and behave the
// same: indices, Prev/Next, unfinished episodes, sampling with one seed
// (priorities), and the next Add (ring positions, episode statistics).
func sameBuffer(t *testing.T, a, b buffer.Buffer, next *batch.Batch, ids []int) {
	t.Helper()
	if reflect.TypeOf(a) != reflect.TypeOf(b) {
		t.Fatalf("loaded %T, saved %T", b, a)
	}
	if !batch.Equal(dataOf(a), dataOf(b)) {
		t.Fatalf("storage differs:\n%v\n%v", dataOf(a), dataOf(b))
	}
	if a.Len() != b.Len() || a.Cap() != b.Cap() {
		t.Errorf("Len/Cap %d/%d vs %d/%d", a.Len(), a.Cap(), b.Len(), b.Cap())
	}
	ia, ib := a.SampleIndices(0, nil), b.SampleIndices(0, nil)
	if !slices.Equal(ia, ib) {
		t.Errorf("indices %v vs %v", ia, ib)
	}
	pa, pb := make([]int, len(ia)), make([]int, len(ia))
	a.PrevTo(pa, ia)
	b.PrevTo(pb, ia)
	if !slices.Equal(pa, pb) {
		t.Errorf("Prev %v vs %v", pa, pb)
	}
	a.NextTo(pa, ia)
	b.NextTo(pb, ia)
	if !slices.Equal(pa, pb) {
		t.Errorf("Next %v vs %v", pa, pb)
	}
	if !slices.Equal(a.UnfinishedIndex(), b.UnfinishedIndex()) {
		t.Errorf("UnfinishedIndex %v vs %v", a.UnfinishedIndex(), b.UnfinishedIndex())
	}
	if a.Len() > 0 {
		ra, rb := rand.New(rand.NewPCG(7, 7)), rand.New(rand.NewPCG(7, 7))
		da, db := &batch.Batch{}, &batch.Batch{}
		xa, xb := make([]int, 16), make([]int, 16)
		if err := a.SampleTo(da, xa, ra); err != nil {
			t.Fatal(err)
		}
		if err := b.SampleTo(db, xb, rb); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(xa, xb) || !batch.Equal(da, db) {
			t.Errorf("samples differ: %v vs %v", xa, xb)
		}
	}
	sa, err := a.Add(next, ids, nil)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.Add(next, ids, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sa, sb) {
		t.Errorf("next Add: %+v vs %+v", sa, sb)
	}
}

// fileCases returns one filled buffer of each type, the transition to add
// after loading, and its buffer ids.
func fileCases(t testing.TB) []struct {
	name string
	buf  buffer.Buffer
	next *batch.Batch
	ids  []int
} {
	type tc = struct {
		name string
		buf  buffer.Buffer
		next *batch.Batch
		ids  []int
	}
	var out []tc
	rich := func(i int, done bool) *batch.Batch {
		return batch.MustNew("obs", batch.MustNew("pos", []float32{float32(i), 1}, "id", i), "act", i%3, "rew", float64(i)/2,
			"terminated", done, "truncated", false, "obs_next", batch.MustNew("pos", []float32{float32(i + 1), 1}, "id", i+1),
			"info", batch.MustNew("msg", []any{"step", i, nil}[i%3], "nested", batch.MustNew("x", uint8(i))), "policy", &batch.Batch{})
	}
	empty := mustReplay(t, buffer.Config{Size: 7, StackNum: 2})
	out = append(out, tc{"empty replay", empty, rich(0, false), nil})
	r := mustReplay(t, buffer.Config{Size: 7, StackNum: 3, IgnoreObsNext: true, SampleAvail: true})
	for i := range 11 {
		mustAdd(t, r, rich(i, i%4 == 3), nil)
	}
	out = append(out, tc{"replay", r, rich(20, false), nil})
	v, _ := buffer.NewVector(buffer.Config{Size: 10}, 3)
	for i := range 5 {
		mustAdd(t, v, vecStep([]int64{int64(i), int64(10 + i)}, []bool{i == 2, false}), []int{i % 3, 2})
	}
	out = append(out, tc{"vector", v, vecStep([]int64{7, 8, 9}, []bool{false, false, true}), nil})
	c, _ := buffer.NewCached(buffer.Config{Size: 6}, 2, 3)
	for i := range 5 {
		mustAdd(t, c, vecStep([]int64{int64(i), int64(10 + i)}, []bool{i == 1, i == 3}), nil)
	}
	out = append(out, tc{"cached", c, vecStep([]int64{5, 6}, []bool{true, false}), nil})
	p := mustPrioritized(t, buffer.Config{Size: 6}, buffer.PriorityConfig{Alpha: 0.7, Beta: 0.3, WeightNorm: true})
	for i := range 8 {
		mustAdd(t, p, step(i, 1, i == 4, false), nil)
	}
	if err := p.UpdateWeight([]int{0, 3, 5}, []float64{0.5, 3, 9}); err != nil {
		t.Fatal(err)
	}
	out = append(out, tc{"prioritized", p, step(9, 1, false, false), nil})
	pv, _ := buffer.NewPrioritizedVector(buffer.Config{Size: 8}, 2, buffer.DefaultPriorityConfig())
	for i := range 3 {
		mustAdd(t, pv, vecStep([]int64{int64(i), int64(i + 5)}, []bool{false, i == 1}), nil)
	}
	pv.UpdateWeight([]int{1, 4}, []float64{2, 0.1})
	out = append(out, tc{"prioritized vector", pv, vecStep([]int64{1, 2}, []bool{false, false}), nil})
	goalStep := func(i int) *batch.Batch {
		x := float64(i)
		obs := batch.MustNew("observation", []float64{x}, "achieved_goal", []float64{x}, "desired_goal", []float64{9})
		next := batch.MustNew("observation", []float64{x + 1}, "achieved_goal", []float64{x + 1}, "desired_goal", []float64{9})
		return batch.MustNew("obs", obs, "act", 1, "rew", -1.0, "terminated", false, "truncated", i%3 == 2, "obs_next", next)
	}
	h, _ := buffer.NewHER(buffer.Config{Size: 9}, buffer.HERConfig{Horizon: 3, Reward: goalReward})
	for i := range 7 {
		mustAdd(t, h, goalStep(i), nil)
	}
	out = append(out, tc{"her", h, goalStep(8), nil})
	hv, _ := buffer.NewHERVector(buffer.Config{Size: 8}, 2, buffer.HERConfig{Horizon: 2, FutureK: 3, Reward: goalReward})
	goalRows := func(i int) *batch.Batch {
		b, err := batch.Stack(0, goalStep(i), goalStep(i+10))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for i := range 3 {
		mustAdd(t, hv, goalRows(i), nil)
	}
	out = append(out, tc{"her vector", hv, goalRows(5), nil})
	return out
}

func TestSaveLoadRoundTrip(t *testing.T) {
	for _, c := range fileCases(t) {
		t.Run(c.name, func(t *testing.T) {
			data := saveBuffer(t, c.buf)
			got := load(t, data)
			if h, ok := got.(*buffer.HER); ok {
				h.SetRewardFunc(goalReward)
			}
			if h, ok := got.(*buffer.HERVector); ok {
				h.SetRewardFunc(goalReward)
			}
			if again := saveBuffer(t, got); !bytes.Equal(again, data) {
				t.Errorf("saving the loaded buffer gives other bytes")
			}
			sameBuffer(t, c.buf, got, c.next, c.ids)
		})
	}
}

// TestSeed002Pickle: seed 002 saves the 3-add buffer and loads it back
// with len 3.
func TestSeed002Pickle(t *testing.T) {
	buf, _ := seedBuffers(t)
	got := load(t, saveBuffer(t, buf))
	if got.Len() != 3 {
		t.Errorf("len(loaded) = %d, want 3", got.Len())
	}
	if !nd.Equal(arrayOf(t, dataOf(got), "obs"), arrayOf(t, buf.Data(), "obs")) {
		t.Error("loaded obs differ")
	}
}

// TestLoadDamaged: every truncation and every single-byte change of a
// saved buffer is reported as ErrFormat, never a panic.
func TestLoadDamaged(t *testing.T) {
	for _, c := range fileCases(t) {
		data := saveBuffer(t, c.buf)
		for n := range len(data) {
			if _, err := buffer.Load(bytes.NewReader(data[:n]), int64(n)); !errors.Is(err, buffer.ErrFormat) {
				t.Fatalf("%s: truncated to %d of %d bytes: %v, want ErrFormat", c.name, n, len(data), err)
			}
		}
		step := max(1, len(data)/400)
		for i := 0; i < len(data); i += step {
			bad := slices.Clone(data)
			bad[i] ^= 0x5a
			if _, err := buffer.Load(bytes.NewReader(bad), int64(len(bad))); !errors.Is(err, buffer.ErrFormat) {
				t.Fatalf("%s: byte %d changed: %v, want ErrFormat", c.name, i, err)
			}
		}
		long := append(slices.Clone(data), 0)
		if _, err := buffer.Load(bytes.NewReader(long), int64(len(long))); !errors.Is(err, buffer.ErrFormat) {
			t.Errorf("%s: trailing byte: %v", c.name, err)
		}
	}
}

func TestSaveErrors(t *testing.T) {
	b := mustReplay(t, buffer.Config{Size: 3})
	type opaque struct{ x int }
	mustAdd(t, b, batch.MustNew("obs", 1, "act", 1, "rew", 1, "terminated", false, "truncated", false, "info", batch.MustNew("o", opaque{3})), nil)
	var e *buffer.Error
	if err := b.Save(&bytes.Buffer{}); !errors.Is(err, buffer.ErrFormat) || !errors.As(err, &e) || e.Path != "info.o" {
		t.Errorf("saving an opaque value: %v, want ErrFormat naming info.o", err)
	}
	m, _ := buffer.NewMemory(3)
	m.Append(machinTransition(t, nil))
	var w bytes.Buffer
	m.Save(&w)
	if _, err := buffer.Load(bytes.NewReader(w.Bytes()), int64(w.Len())); !errors.Is(err, buffer.ErrFormat) {
		t.Errorf("Load of a Memory file: %v", err)
	}
}

func memoryCases(t testing.TB) (*buffer.Memory, *buffer.PrioritizedMemory) {
	m, _ := buffer.NewMemory(4, buffer.DefaultRequired...)
	p, _ := buffer.NewPrioritizedMemory(5, buffer.MemoryPriorityConfig{})
	for i := range 6 {
		tr := machinTransition(t, map[string]any{"i": i, "tags": []any{"a", 1.5, nil}, "m": map[string]any{"k": uint16(i)}})
		if _, err := m.Append(tr); err != nil {
			t.Fatal(err)
		}
		if _, err := p.AppendPriority(tr, float64(i)); err != nil {
			t.Fatal(err)
		}
	}
	return m, p
}

func TestMemoryRoundTrip(t *testing.T) {
	m, p := memoryCases(t)
	var w bytes.Buffer
	if err := m.Save(&w); err != nil {
		t.Fatal(err)
	}
	got, err := buffer.LoadMemory(bytes.NewReader(w.Bytes()), int64(w.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.All(), m.All()) {
		t.Errorf("slots %v vs %v", got.All(), m.All())
	}
	for _, s := range m.All() {
		a, b := m.At(s), got.At(s)
		if !slices.Equal(a.Keys(), b.Keys()) || !batch.Equal(a.Major("state"), b.Major("state")) || !nd.Equal(a.Sub("reward"), b.Sub("reward")) {
			t.Errorf("slot %d differs", s)
		}
		for _, k := range []string{"i", "tags", "m"} {
			va, _ := a.Custom(k)
			vb, _ := b.Custom(k)
			if !reflect.DeepEqual(va, vb) {
				t.Errorf("slot %d custom %s: %#v vs %#v", s, k, va, vb)
			}
		}
	}
	w.Reset()
	if err := p.Save(&w); err != nil {
		t.Fatal(err)
	}
	gp, err := buffer.LoadPrioritizedMemory(bytes.NewReader(w.Bytes()), int64(w.Len()))
	if err != nil {
		t.Fatal(err)
	}
	r1, r2 := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	_, _, s1, w1, _ := p.SampleBatch(8, true, nil, nil, r1)
	_, _, s2, w2, _ := gp.SampleBatch(8, true, nil, nil, r2)
	if !slices.Equal(s1, s2) || !slices.Equal(w1, w2) || p.Beta() != gp.Beta() {
		t.Errorf("prioritized samples differ: %v %v vs %v %v", s1, w1, s2, w2)
	}
	if _, err := buffer.LoadMemory(bytes.NewReader(w.Bytes()), int64(w.Len())); !errors.Is(err, buffer.ErrFormat) {
		t.Errorf("LoadMemory of a prioritized file: %v", err)
	}
	data := w.Bytes()
	for n := range len(data) {
		if _, err := buffer.LoadPrioritizedMemory(bytes.NewReader(data[:n]), int64(n)); !errors.Is(err, buffer.ErrFormat) {
			t.Fatalf("truncated to %d: %v", n, err)
		}
	}
	type opaque struct{}
	bad, _ := buffer.NewMemory(2)
	bad.Append(machinTransition(t, map[string]any{"o": opaque{}}))
	if err := bad.Save(&bytes.Buffer{}); !errors.Is(err, buffer.ErrFormat) {
		t.Errorf("saving an opaque custom value: %v", err)
	}
}

// FuzzBufferDecode feeds arbitrary bytes to Load and LoadMemory: they must
// return an error or a buffer that saves back to the same bytes, and never
// panic.
func FuzzBufferDecode(f *testing.F) {
	for _, c := range fileCases(f) {
		f.Add(saveBuffer(f, c.buf))
	}
	m, p := memoryCases(f)
	var w bytes.Buffer
	m.Save(&w)
	f.Add(slices.Clone(w.Bytes()))
	w.Reset()
	p.Save(&w)
	f.Add(slices.Clone(w.Bytes()))
	f.Add([]byte("gorlbuf\x00\x01\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeAny(t, data)
		// Mutations rarely keep the checksums valid; repairing them lets
		// the fuzzer reach the decoding behind them.
		decodeAny(t, fixChecksums(data))
	})
}

// fixChecksums returns data with the CRC of every complete section
// recomputed.
func fixChecksums(data []byte) []byte {
	out := slices.Clone(data)
	p := 10
	for p+13 <= len(out) {
		n := binary.LittleEndian.Uint64(out[p+1:])
		if n > uint64(len(out)-p-13) {
			break
		}
		end := p + 9 + int(n)
		binary.LittleEndian.PutUint32(out[end:], crc32.Checksum(out[p:end], crc32.MakeTable(crc32.Castagnoli)))
		p = end + 4
	}
	return out
}

func decodeAny(t *testing.T, data []byte) {
	{
		if b, err := buffer.Load(bytes.NewReader(data), int64(len(data))); err == nil {
			var w bytes.Buffer
			if err := b.Save(&w); err != nil {
				t.Fatalf("saving a loaded buffer: %v", err)
			}
			if !bytes.Equal(w.Bytes(), data) {
				t.Fatalf("loaded buffer saves to other bytes")
			}
			// Using it must not panic either.
			rng := rand.New(rand.NewPCG(1, 1))
			if b.Len() > 0 {
				if h, ok := b.(*buffer.HER); ok {
					h.SetRewardFunc(goalReward)
				}
				if h, ok := b.(*buffer.HERVector); ok {
					h.SetRewardFunc(goalReward)
				}
				idx := b.SampleIndices(0, nil)
				b.TakeTo(&batch.Batch{}, idx[:min(len(idx), 8)])
				b.SampleTo(&batch.Batch{}, make([]int, 4), rng)
			}
		} else if !errors.Is(err, buffer.ErrFormat) {
			t.Fatalf("error %v does not wrap ErrFormat", err)
		}
		if mm, err := buffer.LoadMemory(bytes.NewReader(data), int64(len(data))); err == nil {
			var w bytes.Buffer
			if err := mm.Save(&w); err != nil || !bytes.Equal(w.Bytes(), data) {
				t.Fatalf("memory round trip: %v", err)
			}
		}
		if pm, err := buffer.LoadPrioritizedMemory(bytes.NewReader(data), int64(len(data))); err == nil {
			var w bytes.Buffer
			if err := pm.Save(&w); err != nil || !bytes.Equal(w.Bytes(), data) {
				t.Fatalf("prioritized memory round trip: %v", err)
			}
		}
	}
}
