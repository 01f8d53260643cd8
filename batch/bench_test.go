package batch_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/batch/batchtest"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/nd"
)

// The benchmarks use the data of the Python reference measurements
// (batchtest.Flat and batchtest.Nested): 64 rows (a typical mini-batch and
// the size the reference used), 10 × 64 for Cat and 1,024 rows for Split.

var sinkBatch *batch.Batch

// dataset is one benchmark shape: a constructor of n rows.
type dataset struct {
	name string
	make func(n int, rng *rand.Rand) *batch.Batch
}

var datasets = []dataset{{"flat", batchtest.Flat}, {"nested", batchtest.Nested}}

// rowBytes returns the number of bytes one row of every array of b holds.
func rowBytes(b *batch.Batch) int {
	n := 0
	for v := range b.Values() {
		switch x := v.(type) {
		case *nd.Array:
			n += x.Size() / max(x.Dim(0), 1) * x.DType().Size()
		case *batch.Batch:
			n += rowBytes(x)
		}
	}
	return n
}

// leafRowBytes lists the bytes per row of each array of b, the layout the
// companion copy benchmarks copy with plain copy.
func leafRowBytes(b *batch.Batch, out []int) []int {
	for v := range b.Values() {
		switch x := v.(type) {
		case *nd.Array:
			out = append(out, x.Size()/max(x.Dim(0), 1)*x.DType().Size())
		case *batch.Batch:
			out = leafRowBytes(x, out)
		}
	}
	return out
}

// filled returns n bytes holding data: the sources of the companion copies
// are written once, because a large make that is never written reads the
// kernel's shared zero page, which is faster than reading real data.
func filled(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// copyRows is the companion of the gathers: for each array, copy the
// selected rows of a byte buffer into a preallocated one with plain copy.
type copyRows struct {
	sizes    []int
	src, dst [][]byte
}

func newCopyRows(b *batch.Batch, srcRows, dstRows int) *copyRows {
	c := &copyRows{sizes: leafRowBytes(b, nil)}
	for _, s := range c.sizes {
		c.src = append(c.src, filled(s*srcRows))
		c.dst = append(c.dst, make([]byte, s*dstRows))
	}
	return c
}

func (c *copyRows) gather(rows []int) {
	for i, s := range c.sizes {
		src, dst := c.src[i], c.dst[i]
		for k, r := range rows {
			copy(dst[k*s:(k+1)*s], src[r*s:(r+1)*s])
		}
	}
}

func randRows(rng *rand.Rand, n, of int) []int {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = rng.IntN(of)
	}
	return rows
}

// BenchmarkNew builds a 64-row transition Batch from arrays, with the
// dict-valued keys given as maps (as the Python reference passes dicts).
func BenchmarkNew(b *testing.B) {
	for _, ds := range datasets {
		b.Run(ds.name, func(b *testing.B) {
			src := ds.make(64, rand.New(rand.NewPCG(1, 1)))
			var kv []any
			for k, v := range src.Items() {
				if sub, ok := v.(*batch.Batch); ok {
					m := map[string]any{}
					for sk, sv := range sub.Items() {
						m[sk] = sv
					}
					v = m
				}
				kv = append(kv, k, v)
			}
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Start(b).Report()
			for i := 0; i < b.N; i++ {
				r, err := batch.New(kv...)
				if err != nil {
					b.Fatal(err)
				}
				sinkBatch = r
			}
		})
	}
}

// BenchmarkIndexInts is b[idx] with 64 random row indices (copies).
func BenchmarkIndexInts(b *testing.B) {
	for _, ds := range datasets {
		b.Run(ds.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			src := ds.make(64, rng)
			rows := randRows(rng, 64, 64)
			idx := nd.Ints(rows...)
			b.SetBytes(int64(64 * rowBytes(src)))
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Start(b).Report()
			for i := 0; i < b.N; i++ {
				sinkBatch = src.Index(idx)
			}
		})
	}
}

