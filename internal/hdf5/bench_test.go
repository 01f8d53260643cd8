//go:build hdf5 && cgo

package hdf5

import (
	"fmt"
	"strconv"
	"testing"
)

// benchData are the payloads of the benchmarks: a 1k float32 array measures
// the fixed cost of a call, a 1M one (4 MB, a large replay buffer column)
// the throughput, and 1k short strings the variable-length string path.
var benchData = []struct {
	name  string
	data  any
	shape []int
	bytes int64
}{
	{"float32-1k", ramp[float32](1 << 10), []int{1 << 10}, 4 << 10},
	{"float32-1M", ramp[float32](1 << 20), []int{1 << 10, 1 << 10}, 4 << 20},
	{"string-1k", benchStrings(1 << 10), []int{1 << 10}, 0},
}

func benchStrings(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = "step-" + strconv.Itoa(i)
	}
	return s
}

// sink keeps benchmark results alive.
var sink any

// BenchmarkWriteFile creates a file, writes one dataset and closes it: what
// saving one buffer column costs, file creation included.
func BenchmarkWriteFile(b *testing.B) {
	for _, c := range benchData {
		b.Run(c.name, func(b *testing.B) {
			path := tempPath(b, "bench.h5")
			b.SetBytes(c.bytes)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				f, err := Create(path)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := f.Root().WriteDataset("x", c.data, c.shape); err != nil {
					b.Fatal(err)
				}
				if err := f.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReadDataset reads one dataset of an open file repeatedly; after
// the first read HDF5 serves it from the operating system's page cache.
func BenchmarkReadDataset(b *testing.B) {
	for _, c := range benchData {
		b.Run(c.name, func(b *testing.B) {
			path := tempPath(b, "bench.h5")
			f := mustCreate(b, path)
			if _, err := f.Root().WriteDataset("x", c.data, c.shape); err != nil {
				b.Fatal(err)
			}
			mustClose(b, f)
			f = mustOpen(b, path)
			defer mustClose(b, f)
			root := f.Root()
			b.SetBytes(c.bytes)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				data, _, err := root.ReadDataset("x")
				if err != nil {
					b.Fatal(err)
				}
				sink = data
			}
		})
	}
}

// BenchmarkAttr sets and reads back an int64 attribute: the fixed cost of
// the metadata calls a buffer save makes per key.
func BenchmarkAttr(b *testing.B) {
	f := mustCreate(b, tempPath(b, "attr.h5"))
	defer mustClose(b, f)
	root := f.Root()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := root.SetAttr("maxsize", int64(i)); err != nil {
			b.Fatal(err)
		}
		v, err := root.Attr("maxsize")
		if err != nil {
			b.Fatal(err)
		}
		sink = v
	}
}

// BenchmarkParallelRead reads from one file on all goroutines: calls are
// serialized by the package lock, so this shows its cost under contention.
func BenchmarkParallelRead(b *testing.B) {
	path := tempPath(b, "par.h5")
	f := mustCreate(b, path)
	if _, err := f.Root().WriteDataset("x", ramp[float32](1<<10), []int{1 << 10}); err != nil {
		b.Fatal(err)
	}
	mustClose(b, f)
	f = mustOpen(b, path)
	defer mustClose(b, f)
	b.SetBytes(4 << 10)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		root := f.Root()
		for pb.Next() {
			if _, _, err := root.ReadDataset("x"); err != nil {
				panic(fmt.Sprint(err))
			}
		}
	})
}