// BenchmarkIndexIntsCopy is the companion of BenchmarkIndexInts/nested:
// the same bytes copied row by row into preallocated memory.
func BenchmarkIndexIntsCopy(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	src := batchtest.Nested(64, rng)
	rows := randRows(rng, 64, 64)
	c := newCopyRows(src, 64, 64)
	b.SetBytes(int64(64 * rowBytes(src)))
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.Start(b).Report()
	for i := 0; i < b.N; i++ {
		c.gather(rows)
	}
}

// BenchmarkTake is Take of 64 random rows (the allocating gather).
func BenchmarkTake(b *testing.B) {
	for _, ds := range datasets {
		b.Run(ds.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			src := ds.make(64, rng)
			rows := randRows(rng, 64, 64)
			b.SetBytes(int64(64 * rowBytes(src)))
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Start(b).Report()
			for i := 0; i < b.N; i++ {
				sinkBatch = batch.Take(src, rows)
			}
		})
	}
}

// BenchmarkTakeTo gathers 64 random rows of a 1,024-row Batch into a reused
// destination: the replay buffer's SampleTo path.
func BenchmarkTakeTo(b *testing.B) {
	for _, ds := range datasets {
		b.Run(ds.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			src := ds.make(1024, rng)
			rows := randRows(rng, 64, 1024)
			dst, err := batch.ZerosLike(src, len(rows))
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(64 * rowBytes(src)))
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Start(b).Report()
			for i := 0; i < b.N; i++ {
				batch.TakeTo(dst, src, rows)
			}
		})
	}
}

// BenchmarkTakeToCopy is the companion of BenchmarkTakeTo/nested.
func BenchmarkTakeToCopy(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	src := batchtest.Nested(1024, rng)
	rows := randRows(rng, 64, 1024)
	c := newCopyRows(src, 1024, 64)
	b.SetBytes(int64(64 * rowBytes(src)))
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.Start(b).Report()
	for i := 0; i < b.N; i++ {
		c.gather(rows)
	}
}

// BenchmarkSlice is b[:32] (views).
func BenchmarkSlice(b *testing.B) {
	for _, ds := range datasets {
		b.Run(ds.name, func(b *testing.B) {
			src := ds.make(64, rand.New(rand.NewPCG(1, 1)))
			idx := nd.To(32)
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Start(b).Report()
			for i := 0; i < b.N; i++ {
				sinkBatch = src.Index(idx)
			}
		})
	}
}

// singles returns n single transitions (rows without a batch axis).
func singles(ds dataset, n int) []*batch.Batch {
	src := ds.make(n, rand.New(rand.NewPCG(1, 1)))
	out := make([]*batch.Batch, n)
	for i := range out {
		out[i] = src.Index(nd.I(i)).Clone()
	}
	return out
}

// BenchmarkStack stacks 64 single transitions.
func BenchmarkStack(b *testing.B) {
	for _, ds := range datasets {
		b.Run(ds.name, func(b *testing.B) {
			rows := singles(ds, 64)
			b.SetBytes(int64(64 * rowBytes(ds.make(1, rand.New(rand.NewPCG(1, 1))))))
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Start(b).Report()
			for i := 0; i < b.N; i++ {
				r, err := batch.Stack(0, rows...)
				if err != nil {
					b.Fatal(err)
				}
				sinkBatch = r
			}
		})
	}
}

// BenchmarkStackTo stacks 64 single transitions into a reused destination
// (the collector's path).
func BenchmarkStackTo(b *testing.B) {
	for _, ds := range datasets {
		b.Run(ds.name, func(b *testing.B) {
			rows := singles(ds, 64)
			dst := batch.ZerosStacked(rows[0], 64)
			b.SetBytes(int64(64 * rowBytes(ds.make(1, rand.New(rand.NewPCG(1, 1))))))
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Start(b).Report()
			for i := 0; i < b.N; i++ {
				if err := batch.StackTo(dst, 0, rows...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStackCopy is the companion of BenchmarkStack/nested: each
// transition's bytes copied into preallocated memory.
func BenchmarkStackCopy(b *testing.B) {
	one := batchtest.Nested(1, rand.New(rand.NewPCG(1, 1)))
	sizes := leafRowBytes(one, nil)
	srcs := make([][][]byte, 64)
	for i := range srcs {
		for _, s := range sizes {
			srcs[i] = append(srcs[i], filled(s))
		}
	}
	dsts := make([][]byte, len(sizes))
	for j, s := range sizes {
		dsts[j] = make([]byte, 64*s)
	}
	b.SetBytes(int64(64 * rowBytes(one)))
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.Start(b).Report()
	for i := 0; i < b.N; i++ {
		for k, src := range srcs {
			for j, s := range sizes {
				copy(dsts[j][k*s:(k+1)*s], src[j])
			}
		}
	}
}

// BenchmarkCat concatenates 10 batches of 64 rows.
func BenchmarkCat(b *testing.B) {
	for _, ds := range datasets {
		b.Run(ds.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			parts := make([]*batch.Batch, 10)
			for i := range parts {
				parts[i] = ds.make(64, rng)
			}
			b.SetBytes(int64(640 * rowBytes(parts[0])))
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Start(b).Report()
			for i := 0; i < b.N; i++ {
				r, err := batch.Cat(parts...)
				if err != nil {
					b.Fatal(err)
				}
				sinkBatch = r
			}
		})
	}
}

// BenchmarkCatCopy is the companion of BenchmarkCat/nested: the ten
// batches' bytes copied into preallocated memory.
func BenchmarkCatCopy(b *testing.B) {
	one := batchtest.Nested(64, rand.New(rand.NewPCG(1, 1)))
	sizes := leafRowBytes(one, nil)
	srcs := make([][]byte, len(sizes))
	dsts := make([][]byte, len(sizes))
	for j, s := range sizes {
		srcs[j] = filled(64 * s)
		dsts[j] = make([]byte, 640*s)
	}
	b.SetBytes(int64(640 * rowBytes(one)))
	b.ResetTimer()
	defer cputime.Start(b).Report()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for k := 0; k < 10; k++ {
			for j, s := range sizes {
				copy(dsts[j][k*64*s:(k+1)*64*s], srcs[j])
			}
		}
	}
}

// BenchmarkCatCopyNew is BenchmarkCatCopy into new memory, the floor of an
// allocating Cat: each leaf's ten parts joined by bytes.Join, which does
// not zero its allocation first. New memory is not in the caches, so this
// costs more than copying into memory reused every iteration.
func BenchmarkCatCopyNew(b *testing.B) {
	one := batchtest.Nested(64, rand.New(rand.NewPCG(1, 1)))
	sizes := leafRowBytes(one, nil)
	parts := make([][][]byte, len(sizes))
	for j, s := range sizes {
		for k := 0; k < 10; k++ {
			parts[j] = append(parts[j], filled(64*s))
		}
	}
	b.SetBytes(int64(640 * rowBytes(one)))
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.Start(b).Report()
	for i := 0; i < b.N; i++ {
		for j := range parts {
			sinkBytes = bytes.Join(parts[j], nil)
		}
	}
}

// BenchmarkSplit splits 1,024 rows into shuffled pieces of 32 and walks
// them all.
func BenchmarkSplit(b *testing.B) {
	for _, ds := range datasets {
		b.Run(ds.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			src := ds.make(1024, rng)
			b.SetBytes(int64(1024 * rowBytes(src)))
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Start(b).Report()
			for i := 0; i < b.N; i++ {
				pieces, err := src.Split(32, true, rng)
				if err != nil {
					b.Fatal(err)
				}
				for p := range pieces {
					sinkBatch = p
				}
			}
		})
	}
}

// BenchmarkSplitCopy is the companion of BenchmarkSplit/nested: a shuffled
// gather of all 1,024 rows into preallocated memory.
func BenchmarkSplitCopy(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	src := batchtest.Nested(1024, rng)
	c := newCopyRows(src, 1024, 1024)
	b.SetBytes(int64(1024 * rowBytes(src)))
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.Start(b).Report()
	for i := 0; i < b.N; i++ {
		c.gather(rng.Perm(1024))
	}
}

// BenchmarkSetRow stores one transition into 1,024-row storage (a replay
// buffer's Add).
func BenchmarkSetRow(b *testing.B) {
	for _, ds := range datasets {
		b.Run(ds.name, func(b *testing.B) {
			row := singles(ds, 1)[0]
			store := batch.ZerosStacked(row, 1024)
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Start(b).Report()
			for i := 0; i < b.N; i++ {
				if err := store.SetRow(i%1024, row); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLen is Len of a 64-row transition Batch.
func BenchmarkLen(b *testing.B) {
	src := batchtest.Flat(64, rand.New(rand.NewPCG(1, 1)))
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.Start(b).Report()
	for i := 0; i < b.N; i++ {
		if n, err := src.Len(); err != nil || n != 64 {
			b.Fatal(n, err)
		}
	}
}

// BenchmarkMarshal encodes and decodes a 64-row transition Batch.
func BenchmarkMarshal(b *testing.B) {
	for _, ds := range datasets {
		b.Run(ds.name, func(b *testing.B) {
			src := ds.make(64, rand.New(rand.NewPCG(1, 1)))
			buf, err := src.AppendBinary(nil)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(buf)))
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Start(b).Report()
			for i := 0; i < b.N; i++ {
				buf, _ = src.AppendBinary(buf[:0])
				var out batch.Batch
				if err := out.UnmarshalBinary(buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestHotPathAllocs locks the zero-allocation paths on the benchmark data.
func TestHotPathAllocs(t *testing.T) {
	for _, ds := range datasets {
		rng := rand.New(rand.NewPCG(1, 1))
		src := ds.make(256, rng)
		rows := randRows(rng, 64, 256)
		dst, err := batch.ZerosLike(src, len(rows))
		if err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(20, func() { batch.TakeTo(dst, src, rows) }); n != 0 {
			t.Errorf("%s: TakeTo allocates %v times", ds.name, n)
		}
		one := singles(ds, 8)
		sdst := batch.ZerosStacked(one[0], len(one))
		if n := testing.AllocsPerRun(20, func() { batch.StackTo(sdst, 0, one...) }); n != 0 && !race.Enabled {
			t.Errorf("%s: StackTo allocates %v times", ds.name, n)
		}
		if n := testing.AllocsPerRun(20, func() { sdst.SetRow(3, one[0]) }); n != 0 {
			t.Errorf("%s: SetRow allocates %v times", ds.name, n)
		}
		if n := testing.AllocsPerRun(20, func() { src.Len() }); n != 0 {
			t.Errorf("%s: Len allocates %v times", ds.name, n)
		}
	}
}

var sinkBytes []byte

// BenchmarkAllocFloor allocates, in one make, as many bytes as an
// allocating Batch operation returns (its B/op on the benchmark data):
// Index with 64 ints and Slice [:32] of the flat batch, and Split of 1,024
// flat rows. It is the floor of those benchmarks: Go zeroes new memory, and
// new memory is not in the caches, so what an allocating operation returns
// costs time in proportion to its bytes before anything is copied.
func BenchmarkAllocFloor(b *testing.B) {
	for _, c := range []struct {
		name  string
		bytes int
	}{{"IndexInts_flat", 4544}, {"Slice_flat", 1088}, {"Split_flat", 103320}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Start(b).Report()
			for i := 0; i < b.N; i++ {
				sinkBytes = make([]byte, c.bytes)
			}
		})
	}
}
